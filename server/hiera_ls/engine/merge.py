"""Puppet's merge strategies (``first``, ``unique``, ``hash``, ``deep``) with their quirks.

``deep`` runs the deep_merge gem's algorithm, mirrored step by step in ``deep_merge.py``.

Type errors reproduce Puppet's TypeMismatchDescriber for the two constrained value types
(``Hash[String, Data]`` for ``hash``, ``Variant[Scalar, Array[Data]]`` for ``unique``),
including its per-entry reports, because those texts are what a user sees on a bad merge.

Spec: Puppet's puppet/pops/merge_strategy.rb and deep_merge; checked against Puppet 7.23 by
``tests/differential/test_merge_vs_puppet.py``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType
from typing import TYPE_CHECKING

from hiera_ls.engine.deep_merge import DeepMergeOptions, deep_merge
from hiera_ls.puppet.errors import MergeError, RubyError
from hiera_ls.puppet.ruby import (
    ruby_flatten,
    ruby_uniq,
    truthy,
)
from hiera_ls.puppet.ruby_text import to_s
from hiera_ls.puppet.values import RubySymbol

if TYPE_CHECKING:
    from hiera_ls.puppet.types import PType


def _no_options() -> Mapping[str, object]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class MergeStrategy:
    """A merge strategy as Puppet resolves it.

    ``name`` is what explain prints after ``Merge strategy``: ``first``, ``unique``, ``hash``
    or ``deep``; also ``unconstrained_deep`` (deep with any deep_merge option, only when
    options are given) and ``reverse_deep`` (deep with the priorities swapped), which Puppet
    keeps for Hiera 3 and which lookup_options may name.  ``default`` resolves to ``first``.
    ``options`` are the options as given, without ``strategy`` (explain prints them).
    """

    name: str
    knockout_prefix: str | None = None
    sort_merged_arrays: bool = False
    merge_hash_arrays: bool = False
    options: Mapping[str, object] = field(default_factory=_no_options, hash=False)


FIRST = MergeStrategy("first")
_INSTANCES = {
    "first": FIRST,
    "default": FIRST,
    "unique": MergeStrategy("unique"),
    "hash": MergeStrategy("hash"),
    "deep": MergeStrategy("deep"),
    "unconstrained_deep": MergeStrategy("deep"),
    "reverse_deep": MergeStrategy("reverse_deep"),
}
_DEEP_FAMILY = frozenset({"deep", "unconstrained_deep", "reverse_deep"})
_UNCONSTRAINED = frozenset({"unconstrained_deep", "reverse_deep"})

# ---------------------------------------------------------------------------- parse_merge

_DEEP_OPTION_KINDS = (
    ("strategy", "pattern"),
    ("knockout_prefix", "string"),
    ("merge_debug", "boolean"),
    ("merge_hash_arrays", "boolean"),
    ("sort_merged_arrays", "boolean"),
)


def parse_merge(spec: object) -> MergeStrategy | None:
    """Puppet's MergeStrategy.strategy: a name, or a hash with ``strategy`` and options.

    None means "no merge given" (the caller falls back to lookup_options, then ``first``);
    ``false`` is Puppet's default strategy, which behaves as ``first``.
    """
    if spec is None:
        return None
    if spec is False:
        return FIRST
    if isinstance(spec, MergeStrategy):
        return spec
    if isinstance(spec, dict):
        strategy = spec.get("strategy")
        if strategy is None:
            raise MergeError(
                "The hash given as 'merge' must contain the name of a strategy in string form for "
                "the key 'strategy'"
            )
        options: dict[object, object] = {} if len(spec) == 1 else spec
    else:
        strategy = spec
        options = {}
    name = (
        strategy
        if isinstance(strategy, str)
        else strategy.name
        if isinstance(strategy, RubySymbol)
        else None
    )
    if name is None or name not in _INSTANCES:
        raise RubyError(f"Unknown merge strategy: '{to_s(strategy)}'")
    if not options:
        return _INSTANCES[name]
    _validate_options(name, options)
    given: dict[str, object] = {str(k): v for k, v in options.items() if k != "strategy"}
    kp = given.get("knockout_prefix")
    return MergeStrategy(
        name=name,
        knockout_prefix=kp if isinstance(kp, str) else None,
        sort_merged_arrays=truthy(given.get("sort_merged_arrays")),
        merge_hash_arrays=truthy(given.get("merge_hash_arrays")),
        options=MappingProxyType(given),
    )


def _validate_options(name: str, options: dict[object, object]) -> None:
    """The options type check (MergeStrategy#initialize), with the describer's messages."""
    if not _plain_options(name, options):
        _assert_type("The merge options has wrong type,", _options_type(name), options)


def _plain_options(name: str, options: dict[object, object]) -> bool:
    """Options of plain Strings and Booleans that the options type surely accepts, decided
    without Puppet's type system (which a plain `hiera-ls lookup` then never loads); false
    sends the options to the full check, which says what is wrong."""
    if name in _UNCONSTRAINED:  # Hash[String[1], Any]
        return all(type(k) is str and k for k in options)
    kinds = dict(_DEEP_OPTION_KINDS) if name == "deep" else {"strategy": "pattern"}
    for key, value in options.items():
        kind = kinds.get(key) if type(key) is str else None
        if kind is None:
            return False
        if value is None:
            continue
        if kind == "pattern" and not (type(value) is str and name in value):
            return False  # Pattern[/name/] (Pattern[deep] for deep): a String holding it
        if kind == "string" and type(value) is not str:
            return False
        if kind == "boolean" and type(value) is not bool:
            return False
    return True


@cache
def _options_type(name: str) -> PType:
    """MergeStrategy.options_t of each strategy (lib/puppet/pops/merge_strategy.rb)."""
    from hiera_ls.puppet.type_parser import parse_type

    if name in _UNCONSTRAINED:
        return parse_type("Hash[String[1], Any]")
    if name == "deep":
        return parse_type(
            "Struct[{strategy => Optional[Pattern[deep]], knockout_prefix => Optional[String],"
            " merge_debug => Optional[Boolean], merge_hash_arrays => Optional[Boolean],"
            " sort_merged_arrays => Optional[Boolean]}]"
        )
    return parse_type(f"Struct[{{strategy => Optional[Pattern[/{name}/]]}}]")


_VALUE_TYPES = {"hash": "Hash[String, Data]", "unique": "Variant[Scalar, Array[Data]]"}


def _assert_type(subject: str, expected: PType, value: object) -> None:
    from hiera_ls.puppet.type_mismatch import describe_mismatch, render_text

    mismatches = describe_mismatch(subject, expected, value)
    if mismatches:
        raise MergeError(render_text(mismatches))


def _check(strategy: str, ordinal: str, value: object) -> None:
    """MergeStrategy#merge's assert_type for the strategies whose value type is not Any."""
    if _plain_value(strategy, value):
        return
    subject = f"The {ordinal} element of the merge has wrong type,"
    _assert_type(subject, parse_cached(_VALUE_TYPES[strategy]), value)


def _plain_value(strategy: str, value: object) -> bool:
    """A value the strategy's value type surely accepts, decided without Puppet's type
    system: for ``hash`` a Hash of String keys and Data, for ``unique`` a Scalar or an
    Array of Data. False sends the value to the full check (which may yet accept it)."""
    if strategy == "hash":
        return type(value) is dict and _plain_data(value)
    if type(value) is list:
        return _plain_data(value)
    return value is not None and _plain_scalar(value)


def _plain_scalar(value: object) -> bool:
    """ScalarData or undef of exactly Python's plain types (a NaN is no Float instance)."""
    kind = type(value)
    if kind is float:
        return math.isfinite(value)  # type: ignore[arg-type]
    return value is None or kind is str or kind is int or kind is bool


def _plain_data(value: object) -> bool:
    """Data (``Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]``) made only of
    Python's plain types; walked without recursion, each collection once (YAML aliases share
    them)."""
    seen: set[int] = set()
    stack = [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind is dict or kind is list:
            if id(item) in seen:
                continue
            seen.add(id(item))
            if kind is dict:
                assert isinstance(item, dict)
                if not all(type(k) is str for k in item):
                    return False
                stack.extend(item.values())
            else:
                assert isinstance(item, list)
                stack.extend(item)
        elif not _plain_scalar(item):
            return False
    return True


@cache
def parse_cached(text: str) -> PType:
    from hiera_ls.puppet.type_parser import parse_type

    return parse_type(text)


# ---------------------------------------------------------------------------- the strategies


def merge_single(s: MergeStrategy, value: object) -> object:
    """A level with exactly one variant: ``unique`` de-duplicates an array, others keep it."""
    if s.name == "unique" and isinstance(value, list):
        return ruby_uniq(value)
    return value


def convert_first(s: MergeStrategy, value: object) -> object:
    """The first found value of a level with several variants: ``unique`` flattens/wraps it."""
    if s.name == "unique":
        return ruby_flatten(value) if isinstance(value, list) else [value]
    return value


def merge_pair(s: MergeStrategy, memo: object, lower: object) -> object:
    """Combine the higher-priority accumulation ``memo`` with the next found value."""
    if s.name == "hash":
        _check("hash", "first", memo)
        _check("hash", "second", lower)
        assert isinstance(memo, dict) and isinstance(lower, dict)
        result = dict(lower)
        result.update(memo)
        return result
    if s.name == "unique":
        _check("unique", "first", memo)
        _check("unique", "second", lower)
        return ruby_uniq([*_as_flat_list(memo), *_as_flat_list(lower)])
    if s.name in _DEEP_FAMILY:
        opts = _deep_options(s)
        if s.name == "reverse_deep":
            memo, lower = lower, memo
        return deep_merge(opts, memo, lower)
    return memo


def merge_found(s: MergeStrategy, values: Sequence[object]) -> object:
    """The per-level framework of MergeStrategy#lookup over the found values of one level, highest
    priority first.
    """
    if not values:
        raise ValueError("merge_found needs at least one value")
    if s.name == "first":
        return values[0]
    if len(values) == 1:
        return merge_single(s, values[0])
    memo = convert_first(s, values[0])
    for value in values[1:]:
        memo = merge_pair(s, memo, value)
    return memo


def _as_flat_list(value: object) -> list[object]:
    return ruby_flatten(value) if isinstance(value, list) else [value]


def _deep_options(s: MergeStrategy) -> DeepMergeOptions:
    if s.name not in _UNCONSTRAINED:
        return DeepMergeOptions(s.knockout_prefix, s.sort_merged_arrays, s.merge_hash_arrays)
    o = s.options
    knockout = o.get("knockout_prefix")
    return DeepMergeOptions(
        knockout=knockout if truthy(knockout) else None,
        sort_merged_arrays=truthy(o.get("sort_merged_arrays")),
        merge_hash_arrays=truthy(o.get("merge_hash_arrays")),
        overwrite_unmergeable=not truthy(o.get("preserve_unmergeables")),
        overwrite_arrays=truthy(o.get("overwrite_arrays")),
        unpack_arrays=o.get("unpack_arrays") if truthy(o.get("unpack_arrays")) else None,
        extend_existing_arrays=truthy(o.get("extend_existing_arrays")),
    )
