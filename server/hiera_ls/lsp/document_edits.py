"""An incremental ``didChange`` applied to a document's text, in time that does not grow
with the number of lines before the edit in Python steps.

pygls applies each change by splitting the whole document into lines and copying them one
by one in Python (about 0.3 s per keystroke in a 47.5 MB file, so a burst of edits in a big
file starves every request), and it splits lines as Python does, at form feeds, U+0085 and
U+2028 too, where LSP (and the editor) break lines only at ``\\n``, ``\\r\\n`` and ``\\r``: an
edit below such a character landed on the wrong line. Here lines are found by counting line
feeds a chunk at a time, and only LSP's line breaks count (as in ``LineMap``).
"""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features.lsp_ranges import UTF8, UTF32
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.spans import Position

_CHUNK = 1 << 16  # characters counted at a time while looking for a line


def apply_change(text: str, change: types.TextDocumentContentChangeEvent, encoding: str) -> str:
    """``text`` after one content change (a range edit, or the whole new text)."""
    if not isinstance(change, types.TextDocumentContentChangePartial):
        return change.text
    lines = _Lines(text)
    start = lines.offset(change.range.start, encoding)
    end = max(start, lines.offset(change.range.end, encoding))
    return "".join((text[:start], change.text, text[end:]))


class _Lines:
    """Where lines start in one text, found on demand."""

    def __init__(self, text: str) -> None:
        self.text = text
        # A lone carriage return also ends a line; rare enough to take the slow, sure way.
        cr = text.count("\r")
        self._map = LineMap(text) if cr and cr != text.count("\r\n") else None

    def offset(self, pos: types.Position, encoding: str) -> int:
        """The code-point offset of an LSP position; past the end of a line means its end,
        past the last line the end of the text (as editors and pygls clamp)."""
        text = self.text
        if self._map is not None:
            line_start = self._map.offset(Position(pos.line, 0))
            line = self._map.line_text(pos.line) if line_start < len(text) else ""
        else:
            found = self._line_start(pos.line)
            if found is None:
                return len(text)
            line_start = found
            end = text.find("\n", line_start)
            end = len(text) if end < 0 else end
            if end > line_start and text[end - 1] == "\r":
                end -= 1
            line = text[line_start:end]
        return line_start + _code_points(line, pos.character, encoding)

    def _line_start(self, line: int) -> int | None:
        """Offset of the start of ``line`` (None past the last line): line feeds are
        counted a chunk at a time in C, and only the last chunk is walked."""
        text = self.text
        pos = 0
        left = line
        size = len(text)
        while left:
            end = min(pos + _CHUNK, size)
            if pos >= size:
                return None
            feeds = text.count("\n", pos, end)
            if feeds < left:
                left -= feeds
                pos = end
                continue
            for _ in range(left):
                pos = text.index("\n", pos) + 1
            return pos
        return pos


def _code_points(line: str, units: int, encoding: str) -> int:
    """How many code points of ``line`` the first ``units`` client units cover."""
    if units <= 0:
        return 0
    if encoding == UTF32 or line.isascii():
        return min(units, len(line))
    codec, size = ("utf-8", 1) if encoding == UTF8 else ("utf-16-le", 2)
    count = len(line.encode(codec, "surrogatepass")[: size * units].decode(codec, "ignore"))
    if count < len(line) and len(line[:count].encode(codec, "surrogatepass")) < size * units:
        count += 1  # a position inside a character means after it, as ``lsp_ranges`` reads it
    return count
