"""Cross-file findings carried over an edit until the cross-file checks run again.

Right after an edit the server publishes the file's own checks at once, for the new version.
The findings that need the whole environment (the cross-file index's, every profile's
lookups) are those of the last run, moved with the lines around the edit, until the
background run replaces them: nothing flickers away and back, and nothing reads as fixed
that is not.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from hiera_ls.source.spans import FileSpan, Problem, Span
from hiera_ls.source.yaml_reparse import changed_region


@dataclass(slots=True)
class CarriedFindings:
    """Per open file and kind of finding: the findings last shown, with the text they are for
    (open files only: a command-line run never carries, and keeps no texts)."""

    _held: dict[tuple[str, str], tuple[str, tuple[Problem, ...]]] = field(default_factory=dict)

    def keep(self, what: str, path: str, text: str, found: Sequence[Problem]) -> None:
        """``found`` are the current findings of kind ``what`` for ``path``'s ``text``."""
        self._held[(what, path)] = (text, tuple(found))

    def moved(self, what: str, path: str, text: str) -> list[Problem] | None:
        """The last findings of kind ``what``, moved to ``text``; None when none were kept."""
        last = self._held.get((what, path))
        if last is None:
            return None
        old, found = last
        if old != text:
            found = tuple(move_with_lines(old, text, list(found)))
            self._held[(what, path)] = (text, found)  # the next edit moves them from here
        return list(found)

    def forget(self, path: str) -> None:
        for key in [k for k in self._held if k[1] == path]:
            del self._held[key]

    def copy(self) -> CarriedFindings:
        return CarriedFindings(dict(self._held))

    def adopt(self, other: CarriedFindings, path: str) -> None:
        """``other``'s findings of ``path`` become those carried here."""
        self._held.update((key, held) for key, held in other._held.items() if key[1] == path)


def move_with_lines(old: str, new: str, problems: Sequence[Problem]) -> list[Problem]:
    """Problems of ``old`` moved to ``new``: lines before and after the edited lines keep
    their problems (shifted), and so does the first edited line for those that end before
    the change on it (a key's finding while its value is typed: it stays, it does not go and
    come back at the next run); other problems touching the edited lines are dropped."""
    edit = changed_region(old, new)
    return _moved(edit, problems)


@dataclass(frozen=True, slots=True)
class FileOrdered:
    """Findings in file order, with the line each starts on and the furthest line any of
    them up to it reaches: an edit moves them as :func:`move_with_lines` does, but by
    slices. Those wholly before the edited lines and, where no line was added or removed,
    those after them are the same objects; only the few around the edit are looked at (a
    loop over a big file's 2,371 findings on every keystroke, several times)."""

    found: tuple[Problem, ...]
    starts: tuple[int, ...]
    reach: tuple[int, ...]

    @classmethod
    def of(cls, found: Sequence[Problem]) -> FileOrdered:
        """``found`` in file order (sorted by where each starts)."""
        starts = tuple(p.where.span.start.line for p in found)
        reach = tuple(itertools.accumulate((p.where.span.end.line for p in found), max))
        return cls(tuple(found), starts, reach)

    def moved(self, old: str, new: str) -> list[Problem]:
        """The findings of ``old`` moved to ``new``, in file order."""
        edit = changed_region(old, new)
        prefix, _, tail_start, new_tail_start = edit
        found = self.found
        before = bisect.bisect_left(self.reach, prefix)  # these end before the edited lines
        after = bisect.bisect_left(self.starts, tail_start, lo=before)  # these start after
        out = list(found[:before])
        out.extend(_moved(edit, found[before:after]))
        out.extend(found[after:] if new_tail_start == tail_start else _moved(edit, found[after:]))
        return out


def _moved(edit: tuple[int, int, int, int], problems: Sequence[Problem]) -> list[Problem]:
    """``edit``: :func:`changed_region`'s answer."""
    prefix, column, tail_start, new_tail_start = edit
    delta = new_tail_start - tail_start
    out: list[Problem] = []
    for p in problems:
        span = p.where.span
        end = span.end
        if (
            end.line < prefix
            or (end.line == prefix and end.column < column)
            or (delta == 0 and span.start.line >= tail_start)
        ):
            out.append(p)  # before the edit, or after it with no line added or removed
        elif span.start.line >= tail_start:
            moved = Span.of(
                span.start.line + delta, span.start.column, span.end.line + delta, span.end.column
            )
            out.append(replace(p, where=FileSpan(p.where.path, moved)))
    return out
