"""Where each character of a string scalar's value sits in the source text.

Interpolation tokens are found in the VALUE, after YAML removed the quotes, resolved the
escapes and folded the lines; a diagnostic must point into the SOURCE.  The mapping replays
libyaml's scanning rules for the scalar's style (plain, single-quoted, double-quoted,
literal ``|``, folded ``>``; JSON strings for json_data files) and records, for every value
character, the source range that produced it (``\\u00e9`` is six source characters for one
value character, a folded line break is the end of a line).

A replay is trusted only when it reproduces the loaded value exactly; otherwise
:func:`map_scalar` returns None and callers point at the whole scalar.  So a corner of YAML
this module does not know costs precision, never a wrong range.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import overload

from hiera_ls.source.spans import Position, Span

# libyaml ends lines at CR LF, CR, LF, NEL, LS and PS (YAML 1.1 line breaks); marks count so.
_YAML_BREAKS = re.compile("\r\n|[\r\n\x85\u2028\u2029]")
_ODD_BREAKS = ("\r", "\x85", "\u2028", "\u2029")  # YAML line breaks other than \n
_BLANKS = " \t"
_SIMPLE_ESCAPES = {
    "0": "\x00",
    "a": "\x07",
    "b": "\x08",
    "t": "\t",
    "\t": "\t",
    "n": "\n",
    "v": "\x0b",
    "f": "\x0c",
    "r": "\r",
    "e": "\x1b",
    " ": " ",
    '"': '"',
    "/": "/",
    "'": "'",
    "\\": "\\",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
}
_HEX_ESCAPES = {"x": 2, "u": 4, "U": 8}
_JSON_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_HEX = frozenset("0123456789abcdefABCDEF")


class SourceLines:
    """A document split into lines the way its loader counts them.

    YAML marks (libyaml) break lines at every YAML 1.1 line break; the JSON loader breaks
    at ``\\n`` only.  A byte-order mark at the start is a column of the first line, as
    libyaml counts it when Psych hands it the text (``yaml_loader.py``).
    """

    __slots__ = ("lines",)

    def __init__(self, text: str, json: bool = False) -> None:
        if json or not any(c in text for c in _ODD_BREAKS):
            lines = text.split("\n")  # a tenth of the regular expression's time
        else:
            lines = _YAML_BREAKS.split(text)
        self.lines: list[str] = lines

    def line(self, index: int) -> str:
        return self.lines[index] if 0 <= index < len(self.lines) else ""

    def __len__(self) -> int:
        return len(self.lines)


# One produced character: the character and its source range (line, col, end line, end col).
_Unit = tuple[str, int, int, int, int]


@dataclass(frozen=True, slots=True)
class ScalarMap:
    """The source range that produced each value character, as plain ints: positions are
    made only for the few characters asked about (a file holds thousands of scalars)."""

    units: Sequence[_Unit]

    def start(self, i: int) -> Position:
        u = self.units[i]
        return Position(u[1], u[2])

    def end(self, i: int) -> Position:
        u = self.units[i]
        return Position(u[3], u[4])

    def span(self, start: int, end: int) -> Span:
        """Source range of the value characters ``start`` up to (excluding) ``end``."""
        count = len(self.units)
        if count == 0:
            raise ValueError("an empty value has no characters to map")
        start = max(0, min(start, count - 1))
        last = max(start, min(end, count) - 1)
        return Span(self.start(start), self.end(last))


def infer_style(lines: SourceLines, span: Span) -> str | None:
    """A scalar's style from its first source character (keys carry no recorded style)."""
    found = _skip_properties(lines, span.start.line, span.start.column)
    if found is None:
        return None
    line, col = found
    first = lines.line(line)[col : col + 1]
    if first in ("'", '"', "|", ">"):
        return first
    return None


def map_scalar(
    lines: SourceLines, span: Span, style: str | None, value: str, json: bool = False
) -> ScalarMap | None:
    """The source range of every character of ``value``, or None when it cannot be trusted.

    ``span`` and ``style`` are what the loader recorded for the scalar (NodeSpans.value and
    NodeSpans.style; use :func:`infer_style` for keys).  ``json`` selects JSON string rules.
    """
    if not value:
        return None
    straight = _straight(lines, span, style, value) if not json else None
    if straight is not None:
        return ScalarMap(straight)
    try:
        candidates = _replay(lines, span, style, json)
    except (IndexError, ValueError):
        return None
    for units in candidates:
        produced = "".join(u[0] for u in units)
        if style in ("|", ">"):
            # Chomping drops or keeps trailing line breaks: the value is a prefix of the replay.
            if not produced.startswith(value) or produced[len(value) :].strip("\n"):
                continue
            units = units[: len(value)]
        elif produced != value:
            continue
        return ScalarMap(tuple(units))
    return None


class _Straight(Sequence[_Unit]):
    """The units of a value written as it is on one line: made when asked for, so a string
    of 1.7 million characters (100,000 tokens) costs nothing until a token is placed."""

    __slots__ = ("column", "line", "value")

    def __init__(self, line: int, column: int, value: str) -> None:
        self.line = line
        self.column = column
        self.value = value

    def __len__(self) -> int:
        return len(self.value)

    @overload
    def __getitem__(self, i: int) -> _Unit: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[_Unit]: ...
    def __getitem__(self, i: int | slice) -> _Unit | Sequence[_Unit]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self.value)))]
        if i < 0:
            i += len(self.value)
        col = self.column + i
        return (self.value[i], self.line, col, self.line, col + 1)


def _straight(lines: SourceLines, span: Span, style: str | None, value: str) -> _Straight | None:
    """A one-line plain or quoted scalar whose source is its value (no escape, no doubled
    quote): each value character sits at its own column, no replay needed."""
    if style not in (None, "'", '"') or span.start.line != span.end.line:
        return None
    start = _skip_properties(lines, span.start.line, span.start.column)
    if start is None or start[0] != span.end.line:
        return None
    line, col = start
    text = lines.line(line)
    end = span.end.column
    if style is not None:
        if text[col : col + 1] != style or text[end - 1 : end] != style:
            return None
        col, end = col + 1, end - 1
    source = text[col:end]
    if source != value or (style == '"' and "\\" in source) or (style == "'" and "'" in source):
        return None
    return _Straight(line, col, value)


def _replay(lines: SourceLines, span: Span, style: str | None, json: bool) -> list[list[_Unit]]:
    """Candidate replays (block scalars with an explicit indentation give several)."""
    start = _skip_properties(lines, span.start.line, span.start.column)
    if start is None:
        return []
    line, col = start
    found: list[_Unit] | None
    if json:
        found = _json_string(lines, line, col, span)
    elif style in ("|", ">"):
        return _block(lines, line, col, span, folded=style == ">")
    elif style in ("'", '"'):
        end = span.end
        if (
            lines.line(line)[col : col + 1] != style
            or lines.line(end.line)[end.column - 1 : end.column] != style
        ):
            return []
        found = _flow(lines, line, col + 1, end.line, end.column - 1, style)
    else:
        found = _flow(lines, line, col, span.end.line, span.end.column, None)
    return [] if found is None else [found]


def _skip_properties(lines: SourceLines, line: int, col: int) -> tuple[int, int] | None:
    """Step over an anchor and/or tag before the scalar (the loader's range includes them)."""
    for _ in range(4):
        text = lines.line(line)
        if text[col : col + 1] not in ("&", "!"):
            return line, col
        while col < len(text) and text[col] not in _BLANKS:
            col += 1
        while True:
            while col < len(text) and text[col] in _BLANKS:
                col += 1
            if col < len(text) and text[col] != "#":
                break
            line += 1
            if line >= len(lines):
                return None
            text = lines.line(line)
            col = 0
    return None


# ------------------------------------------------------------------ flow scalars


def _flow(
    lines: SourceLines, first: int, first_col: int, last: int, last_col: int, style: str | None
) -> list[_Unit] | None:
    """Plain and quoted scalars: per-line content, then libyaml's line folding."""
    if last < first:
        return None
    per_line: list[list[tuple[_Unit, bool]]] = []  # (unit, is a raw blank)
    escaped_break: list[bool] = []
    for number in range(first, last + 1):
        text = lines.line(number)
        begin = first_col if number == first else 0
        stop = last_col if number == last else len(text)
        if number > first:
            while begin < stop and text[begin] in _BLANKS:
                begin += 1
        units, escaped = _line_units(text, number, begin, stop, style)
        if units is None:
            return None
        if number < last and not escaped:
            while units and units[-1][1]:
                units.pop()
        per_line.append(units)
        escaped_break.append(escaped)
    out: list[_Unit] = [u for u, _ in per_line[0]]
    previous = 0
    count = len(per_line)
    for index in range(1, count):
        if per_line[index] or escaped_break[index] or index == count - 1:
            empty = index - previous - 1
            line_no = first + previous
            end_col = len(lines.line(line_no))
            # A folded break is a space unless empty lines follow it; ``\``+break joins.
            if empty == 0 and not escaped_break[previous]:
                out.append((" ", line_no, end_col, first + index, _first_col(per_line[index])))
            else:
                for k in range(empty):
                    at = line_no + k
                    out.append(("\n", at, len(lines.line(at)), at + 1, 0))
            out.extend(u for u, _ in per_line[index])
            previous = index
    return out


def _first_col(units: Sequence[tuple[_Unit, bool]]) -> int:
    return units[0][0][2] if units else 0


def _line_units(
    text: str, number: int, begin: int, stop: int, style: str | None
) -> tuple[list[tuple[_Unit, bool]] | None, bool]:
    """One line's characters between ``begin`` and ``stop``; True when it ends in ``\\``+break."""
    units: list[tuple[_Unit, bool]] = []
    col = begin
    while col < stop:
        ch = text[col]
        if style == "'" and ch == "'":
            if text[col + 1 : col + 2] != "'":
                return None, False
            units.append((("'", number, col, number, col + 2), False))
            col += 2
            continue
        if style == '"' and ch == "\\":
            if col + 1 >= stop:
                return units, True  # an escaped line break: no space, no trailing trim
            code = text[col + 1]
            if code in _SIMPLE_ESCAPES:
                units.append(((_SIMPLE_ESCAPES[code], number, col, number, col + 2), False))
                col += 2
                continue
            width = _HEX_ESCAPES.get(code)
            digits = text[col + 2 : col + 2 + width] if width else ""
            if not width or len(digits) != width or not all(d in _HEX for d in digits):
                return None, False
            units.append(((chr(int(digits, 16)), number, col, number, col + 2 + width), False))
            col += 2 + width
            continue
        units.append(((ch, number, col, number, col + 1), ch in _BLANKS))
        col += 1
    return units, False


# ------------------------------------------------------------------ block scalars


def _block(lines: SourceLines, line: int, col: int, span: Span, folded: bool) -> list[list[_Unit]]:
    header = lines.line(line)[col:]
    match = re.match(r"[|>]([+-]?)([1-9]?)([+-]?)", header)
    if match is None:
        return []
    explicit = int(match.group(2)) if match.group(2) else 0
    body = list(range(line + 1, min(span.end.line, len(lines) - 1) + 1))
    if not body:
        return [[]]
    content = [n for n in body if lines.line(n).strip(" ")]
    if explicit:
        deepest = max((_indentation(lines.line(n)) for n in content), default=explicit)
        candidates = list(range(explicit, max(explicit, deepest) + 1))
    else:
        leading = [n for n in body if not content or n < content[0]]
        auto = max([_indentation(lines.line(n)) for n in leading] + [1])
        if content:
            auto = max(auto, _indentation(lines.line(content[0])))
        candidates = [auto]
    return [_block_units(lines, body, indent, folded) for indent in candidates]


def _indentation(text: str) -> int:
    return len(text) - len(text.lstrip(" "))


def _block_units(lines: SourceLines, body: Sequence[int], indent: int, folded: bool) -> list[_Unit]:
    """The replayed value with every trailing break kept (map_scalar trims to the value)."""
    out: list[_Unit] = []
    pending_breaks: list[int] = []  # empty lines since the last content line
    last_content: int | None = None
    last_blank_start = False
    for number in body:
        text = lines.line(number)
        if len(text) <= indent and not text.strip(" "):
            pending_breaks.append(number)
            continue
        if _indentation(text) < indent:
            break  # the scalar ended before the loader's end mark
        starts_blank = text[indent : indent + 1] in (" ", "\t")
        if last_content is not None:
            if folded and not last_blank_start and not starts_blank:
                if not pending_breaks:
                    end = len(lines.line(last_content))
                    out.append((" ", last_content, end, number, indent))
            else:
                end = len(lines.line(last_content))
                out.append(("\n", last_content, end, last_content + 1, 0))
        for empty in pending_breaks:
            out.append(("\n", empty, len(lines.line(empty)), empty + 1, 0))
        pending_breaks = []
        for c in range(indent, len(text)):
            out.append((text[c], number, c, number, c + 1))
        last_content = number
        last_blank_start = starts_blank
    if last_content is not None:
        end = len(lines.line(last_content))
        out.append(("\n", last_content, end, last_content + 1, 0))
    for empty in pending_breaks:
        out.append(("\n", empty, len(lines.line(empty)), empty + 1, 0))
    return out


# ------------------------------------------------------------------ JSON strings


def _json_string(lines: SourceLines, line: int, col: int, span: Span) -> list[_Unit] | None:
    """Ruby's JSON string rules: \\uXXXX (surrogate pairs joined), \\b\\f\\n\\r\\t, \\X is X."""
    text = lines.line(line)
    if text[col : col + 1] != '"' or span.end.line != line:
        return None
    stop = span.end.column - 1
    out: list[_Unit] = []
    c = col + 1
    while c < stop:
        ch = text[c]
        if ch != "\\":
            out.append((ch, line, c, line, c + 1))
            c += 1
            continue
        code = text[c + 1]
        if code != "u":
            out.append((_JSON_ESCAPES.get(code, code), line, c, line, c + 2))
            c += 2
            continue
        digits = text[c + 2 : c + 6]
        if len(digits) != 4 or not all(d in _HEX for d in digits):
            return None
        unit = int(digits, 16)
        width = 6
        if 0xD800 <= unit < 0xDC00 and text[c + 6 : c + 8] == "\\u":
            low_digits = text[c + 8 : c + 12]
            if len(low_digits) == 4 and all(d in _HEX for d in low_digits):
                low = int(low_digits, 16)
                if 0xDC00 <= low < 0xE000:
                    unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
                    width = 12
        out.append((chr(unit), line, c, line, c + width))
        c += width
    return out
