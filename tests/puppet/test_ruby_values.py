"""Ruby value semantics (puppet/ruby.py); every expected value is what Ruby 3.1 / Puppet 7.23
printed for the same input.  tests/differential/test_merge_vs_puppet.py checks them on random
data too."""

from __future__ import annotations

import math

import pytest

from hiera_ls.puppet.ruby import (
    ComparisonFailed,
    eql_key,
    rb_equal,
    ruby_compare,
    ruby_equal,
    ruby_sort,
    ruby_uniq,
)
from hiera_ls.puppet.ruby_text import inspect, puppet_string, to_s
from hiera_ls.puppet.type_format import format_type, simple_name
from hiera_ls.puppet.type_infer import infer_set, normalize
from hiera_ls.puppet.values import RubySymbol


def test_eql_tells_integer_float_and_boolean_apart() -> None:
    keys = {eql_key(1), eql_key(1.0), eql_key(True)}
    assert len(keys) == 3
    assert eql_key(0.0) == eql_key(-0.0)
    assert eql_key([1, {"a": 1, "b": 2}]) == eql_key(
        [1, {"b": 2, "a": 1}]
    )  # Hash order is not equality
    assert eql_key([1]) != eql_key([1.0])
    assert eql_key("x") != eql_key(RubySymbol("x"))


def test_uniq_keeps_first_occurrence_by_eql() -> None:
    out = ruby_uniq([1, True, 1.0, 1, {"a": 1}, {"a": 1}, math.nan, math.nan])
    assert [(type(v), v) for v in out[:4]] == [
        (int, 1),
        (bool, True),
        (float, 1.0),
        (dict, {"a": 1}),
    ]
    assert len(out) == 5 and math.isnan(out[4])  # type: ignore[arg-type]


def test_ruby_equal_equates_only_integer_with_float() -> None:
    assert ruby_equal(1, 1.0) and ruby_equal([1, {"a": 2}], [1.0, {"a": 2.0}])
    assert not ruby_equal(1, True) and not ruby_equal(0, False) and not ruby_equal(None, False)
    assert not ruby_equal("x", RubySymbol("x"))
    assert not ruby_equal(math.nan, math.nan)
    assert rb_equal(math.nan, math.nan)  # Psych hands out one NaN object, identical to itself


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1.0, "1.0"),
        (2.5, "2.5"),
        (1e20, "1.0e+20"),
        (1e16, "1.0e+16"),
        (1e15, "1.0e+15"),
        (1e14, "100000000000000.0"),
        (999999999999999.0, "999999999999999.0"),
        (1234567890123456.0, "1.234567890123456e+15"),
        (123456789012345.6, "123456789012345.6"),
        (1e-4, "0.0001"),
        (1e-5, "1.0e-05"),
        (0.00012, "0.00012"),
        (0.1 + 0.2, "0.30000000000000004"),
        (-0.0, "-0.0"),
        (math.inf, "Infinity"),
        (-math.inf, "-Infinity"),
        (math.nan, "NaN"),
        (5e-324, "5.0e-324"),
        (1.7976931348623157e308, "1.7976931348623157e+308"),
        (100.0, "100.0"),
        (1234567890123456.8, "1234567890123456.8"),
        (9999999999999998.0, "9.999999999999998e+15"),
        (4503599627370497.5, "4.503599627370498e+15"),
        (-2.5e-07, "-2.5e-07"),
        (123456789.12345679, "123456789.12345679"),
    ],
)
def test_float_to_s(value: float, text: str) -> None:
    assert to_s(value) == text
    assert inspect(value) == text


def test_to_s_of_each_kind() -> None:
    assert to_s(None) == ""
    assert to_s(True) == "true" and to_s(False) == "false"
    assert to_s(3) == "3" and to_s(10**20) == "100000000000000000000"
    assert to_s("plain") == "plain"
    assert to_s(["a", 1]) == '["a", 1]'
    assert to_s({"x": 1}) == '{"x"=>1}'
    assert to_s(RubySymbol("sym")) == "sym"
    assert to_s({"x": 1, RubySymbol("y"): [None, True, 1.5]}) == '{"x"=>1, :y=>[nil, true, 1.5]}'


def test_string_inspect_escapes() -> None:
    text = (
        'a"b\\c#{x}#$y#@z#a#\n\t\r\f\v\b\a\x1b\x01\x7f\x85\xa0\u200b\u2028é😀\U0010ffff\uffff\u0378'
    )
    assert inspect(text) == (
        '"a\\"b\\\\c\\#{x}\\#$y\\#@z#a#\\n\\t\\r\\f\\v\\b\\a\\e\\u0001\\u007F\x85\xa0\u200b\\u2028é😀\\u{10FFFF}\\uFFFF\\u0378"'
    )


def test_symbol_inspect() -> None:
    assert inspect([RubySymbol(n) for n in ["a", "a b", "a?", "+", "[]=", "@x", "9", ""]]) == (
        '[:a, :"a b", :a?, :+, :[]=, :@x, :"9", :""]'
    )


def test_inspect_of_a_cycle_does_not_recurse_forever() -> None:
    a: list[object] = [1]
    a.append(a)
    assert inspect(a) == "[1, [...]]"


def test_sort_orders_numbers_and_strings_like_ruby() -> None:
    assert ruby_sort([3, 1.5, 2, 10**20, -1]) == [-1, 1.5, 2, 3, 10**20]
    assert ruby_sort(["b", "B", "é", "a", ""]) == ["", "B", "a", "b", "é"]
    assert ruby_sort([[1, 2], [1], [0, 5]]) == [[0, 5], [1], [1, 2]]
    assert [type(v) for v in ruby_sort([1.0, 1])] == [float, int]  # stable
    assert ruby_sort([{}, {}]) == [{}, {}] and ruby_sort([None, None]) == [None, None]


@pytest.mark.parametrize(
    ("values", "message"),
    [
        (
            [3, "a", 1],
            "comparison of String with 1 failed",
        ),  # glibc merge sort compares ("a", 1) first
        (["a", 3], "comparison of String with 3 failed"),
        ([3, "a"], "comparison of Integer with String failed"),
        ([1, None], "comparison of Integer with nil failed"),
        ([None, 1], "comparison of NilClass with 1 failed"),
        (["a", 1.5], "comparison of String with 1.5 failed"),
        ([1, math.nan], "comparison of Integer with NaN failed"),
        ([True, False], "comparison of TrueClass with false failed"),
        ([[1, "a"], [1, 2]], "comparison of Array with Array failed"),
        ([{"a": 1}, {"b": 1}], "comparison of Hash with Hash failed"),
        (["a", RubySymbol("a")], "comparison of String with :a failed"),
        (["x", 10**20], "comparison of String with Integer failed"),
        ([4, 3, 2, 1, "a"], "comparison of Integer with String failed"),
    ],
)
def test_sort_failures_name_the_pair_ruby_compared(values: list[object], message: str) -> None:
    with pytest.raises(ComparisonFailed) as info:
        ruby_sort(values)
    assert str(info.value) == message


def test_compare_is_nil_across_kinds() -> None:
    assert ruby_compare(1, "1") is None and ruby_compare(1, True) is None
    assert ruby_compare({"a": 1}, {"a": 1.0}) == 0
    assert ruby_compare(RubySymbol("a"), RubySymbol("b")) == -1


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("s", "String"),
        (1, "Integer"),
        (10**30, "Integer"),
        (1.5, "Float"),
        (True, "Boolean"),
        (None, "Undef"),
        ([], "Array"),
        ([1, "a"], "Tuple"),
        ({}, "Hash"),
        ({"a": 1}, "Struct"),
        ({"a": {"b": [1]}}, "Struct"),
        ({1: 2}, "Hash"),
        ({"": 1}, "Hash"),
        (RubySymbol("x"), "Runtime"),
        (RubySymbol("default"), "Default"),
    ],
)
def test_type_name(value: object, name: str) -> None:
    assert simple_name(infer_set(value)) == name


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (
            {1: 2, 3: 4},
            "Hash[Variant[Integer[1, 1], Integer[3, 3]], Variant[Integer[2, 2], Integer[4, 4]], 2, "
            "2]",
        ),
        ({1: "x", 2: "y"}, "Hash[Integer[1, 2], Enum['x', 'y'], 2, 2]"),
        ({1: True, 2: False}, "Hash[Integer[1, 2], Variant[Boolean[true], Boolean[false]], 2, 2]"),
        ({1: 2, "a": None}, "Hash[Variant[Integer[1, 1], String], Optional[Integer[2, 2]], 2, 2]"),
        (
            {1.0e20: [1, "a", None, True, 1.5]},
            "Hash[Float[1.0e+20, 1.0e+20], Tuple[Integer[1, 1], String, Undef, Boolean[true], "
            "Float[1.5, 1.5]], 1, 1]",
        ),
        (
            {1: {"a": None, "it's": 1}},
            "Hash[Integer[1, 1], Struct[{NotUndef['a'] => Undef, 'it\\'s' => Integer[1, 1]}], 1, "
            "1]",
        ),
        # Puppet merges ranges in one pass from the last: 3 absorbs 2, and 1 stays apart
        (
            {1: math.inf, 2: [], 3: {}},
            "Hash[Variant[Integer[2, 3], Integer[1, 1]], Variant[Float[Infinity], Array[0, 0], "
            "Hash[0, 0]], 3, 3]",
        ),
    ],
)
def test_inferred_type_strings(value: object, text: str) -> None:
    assert format_type(normalize(infer_set(value))) == text


def test_puppet_string_formats_a_top_level_float_with_percent_f() -> None:
    """String(1.5) is '1.500000' in Puppet 7.23 (a Float's default format is %f), but a
    float inside a collection prints as %p: String([1.5]) is '[1.5]'."""
    assert puppet_string(1.5) == "1.500000"
    assert puppet_string(1e15) == "1000000000000000.000000"
    assert puppet_string([1.5, "a"]) == "[1.5, 'a']"
    assert puppet_string({"k": 1e15}) == "{'k' => 1.0e+15}"
    assert puppet_string(1.5, nested=True) == "1.5"
