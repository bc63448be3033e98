"""Code-point offsets and (line, column) positions of one text, both ways."""

from __future__ import annotations

import bisect
import itertools
import operator

from hiera_ls.source.spans import Position
from hiera_ls.source.text_diff import common_ends


class LineMap:
    """Code-point offsets <-> (line, column) for one text; lines end at \\n, \\r\\n or \\r."""

    __slots__ = ("_starts", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        if "\r" in text:
            self._starts = _with_lone_cr(text, len(text))
            return
        # each line's length plus its newline, summed in C (a Python loop over the lines of
        # a 10,000-line file was a tenth of an edit's publish)
        lengths = map(len, text.split("\n"))
        self._starts = list(
            itertools.accumulate(map(operator.add, lengths, itertools.repeat(1)), initial=0)
        )
        self._starts.pop()  # (the end of the text, past its last line)

    @classmethod
    def after_edit(cls, previous: LineMap, text: str) -> LineMap:
        """The map of ``text``, an edit of ``previous``'s: the lines before the edit keep
        their starts, those after it are moved by the characters it added (a 10,000-line
        file's table built anew was 2.5 ms of every keystroke's publish)."""
        old = previous.text
        if "\r" in text or "\r" in old:
            return cls(text)
        head, tail = common_ends(old, text)
        old_stop, new_stop = len(old) - tail, len(text) - tail
        starts = previous._starts
        made = cls.__new__(cls)
        made.text = text
        kept = starts[: bisect.bisect_right(starts, head)]
        at = head
        while (at := text.find("\n", at, new_stop)) >= 0:
            at += 1
            kept.append(at)
        after = starts[bisect.bisect_right(starts, old_stop) :]
        delta = len(text) - len(old)
        kept.extend(map(delta.__add__, after) if delta else after)
        made._starts = kept
        return made

    @property
    def has_cr(self) -> bool:
        """Whether a line may end at a \\r (lines are then not those of "\\n" alone)."""
        return "\r" in self.text

    def offset(self, pos: Position) -> int:
        if pos.line >= len(self._starts):
            return len(self.text)
        return min(self._starts[pos.line] + pos.column, len(self.text))

    def position(self, offset: int) -> Position:
        line = bisect.bisect_right(self._starts, offset) - 1
        return Position(line, offset - self._starts[line])

    def line_text(self, line: int) -> str:
        if line >= len(self._starts):
            return ""
        start = self._starts[line]
        end = self._starts[line + 1] if line + 1 < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r\n")


def _with_lone_cr(text: str, n: int) -> list[int]:
    starts = [0]
    i = 0
    while i < n:
        c = text[i]
        if c == "\r":
            if i + 1 < n and text[i + 1] == "\n":
                i += 1
            starts.append(i + 1)
        elif c == "\n":
            starts.append(i + 1)
        i += 1
    return starts
