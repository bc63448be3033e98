"""The data hash yaml_data / json_data give a lookup: errors, per-key errors, symbol keys."""

from __future__ import annotations

import pytest

from hiera_ls.puppet.type_format import format_type
from hiera_ls.puppet.type_infer import infer
from hiera_ls.puppet.values import RubySymbol
from hiera_ls.source.data_file import DataFile, load_json_data, load_yaml_data
from hiera_ls.source.spans import Problem, Severity, Span

F = "/env/data/common.yaml"


def yaml(text: str) -> DataFile:
    return load_yaml_data(F, text)


def test_a_hash_is_the_data() -> None:
    df = yaml("a: 1\nb: [x]\n")
    assert df.data == {"a": 1, "b": ["x"]} and df.error is None and df.key_errors == {}
    assert df.nodes[("b", 0)].value == Span.of(1, 4, 1, 5)


@pytest.mark.parametrize("text", ["", "# c\n", "---\n", "~\n", "false\n", "no\n"])
def test_empty_files_warn_and_give_an_empty_hash(text: str) -> None:
    df = yaml(text)
    assert df.data == {} and df.error is None
    empty = [p for p in df.problems if p.code == "data-empty-file"]
    assert len(empty) == 1
    assert empty[0].message == f"{F}: file does not contain a valid yaml hash"
    assert empty[0].severity is Severity.WARNING


@pytest.mark.parametrize("text", ["- 1\n", "just text\n", "42\n", "true\n", ":sym\n"])
def test_other_top_levels_fail_under_strict_error(text: str) -> None:
    df = yaml(text)
    assert df.data == {} and df.error == f"{F}: file does not contain a valid yaml hash"
    assert [p.code for p in df.problems] == ["data-not-a-hash"]


def test_parse_errors_fail_every_lookup() -> None:
    df = yaml("a: 2024-01-01\n")
    assert (
        df.data == {}
        and df.error == f"Unable to parse ({F}): Tried to load unspecified class: Date"
    )
    assert [p.code for p in df.problems] == ["yaml-date-rejected"]


def test_symbol_keys_become_strings_at_every_depth() -> None:
    df = yaml(":a: 1\nb:\n  :c: :d\n  e:\n    - :f: 2\n")
    assert df.data == {"a": 1, "b": {"c": RubySymbol("d"), "e": [{"f": 2}]}}
    assert ("b", "e", 0, "f") in df.nodes and ("a",) in df.nodes
    assert "yaml-symbol-key" in [p.code for p in df.problems]


def test_symbol_values_and_bad_keys_poison_only_their_top_level_key() -> None:
    df = yaml(
        "a: :sym\nb: [1, {true: 2}]\nc: !ruby/sym default\nd: :undef\ne: fine\nf: {x: {~: 1}}\n"
    )
    assert set(df.key_errors) == {"a", "b", "f"}
    assert df.key_errors["a"].plain == (
        "Value for key 'a', in hash returned from data_hash function 'yaml_data', when using "
        f"location '{F}', has wrong type, expects Puppet::LookupValue, got Runtime[ruby, 'Symbol']"
    )
    assert df.key_errors["b"].plain.endswith("got Array[Any, 2, 2]")
    assert df.key_errors["f"].plain.endswith(
        "got Hash[String, Hash[Undef, Integer[1, 1], 1, 1], 1, 1]"
    )
    first: dict[str, Problem] = {}
    for p in df.problems:
        first.setdefault(p.code, p)
    assert first["yaml-symbol-value"].where.span == Span.of(0, 3, 0, 7)
    assert first["data-bad-key-type"].where.span == Span.of(1, 8, 1, 12)


def test_non_string_top_level_keys_are_unreachable() -> None:
    df = yaml("yes: 1\n6: 2\nok: 3\n")
    assert df.data == {True: 1, 6: 2, "ok": 3}
    assert df.key_errors == {}
    assert [p.code for p in df.problems] == [
        "yaml11-boolean",
        "data-unreachable-key",
        "data-unreachable-key",
    ]


def test_json_data() -> None:
    df = load_json_data("/d/x.json", '{"a": {"b": [1, 2.5]}}')
    assert df.data == {"a": {"b": [1, 2.5]}} and df.error is None
    assert (
        load_json_data("/d/x.json", "").error
        == "Unable to parse (/d/x.json): 859: unexpected token at ''"
    )
    assert load_json_data("/d/x.json", "[1]").error == (
        "Value returned from data_hash function 'json_data', when using location '/d/x.json', "
        "has wrong type, expects a Hash value, got Tuple"
    )
    # Puppet infers an empty array as Array (Array[0, 0]), not Tuple
    assert load_json_data("/d/x.json", "[]").error == (
        "Value returned from data_hash function 'json_data', when using location '/d/x.json', "
        "has wrong type, expects a Hash value, got Array"
    )


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (["a", "b"], "Array[Enum['a', 'b'], 2, 2]"),
        (["b", "a", "b"], "Array[Enum['a', 'b'], 3, 3]"),
        ([1, 2.5], "Array[Numeric, 2, 2]"),
        ([1, "a"], "Array[ScalarData, 2, 2]"),
        ([None, 1], "Array[Integer[1, 1], 2, 2]"),
        ([], "Array[0, 0]"),
        ({}, "Hash[0, 0]"),
        ([[1], [2]], "Array[Array[Integer[1, 2]], 2, 2]"),
        ([{"a": 1}, [1]], "Array[Data, 2, 2]"),
        ([RubySymbol("s"), 1], "Array[Any, 2, 2]"),
        ([[RubySymbol("s")], [1, 2]], "Array[Array, 2, 2]"),
        ([RubySymbol("default"), [1]], "Array[RichData, 2, 2]"),
        ([{}, {"a": 1}], "Array[Hash[String, Integer[1, 1]], 2, 2]"),
        ([1.0e16, -2.5e-7], "Array[Float[-2.5e-07, 1.0e+16], 2, 2]"),
        ([float("inf"), 1.0], "Array[Float[1.0], 2, 2]"),
        ([float("-inf")], "Array[Float[default, -Infinity], 1, 1]"),
        ({1: "a", 2.5: "b"}, "Hash[Numeric, Enum['a', 'b'], 2, 2]"),
        ([{"a": [RubySymbol("s")]}, {"b": 1}], "Array[Hash[Enum['a', 'b'], Any], 2, 2]"),
        (["it's", "c\\d"], "Array[Enum['c\\d', 'it\\'s'], 2, 2]"),
    ],
)
def test_inferred_types_print_as_puppet_prints_them(value: object, text: str) -> None:
    """Expected texts are Puppet 7.23's TypeCalculator#infer output for the same values."""
    assert format_type(infer(value)) == text
