"""A file's text as the quick fixes read it: lines, and (lazily) where its YAML scalars are.

Fixes are computed from the problem and the file's current text alone: an editor's
diagnostic may be a keystroke old, so each fix re-reads the text under its range and offers
nothing when it differs from what the check saw.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import yaml

from hiera_ls.source.line_map import LineMap
from hiera_ls.source.spans import Position, Span
from hiera_ls.source.text_diff import common_prefix, common_suffix


@dataclass(frozen=True, slots=True)
class Scalar:
    """Where a scalar sits in the text and how it is written, for the quick fixes."""

    start: Position
    end: Position
    style: str  # "" plain, "'" or '"' quoted, "|" or ">" block


class FixSource:
    """A file's text with its lines and (lazily) its YAML tokens, shared by the fixes of one
    file so ``check --fix`` scans each file once, and kept by the server for the buffer's
    text so a code action asked on each cursor move does not scan it again.

    ``previous``: the source of the text before an edit. Its tokens up to a top-level key
    line before the edit are this text's too, and libyaml, started afresh at such a line,
    reads what follows exactly as a scan from the top would (no flow collection or scalar
    is open there, and the key is at column 0): so only the lines from there are scanned.
    Below the edit, once the scan meets such a key line in the text the edit left alone,
    and the old text had one there too, the rest is the old scan's, lines shifted.
    """

    def __init__(
        self,
        text: str,
        json: bool,
        previous: FixSource | None = None,
        lines: LineMap | None = None,
    ) -> None:
        self.text = text
        self.json = json
        self.lines = lines if lines is not None and lines.text == text else LineMap(text)
        self._readable: bool | None = None  # see readable
        self._tokens: Iterator[yaml.Token] | None = None
        self._done = False
        self._scalars: list[Scalar] = []
        self._starts: list[Position] = []  # each scalar's start, to find one by bisection
        self._line_end: dict[int, int] = {}
        self._last = -1
        self._composed: object = None
        # what fix builders derive from the whole text, once per text (a file with 20,000
        # problems of one kind must not walk the text 20,000 times)
        self.memo: dict[object, object] = {}
        # where a fresh scan may start: (line, scalars before it), in file order
        self._restarts: list[tuple[int, int]] = []
        self._base = 0  # the line the scan started at
        self._flow = 0  # open flow collections
        self._reach = (0, 0)  # the furthest token end so far
        self._after_key = False
        self._tail: tuple[FixSource, int, int] | None = None  # see _take_tail
        if previous is not None and previous is not self:
            self._resume(previous)

    @property
    def line_count(self) -> int:
        return self.lines.position(len(self.text)).line + 1

    @property
    def newline(self) -> str:
        return "\r\n" if "\r\n" in self.text else "\n"

    def line(self, n: int) -> str:
        return self.lines.line_text(n)

    def at(self, span: Span) -> str:
        return self.text[self.lines.offset(span.start) : self.lines.offset(span.end)]

    def offsets(self, span: Span) -> tuple[int, int]:
        return self.lines.offset(span.start), self.lines.offset(span.end)

    @property
    def readable(self) -> bool:
        """Does libyaml read the text to its end with our line numbers (see _resume)?"""
        if self._readable is None:
            self._readable = _unsafe().search(self.text) is None
        return self._readable

    def _resume(self, previous: FixSource) -> None:
        """Take ``previous``'s tokens above the last restart line before the first change.

        Only for texts libyaml reads as our line table does and reads to the end: a line
        break of its own (NEL, LS, PS) or a character it refuses (found where its reader's
        buffer reaches, not where the scanner is) would make a fresh start differ."""
        if not previous._restarts or not self.readable or not previous.readable:
            return
        old, new = previous.text, self.text
        first_change = common_prefix(old, new)
        same_end = len(new) - common_suffix(old, new, min(len(old), len(new)))
        delta = self.line_count - previous.line_count
        self._tail = (previous, delta, self.lines.position(same_end).line + 1)
        changed_line = self.lines.position(first_change).line
        at = bisect.bisect_left(previous._restarts, (changed_line, -1)) - 1
        if at < 0:
            return
        line, scalars = previous._restarts[at]
        self._restarts = previous._restarts[: at + 1]
        self._scalars = previous._scalars[:scalars]
        self._starts = previous._starts[:scalars]
        self._line_end = {n: c for n, c in previous._line_end.items() if n < line}
        self._last = line - 1
        self._base = line
        self._reach = (line, 0)

    def _scan(self, line: int) -> tuple[list[Scalar], dict[int, int], int]:
        """Scalars, the column where each line's last token ends, and the last line scanned,
        far enough to know ``line`` (tokens come in order, so a code action near the top of a
        10,000-line file scans only that far). libyaml stops at a syntax error."""
        if self._tokens is None:
            offset = self.lines.offset(Position(self._base, 0))
            self._tokens = iter(yaml.scan(self.text[offset:], Loader=_LOADER))
        base = self._base
        while not self._done and self._last <= line + 1:
            try:
                tok = next(self._tokens)
            except (StopIteration, yaml.YAMLError):
                self._done = True
                break
            first = tok.start_mark
            last = tok.end_mark
            start = Position(first.line + base, first.column)
            end = Position(last.line + base, last.column)
            kind = type(tok)
            if isinstance(tok, yaml.ScalarToken):
                if (
                    start.column == 0
                    and self._after_key
                    and not self._flow
                    and not tok.style
                    and self._reach <= (start.line, 0)
                    and start.line > base
                ):
                    if self._take_tail(start.line):
                        base = self._base
                        continue
                    self._restarts.append((start.line, len(self._scalars)))
                self._scalars.append(Scalar(start, end, tok.style or ""))
                self._starts.append(start)
            elif kind in _FLOW_OPEN:
                self._flow += 1
            elif kind in _FLOW_CLOSE:
                self._flow -= 1
            self._after_key = kind is yaml.KeyToken
            if end > start:
                self._line_end[end.line] = max(self._line_end.get(end.line, 0), end.column)
                self._reach = max(self._reach, (end.line, end.column))
            self._last = max(self._last, start.line, end.line)
        return self._scalars, self._line_end, self._last

    def _take_tail(self, line: int) -> bool:
        """At a restart ``line`` of the text the edit left alone (it and the line break
        before it): when the old text had a restart at the same line of that text, its
        scan from there is this one's, so its data, shifted by the lines the edit added,
        is taken, and its token stream goes on for this text (the old source starts over
        if it is ever asked again)."""
        if self._tail is None or line < self._tail[2]:
            return False
        previous, delta, _ = self._tail
        at = bisect.bisect_left(previous._restarts, (line - delta, -1))
        if at == len(previous._restarts) or previous._restarts[at][0] != line - delta:
            return False
        if previous._tokens is None:  # its data ends there: the scan goes on by itself
            return False
        self._tail = None
        kept = len(self._scalars)
        first = previous._restarts[at][1]
        if delta == 0:  # an edit within its lines: the same values
            self._scalars.extend(previous._scalars[first:])
            self._starts.extend(previous._starts[first:])
        for s in previous._scalars[first:] if delta else ():
            moved = Scalar(
                Position(s.start.line + delta, s.start.column),
                Position(s.end.line + delta, s.end.column),
                s.style,
            )
            self._scalars.append(moved)
            self._starts.append(moved.start)
        for n, column in previous._line_end.items():
            if n >= line - delta:
                self._line_end[n + delta] = max(self._line_end.get(n + delta, 0), column)
        self._restarts.extend((n + delta, k - first + kept) for n, k in previous._restarts[at:])
        self._last = max(self._last, previous._last + delta)
        self._done = previous._done
        self._tokens = previous._tokens
        self._base = previous._base + delta
        self._flow = previous._flow
        self._reach = (previous._reach[0] + delta, previous._reach[1])
        self._after_key = previous._after_key
        previous.__init__(previous.text, previous.json, lines=previous.lines)  # type: ignore[misc]
        return True

    def composed(self) -> object:
        """The text's YAML nodes as libyaml composes them (False when it holds none)."""
        if self._composed is None:
            self._composed = yaml.compose(self.text, Loader=_LOADER) or False
        return self._composed

    def scalar_at(self, span: Span) -> Scalar | None:
        if self.json:
            return Scalar(span.start, span.end, '"')
        scalars = self._scan(span.end.line)[0]
        # scalars come in file order and never overlap: only the last two starting at or
        # before the span can hold it (two when one ends where the next starts)
        last = bisect.bisect_right(self._starts, span.start)
        for s in scalars[max(0, last - 2) : last]:
            if s.start <= span.start and span.end <= s.end:
                return s
        return None

    def inside_scalar(self, pos: Position) -> bool:
        """Is ``pos`` strictly inside a scalar's text (a comment there would be content)?"""
        scalars = self._scan(pos.line)[0]
        last = bisect.bisect_left(self._starts, pos)
        return any(s.start < pos < s.end for s in scalars[max(0, last - 1) : last])

    def comment_start(self, line: int) -> int | None:
        """Column of the line's comment, or None; -1 when libyaml never reached the line."""
        _, line_end, last = self._scan(line)
        text = self.line(line)
        if line > last:
            return -1 if "#" in text else None
        begin = line_end.get(line, 0)
        for m in re.finditer("#", text[begin:]):
            col = begin + m.start()
            if col == 0 or text[col - 1] in " \t":
                return col
        return None


@cache
def _unsafe() -> re.Pattern[str]:
    """What libyaml counts as a line break where LineMap does not, or refuses to read (the
    printable set of the YAML 1.1 spec, which libyaml enforces as its reader decodes);
    compiled on first use, as its wide ranges cost every start-up 5 ms."""
    return re.compile(
        "[^\\t\\n\\r\\x20-\\x7e\\xa0-\\u2027\\u202a-\\ud7ff\\ue000-\\ufefe\\uff00-\\ufffd\\U00010000-\\U0010ffff]"
    )


_FLOW_OPEN = (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken)
_FLOW_CLOSE = (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
