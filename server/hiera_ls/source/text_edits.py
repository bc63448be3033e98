"""Quick fixes as text edits: ranges of the file's text replaced, nothing ever re-dumped, so
comments, quoting and key order elsewhere stay as written."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hiera_ls.source.line_map import LineMap
from hiera_ls.source.spans import Span


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace ``span`` (code points, as every Span) with ``new_text``."""

    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    """A quick fix: its title and the edits it makes."""

    title: str
    edits: tuple[TextEdit, ...]
    safe: bool = False  # applied by ``check --fix`` (the rule's record says whether it may be)
    preferred: bool = False  # the editor's one-key fix for the diagnostic


def edit(span: Span, new: str) -> tuple[TextEdit, ...]:
    return (TextEdit(span, new),)


def apply_edits(text: str, edits: Sequence[TextEdit]) -> str:
    """Apply non-overlapping edits (all computed against ``text``), in one pass."""
    lines = LineMap(text)
    located = sorted(
        (lines.offset(e.span.start), lines.offset(e.span.end), e.new_text) for e in edits
    )
    out: list[str] = []
    at = 0
    for start, end, new in located:
        out.append(text[at:start])
        out.append(new)
        at = max(at, end)
    out.append(text[at:])
    return "".join(out)


def overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """Do two offset ranges touch the same text (an insertion: the same point, or inside)?"""
    if a[0] == a[1] or b[0] == b[1]:
        return a[0] == b[0] or b[0] < a[0] < b[1] or a[0] < b[0] < a[1]
    return a[0] < b[1] and b[0] < a[1]
