"""Quick fixes of the loader's findings (YAML as Psych reads it, JSON as Ruby's parser does):
quote what YAML 1.1 would read as another type, drop a Symbol's colon, remove a duplicate key."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass

import yaml

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


def drop_byte_order_mark(problem: Problem, src: FixSource) -> list[Fix]:
    """Remove the mark, so Psych reads every entry (which changes what Puppet reads: the
    entries it ignored become data, so ``--fix`` never applies it)."""
    if not src.text.startswith("\ufeff"):
        return []
    title = "Remove the byte order mark (Puppet then reads every entry)"
    return [Fix(title, edit(Span.of(0, 0, 0, 1), ""), preferred=True)]


def duplicate_key(problem: Problem, src: FixSource) -> list[Fix]:
    """Psych keeps a repeated key where it is first written, with the value written last
    (``{b: 1, a: 2, b: 3}`` is ``{"b"=>3, "a"=>2}``): the last entry's lines take the first
    one's place and the other entries of the key go, so the value and the key order Puppet
    reads stay as they are."""
    found = mapping_with_key_at(src, problem.where.span.start)
    if found is None:
        return []
    mapping, index = found
    pairs = mapping.value
    key = key_identity(pairs[index][0])
    if key is None or mapping.flow_style:
        return []
    made = src.memo.get(("duplicate fix", id(mapping), key))
    if made is None:  # once per key of a mapping, for all its duplicates' problems
        made = src.memo[("duplicate fix", id(mapping), key)] = _keep_last(src, mapping, key)
    return list(made) if isinstance(made, list) else []


def _keep_last(src: FixSource, mapping: yaml.MappingNode, key: object) -> list[Fix]:
    pairs = mapping.value
    known = src.memo.get(("key groups", id(mapping)))
    groups: dict[object, list[int]] = known if isinstance(known, dict) else {}
    if not isinstance(known, dict):
        for i, (k, _) in enumerate(pairs):
            groups.setdefault(key_identity(k), []).append(i)
        src.memo[("key groups", id(mapping))] = groups
    same = groups.get(key, [])
    if len(same) < 2:
        return []
    spans = [entry_lines(src, mapping, i) for i in same]
    if any(s is None for s in spans):
        return []
    first, *rest = (s for s in spans if s is not None)
    moved = src.at(rest[-1])
    if not moved.endswith(("\n", "\r")):
        if _holds_block_scalar(pairs[same[-1]][1]):
            return []  # at the end of a file without a line break, it would gain one
        moved += src.newline
    if _aliases_defined_after(moved, src, src.lines.offset(first.start)):
        return []  # an alias in the last value would come before its anchor
    edits = (TextEdit(first, moved), *(TextEdit(s, "") for s in rest))
    line = first.start.line + 1
    title = f"Keep {key_text(pairs[same[-1]][0])} once, on line {line} with its last value, as "
    title += "Psych reads it"
    return [Fix(title, edits, safe=True, preferred=True)]


def _holds_block_scalar(node: object) -> bool:
    """Whether a value is or holds a literal or folded block scalar (``|``, ``>``)."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, yaml.ScalarNode):
            if current.style in ("|", ">"):
                return True
        elif isinstance(current, yaml.MappingNode):
            stack.extend(v for pair in current.value for v in pair)
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
    return False


_ALIAS = re.compile(r"(?:^|[\s\[{,:])\*([^\s\[\]{},]+)")


def _aliases_defined_after(moved: str, src: FixSource, before: int) -> bool:
    """Whether ``moved`` uses an alias whose anchor is not written before offset ``before``."""
    head = src.text[:before]
    return any(f"&{m.group(1)}" not in head for m in _ALIAS.finditer(moved))


def merge_override(problem: Problem, src: FixSource) -> list[Fix]:
    """Move the ``<<`` line above the mapping's first key, so the keys written win."""
    found = mapping_with_key_at(src, problem.where.span.start)
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
class _Member:
    """One member of a JSON object being scanned."""

    key: str
    start: int  # the key's opening quote
    value_start: int = -1
    value_end: int = -1


@dataclass(slots=True)
class _JsonObject:
    """A JSON object being scanned for duplicate keys."""

    members: list[_Member]
    expect_key: bool = True
    awaiting_value: bool = False


def json_duplicate_key(problem: Problem, src: FixSource) -> list[Fix]:
    """Ruby's JSON keeps a repeated key where it is first written, with the value written
    last: the last value takes the first one's place, and the later members of the key go
    (each with the comma before it), so the value and the key order Puppet reads stay."""
    objects = src.memo.get("json objects")
    if not isinstance(objects, dict):
        objects = src.memo["json objects"] = _objects(src.text)
    members: list[_Member] | None = objects.get(src.lines.offset(problem.where.span.start))
    if members is None:
        return []
    at = src.lines.offset(problem.where.span.start)
    reported = next(m for m in members if m.start == at)
    made = src.memo.get(("json duplicate fix", id(members), reported.key))
    if not isinstance(made, list):
        made = _keep_last_member(src, members, reported.key)
        src.memo[("json duplicate fix", id(members), reported.key)] = made
    return list(made)


def _keep_last_member(src: FixSource, members: list[_Member], key: str) -> list[Fix]:
    same = [i for i, m in enumerate(members) if m.key == key]
    if len(same) < 2 or any(members[i].value_end < 0 for i in same):
        return []
    first, last = members[same[0]], members[same[-1]]
    text = src.text

    def span(start: int, end: int) -> Span:
        return Span(src.lines.position(start), src.lines.position(end))

    edits = [
        TextEdit(span(first.value_start, first.value_end), text[last.value_start : last.value_end])
    ]
    for i in same[1:]:
        edits.append(TextEdit(span(members[i - 1].value_end, members[i].value_end), ""))
    line = src.lines.position(first.start).line + 1
    title = f"Keep '{key}' once, on line {line} with its last value, as Ruby's JSON reads it"
    return [Fix(title, tuple(edits), safe=True, preferred=True)]


def _objects(text: str) -> dict[int, list[_Member]]:
    """Every object's members, each with its value's range, by the offset of each member's
    key (its opening quote): one pass over the text. An object the text does not close is
    left out."""
    out: dict[int, list[_Member]] = {}
    stack: list[_JsonObject | None] = []  # None for an array
    prev_end = 0
    for m in _JSON_TOKEN.finditer(text):
        kind, token = m.lastgroup, m.group()
        if kind in ("ws", "comment"):
            continue
        if kind is None:
            return out
        top = stack[-1] if stack else None
        if top is not None and top.awaiting_value:
            top.members[-1].value_start = m.start()
            top.awaiting_value = False
        closing = kind == "punct" and token in ",}"
        if closing and top is not None and top.members and top.members[-1].value_end < 0:
            top.members[-1].value_end = prev_end
        if kind == "punct":
            if token in "{[":
                stack.append(_JsonObject([]) if token == "{" else None)
            elif token in "}]" and stack:
                done = stack.pop()
                if done is not None:
                    out.update((member.start, done.members) for member in done.members)
            elif token == "," and top is not None:
                top.expect_key = True
            elif token == ":" and top is not None:
                top.expect_key = False
                top.awaiting_value = True
        elif kind == "string" and top is not None and top.expect_key:
            top.members.append(_Member(_json_key(token), m.start()))
            top.expect_key = False
        prev_end = m.end()
    return out


def _json_key(token: str) -> str:
    try:
        decoded = json.loads(token)
    except ValueError:
        return token
    return decoded if isinstance(decoded, str) else token
