"""One test per merge rule of Puppet's merge_strategy.rb, with Puppet's answers.

Every expected value and message here was produced by Puppet 7.23's own MergeStrategy;
tests/differential/test_merge_vs_puppet.py checks the same code against Puppet on random
data.  These name the rules, so that a regression says which one broke.
"""

from __future__ import annotations

import copy
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls.engine.merge import (
    _VALUE_TYPES,
    FIRST,
    MergeStrategy,
    _options_type,
    _plain_options,
    _plain_value,
    convert_first,
    merge_found,
    merge_pair,
    merge_single,
    parse_cached,
    parse_merge,
)
from hiera_ls.puppet.errors import MergeError
from hiera_ls.puppet.type_mismatch import describe_mismatch
from hiera_ls.puppet.values import RubySymbol, Sensitive

UNIQUE = MergeStrategy("unique")
HASH = MergeStrategy("hash")
DEEP = MergeStrategy("deep")


def deep(**options: object) -> MergeStrategy:
    s = parse_merge({"strategy": "deep", **options})
    assert s is not None
    return s


KO = deep(knockout_prefix="--")


def keys(value: object) -> list[object]:
    assert isinstance(value, dict)
    return list(value)


def types(value: object) -> list[type]:
    assert isinstance(value, list)
    return [type(v) for v in value]


def error(fn: object, *args: object) -> str:
    assert callable(fn)
    with pytest.raises(MergeError) as info:
        fn(*args)
    return str(info.value)


# ---------------------------------------------------------------------------- framework


def test_single_variant_is_identity_except_unique_uniqs_without_flattening() -> None:
    assert merge_single(UNIQUE, [1, 1, [2, 2], [2, 2]]) == [1, [2, 2]]
    assert merge_single(DEEP, [1, 1]) == [1, 1]
    assert merge_single(HASH, "str") == "str"


def test_first_of_several_is_converted_only_by_unique() -> None:
    assert convert_first(UNIQUE, [1, [1, [2]]]) == [1, 1, 2]  # flattened, not de-duplicated
    assert convert_first(UNIQUE, "x") == ["x"]
    assert convert_first(UNIQUE, {"a": 1}) == [{"a": 1}]
    assert convert_first(DEEP, [1, 1]) == [1, 1]


def test_one_found_value_is_never_type_checked() -> None:
    assert merge_found(HASH, ["a string"]) == "a string"
    assert merge_found(UNIQUE, [{"a": 1}]) == {"a": 1}


def test_unique_wraps_a_hash_at_highest_priority_but_rejects_it_later() -> None:
    assert merge_found(UNIQUE, [{}, "str"]) == [{}, "str"]
    assert error(merge_found, UNIQUE, ["str", {}]) == (
        "The second element of the merge has wrong type, expects a value of type Scalar or Array, "
        "got Hash"
    )


def test_unique_result_of_several_variants_keeps_duplicates_of_the_first() -> None:
    # a level with several variants of which only one is found converts without uniq
    assert convert_first(UNIQUE, [1, 1]) == [1, 1]
    assert merge_found(UNIQUE, [[1, 1]]) == [1]


def test_merge_found_runs_in_priority_order() -> None:
    assert merge_found(HASH, [{"a": 1}, {"a": 2, "b": 2}, {"c": 3}]) == {"c": 3, "a": 1, "b": 2}
    assert keys(merge_found(HASH, [{"a": 1}, {"a": 2, "b": 2}, {"c": 3}])) == ["c", "a", "b"]


# ---------------------------------------------------------------------------- first


def test_first_found_wins_including_null() -> None:
    assert merge_found(FIRST, [None, 1]) is None
    assert merge_found(FIRST, ["x", {"a": 1}]) == "x"


# ---------------------------------------------------------------------------- hash


def test_hash_is_lower_merge_higher_with_lower_keys_first() -> None:
    result = merge_pair(HASH, {"b": None, "c": 1}, {"a": 0, "b": 2})
    assert result == {"a": 0, "b": None, "c": 1}
    assert keys(result) == ["a", "b", "c"]


def test_hash_is_shallow() -> None:
    assert merge_pair(HASH, {"h": {"x": 1}}, {"h": {"y": 2}}) == {"h": {"x": 1}}


@pytest.mark.parametrize(
    ("value", "got"),
    [
        ("x", "String"),
        ([1], "Tuple"),
        (None, "Undef"),
        ([], "Array"),
        (1, "Integer"),
        (1.5, "Float"),
        (True, "Boolean"),
    ],
)
def test_hash_requires_hashes(value: object, got: str) -> None:
    assert error(merge_pair, HASH, {"a": 1}, value) == (
        f"The second element of the merge has wrong type, expects a Hash value, got {got}"
    )
    assert error(merge_pair, HASH, value, {"a": 1}).startswith("The first element of the merge")


def test_hash_requires_string_keys_and_data_values() -> None:
    assert error(merge_pair, HASH, {"a": 1}, {1: 2}) == (
        "The second element of the merge has wrong type, expects a Hash[String, Data] value, "
        "got Hash[Integer[1, 1], Integer[2, 2]]"
    )
    assert error(merge_pair, HASH, {"a": {1: 2}, "b": [{"x": {2: 3}}]}, {}) == (
        " The first element of the merge has wrong type, entry 'a' expects a Data value, got Hash\n"
        "  The first element of the merge has wrong type, entry 'b' variant 0 expects a ScalarData "
        "value, got Tuple\n"
        "  The first element of the merge has wrong type, entry 'b' variant 1 expects a Hash "
        "value, got Tuple\n"
        "  The first element of the merge has wrong type, entry 'b' variant 2 index 0 variant 0 "
        "expects a ScalarData value, got Struct\n"
        "  The first element of the merge has wrong type, entry 'b' variant 2 index 0 variant 1 "
        "entry 'x' expects a Data value, got Hash\n"
        "  The first element of the merge has wrong type, entry 'b' variant 2 index 0 variant 2 "
        "expects an Array value, got Struct"
    )


def test_hash_options_other_than_strategy_are_rejected() -> None:
    assert (
        error(parse_merge, {"strategy": "hash", "x": 1})
        == "The merge options has wrong type, unrecognized key 'x'"
    )


# ---------------------------------------------------------------------------- unique


def test_unique_flattens_and_unions_higher_first() -> None:
    assert merge_pair(UNIQUE, [[1, 2], 3], [3, [4]]) == [1, 2, 3, 4]
    assert merge_pair(UNIQUE, "a", "b") == ["a", "b"]


def test_unique_uses_ruby_eql() -> None:
    result = merge_pair(UNIQUE, [1, 1.0, {"a": 1}, True], [{"a": 1}, 1, True])
    assert types(result) == [int, float, dict, bool] and result == [1, 1.0, {"a": 1}, True]


@pytest.mark.parametrize(
    ("value", "got"),
    [(None, "Undef"), ({"a": 1}, "Struct"), ({}, "Hash"), ({1: 2}, "Hash"), ({"": 1}, "Hash")],
)
def test_unique_requires_scalars_or_arrays(value: object, got: str) -> None:
    assert error(merge_pair, UNIQUE, [], value) == (
        "The second element of the merge has wrong type, expects a value of type Scalar or Array, "
        f"got {got}"
    )


def test_unique_reports_bad_array_elements_per_index() -> None:
    assert error(merge_pair, UNIQUE, [{1: 2}, {"a": {1: "x"}}], []) == (
        " The first element of the merge has wrong type, variant 0 expects a Scalar value, got "
        "Tuple\n"
        "  The first element of the merge has wrong type, variant 1 index 0 expects a Data value, "
        "got Hash\n"
        "  The first element of the merge has wrong type, variant 1 index 1 variant 0 expects a "
        "ScalarData value, got Struct\n"
        "  The first element of the merge has wrong type, variant 1 index 1 variant 1 entry 'a' "
        "expects a Data value, got Hash\n"
        "  The first element of the merge has wrong type, variant 1 index 1 variant 2 expects an "
        "Array value, got Struct"
    )


# ---------------------------------------------------------------------------- deep


def test_deep_verified_top_level_examples() -> None:
    assert merge_pair(DEEP, [1, 1, 2], [3]) == [3, 1, 2]
    assert merge_pair(DEEP, "scalar", [9]) == "scalar"
    assert merge_pair(DEEP, {}, [1, 2]) == [1, 2]
    assert merge_pair(DEEP, None, {"p": 1}) == {"p": 1}
    assert merge_pair(KO, "--", [1, 2]) == ""


def test_deep_null_never_overrides_at_any_depth() -> None:
    assert merge_pair(DEEP, {"a": None}, {"a": 1}) == {"a": 1}
    assert merge_pair(DEEP, {"h": {"a": None}}, {"h": {"a": {"x": 1}}}) == {"h": {"a": {"x": 1}}}


def test_deep_null_is_stored_where_lower_has_nothing_or_false() -> None:
    assert merge_pair(DEEP, {"a": None}, {}) == {"a": None}
    assert merge_pair(DEEP, {"a": None}, {"a": False}) == {"a": None}


def test_deep_lower_false_counts_as_absent() -> None:
    assert merge_pair(DEEP, {"a": 1}, {"a": False}) == {"a": 1}
    assert merge_pair(DEEP, {"a": {}}, {"a": False}) == {"a": {}}


def test_deep_empty_hash_at_higher_leaves_lower_non_hash() -> None:
    assert merge_pair(DEEP, {"a": {}}, {"a": "s"}) == {"a": "s"}


def test_deep_key_order_is_lower_keys_then_new_higher_keys() -> None:
    result = merge_pair(DEEP, {"b": 1, "a": 2}, {"a": 0, "c": 3})
    assert keys(result) == ["a", "c", "b"] and result == {"a": 2, "c": 3, "b": 1}


def test_deep_array_union_is_lower_first_and_not_flattened() -> None:
    assert merge_pair(DEEP, {"a": [1, [2]]}, {"a": [[2], 0]}) == {"a": [[2], 0, 1]}
    result = merge_pair(DEEP, [1, 1.0], [1])
    assert types(result) == [int, float]


def test_deep_array_only_at_higher_is_deduplicated_only_at_lower_is_not() -> None:
    assert merge_pair(DEEP, {"a": [2, 2, 1]}, {"b": [3, 3]}) == {"b": [3, 3], "a": [2, 1]}
    assert merge_pair(deep(sort_merged_arrays=True), {"a": [2, 2, 1]}, {"b": [3, 3]}) == {
        "b": [3, 3],
        "a": [1, 2],
    }


def test_deep_sort_uses_ruby_ordering_and_errors() -> None:
    assert merge_pair(deep(sort_merged_arrays=True), ["b", "B"], ["a"]) == ["B", "a", "b"]
    assert (
        error(merge_pair, deep(sort_merged_arrays=True), [1, "a"], [2])
        == "comparison of Integer with String failed"
    )


def test_deep_merge_hash_arrays_merges_by_position() -> None:
    mha = deep(merge_hash_arrays=True)
    assert merge_pair(mha, [{"a": 1}], [{"b": 2}, {"c": 3}]) == [{"b": 2, "a": 1}, {"c": 3}]
    assert merge_pair(mha, [{"a": 1}, {"d": 4}], []) == [
        {"a": 1},
        {"d": 4},
    ]  # [] counts as all hashes
    assert merge_pair(mha, [{"a": 1}, 2], [{"b": 2}]) == [
        {"b": 2},
        {"a": 1},
        2,
    ]  # not all hashes: union


def test_deep_knockout_removes_strings_by_ruby_equality() -> None:
    assert merge_pair(KO, {"a": ["--1", "2"]}, {"a": ["1", 1, "3"]}) == {"a": [1, "3", "2"]}


def test_deep_bare_prefix_clears_the_lower_value() -> None:
    assert merge_pair(KO, ["--", "a"], [1, 2]) == ["a"]
    assert merge_pair(KO, ["--", "a"], {"x": 1}) == ["a"]
    assert merge_pair(KO, ["--", "a"], 5) == ["a"]


def test_deep_knockout_of_a_scalar_gives_empty_string_and_keys_stay_literal() -> None:
    assert merge_pair(KO, {"a": "--"}, {"a": [1, 2, 3]}) == {"a": ""}
    assert merge_pair(KO, {"a": "--foo"}, {"a": "x"}) == {"a": ""}
    assert merge_pair(KO, {"--a": 1}, {"a": 2}) == {"a": 2, "--a": 1}


def test_deep_knockout_prefix_is_an_unescaped_regex() -> None:
    assert merge_pair(deep(knockout_prefix="."), ["xa", "b"], ["a", "b", "c"]) == ["c"]
    assert (
        error(merge_pair, deep(knockout_prefix="("), ["(a"], ["a"])
        == "end pattern with unmatched parenthesis: /^(/"
    )
    assert (
        error(merge_pair, deep(knockout_prefix=""), None, 1)
        == "knockout_prefix cannot be an empty string in deep_merge!"
    )


def test_deep_array_with_bare_prefix_inside_a_hash_only_at_higher_is_emptied() -> None:
    # deep_merge merges such a hash into a shallow copy of itself, so the array is merged
    # into itself: clearing the copy's array clears the original too (Puppet answer).
    assert merge_pair(KO, {"h": {"a": ["--", 1]}}, {}) == {"h": {"a": []}}
    assert merge_pair(KO, {"a": ["--", 1]}, {}) == {"a": [1]}


def test_deep_hash_over_scalar_merges_later_keys_into_themselves() -> None:
    assert merge_pair(KO, {"a": 1, "b": ["--", "x"]}, "str") == {"a": 1, "b": []}
    assert merge_pair(KO, {"b": ["--", "x"], "a": 1}, "str") == {"b": ["--", "x"], "a": 1}


def test_deep_knockout_treats_nan_as_knocked_out() -> None:
    assert merge_pair(KO, [math.nan, "a"], ["b"]) == ["b", "a"]
    assert merge_pair(KO, math.nan, 1) == ""


def test_reverse_deep_swaps_priorities() -> None:
    reverse = parse_merge("reverse_deep")
    assert reverse is not None and reverse.name == "reverse_deep"
    assert merge_pair(reverse, {"a": [1]}, {"a": [2], "b": 1}) == {"a": [1, 2], "b": 1}


def test_merges_never_mutate_their_inputs() -> None:
    high = {"h": {"a": ["--", 1], "b": ["--1", "2"]}, "s": "--x"}
    low = {"h": {"b": ["1", "3"], "c": [{"x": 1}]}, "s": ["q"]}
    saved = copy.deepcopy((high, low))
    for strategy in (
        KO,
        deep(knockout_prefix="--", merge_hash_arrays=True, sort_merged_arrays=True),
        HASH,
    ):
        merge_pair(strategy, high, low)
    assert (high, low) == saved
    flat = [[1, [2]], 1]
    merge_pair(UNIQUE, flat, [3])
    merge_single(UNIQUE, flat)
    assert flat == [[1, [2]], 1]


# ---------------------------------------------------------------------------- merge argument


def test_parse_merge_forms() -> None:
    assert parse_merge(None) is None
    assert parse_merge("first") == FIRST
    assert parse_merge("default") == FIRST  # Puppet's default strategy is first-found
    assert parse_merge(False) == FIRST
    assert parse_merge({"strategy": "deep"}) == MergeStrategy("deep")
    assert parse_merge("unconstrained_deep") == MergeStrategy("deep")
    s = parse_merge(
        {
            "strategy": "deep",
            "knockout_prefix": "--",
            "sort_merged_arrays": True,
            "merge_hash_arrays": False,
        }
    )
    assert s is not None
    assert (s.name, s.knockout_prefix, s.sort_merged_arrays, s.merge_hash_arrays) == (
        "deep",
        "--",
        True,
        False,
    )
    assert dict(s.options) == {
        "knockout_prefix": "--",
        "sort_merged_arrays": True,
        "merge_hash_arrays": False,
    }
    assert list(s.options) == ["knockout_prefix", "sort_merged_arrays", "merge_hash_arrays"]


def test_parse_merge_keeps_explicit_nil_options_for_explain() -> None:
    s = parse_merge({"strategy": "deep", "knockout_prefix": None})
    assert (
        s is not None and dict(s.options) == {"knockout_prefix": None} and s.knockout_prefix is None
    )


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("bogus", "Unknown merge strategy: 'bogus'"),
        ("Deep", "Unknown merge strategy: 'Deep'"),
        (5, "Unknown merge strategy: '5'"),
        (["deep"], "Unknown merge strategy: '[\"deep\"]'"),
        ({"strategy": False}, "Unknown merge strategy: 'false'"),
        (
            {"a": 1},
            "The hash given as 'merge' must contain the name of a strategy in string form for the "
            "key 'strategy'",
        ),
        (
            {"strategy": None},
            "The hash given as 'merge' must contain the name of a strategy in string form for the "
            "key 'strategy'",
        ),
        ({"strategy": "deep", "x": 1}, "The merge options has wrong type, unrecognized key 'x'"),
        ({"strategy": "first", "x": 1}, "The merge options has wrong type, unrecognized key 'x'"),
        (
            {"strategy": "deep", "preserve_unmergeables": True},
            "The merge options has wrong type, unrecognized key 'preserve_unmergeables'",
        ),
        (
            {"strategy": "deep", "knockout_prefix": 1},
            "The merge options has wrong type, entry 'knockout_prefix' expects a value of type "
            "Undef or String, got Integer",
        ),
        (
            {"strategy": "deep", "sort_merged_arrays": "yes"},
            "The merge options has wrong type, entry 'sort_merged_arrays' expects a value of type "
            "Undef or Boolean, got String",
        ),
        (
            {"strategy": "deep", "knockout_prefix": 1, "x": 2},
            " The merge options has wrong type, entry 'knockout_prefix' expects a value of type "
            "Undef or String, got Integer\n"
            "  The merge options has wrong type, unrecognized key 'x'",
        ),
        (
            {"strategy": "deep", 1: 2},
            "The merge options has wrong type, expects a Struct[{'strategy' => "
            "Optional[Pattern[/deep/]], 'knockout_prefix' => Optional[String], 'merge_debug' => "
            "Optional[Boolean], 'merge_hash_arrays' => Optional[Boolean], 'sort_merged_arrays' => "
            "Optional[Boolean]}] value, got Hash[Variant[String, Integer[1, 1]], Variant[String, "
            "Integer[2, 2]]]",
        ),
        (
            {"strategy": "hash", 1: 2},
            "The merge options has wrong type, expects size to be at most 1, got 2",
        ),
        (
            {"strategy": "unconstrained_deep", "": 1},
            "The merge options has wrong type, expects a Hash[String[1], Any] value, "
            "got Hash[Enum['', 'strategy'], Variant[String, Integer[1, 1]]]",
        ),
    ],
)
def test_parse_merge_errors(spec: object, message: str) -> None:
    assert error(parse_merge, spec) == message


def test_unconstrained_deep_accepts_any_option() -> None:
    s = parse_merge({"strategy": "unconstrained_deep", "overwrite_arrays": True})
    assert s is not None and s.name == "unconstrained_deep"
    assert merge_pair(s, {"a": [1]}, {"a": [2]}) == {"a": [1]}


# A scalar of each kind Puppet's types tell apart, and values no plain check may accept
_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=4),
    st.sampled_from([RubySymbol("a"), RubySymbol("default"), Sensitive("s")]),
)
_KEYS = st.one_of(st.text(max_size=3), st.integers(0, 3), st.none(), st.just(RubySymbol("k")))
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=200, deadline=None)
@given(strategy=st.sampled_from(["hash", "unique"]), value=_VALUES)
def test_values_taken_without_the_type_system_are_the_ones_it_accepts(
    strategy: str, value: object
) -> None:
    """A merge decides plain values without Puppet's type system (a cold lookup then never
    loads it): never a value the type system would refuse."""
    expected = parse_cached(_VALUE_TYPES[strategy])
    if _plain_value(strategy, value):
        assert describe_mismatch("x", expected, value) == []


_OPTION_KEYS = st.sampled_from(
    ["strategy", "knockout_prefix", "merge_debug", "merge_hash_arrays", "sort_merged_arrays", ""]
)


@settings(max_examples=200, deadline=None)
@given(
    name=st.sampled_from(sorted({"first", "default", "unique", "hash", "deep", "reverse_deep"})),
    options=st.dictionaries(
        st.one_of(_OPTION_KEYS, _KEYS),
        st.one_of(_SCALARS, st.sampled_from(["deep", "hash", "deepish", "first"])),
        max_size=4,
    ),
)
def test_options_taken_without_the_type_system_are_the_ones_it_accepts(
    name: str, options: dict[object, object]
) -> None:
    if _plain_options(name, options):
        assert describe_mismatch("x", _options_type(name), options) == []


def test_plain_values_and_options_are_decided_without_the_type_system() -> None:
    assert _plain_value("hash", {"a": [1, 2.5, None, {"b": True}], "": "x"})
    assert _plain_value("unique", [1, ["a", {"b": None}]])
    assert _plain_value("unique", "a")
    assert _plain_options("deep", {"strategy": "deep", "knockout_prefix": "--"})
    assert _plain_options("hash", {"strategy": "hash"})
    # left to the type system, which words what is wrong
    assert not _plain_value("hash", {1: "a"})
    assert not _plain_value("unique", None)
    assert not _plain_value("unique", math.nan)
    assert not _plain_options("hash", {"strategy": "hash", "knockout_prefix": "--"})
