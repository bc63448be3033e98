"""YAML's own names: the anchors (``&name``) and aliases (``*name``) of a file's first
document (the one Psych reads), where each is written, and which anchor an alias names.

An alias names the nearest anchor of that name before it: a document may anchor a name
again, and the aliases after that read the new value. Read with the loader's libyaml, so a
``&`` or ``*`` inside a quoted or plain scalar is never taken for one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hiera_ls.source.libyaml import (
    ALIAS,
    DEFAULT_BACKEND,
    DOC_END,
    DOC_START,
    MAP_START,
    SCALAR,
    SEQ_START,
    STREAM_END,
)
from hiera_ls.source.spans import Position, Span

# the characters libyaml reads in an anchor's name (its scanner: letters, digits, '_', '-')
ANCHOR_NAME = re.compile(r"[A-Za-z0-9_-]+")
# a cursor near one of these may be on an anchor or alias (checked before the file is read)
_WRITTEN = re.compile(r"[&*][A-Za-z0-9_-]+")


@dataclass(frozen=True, slots=True)
class AnchorMark:
    """One ``&name`` or ``*name``: ``span`` covers the sigil and the name."""

    name: str
    span: Span
    alias: bool

    @property
    def name_span(self) -> Span:
        """The name's characters, without the sigil (what a rename replaces)."""
        start = self.span.start
        return Span(Position(start.line, start.column + 1), self.span.end)


@dataclass(frozen=True, slots=True)
class Anchors:
    """Every anchor and alias of the first document, in file order."""

    marks: tuple[AnchorMark, ...]

    def at(self, pos: Position) -> AnchorMark | None:
        return next((m for m in self.marks if m.span.contains(pos)), None)

    def anchor_of(self, mark: AnchorMark) -> AnchorMark | None:
        """The anchor ``mark`` (an alias, or an anchor itself) stands for."""
        if not mark.alias:
            return mark
        found: AnchorMark | None = None
        for m in self.marks:
            if m is mark:
                return found
            if not m.alias and m.name == mark.name:
                found = m
        return None

    def aliases_of(self, anchor: AnchorMark) -> list[AnchorMark]:
        """The aliases that read ``anchor`` (up to the next anchor of its name)."""
        out: list[AnchorMark] = []
        seen = False
        for m in self.marks:
            if m is anchor:
                seen = True
            elif seen and m.name == anchor.name:
                if not m.alias:
                    break
                out.append(m)
        return out

    def names(self) -> frozenset[str]:
        return frozenset(m.name for m in self.marks)


NO_ANCHORS = Anchors(())


def may_be_on_anchor(line: str, column: int) -> bool:
    """Whether ``column`` of ``line`` is within something written like ``&name``/``*name``."""
    return any(m.start() <= column <= m.end() for m in _WRITTEN.finditer(line))


def anchors_in(text: str) -> Anchors:
    """The file's anchors and aliases; those before a syntax error when there is one."""
    if "&" not in text:
        return NO_ANCHORS
    backend = DEFAULT_BACKEND
    kinds = backend.kinds
    lines = text.split("\n")
    marks: list[AnchorMark] = []
    errors: tuple[type[BaseException], ...] = (*backend.errors, UnicodeError)
    try:
        parser = backend.parser(text.encode("utf-8", "surrogateescape"))
        parser.get_event()  # stream start
        if kinds[parser.get_event().__class__] != DOC_START:
            return NO_ANCHORS
        while True:
            ev = parser.get_event()
            kind = kinds[ev.__class__]
            if kind in (DOC_END, STREAM_END):
                break
            name = getattr(ev, "anchor", None)
            if name is None:
                continue
            sm = ev.start_mark
            if kind == ALIAS:
                em = ev.end_mark
                marks.append(
                    AnchorMark(name, Span.of(sm.line, sm.column, em.line, em.column), True)
                )
            elif kind in (SCALAR, SEQ_START, MAP_START):
                span = _anchor_span(lines, sm.line, sm.column, name)
                if span is not None:
                    marks.append(AnchorMark(name, span, False))
    except errors:
        pass  # what came before the error is still right
    return Anchors(tuple(marks))


def _anchor_span(lines: list[str], line: int, column: int, name: str) -> Span | None:
    """Where ``&name`` is written: the node's properties start at ``column`` (a tag may come
    first)."""
    if line >= len(lines):
        return None
    text = lines[line]
    for m in re.finditer(re.escape("&" + name) + r"(?![A-Za-z0-9_-])", text):
        if m.start() >= column:
            return Span.of(line, m.start(), line, m.end())
    return None
