"""Where a YAML text's comments are: what the scanner skips as a comment, and nothing else.

A ``#`` inside a quoted string, inside a block scalar's content or glued to a plain scalar
(``a#b``) is text, not a comment; only YAML's own scanner knows which is which.  libyaml
(what the loader parses with) does not report comments, so the text is scanned a second time
with PyYAML's pure-Python scanner, recording each comment where it skips one.  Callers scan
only texts that may hold what they look for (a substring test first): the pure-Python scan
costs about as much as a parse.

A text the scanner cannot read to its end keeps the comments found before the error; the
lines after it are read with a line scan (a ``#`` at the start of a line or after a space or
tab, outside quotes on that line), since a broken file's comments still matter to the reader.
"""

from __future__ import annotations

from dataclasses import dataclass

from yaml.error import Mark, YAMLError
from yaml.reader import Reader
from yaml.scanner import Scanner

_BREAKS = "\0\r\n\x85\u2028\u2029"


@dataclass(frozen=True, slots=True)
class Comment:
    """A real comment of a YAML text (not a ``#`` inside a string)."""

    line: int  # 0-based
    column: int  # of the '#', in code points
    text: str  # after the '#', up to the end of the line
    own_line: bool  # nothing but blanks before it on its line


class _CommentScanner(Reader, Scanner):
    """PyYAML's scanner, noting each comment at the three places it skips one."""

    def __init__(self, text: str) -> None:
        Reader.__init__(self, text)
        Scanner.__init__(self)
        self.found: list[Comment] = []

    def _skip_blanks_and_comment(self) -> None:
        while self.peek() in " \t":
            self.forward()
        if self.peek() == "#":
            line, column = self.line, self.column
            start = self.pointer
            while self.peek() not in _BREAKS:
                self.forward()
            text = self.buffer[start + 1 : self.pointer]
            before = self.buffer[start - column : start]
            self.found.append(Comment(line, column, text, not before.strip()))

    def scan_to_next_token(self) -> None:
        if self.index == 0 and self.peek() == "\ufeff":
            self.forward()
        while True:
            self._skip_blanks_and_comment()
            if self.scan_line_break():  # type: ignore[no-untyped-call]
                if not self.flow_level:
                    self.allow_simple_key = True
            else:
                return

    def scan_block_scalar_ignored_line(self, start_mark: Mark) -> None:
        self._skip_blanks_and_comment()
        super().scan_block_scalar_ignored_line(start_mark)

    def scan_directive_ignored_line(self, start_mark: Mark) -> None:
        self._skip_blanks_and_comment()
        super().scan_directive_ignored_line(start_mark)


def yaml_comments(text: str, last_line: int | None = None) -> list[Comment]:
    """Every comment of ``text`` in file order; never raises.

    ``last_line``: the caller needs no comment below that line, so the scan stops there
    (a suppression near the top of a big file costs little).
    """
    try:
        scanner = _CommentScanner(text)
    except YAMLError:  # a character YAML does not allow: every line is read by itself
        return _line_scan(text, [], -1)
    failed_at: int | None = None
    try:
        while scanner.check_token():
            if last_line is not None and scanner.line > last_line:
                return [c for c in scanner.found if c.line <= last_line]
            scanner.get_token()  # type: ignore[no-untyped-call]
    except YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        failed_at = mark.line if mark is not None else scanner.line
    except Exception:  # the scanner met something it was not written for: read lines
        failed_at = scanner.line
    if failed_at is None:
        return scanner.found
    return _line_scan(text, [c for c in scanner.found if c.line <= failed_at], failed_at)


def _line_scan(text: str, kept: list[Comment], failed_at: int) -> list[Comment]:
    """``kept`` and the comments of the lines after ``failed_at``, one line at a time."""
    seen = {c.line for c in kept}
    for number, line in enumerate(text.split("\n")):
        if number > failed_at and number not in seen:
            column = _line_comment(line)
            if column is not None:
                own = not line[:column].strip()
                kept.append(Comment(number, column, line[column + 1 :].rstrip("\r"), own))
    return kept


def _line_comment(line: str) -> int | None:
    """The column of the line's comment by a plain reading of one line (quotes respected)."""
    quote: str | None = None
    for i, ch in enumerate(line):
        if quote is not None:
            if ch == quote:
                quote = None
        elif ch in "'\"" and (i == 0 or line[i - 1] in " \t:[{,-"):
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
    return None
