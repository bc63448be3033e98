"""What of a value ``hiera-ls diff`` shows masked: what came from eyaml, and what a level
read from outside the repository."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from hiera_ls.engine.explain import plain_data
from hiera_ls.puppet.ruby_text import to_s
from hiera_ls.puppet.values import Encrypted, strings_in

MASKED = "<eyaml value>"
OUTSIDE = "<read from outside the repository>"
MIN_MASKED_PART = 4  # an eyaml level's string this long is masked inside other strings too


@dataclass(frozen=True, slots=True)
class Masker:
    """What of a value came from eyaml: ``ENC[...]`` strings anywhere; every scalar of a key
    an eyaml level defines; and any string holding a string of an eyaml level (interpolated
    into another key: ``db://%{lookup('db::user')}``)."""

    keys: frozenset[str]
    strings: frozenset[str]
    whole: bool = False
    # the same for data read from outside the repository (masked with OUTSIDE)
    outside_keys: frozenset[str] = frozenset()
    outside_strings: frozenset[str] = frozenset()
    whole_outside: bool = False

    def for_key(self, key: str) -> Masker:
        return replace(self, whole=key in self.keys, whole_outside=key in self.outside_keys)

    def shown(self, value: object) -> object:
        """``value`` as plain data with what came from eyaml replaced by MASKED, and what
        came from outside the repository by OUTSIDE (a whole value: its hash keys too)."""
        if self.whole_outside and value is not None:
            return OUTSIDE
        if not (self.whole or self.strings or self.outside_strings):  # only ENC[ to mask
            if _plain(value):
                return value  # what plain_data() would copy, and nothing in it to mask
            if not any(isinstance(t, Encrypted) or "ENC[" in t for t in strings_in(value)):
                return plain_data(value)  # nothing in it to mask (most values of most keys)
        return self._walk(
            value, plain_data(value), _inside(self.strings), _inside(self.outside_strings)
        )

    def _walk(
        self,
        value: object,
        shown: object,
        inside: re.Pattern[str] | None,
        outside: re.Pattern[str] | None,
    ) -> object:
        if isinstance(value, dict) and isinstance(shown, dict):
            # each key as plain_data writes it: two keys may become one text (None and ''),
            # the later entry kept, as there
            out: dict[object, object] = {}
            for k, v in value.items():
                text = k if isinstance(k, str) else to_s(k)
                out[text] = self._walk(v, shown[text], inside, outside)
            return out
        if isinstance(value, list) and isinstance(shown, list):
            return [self._walk(v, s, inside, outside) for v, s in zip(value, shown, strict=True)]
        if self.whole and value is not None:
            return MASKED
        if isinstance(value, str) and (
            value in self.outside_strings or (outside is not None and outside.search(value))
        ):
            return OUTSIDE
        if isinstance(value, str) and (
            isinstance(value, Encrypted)
            or "ENC[" in value
            or value in self.strings
            or (inside is not None and inside.search(value))
        ):
            return MASKED
        return shown


_PLAIN_SCALARS = frozenset({int, float, bool, type(None)})


def _plain(value: object) -> bool:
    """Whether ``value`` is plain data already (:func:`plain_data` would give an equal copy)
    without an eyaml string: strings (none holding ``ENC[``), numbers, booleans, undef,
    arrays, and hashes with String keys, each exactly of its class."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        kind = item.__class__
        if kind is str:
            if "ENC[" in item:
                return False
        elif kind is dict:
            if any(key.__class__ is not str for key in item):
                return False
            stack.extend(item.values())
        elif kind is list:
            stack.extend(item)
        elif kind not in _PLAIN_SCALARS:
            return False
    return True


def _inside(strings: frozenset[str]) -> re.Pattern[str] | None:
    """Any of ``strings`` long enough to be masked inside another string."""
    parts = sorted((s for s in strings if len(s) >= MIN_MASKED_PART), key=len)
    return re.compile("|".join(re.escape(s) for s in reversed(parts))) if parts else None
