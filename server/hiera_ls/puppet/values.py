"""Ruby-side value kinds that have no Python twin, and Ruby's rendering of values.

Loaded data uses plain Python values (dict, list, str, int, float, bool, None).  Psych can
also produce Ruby Symbols (``:name``); they are kept as :class:`RubySymbol` so that later
layers can do what Puppet does with them (keys become strings, values fail type checks).
A lookup's ``convert_to: Sensitive`` wraps its value in :class:`Sensitive`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RubySymbol:
    """A Ruby Symbol (``:name``), which YAML and Puppet tell apart from a String."""

    name: str

    def __str__(self) -> str:
        return self.name


class Encrypted(str):
    """A string from an eyaml file holding ``ENC[...]`` blocks, kept as written.

    Puppet's ``eyaml_lookup_key`` decrypts such a string with the keys on the server and
    then interpolates the plaintext; hiera-ls never decrypts, so the value stands for a
    String whose text it cannot know, and is never interpolated.
    """

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Sensitive:
    """Puppet's Sensitive wrapper (what ``convert_to: Sensitive`` makes of a value): shown
    redacted, and typed ``Sensitive[T]`` with ``T`` the generalized type of what it wraps."""

    value: object


@dataclass(frozen=True, slots=True)
class CompositeKey:
    """A mapping key that is itself a list or hash (legal YAML, never a valid Hiera key).

    Python cannot hash lists and dicts, so such keys are wrapped; equality follows the
    rendered text, which is what Ruby's Hash#eql? amounts to for plain data.
    """

    text: str
    value: object = None

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CompositeKey) and other.text == self.text

    def __hash__(self) -> int:
        return hash(("CompositeKey", self.text))


# What eyaml_lookup_key takes for encrypted (Ruby's /.*ENC\[.*?\]/: on one line)
ENCRYPTED_RE = re.compile(r"ENC\[.*?\]")


def canonical(value: object) -> object:
    """A hashable form in which ``==`` is Puppet's ``==`` on the values: types count
    (``1``, ``1.0``, ``true``, ``'1'`` differ), a hash's order does not."""
    # the plain types first, by their exact type (a diff asks this of every answer)
    kind = value.__class__
    if kind is str:
        return ("string", value)
    if kind is dict:
        return ("hash", frozenset((canonical(k), canonical(v)) for k, v in value.items()))  # type: ignore[attr-defined]
    if kind is list:
        return ("array", tuple(canonical(v) for v in value))  # type: ignore[attr-defined]
    if kind is int:
        return ("int", value)
    if value is None:
        return ("undef",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, Encrypted):
        return ("eyaml", str(value))
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, list | tuple):
        return ("array", tuple(canonical(v) for v in value))
    if isinstance(value, dict):
        return ("hash", frozenset((canonical(k), canonical(v)) for k, v in value.items()))
    return (type(value).__name__, repr(value))


def strings_in(data: object, keys: bool = False) -> Iterator[str]:
    """Every string inside ``data`` (hash values, array and tuple items; hash keys too with
    ``keys``: Hiera interpolates them)."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            if keys:
                stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list | tuple):
            stack.extend(item)


def value_at(value: object, path: Sequence[object]) -> object:
    """What ``path`` (hash keys and array indexes) reaches inside ``value``; None where it
    leads nowhere."""
    for step in path:
        if isinstance(value, dict):
            value = value.get(step)
        elif isinstance(value, list) and isinstance(step, int) and 0 <= step < len(value):
            value = value[step]
        else:
            return None
    return value
