"""Puppet's merge strategies (``first``, ``unique``, ``hash``, ``deep``) with their quirks.

Puppet implements ``deep`` with the deep_merge gem, which mutates its arguments in place and
sometimes merges a value *into itself* (a key found only at the higher priority is merged
with a shallow copy of its own value).  Several visible results come from that aliasing:
e.g. inside a hash that exists only at the higher level, an array holding the bare knockout
prefix is emptied, not just stripped of the prefix.  So :class:`_DeepMerge` mirrors the gem
step by step on private copies of both arguments (``Array#delete_if`` included, whose result
depends on the array shrinking under it), and the callers' values are never touched.

Type errors reproduce Puppet's TypeMismatchDescriber for the two constrained value types
(``Hash[String, Data]`` for ``hash``, ``Variant[Scalar, Array[Data]]`` for ``unique``),
including its per-entry reports, because those texts are what a user sees on a bad merge.

Spec: Puppet's puppet/pops/merge_strategy.rb and deep_merge; checked against Puppet 7.23 by
``tests/differential/test_merge_vs_puppet.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import MappingProxyType

import regex

from hiera_ls.puppet.regexp import ruby_regex_source
from hiera_ls.puppet.ruby import (
    ComparisonFailed,
    rb_equal,
    ruby_equal,
    ruby_flatten,
    ruby_sort,
    ruby_uniq,
    truthy,
)
from hiera_ls.puppet.ruby_text import inspect, ruby_class, to_s
from hiera_ls.puppet.type_mismatch import describe_mismatch, render
from hiera_ls.puppet.type_parser import parse_type
from hiera_ls.puppet.types import PType
from hiera_ls.puppet.values import RubySymbol

KNOCKOUT_TIMEOUT_S = 0.05


class MergeError(Exception):
    """A failed merge or a bad merge specification; ``str(e)`` is Puppet's message.

    ``puppet_error`` is False for Ruby's own errors (ArgumentError, TypeError,
    RegexpError): Puppet's recursion guard converts only Puppet::Error into a lookup
    error, so only those get the ``Lookup of key ... failed`` wrapper.
    """

    puppet_error = True

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class RubyError(MergeError):
    """A Ruby error raised while merging (not a Puppet::Error)."""

    puppet_error = False


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
                "The hash given as 'merge' must contain the name of a strategy in string form for the key 'strategy'"
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
    _assert_type("The merge options has wrong type,", _options_type(name), options)


@cache
def _options_type(name: str) -> PType:
    """MergeStrategy.options_t of each strategy (lib/puppet/pops/merge_strategy.rb)."""
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
    mismatches = describe_mismatch(subject, expected, value)
    if mismatches:
        raise MergeError(render(mismatches))


def _check(strategy: str, ordinal: str, value: object) -> None:
    """MergeStrategy#merge's assert_type for the strategies whose value type is not Any."""
    subject = f"The {ordinal} element of the merge has wrong type,"
    _assert_type(subject, parse_cached(_VALUE_TYPES[strategy]), value)


@cache
def parse_cached(text: str) -> PType:
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
        return _DeepMerge(opts).merge(_clone(memo), _clone(lower))
    return memo


def merge_found(s: MergeStrategy, values: Sequence[object]) -> object:
    """The per-level framework of MergeStrategy#lookup over the found values of one level, highest priority first."""
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


def _clone(value: object) -> object:
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


# ---------------------------------------------------------------------------- deep_merge


@dataclass(frozen=True, slots=True)
class _DeepOptions:
    """The deep_merge options Puppet passes (unconstrained_deep passes any of them)."""

    knockout: object = None  # nil/false: off.  Any other value is a prefix (its to_s).
    sort_merged_arrays: bool = False
    merge_hash_arrays: bool = False
    overwrite_unmergeable: bool = True
    overwrite_arrays: bool = False
    unpack_arrays: object = None
    extend_existing_arrays: bool = False


def _deep_options(s: MergeStrategy) -> _DeepOptions:
    if s.name not in _UNCONSTRAINED:
        return _DeepOptions(s.knockout_prefix, s.sort_merged_arrays, s.merge_hash_arrays)
    o = s.options
    knockout = o.get("knockout_prefix")
    return _DeepOptions(
        knockout=knockout if truthy(knockout) else None,
        sort_merged_arrays=truthy(o.get("sort_merged_arrays")),
        merge_hash_arrays=truthy(o.get("merge_hash_arrays")),
        overwrite_unmergeable=not truthy(o.get("preserve_unmergeables")),
        overwrite_arrays=truthy(o.get("overwrite_arrays")),
        unpack_arrays=o.get("unpack_arrays") if truthy(o.get("unpack_arrays")) else None,
        extend_existing_arrays=truthy(o.get("extend_existing_arrays")),
    )


class _Knockout:
    """The prefix as Ruby uses it: ``%r{^#{prefix}}``, compiled on first use like Ruby does."""

    def __init__(self, prefix: object) -> None:
        self.prefix = prefix
        self.source = "^" + to_s(prefix)
        self._pattern: regex.Pattern[str] | None = None

    def _compiled(self) -> regex.Pattern[str]:
        if self._pattern is None:
            try:
                self._pattern = regex.compile(
                    ruby_regex_source(self.source), regex.MULTILINE | regex.VERSION0
                )
            except (regex.error, ValueError) as e:
                raise RubyError(_ruby_regexp_message(str(e), self.source)) from e
        return self._pattern

    def strip(self, text: str) -> str:
        """``text.gsub(/^prefix/, "")``."""
        try:
            return str(self._compiled().sub("", text, timeout=KNOCKOUT_TIMEOUT_S))
        except TimeoutError as e:
            raise RubyError(
                f"hiera-ls: knockout_prefix /{self.source}/ took too long to match"
            ) from e

    def matches(self, text: str) -> bool:
        try:
            return self._compiled().search(text, timeout=KNOCKOUT_TIMEOUT_S) is not None
        except TimeoutError as e:
            raise RubyError(
                f"hiera-ls: knockout_prefix /{self.source}/ took too long to match"
            ) from e


_REGEXP_MESSAGES = (
    ("missing )", "end pattern with unmatched parenthesis"),
    ("unbalanced parenthesis", "unmatched close parenthesis"),
    ("unterminated character set", "premature end of char-class"),
    ("unknown property", "invalid POSIX bracket type"),
)


def _ruby_regexp_message(python_message: str, source: str) -> str:
    """Onigmo's wording for the usual mistakes in a prefix; Python's text otherwise."""
    if python_message.startswith("bad escape (end of pattern)"):
        return "too short escape sequence"
    for fragment, ruby in _REGEXP_MESSAGES:
        if python_message.startswith(fragment):
            return f"{ruby}: /{source}/"
    detail = str(regex.sub(r" at position \d+$", "", python_message))
    return f"{detail}: /{source}/"


class _DeepMerge:
    """deep_merge! (deep_merge gem 1.x) with ``preserve_unmergeables`` as Puppet sets it."""

    def __init__(self, options: _DeepOptions) -> None:
        self.o = options
        self.knockout = _Knockout(options.knockout) if options.knockout is not None else None

    def merge(self, source: object, dest: object) -> object:
        o = self.o
        if isinstance(o.knockout, str) and o.knockout == "":
            raise RubyError("knockout_prefix cannot be an empty string in deep_merge!")
        if self.knockout is not None and not o.overwrite_unmergeable:
            raise RubyError(
                "overwrite_unmergeable must be true if knockout_prefix is specified in deep_merge!"
            )
        if source is None:
            return dest
        if not truthy(dest) and o.overwrite_unmergeable:
            return source
        if isinstance(source, dict):
            for key, value in source.items():
                if isinstance(dest, dict):
                    current = dest.get(key)
                    if truthy(current):
                        dest[key] = self.merge(value, current)
                    else:
                        dest[key] = self.merge(value, _dup(value))
                elif isinstance(dest, list) and o.extend_existing_arrays:
                    dest.append(source)
                elif o.overwrite_unmergeable:
                    dest = self.overwrite_unmergeables(source, dest)
        elif isinstance(source, list):
            dest = self.merge_array(source, dest)
        elif isinstance(dest, list) and o.extend_existing_arrays:
            dest.append(source)
        else:
            dest = self.overwrite_unmergeables(source, dest)
        return dest

    def merge_array(self, source: list[object], dest: object) -> object:
        o = self.o
        if o.overwrite_arrays:
            return source
        if o.unpack_arrays is not None:
            source = _unpack(source, o.unpack_arrays)
            if isinstance(dest, list):
                dest = _unpack(dest, o.unpack_arrays)
        ko = self.knockout
        if ko is not None and any(rb_equal(e, ko.prefix) for e in source):
            dest = _clear_or_nil(dest)
            _delete(source, ko.prefix)
        if isinstance(dest, list):
            if ko is not None:
                target = dest

                def knocked_out(item: object) -> bool:
                    stripped = ko.strip(item) if isinstance(item, str) else item
                    if not ruby_equal(stripped, item):
                        _delete(target, stripped)
                        _delete(target, item)
                        return True
                    return False

                _delete_if(source, knocked_out)
            if (
                o.merge_hash_arrays
                and all(isinstance(e, dict) for e in source)
                and all(isinstance(e, dict) for e in dest)
            ):
                merged: list[object] = []
                i = 0
                while i < len(dest):
                    higher = source[i] if i < len(source) else None
                    merged.append(self.merge(higher if truthy(higher) else {}, dest[i]))
                    i += 1
                if len(source) > len(dest):
                    merged.extend(source[len(dest) :])
                dest = merged
            else:
                dest = ruby_uniq([*dest, *source])
            if o.sort_merged_arrays:
                assert isinstance(dest, list)
                try:
                    dest[:] = ruby_sort(dest)
                except ComparisonFailed as e:
                    raise RubyError(str(e)) from e
            return dest
        if o.overwrite_unmergeable:
            return self.overwrite_unmergeables(source, dest)
        return dest

    def overwrite_unmergeables(self, source: object, dest: object) -> object:
        ko = self.knockout
        if ko is not None and self.o.overwrite_unmergeable:
            if isinstance(source, str):
                kept: object = ko.strip(source)
            elif isinstance(source, list):
                _delete_if(source, lambda item: isinstance(item, str) and ko.matches(item))
                kept = source
            else:
                kept = source
            # Ruby compares with `==` here: a string the prefix changed, and (quirkily) a NaN,
            # both replace dest with ""; arrays and hashes are compared with themselves.
            unchanged = kept == source if isinstance(source, str) else not _is_nan(source)
            return kept if unchanged else ""
        if self.o.overwrite_unmergeable:
            return source
        return dest


def _is_nan(value: object) -> bool:
    return isinstance(value, float) and value != value


def _dup(value: object) -> object:
    """Ruby's shallow ``dup``: a new container sharing its elements."""
    if isinstance(value, dict):
        return dict(value)
    if isinstance(value, list):
        return list(value)
    return value


def _clear_or_nil(value: object) -> object:
    if isinstance(value, list | dict):
        value.clear()
        return value
    if isinstance(value, str):
        return ""
    return None


def _delete(array: list[object], item: object) -> None:
    """``Array#delete``: removes, in place, every element ``==`` to item."""
    array[:] = [e for e in array if not rb_equal(e, item)]


def _store(array: list[object], index: int, value: object) -> None:
    if index >= len(array):
        array.extend([None] * (index + 1 - len(array)))
    array[index] = value


def _delete_if(array: list[object], predicate: Callable[[object], bool]) -> None:
    """``Array#delete_if`` exactly as Ruby 3.1 runs it, including when the block shrinks the
    array it iterates (deep_merge does that when an array is merged into itself)."""
    i1 = i2 = 0
    try:
        while i1 < len(array):
            value = array[i1]
            if predicate(value):
                i1 += 1
                continue
            if i1 != i2:
                _store(array, i2, value)
            i2 += 1
            i1 += 1
    finally:
        length = len(array)
        if i2 < length and i2 < i1:
            tail = length - i1 if i1 < length else 0
            array[i2 : i2 + tail] = array[i1 : i1 + tail]
            del array[i2 + tail :]


def _unpack(values: list[object], separator: object) -> list[object]:
    """``values.join(sep).split(sep)`` for the unpack_arrays option."""
    if not isinstance(separator, str):
        # Array#join only converts the separator when there is something to join
        if values:
            raise RubyError(f"no implicit conversion of {_type_error_name(separator)} into String")
        raise RubyError(f"wrong argument type {_type_error_name(separator)} (expected Regexp)")
    parts: list[object] = list(_split(_join(values, separator), separator))
    return parts


def _type_error_name(value: object) -> str:
    """How Ruby's TypeError texts name a value's type: nil/true/false by value."""
    if value is None or isinstance(value, bool):
        return inspect(value)
    return ruby_class(value)


def _join(values: list[object], separator: str) -> str:
    return separator.join(_join(v, separator) if isinstance(v, list) else to_s(v) for v in values)


_AWK_SPACE = " \t\n\v\f\r"


def _split(text: str, separator: str) -> list[str]:
    """String#split with a string separator (a single space means split on whitespace runs)."""
    if separator == " ":
        parts = [str(p) for p in regex.split(r"[ \t\n\v\f\r]+", text.lstrip(_AWK_SPACE))]
    elif separator == "":
        parts = list(text)
    else:
        parts = text.split(separator)
    while parts and parts[-1] == "":
        parts.pop()
    return parts
