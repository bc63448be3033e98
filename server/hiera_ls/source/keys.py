"""Lookup keys: splitting into segments and digging into values (Puppet's ``LookupKey``:
puppet/pops/lookup/lookup_key.rb).

Only the root key is looked up in data; the other segments dig into the merged result.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hiera_ls.puppet.errors import LookupFailure, RegexpError
from hiera_ls.puppet.ruby_text import ruby_class

_SPECIAL = re.compile(r"['\".]")
# A segment: a quoted run (with surrounding blanks) or a run of other characters.
_SEGMENT_SPLIT = re.compile(r"(\s*\"[^\"]+\"\s*|\s*'[^']+'\s*|[^'\".]+)")
# Puppet's pattern has a stray ':?' (``/^(:?[+-]?[0-9]+)$/``): ':5' is an index, to_i gives 0.
_INTEGER = re.compile(r"^:?[+-]?[0-9]+$")

Segment = str | int

# The reserved key: never looked up as data, it holds the merge and convert_to options of others.
LOOKUP_OPTIONS = "lookup_options"
# A key automatic parameter lookup could read: lower-case name segments, the last a parameter.
PARAMETER_KEY = re.compile(r"[a-z][a-z0-9_]*(?:::[a-z][a-z0-9_]*)*::[a-z_][a-z0-9_]*")


class RubyNoMethodError(RegexpError):
    """A Ruby NoMethodError: like RegexpError, never converted into a lookup error."""


class KeySyntaxError(LookupFailure):
    """A key or variable name that Puppet cannot split."""


def _ruby_to_i(text: str) -> int:
    m = re.match(r"[+-]?[0-9]+", text)
    return int(m.group(0)) if m else 0


def split_key(key: str) -> list[Segment] | None:
    """Segments of ``key`` as Puppet splits them, or None on a syntax error."""
    if not _SPECIAL.search(key):
        return [key]
    parts = _SEGMENT_SPLIT.split(key)
    # Ruby's String#split drops trailing empty strings; re.split keeps them.
    while parts and parts[-1] == "":
        parts.pop()
    if not parts or parts[0] != "":
        return None
    parts = parts[1:]
    count = len(parts)
    if count == 0:
        return None
    kept = [p for p in parts if p != "."]
    if len(kept) * 2 != count + 1:
        return None
    segments: list[Segment] = []
    for seg in kept:
        seg = seg.strip()
        if seg.startswith(('"', "'")):
            segments.append(seg[1:-1])
        elif _INTEGER.match(seg):
            segments.append(_ruby_to_i(seg.lstrip(":")) if not seg.startswith(":") else 0)
        else:
            segments.append(seg)
    return segments


@dataclass(frozen=True, slots=True)
class LookupKey:
    """A lookup key split into its root and the segments dug into its value."""

    text: str
    root: str
    segments: tuple[Segment, ...]

    @property
    def module_name(self) -> str | None:
        i = self.root.find("::")
        return self.root[:i] if i > 0 else (None if i < 0 else "")

    @staticmethod
    def parse(text: str) -> LookupKey:
        segs = split_key(text)
        if segs is None:
            raise KeySyntaxError(f"Syntax error in key: '{text}'")
        root = segs[0]
        return LookupKey(text, str(root), tuple(segs[1:]))


class NotFound(Exception):
    """Raised inside the engine where Puppet throws :no_such_key."""


def dig(key_text: str, value: object, segments: tuple[Segment, ...]) -> object:
    """Apply sub-key segments to a value; raises NotFound or a type-mismatch LookupFailure."""
    for seg in segments:
        if value is None:
            raise NotFound
        if isinstance(seg, int) and isinstance(value, list):
            if not 0 <= seg < len(value):
                raise NotFound
            value = value[seg]
            continue
        if isinstance(value, int) and not isinstance(value, bool):
            # Ruby's Integer#[] exists, so Puppet reaches `include?` and fails there.
            raise RubyNoMethodError(f"undefined method `include?' for {value}:Integer")
        if not isinstance(value, dict):
            raise LookupFailure(
                "Data Provider type mismatch: Got "
                f"{ruby_class(value)} when a hash-like object was expected to access "
                f"value using '{seg}' from key '{key_text}'"
            )
        value = ruby_hash_get(value, seg)
    return value


def ruby_hash_get(d: dict[object, object], key: object) -> object:
    """``d[key]`` with Ruby's eql? (1, 1.0 and true are different keys); NotFound if absent."""
    if key not in d:
        raise NotFound
    if isinstance(key, str):
        return d[key]
    for k, v in d.items():
        if k == key and type(k) is type(key):
            return v
    raise NotFound
