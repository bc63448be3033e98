"""A message as parts: the fixed words, the names it quotes, and the data values it quotes.

Puppet's messages quote what they met: a key, a file, a type, and sometimes a value of the
data (``The string 'hunter2' cannot be converted to Integer``). A report that leaves the
machine (a CI log, a code-scanning upload) must not carry the data's values, and must keep
the rest: a key, a path or a type is what tells the reader where and why. So a message is
built from parts that say what they are, its plain text joins them, and a report masks
exactly the :attr:`Kind.VALUE` parts, without reading the text.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

MASK = "…"


class Kind(Enum):
    WORDS = "words"  # the message's own words (Puppet's or ours)
    KEY = "key"  # a lookup key, a hash key, a lookup_options key
    PATH = "path"  # a file or directory
    TYPE = "type"  # a Puppet type (``Sensitive[String]``)
    VALUE = "value"  # the data's text or a value of it: masked in reports


@dataclass(frozen=True, slots=True)
class Part:
    """A piece of a message, marked with what it is (so a report can mask values)."""

    kind: Kind
    text: str
    masked: str = MASK  # what a report shows for a value ("": the words read on without it)


@dataclass(frozen=True, slots=True)
class Text:
    """Parts joined into one message; equal when their parts are."""

    parts: tuple[Part, ...] = ()

    @staticmethod
    def of(*items: str | Part | Text) -> Text:
        """A message from words (plain strings), parts and other messages, in order."""
        parts: list[Part] = []
        for item in items:
            if isinstance(item, Text):
                parts.extend(item.parts)
            elif isinstance(item, Part):
                parts.append(item)
            elif item:
                parts.append(Part(Kind.WORDS, item))
        return Text(tuple(parts))

    @property
    def plain(self) -> str:
        return "".join(p.text for p in self.parts)

    def __str__(self) -> str:
        return self.plain

    def shown(self, values: bool = False) -> str:
        """The text with each data value as ``…`` (``values``: as written, for a person)."""
        if values:
            return self.plain
        return "".join(p.masked if p.kind is Kind.VALUE and p.text else p.text for p in self.parts)

    def __add__(self, other: str | Part | Text) -> Text:
        return Text.of(self, other)

    def startswith(self, prefix: str) -> bool:
        return self.plain.startswith(prefix)

    def without_prefix(self, prefix: str) -> Text:
        """The message without ``prefix`` (fixed words) at its start."""
        if not prefix or not self.plain.startswith(prefix):
            return self
        rest = len(prefix)
        parts = list(self.parts)
        while rest and parts:
            first = parts[0]
            if len(first.text) <= rest:
                rest -= len(first.text)
                parts.pop(0)
            else:
                parts[0] = Part(first.kind, first.text[rest:], first.masked)
                rest = 0
        return Text(tuple(parts))

    def strip(self) -> Text:
        """Without the whitespace at either end (as ``str.strip``)."""
        parts = [p for p in self.parts if p.text]
        while parts and not parts[0].text.strip():
            parts.pop(0)
        while parts and not parts[-1].text.strip():
            parts.pop()
        if parts:
            parts[0] = replace(parts[0], text=parts[0].text.lstrip())
            parts[-1] = replace(parts[-1], text=parts[-1].text.rstrip())
        return Text(tuple(parts))

    def replace(self, old: str, new: str) -> Text:
        """Each part with ``old`` replaced (a path prefix made relative, say); a part
        without ``old`` is kept as it is (most: a report makes every finding's paths
        relative)."""
        return Text(
            tuple(
                replace(p, text=p.text.replace(old, new)) if old in p.text else p
                for p in self.parts
            )
        )


def as_key(text: str) -> Part:
    return Part(Kind.KEY, text)


def as_path(text: str) -> Part:
    return Part(Kind.PATH, text)


def as_type(text: str) -> Part:
    return Part(Kind.TYPE, text)


def as_value(text: str, masked: str = MASK) -> Part:
    """A value of the data; ``masked``: what a report shows in its place."""
    return Part(Kind.VALUE, text, masked)


def as_inferred_type(text: str) -> Text:
    """A type Puppet inferred from a value (``Integer[70000, 70000]``, ``Enum['x']``): its
    name is a type, its parameters may be the value itself."""
    base, bracket, rest = text.partition("[")
    if not bracket:
        return Text.of(as_type(text))
    return Text.of(as_type(base), as_value(bracket + rest, masked=""))
