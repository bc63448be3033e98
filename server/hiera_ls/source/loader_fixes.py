"""Quick fixes of the loader's findings (YAML as Psych reads it, JSON as Ruby's parser does):
quote what YAML 1.1 would read as another type, drop a Symbol's colon, remove a duplicate key."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.spans import Position, Problem, Span
from hiera_ls.source.text_edits import Fix, TextEdit, edit
from hiera_ls.source.yaml_edits import (
    entry_lines,
    key_identity,
    key_text,
    mapping_with_key_at,
    plain_text,
    quoted,
    reads_as,
)


def quote(safe: bool = False, what: str = "the text") -> Callable[[Problem, FixSource], list[Fix]]:
    def make(problem: Problem, src: FixSource) -> list[Fix]:
        span, written = plain_text(problem, src)
        if isinstance(reads_as(written), str):
            return []  # already a String: the diagnostic is stale
        new = quoted(written)
        return [Fix(f"Quote {new} ({what})", edit(span, new), safe=safe, preferred=True)]

    return make


def symbol_value(problem: Problem, src: FixSource) -> list[Fix]:
    span, written = plain_text(problem, src)
    if not written.startswith(":") or len(written) < 2:
        return []
    new = quoted(written)
    out = [Fix(f"Quote {new} (the String '{written}')", edit(span, new), preferred=True)]
    bare = _unsymbol(written)
    if bare is not None:
        out.append(Fix(f"Drop the colon: {bare}", edit(span, bare)))
    return out


def _unsymbol(written: str) -> str | None:
    """``:name`` without its colon, quoted if the rest would not read as the String name."""
    rest = written[1:]
    if rest[:1] in ("'", '"'):
        return rest
    return rest if reads_as(rest) == rest else quoted(rest)


def symbol_key(problem: Problem, src: FixSource) -> list[Fix]:
    span, written = plain_text(problem, src)
    if not written.startswith(":") or len(written) < 2:
        return []
    bare = _unsymbol(written)
    if bare is None:
        return []
    return [Fix(f"Drop the colon: {bare}", edit(span, bare), preferred=True)]


def exponent(problem: Problem, src: FixSource) -> list[Fix]:
    span, written = plain_text(problem, src)
    m = re.fullmatch(r"([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?)(\d+)", written)
    if m is None:
        return []
    sign, whole, frac, esign, exp = m.groups()
    number = f"{sign}{whole or '0'}.{frac or '0'}e{esign or '+'}{exp}"
    if not isinstance(reads_as(number), float):
        return []
    return [Fix(f"Write {number} (a Float)", edit(span, number))]


def duplicate_key(problem: Problem, src: FixSource) -> list[Fix]:
    """Remove the entry before the reported one with the same key: Psych keeps the last."""
    at = problem.where.span.start
    found = mapping_with_key_at(src.composed(), at)
    if found is None:
        return []
    mapping, index = found
    pairs = mapping.value
    key = key_identity(pairs[index][0])
    if key is None or mapping.flow_style:
        return []
    earlier = next((i for i in range(index - 1, -1, -1) if key_identity(pairs[i][0]) == key), None)
    if earlier is None:
        return []
    removed = entry_lines(src, mapping, earlier)
    if removed is None:
        return []
    first = pairs[earlier][0].start_mark
    title = f"Remove the earlier {key_text(pairs[earlier][0])} (line {first.line + 1}), which "
    title += "Psych discards"
    return [Fix(title, edit(removed, ""), safe=True, preferred=True)]


def merge_override(problem: Problem, src: FixSource) -> list[Fix]:
    """Move the ``<<`` line above the mapping's first key, so the keys written win."""
    found = mapping_with_key_at(src.composed(), problem.where.span.start)
    if found is None:
        return []
    mapping, index = found
    if index == 0 or mapping.flow_style:
        return []
    removed = entry_lines(src, mapping, index)
    first = mapping.value[0][0].start_mark
    if removed is None or removed.end.line - removed.start.line != 1:
        return []  # only a one-line `<<: *anchor`
    if src.line(first.line)[: first.column].strip():
        return []
    line = src.line(removed.start.line)
    moved = " " * first.column + line.lstrip() + src.newline
    at = Position(first.line, 0)
    edits = (TextEdit(Span(at, at), moved), TextEdit(removed, ""))
    return [Fix("Move << first, so the keys written here win", edits, preferred=True)]


_JSON_TOKEN = re.compile(
    r'(?P<ws>[ \t\r\n]+)|(?P<comment>/\*.*?\*/|//[^\n]*)|(?P<string>"(?:[^"\\]|\\.)*")'
    r"|(?P<punct>[{}\[\]:,])|(?P<other>[^ \t\r\n{}\[\]:,\"/]+)",
    re.DOTALL,
)


@dataclass(slots=True)
class _JsonObject:
    keys: list[tuple[int, str]]  # (offset of the key's opening quote, the key)
    expect_key: bool = True


def json_duplicate_key(problem: Problem, src: FixSource) -> list[Fix]:
    """Remove the member before the reported one with the same key (Ruby keeps the last),
    from its key to the next member's key; comments between stay."""
    at = src.lines.offset(problem.where.span.start)
    stack: list[_JsonObject | None] = []  # None for an array
    for m in _JSON_TOKEN.finditer(src.text):
        kind, token = m.lastgroup, m.group()
        top = stack[-1] if stack else None
        if kind == "punct":
            if token in "{[":
                stack.append(_JsonObject([]) if token == "{" else None)
            elif token in "}]" and stack:
                stack.pop()
            elif token == "," and top is not None:
                top.expect_key = True
            elif token == ":" and top is not None:
                top.expect_key = False
        elif kind == "string" and top is not None and top.expect_key:
            key = _json_key(token)
            if m.start() == at:
                earlier = [o for o, k in top.keys if k == key]
                return _remove_json_member(src, earlier[-1], key) if earlier else []
            top.keys.append((m.start(), key))
            top.expect_key = False
        elif kind is None:
            return []
    return []


def _json_key(token: str) -> str:
    try:
        decoded = json.loads(token)
    except ValueError:
        return token
    return decoded if isinstance(decoded, str) else token


def _remove_json_member(src: FixSource, start: int, key: str) -> list[Fix]:
    depth = 0
    for m in _JSON_TOKEN.finditer(src.text, start):
        token = m.group()
        if m.lastgroup == "punct":
            if token in "{[":
                depth += 1
            elif token in "}]":
                if depth == 0:
                    return []
                depth -= 1
            elif token == "," and depth == 0:
                end = m.end()
                gap = re.match(r"[ \t\r\n]*", src.text[end:])
                end += gap.end() if gap else 0
                span = Span(src.lines.position(start), src.lines.position(end))
                line = span.start.line + 1
                title = f"Remove the earlier '{key}' (line {line}), which Ruby's JSON discards"
                return [Fix(title, edit(span, ""), safe=True, preferred=True)]
    return []
