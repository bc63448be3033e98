"""What the quick fixes of every family read from a YAML text: the word under a problem's
range, scalars quoted as Psych reads them, a mapping's entries and the lines they take."""

from __future__ import annotations

import re
from collections.abc import Sequence

import yaml

from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.psych_scalars import Refusal, tokenize
from hiera_ls.source.spans import Position, Problem, Span
from hiera_ls.source.text_edits import Fix, edit


def one_line(problem: Problem) -> Span:
    """The problem's range, when it is a non-empty part of one line."""
    span = problem.where.span
    if span.start.line != span.end.line or span.start == span.end:
        raise ValueError("not a one-line range")
    return span


def quoted(text: str) -> str:
    """``text`` as a YAML quoted scalar with the same characters: double quotes unless the
    text holds one (a plain scalar has no escapes to keep)."""
    if '"' not in text and "\\" not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "''") + "'"


def plain_text(problem: Problem, src: FixSource) -> tuple[Span, str]:
    """The one-line plain scalar under the problem's range, as written."""
    span = one_line(problem)
    written = src.at(span)
    if not written or written[0] in "\"'|>!&*[{" or written != written.strip():
        raise ValueError("not a plain scalar")
    return span, written


def reads_as(written: str) -> object:
    """What Psych makes of a plain scalar (a :class:`Refusal` for what it refuses)."""
    try:
        return tokenize(written)
    except Refusal as refusal:
        return refusal


def word_in_span(problem: Problem, src: FixSource) -> tuple[Span, str, str]:
    """The span's text without its quotes, and the quote it had."""
    span = one_line(problem)
    written = src.at(span)
    quote = written[0] if written[:1] in ("'", '"') else ""
    if quote and not (len(written) > 1 and written.endswith(quote)):
        raise ValueError("unbalanced quotes")
    return span, written[len(quote) : len(written) - len(quote)], quote


def suggested_key(problem: Problem, src: FixSource, title: str) -> list[Fix]:
    """The key under the problem written as its first suggestion (``title`` with ``{}`` for
    it), quoted as the key was; none when the text there is not the key the problem names."""
    span, word, quote = word_in_span(problem, src)
    if word != problem.details.key or not problem.details.suggestions:
        return []
    new = problem.details.suggestions[0]
    return [Fix(title.format(new), edit(span, f"{quote}{new}{quote}"), preferred=True)]


def nearest(word: str, choices: Sequence[str]) -> str | None:
    """The choice ``word`` most likely misspells (a third of its letters wrong at most)."""
    scored = sorted((distance(word.lower(), c), c) for c in choices)
    best = scored[0]
    limit = max(1, len(word) // 3)
    return best[1] if best[0] <= limit else None


def distance(a: str, b: str) -> int:
    """Levenshtein's edit distance."""
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def blank_or_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def next_content_line(src: FixSource, line: int) -> str | None:
    """The next line after ``line`` that is neither blank nor a comment."""
    n = line + 1
    while n < src.line_count:
        text = src.line(n)
        if not blank_or_comment(text):
            return text
        n += 1
    return None


KeyPlaces = dict[tuple[int, int], tuple[yaml.MappingNode, int]]


def mapping_with_key_at(src: FixSource, at: Position) -> tuple[yaml.MappingNode, int] | None:
    """The mapping holding the key that starts at ``at``, and the key's index in it."""
    places = src.memo.get("key places")
    if not isinstance(places, dict):
        places = src.memo["key places"] = _key_places(src.composed())
    found: tuple[yaml.MappingNode, int] | None = places.get((at.line, at.column))
    return found


def _key_places(node: object) -> KeyPlaces:
    """Every mapping key's start, with its mapping and index: one walk of the nodes."""
    out: KeyPlaces = {}
    stack = [node]
    seen: set[int] = set()
    while stack:
        current = stack.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        if isinstance(current, yaml.MappingNode):
            for i, (k, v) in enumerate(current.value):
                out.setdefault((k.start_mark.line, k.start_mark.column), (current, i))
                stack.extend((k, v))
        elif isinstance(current, yaml.SequenceNode):
            stack.extend(current.value)
    return out


def key_identity(node: object) -> tuple[str, object] | None:
    """The key as Psych reads it (``yes`` and ``true`` are one key), None when unsure."""
    if not isinstance(node, yaml.ScalarNode) or node.tag.startswith("!"):
        return None
    value = reads_as(node.value) if not node.style else node.value
    if isinstance(value, Refusal):
        return None
    return type(value).__name__, value


def key_text(node: yaml.ScalarNode) -> str:
    return f"'{node.value}'" if not node.style else f"{node.style}{node.value}{node.style}"


def entry_lines(src: FixSource, mapping: yaml.MappingNode, index: int) -> Span | None:
    """The whole lines of one block-mapping entry (up to the next entry, or to the end of
    its value when it is the last), when nothing else shares them."""
    key, value = mapping.value[index]
    first = key.start_mark
    if mapping.flow_style or src.line(first.line)[: first.column].strip():
        return None
    # Comments indented deeper than the key belong to its value: they go with it (left
    # behind after a block scalar, they would become its text)
    if index + 1 < len(mapping.value):
        last = mapping.value[index + 1][0].start_mark.line - 1
        while last > first.line and _above_the_next_key(src.line(last), first.column):
            last -= 1
    elif value.start_mark.index < key.end_mark.index:
        last = first.line  # an alias (`<<: *x`): its node is written at the anchor
    else:
        end = _content_end(value, key.end_mark.index)
        if end is None or end < (first.line, first.column):
            return None
        last = end[0] if end[1] > 0 else end[0] - 1
        last = _deeper_comments_after(src, last, first.column)
    if last < first.line:
        return None
    # a byte order mark is no part of the first line's entry: it stays
    column = 1 if first.line == 0 and src.text.startswith("\ufeff") else 0
    removed = Span(Position(first.line, column), Position(last + 1, 0))
    return None if defines_used_anchor(src.at(removed), src.text) else removed


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _above_the_next_key(line: str, column: int) -> bool:
    """A blank line, or a comment no deeper than the entry's key: the next key's."""
    stripped = line.strip()
    return not stripped or (stripped.startswith("#") and _indent(line) <= column)


def _deeper_comments_after(src: FixSource, last: int, column: int) -> int:
    """``last``, moved past the comment lines (and the blank lines between them) indented
    deeper than ``column`` that follow it."""
    n, found = last + 1, last
    while n < src.line_count:
        line = src.line(n)
        if line.strip().startswith("#") and _indent(line) > column:
            found = n
        elif line.strip():
            break
        n += 1
    return found


def _content_end(node: object, after: int) -> tuple[int, int] | None:
    """Where a value's own text ends (a block collection ends with its last child); None
    when that is an alias, whose node (and marks) are the anchor's, written before."""
    if not isinstance(node, yaml.Node) or node.start_mark.index < after:
        return None
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style:
        items = node.value
        if not items:
            return None
        last = items[-1][1] if isinstance(node, yaml.MappingNode) else items[-1]
        return _content_end(last, node.start_mark.index)
    return node.end_mark.line, node.end_mark.column


_ANCHOR = re.compile(r"(?:^|[\s\[{,])&([^\s\[\]{},]+)")


def defines_used_anchor(removed: str, text: str) -> bool:
    """Does ``removed`` define an anchor that an alias of ``text`` uses?"""
    return any(f"*{m.group(1)}" in text for m in _ANCHOR.finditer(removed))
