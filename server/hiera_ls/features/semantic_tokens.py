"""Semantic tokens for interpolation: the parts of each ``%{...}`` inside a string, so a
theme colours them apart from the string around them.

A YAML grammar sees ``"root@%{lookup('profile::base::domain')}"`` as one string; the
pieces here are the delimiters ``%{`` and ``}`` (operator), the function name (function),
the key it looks up (parameter) and a variable path (variable).  Data files take their
tokens from the key index (placed in the source even inside escapes and folded lines);
hiera.yaml strings are scanned line by line.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_ls.project.workspace import FileKind, Snapshot
from hiera_ls.source.interpolation import Token, TokenKind, scan
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.spans import Position, Span

# The legend's order: a piece's type is its index here.
TOKEN_TYPES = ("operator", "function", "variable", "parameter")
OPERATOR, FUNCTION, VARIABLE, PARAMETER = range(4)


@dataclass(frozen=True, slots=True)
class Piece:
    """One coloured run on one line (code points)."""

    line: int
    start: int
    end: int
    kind: int  # index in TOKEN_TYPES


def pieces(
    snapshot: Snapshot, path: str, within: Span | None = None, lines: LineMap | None = None
) -> list[Piece]:
    """Every piece of the file's interpolation tokens in document order (or those that
    overlap ``within``). ``lines``: the file's line table, if the caller has one."""
    text = snapshot.text(path)
    if text is None or "%{" not in text:
        return []
    if lines is None or lines.text != text:
        lines = LineMap(text)
    kind = snapshot.kind_of(path)
    found: list[Piece] = []
    if kind is FileKind.DATA:
        keys = snapshot.file_keys(path)
        if keys is None:
            return []
        for use in keys.tokens:
            if within is not None and not _overlaps(use.span, within):
                continue
            found.extend(_split(lines, use.span, use.token))
    elif kind is FileKind.HIERA_CONFIG:
        first = within.start.line if within is not None else 0
        count = text.count("\n") + 1
        last = min(within.end.line, count - 1) if within is not None else count - 1
        for n in range(first, last + 1):
            line = lines.line_text(n)
            for token in scan(_without_comment(line)):
                span = Span(Position(n, token.start), Position(n, token.end))
                found.extend(_split(lines, span, token))
    found.sort(key=lambda p: (p.line, p.start))
    return found


def _without_comment(line: str) -> str:
    """The line up to a ``#`` that starts a comment (a ``#`` inside quotes does not)."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return line[:i]
    return line


def _overlaps(span: Span, within: Span) -> bool:
    return not (span.end < within.start or within.end < span.start)


def _split(lines: LineMap, span: Span, token: Token) -> list[Piece]:
    """The token's pieces when it sits on one line as written; its delimiters alone when
    escapes changed its text; nothing when it spans lines."""
    if span.start.line != span.end.line:
        return []
    line = span.start.line
    source = lines.line_text(line)[span.start.column : span.end.column]
    if not (source.startswith("%{") and source.endswith("}")):
        return []
    start, end = span.start.column, span.end.column
    out = [Piece(line, start, start + 2, OPERATOR)]
    if source == token.text:
        out.extend(_inner(line, start, token))
    out.append(Piece(line, end - 1, end, OPERATOR))
    return out


def _inner(line: int, start: int, token: Token) -> list[Piece]:
    inner = token.text[2:-1]
    base = start + 2
    if token.kind is TokenKind.VARIABLE:
        at = inner.find(token.expression)
        return [Piece(line, base + at, base + at + len(token.expression), VARIABLE)]
    if token.kind is not TokenKind.METHOD or token.method is None:
        return []
    name_at = inner.find(token.method)
    out = [Piece(line, base + name_at, base + name_at + len(token.method), FUNCTION)]
    argument = token.argument or ""
    arg_at = inner.find(argument, name_at + len(token.method) + 1)
    if argument and arg_at >= 0:
        kind = VARIABLE if token.method == "scope" else PARAMETER
        out.append(Piece(line, base + arg_at, base + arg_at + len(argument), kind))
    return out
