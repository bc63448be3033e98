"""Text a repository wrote, shown to a person: in a terminal, in XML, in Markdown.

A repository chooses its keys, values, file names and level names, and errors quote them.
Shown as they are, a key holding ``ESC [ 2 J`` clears the terminal of whoever reads a CI
log, a NUL makes a JUnit report invalid XML, and a value holding ``![x](https://...)``
becomes an image the editor fetches when it renders a hover. Every report format and every
piece of Markdown built from such text goes through these functions (the one place that
decides how), used by every layer that writes for people (hovers, the check and diff reports).

- :func:`visible`: control characters (C0 but tab and newline, DEL, C1) and lone surrogates
  as escapes (``\\x1b``, ``\\ud800``); for one-line formats, newlines too.
- :func:`json_text`: lone surrogates in JSON output as escapes.
- :func:`md_escape`: Markdown's punctuation escaped, so the text is read as written.
- :func:`md_code`, :func:`md_fence`, :func:`md_cell`: code spans and blocks whose fence is
  longer than any run of backticks inside, so nothing inside can close them.
"""

from __future__ import annotations

import re

_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_CONTROLS_AND_NEWLINES = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff]")
_BACKTICKS = re.compile("`+")
# What CommonMark (and GitHub's tables) can read as markup anywhere on a line; ``_`` only
# next to a non-alphanumeric (between two it never emphasises: ``app_host`` stays as is).
_MD_PUNCT = re.compile(r"([\\`*\[\]<|~#!&]|(?<![^\W_])_|_(?![^\W_]))")
# What starts a block at the beginning of a line: a list, a quote, a heading underline.
_MD_INDENT = re.compile(r"^[ \t]+", re.MULTILINE)
_MD_LINE_START = re.compile(r"^([ \t]*)([-+=>]|\d+(?=[.)]))", re.MULTILINE)


def _escape_char(m: re.Match[str]) -> str:
    c = m.group(0)
    code = ord(c)
    if code == 0x0A:
        return "\\n"
    if code == 0x0D:
        return "\\r"
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def visible(text: str, one_line: bool = False) -> str:
    """``text`` with its control characters written as escapes: safe in a terminal, in
    XML 1.0 (which has no way to hold them) and in a log; ``one_line`` escapes line breaks."""
    pattern = _CONTROLS_AND_NEWLINES if one_line else _CONTROLS
    return pattern.sub(_escape_char, text)


_SURROGATES = re.compile("[\ud800-\udfff]")


def json_text(dumped: str) -> str:
    """JSON text (``json.dumps(..., ensure_ascii=False)``) with lone surrogates written as
    ``\\uXXXX`` escapes (a JSON file may hold ``"\\ud800"``): as they were, the report could
    not be written as UTF-8 at all. They occur only inside strings, where the escape is JSON."""
    return _SURROGATES.sub(lambda m: f"\\u{ord(m.group(0)):04x}", dumped)


def md_escape(text: str) -> str:
    """``text`` as Markdown that shows it as written: no emphasis, link, image, HTML, table
    cell end or block start can come of it."""
    escaped = _MD_PUNCT.sub(r"\\\1", visible(text))
    escaped = _MD_LINE_START.sub(_line_start, escaped)
    # indentation would make a code block of the line: written as character references
    return _MD_INDENT.sub(lambda m: m.group(0).replace(" ", "&#32;").replace("\t", "&#9;"), escaped)


def _line_start(m: re.Match[str]) -> str:
    lead, mark = m.group(1), m.group(2)
    return f"{lead}{mark}\\" if mark[0].isdigit() else f"{lead}\\{mark}"


def _fence_for(text: str, shortest: int) -> str:
    longest = max((len(run) for run in _BACKTICKS.findall(text)), default=0)
    return "`" * max(shortest, longest + 1)


def md_code(text: str) -> str:
    """An inline code span holding ``text`` (on one line), whatever backticks it holds."""
    body = visible(text, one_line=True)
    fence = _fence_for(body, 1)
    pad = " " if body.startswith(("`", " ")) or body.endswith(("`", " ")) else ""
    return f"{fence}{pad}{body}{pad}{fence}"


def md_fence(text: str, info: str = "") -> str:
    """A fenced code block holding ``text``: the fence is longer than any run of backticks
    in it, so no line of ``text`` ends the block."""
    body = visible(text)
    fence = _fence_for(body, 3)
    return f"{fence}{info}\n{body}\n{fence}"


def md_cell(text: str) -> str:
    """A code span for a GitHub table cell: its pipes escaped too (GitHub ends a cell at
    ``|`` even inside a code span)."""
    return md_code(text).replace("|", "\\|")
