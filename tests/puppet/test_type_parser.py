"""Type expression text as class parameters and type aliases write it.

The printed texts are what Puppet 7.23's TypeParser + ``to_s`` give for the same text;
tests/differential/test_types_vs_puppet.py compares many more against Puppet itself.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hiera_ls.puppet.type_assignable import assignable
from hiera_ls.puppet.type_format import format_type
from hiera_ls.puppet.type_infer import infer_set, instance_of
from hiera_ls.puppet.type_mismatch import describe_mismatch, render
from hiera_ls.puppet.type_parser import TypeExpressionError, parse_type
from hiera_ls.puppet.types import (
    AliasType,
    NotUndefType,
    OptionalType,
    TypeReferenceType,
    VariantType,
    resolve_aliases,
)

MODULE_TYPES = {
    "Stdlib::Port": "Integer[0, 65535]",
    "Stdlib::Host": "Variant[Stdlib::Fqdn, Stdlib::IP::Address]",
    "Stdlib::Fqdn": r"Pattern[/\A(([a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9\-]*[a-zA-Z0-9])\.)*[a-z]+\z/]",
    "Stdlib::IP::Address": r"Pattern[/\A[0-9.]+\z/]",
    "Tree": "Hash[String, Variant[Integer, Tree]]",
    "Loop::A": "Loop::B",
    "Loop::B": "Loop::A",
    "Broken": "Integer[",
}


def resolve(name: str) -> str | None:
    return MODULE_TYPES.get(name)


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("Optional[Hash[String, Integer]]", "Optional[Hash[String, Integer]]"),
        ("Enum['a', \"b\"]", "Enum['a', 'b']"),
        ("Enum[b, a, a]", "Enum['a', 'b']"),
        (r"Pattern[/^x\/y$/]", r"Pattern[/^x\/y$/]"),
        ("Variant[Integer[1,65535], Undef]", "Variant[Integer[1, 65535], Undef]"),
        (
            "Struct[{Optional['a'] => Integer, b => String, c => Optional[String]}]",
            "Struct[{Optional['a'] => Integer, 'b' => String, 'c' => Optional[String]}]",
        ),
        (
            "Struct[{NotUndef['c'] => Optional[String]}]",
            "Struct[{NotUndef['c'] => Optional[String]}]",
        ),
        ("Integer[default, 10]", "Integer[default, 10]"),
        ("Integer[-5]", "Integer[-5]"),
        ("Float[0.5, 2]", "Float[0.5, 2.0]"),
        ("String[1]", "String[1]"),
        ("Array[String, 1]", "Array[String, 1]"),
        ("Array[1, 3]", "Array[Default, 1, 3]"),
        ("Tuple[Integer, String, 1, default]", "Tuple[Integer, String, 1]"),
        ("Hash[String[1], Any, 0, 0]", "Hash[0, 0]"),
        ("Variant[Integer, Integer]", "Integer"),
        ("Sensitive[String]", "Sensitive[String]"),
        ("Type[Integer]", "Type[Integer]"),
        ("Callable[[String], Integer]", "Callable[[String], Integer]"),
        ("SemVer['>=1.0.0']", "SemVer['>=1.0.0']"),
        ("Object", "Object[{}]"),
        ("Foo::Bar", "TypeReference['Foo::Bar']"),
        ("Data", "Data"),
        ("Stdlib::Port", "Stdlib::Port = Integer[0, 65535]"),
        ("Array[Stdlib::Port, 1]", "Array[Stdlib::Port, 1]"),
        ("Tree", "Tree = Hash[String, Variant[Integer, Tree]]"),
    ],
)
def test_type_text_prints_as_puppet_prints_it(text: str, printed: str) -> None:
    assert format_type(parse_type(text, resolve)) == printed


@pytest.mark.parametrize(
    ("text", "message", "position"),
    [
        ("Integer[", "expected ']', found end of text", 8),
        ("Array[String,", "expected ']', found end of text", 13),
        ("Hash[String, Integer", "expected ',' or ']', found end of text", 20),
        ("Integer]", "unexpected ']' after the type", 7),
        ("Integer[10, 1]", "Integer range: 'from' must be less or equal to 'to'", 0),
        ("Enum[1]", "Enum parameters must be strings, got 1", 0),
        ("Struct[{'' => Integer}]", "Struct element key cannot be an empty String", 0),
        ("Integer ? 1", "unexpected character '?'", 8),
        ("Broken", "in type alias Broken: expected ']', found end of text", 0),
        (
            "Loop::A",
            "in type alias Loop::A: type alias Loop::B cannot be resolved to a real type",
            0,
        ),
    ],
)
def test_bad_text_is_reported_with_its_position(text: str, message: str, position: int) -> None:
    with pytest.raises(TypeExpressionError) as caught:
        parse_type(text, resolve)
    assert (caught.value.message, caught.value.position) == (message, position)


def test_a_recursive_alias_resolves_without_looping() -> None:
    tree = parse_type("Tree", resolve)
    assert isinstance(tree, AliasType)
    assert instance_of(tree, {"a": 1, "b": {"c": {"d": 2}}})
    assert not instance_of(tree, {"a": {"b": "x"}})
    assert instance_of(parse_type("Array[Tree]", resolve), [{"a": 1}, {}])


def test_aliases_of_modules_check_values() -> None:
    host = parse_type("Stdlib::Host", resolve)
    assert instance_of(host, "www.example.com") and instance_of(host, "10.0.0.1")
    assert not instance_of(host, "-bad-")
    port = parse_type("Variant[Stdlib::Port, Undef]", resolve)
    assert instance_of(port, None) and instance_of(port, 443) and not instance_of(port, 65536)


def test_an_unknown_name_without_a_resolver_is_a_type_reference() -> None:
    assert parse_type("Stdlib::Port") == TypeReferenceType("Stdlib::Port")
    assert (
        render(describe_mismatch("V has wrong type,", parse_type("Stdlib::Port"), 1))
        == "V has wrong type, references an unresolved type 'Stdlib::Port'"
    )


@pytest.mark.parametrize(
    ("text", "value", "message"),
    [
        (
            "Integer[1, 65535]",
            70000,
            "V has wrong type, expects an Integer[1, 65535] value, got Integer[70000, 70000]",
        ),
        ("Integer[1, 65535]", "x", "V has wrong type, expects an Integer value, got String"),
        (
            "Optional[String]",
            1,
            "V has wrong type, expects a value of type Undef or String, got Integer",
        ),
        (
            "Struct[{name => String, Optional['port'] => Integer}]",
            {"port": "x", "extra": 1},
            " V has wrong type, expects a value for key 'name'\n"
            "  V has wrong type, entry 'port' expects an Integer value, got String\n"
            "  V has wrong type, unrecognized key 'extra'",
        ),
        (
            "Array[Integer]",
            [1, "a"],
            "V has wrong type, index 1 expects an Integer value, got String",
        ),
        ("Array[Integer, 2]", [1], "V has wrong type, expects size to be at least 2, got 1"),
        ("Hash[String, Integer, 1]", {}, "V has wrong type, expects size to be at least 1, got 0"),
        (
            "Stdlib::Port",
            "80",
            "V has wrong type, expects a Stdlib::Port = Integer[0, 65535] value, got String",
        ),
    ],
)
def test_mismatches_are_worded_as_puppet_words_them(text: str, value: object, message: str) -> None:
    assert (
        render(describe_mismatch("V has wrong type,", parse_type(text, resolve), value)) == message
    )


_SCALAR_TYPES = [
    "Integer",
    "Integer[1, 65535]",
    "Float",
    "Numeric",
    "String",
    "String[1]",
    "Boolean",
    "Enum['a', 'b']",
    "Pattern[/a/]",
    "Regexp",
    "Undef",
    "Default",
    "Scalar",
    "ScalarData",
    "Optional[Integer]",
    "Variant[Integer, Enum['a']]",
    "NotUndef[String]",
    "Stdlib::Port",
]
_LEAVES = st.none() | st.booleans() | st.integers(-3, 70000) | st.text(alphabet="ab", max_size=2)
_DATA = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from("ab"), inner),
    max_leaves=8,
)


@given(st.sampled_from(_SCALAR_TYPES), _DATA)
def test_a_value_is_an_instance_when_its_inferred_type_is_assignable(
    text: str, value: object
) -> None:
    """instance_of answers a list or hash given to a scalar type without inferring it, and a
    mismatch's description infers the value once: the answers are the definition's."""
    t = parse_type(text, resolve)
    expected = resolve_aliases(t)
    if isinstance(expected, OptionalType):
        assert instance_of(t, value) == (value is None or instance_of(expected.type, value))
    elif not isinstance(expected, VariantType | NotUndefType):
        assert instance_of(t, value) == assignable(expected, infer_set(value))
    found = describe_mismatch("V has wrong type,", t, value)
    assert (found == []) == instance_of(t, value)
    if found and isinstance(value, list | dict):
        assert render(found).startswith("V has wrong type, expects")
