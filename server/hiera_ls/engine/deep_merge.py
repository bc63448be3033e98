"""The deep_merge gem (1.x), as Puppet's ``deep`` strategy runs it.

Puppet implements ``deep`` with the deep_merge gem, which mutates its arguments in place and
sometimes merges a value *into itself* (a key found only at the higher priority is merged
with a shallow copy of its own value).  Several visible results come from that aliasing:
e.g. inside a hash that exists only at the higher level, an array holding the bare knockout
prefix is emptied, not just stripped of the prefix.  So :class:`_DeepMerge` mirrors the gem
step by step on private copies of both arguments (``Array#delete_if`` included, whose result
depends on the array shrinking under it), and the callers' values are never touched.

The strategies around it (which options Puppet passes, type checks) are in ``merge.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hiera_ls.puppet.errors import RubyError
from hiera_ls.puppet.regexp import plain_ruby_regex, ruby_regex_source
from hiera_ls.puppet.ruby import (
    ComparisonFailed,
    rb_equal,
    ruby_equal,
    ruby_sort,
    ruby_uniq,
    truthy,
)
from hiera_ls.puppet.ruby_text import inspect, ruby_class, to_s

if TYPE_CHECKING:
    import regex

KNOCKOUT_TIMEOUT_S = 0.05


def deep_merge(options: DeepMergeOptions, source: object, dest: object) -> object:
    """``deep_merge!(source, dest)`` on private copies: ``source`` has the higher priority."""
    return _DeepMerge(options).merge(_clone(source), _clone(dest))


def _clone(value: object) -> object:
    if isinstance(value, dict):
        return {k: _clone(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_clone(v) for v in value]
    return value


@dataclass(frozen=True, slots=True)
class DeepMergeOptions:
    """The deep_merge options Puppet passes (unconstrained_deep passes any of them)."""

    knockout: object = None  # nil/false: off.  Any other value is a prefix (its to_s).
    sort_merged_arrays: bool = False
    merge_hash_arrays: bool = False
    overwrite_unmergeable: bool = True
    overwrite_arrays: bool = False
    unpack_arrays: object = None
    extend_existing_arrays: bool = False


class _Knockout:
    """The prefix as Ruby uses it: ``%r{^#{prefix}}``, compiled on first use like Ruby does."""

    def __init__(self, prefix: object) -> None:
        self.prefix = prefix
        self.source = "^" + to_s(prefix)
        self._pattern: regex.Pattern[str] | None = None
        self._plain = plain_ruby_regex(self.source)  # the usual "--": no ``regex`` needed

    def _compiled(self) -> regex.Pattern[str]:
        import regex

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
        if self._plain is not None:
            return self._plain.sub("", text)
        try:
            return str(self._compiled().sub("", text, timeout=KNOCKOUT_TIMEOUT_S))
        except TimeoutError as e:
            raise RubyError(
                f"hiera-ls: knockout_prefix /{self.source}/ took too long to match"
            ) from e

    def matches(self, text: str) -> bool:
        if self._plain is not None:
            return self._plain.search(text) is not None
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
    detail = re.sub(r" at position \d+$", "", python_message)
    return f"{detail}: /{source}/"


class _DeepMerge:
    """deep_merge! (deep_merge gem 1.x) with ``preserve_unmergeables`` as Puppet sets it."""

    def __init__(self, options: DeepMergeOptions) -> None:
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
        parts = re.split(r"[ \t\n\v\f\r]+", text.lstrip(_AWK_SPACE))
    elif separator == "":
        parts = list(text)
    else:
        parts = text.split(separator)
    while parts and parts[-1] == "":
        parts.pop()
    return parts
