"""``convert_to: Integer``, ``Float`` and ``Numeric``: Puppet's answers, as Puppet 7.23 and
8.10 gave them (tests/differential/test_cases_vs_puppet.py, the ``convert-to-a-number``
cases, asks them; these keep the rules in the quick loop)."""

from __future__ import annotations

import pytest

from hiera_ls.engine.convert import convert_to
from hiera_ls.puppet.errors import LookupFailure

CONVERTED = [
    ("Integer", "- 3", -3),  # a blank after the sign: Puppet retries without it
    ("Integer", "012", 10),  # Ruby's Integer(): a leading 0 is octal
    ("Integer", " 12", 12),
    ("Integer", "0X1F", 31),
    ("Float", "017", 17.0),  # Ruby's Float(): decimal
    ("Float", "0b11", 3.0),
    ("Float", "- 1.5", -1.5),
    ("Numeric", "017", 15),  # Puppet's to_n: octal
    ("Numeric", "-\t2", -2),
    ("Integer", {"from": "12"}, 12),
    ("Integer", {"from": "-12", "abs": True}, 12),
    ("Integer", {"from": "0b1", "radix": 16}, 177),
    ("Integer", {"from": "- 101", "radix": 2}, -5),
    ("Integer", {"from": 2.7, "radix": 16, "abs": True}, 2),
    ("Float", {"from": "-2.5", "abs": True}, 2.5),
    ("Numeric", {"from": "0x10"}, 16),
]

REFUSED = [
    ("Integer", "019", 'invalid value for Integer(): "019"'),
    ("Integer", "12 ", "'new' The string '12 ' cannot be converted to Integer"),
    ("Float", "1e+5", "'new_float' The string '1e+5' cannot be converted to Float"),
    ("Float", "-0b11", 'invalid value for Float(): "-0b11"'),
    ("Float", "0", "undefined method `casecmp' for nil:NilClass"),
    (
        "Numeric",
        "0e1",
        "Converted value from Numeric.new() has wrong type, expects a Numeric value, got Undef",
    ),
    ("Numeric", "1e400", "got Undef"),
    (
        "Integer",
        {"from": "ff", "radix": 16},
        "'new' The string 'ff' cannot be converted to Integer",
    ),
    ("Integer", {"from": "12", "radix": 3}, "Illegal radix: 3, expected 2, 8, 10, 16, or default"),
    ("Integer", {"from": "12", "radix": 2}, 'invalid value for Integer(): "12"'),
    ("Integer", {"from": "12", "b": 1}, "Integer.new has wrong type, unrecognized key 'b'"),
    ("Integer", {}, "Integer.new has wrong type, expects size to be between 1 and 3, got 0"),
    (
        "Integer",
        {"a": 1},
        " Integer.new has wrong type, expects a value for key 'from'\n"
        "  Integer.new has wrong type, unrecognized key 'a'",
    ),
    (
        "Integer",
        {"a": {}, 8080: True, "é": True},
        "Integer.new has wrong type, expects a NamedArgs = Struct[{'from' => Convertible = "
        "Variant[Numeric, Boolean, Pattern[/\\A[+-]?\\s*(?:(?:\\d+)|(?:0[xX][0-9A-Fa-f]+)|"
        "(?:0[bB][01]+))\\z/], Timespan, Timestamp], Optional['radix'] => Radix = "
        "Variant[Default, Integer[2, 2], Integer[8, 8], Integer[10, 10], Integer[16, 16]], "
        "Optional['abs'] => Boolean}] value, got Hash[Variant[Integer[8080, 8080], "
        "Enum['a', 'é']], Variant[Hash[0, 0], Boolean[true]]]",
    ),
    (
        "Integer",
        {"from": "12", "abs": "yes"},
        "Integer.new has wrong type, entry 'abs' expects a Boolean value, got String",
    ),
    ("Float", {"a": 1}, "'new_float' Value of type Hash[String, Integer] cannot be converted"),
    ("Numeric", {"from": "0e1", "abs": True}, "undefined method `abs' for nil:NilClass"),
]


@pytest.mark.parametrize(("type_name", "value", "expected"), CONVERTED)
def test_converted_as_puppet_converts(type_name: str, value: object, expected: object) -> None:
    got = convert_to("k", type_name, value)
    assert got.note is None
    assert got.value == expected
    assert type(got.value) is type(expected)


@pytest.mark.parametrize(("type_name", "value", "said"), REFUSED)
def test_refused_in_puppets_words(type_name: str, value: object, said: str) -> None:
    with pytest.raises(LookupFailure) as failed:
        convert_to("k", type_name, value)
    prefix = "The convert_to lookup_option for key 'k' raised error: "
    assert str(failed.value).startswith(prefix)
    assert said in str(failed.value)[len(prefix) :]
