"""Re-load an edited YAML file by parsing only the top-level entries the edit touched.

Typing in a 10,000-line data file must not cost a full parse per keystroke (about 100 ms
there).  libyaml is deterministic, so with the text before the edit unchanged, the parser
reaches the first touched entry's key in the state it had before: at column 0 of the root
block mapping.  The slice from that key to the next untouched key is parsed as a document
of its own, and its entries replace the old ones; everything after moves by the number of
lines the edit added or removed.

Only documents whose entries stand on their own qualify (``Outline``: no top-level merges
or duplicates, each key at column 0 on lines of its own).  Anchors and aliases inside an
entry are no obstacle; one that ties entries together is, where the edit would cut the tie:
an alias after the slice whose anchor is before it or in it (the slice may now define that
name, or the edit moved the anchor's lines), and an alias in the slice whose anchor is
outside it (the slice alone does not load: "Unknown alias").  Aliases and merges copy node
ranges within a budget for the whole document, so the entries' copies must still fit it.
Whenever the slice could read differently inside the whole file (a syntax error, a document
marker, a key that also exists outside the slice, an entry that no longer starts at column
0 ...) the whole file is parsed as before, so the answer is always the full parse's answer.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, replace

from hiera_ls.source.node_table import Nodes, NodeTable
from hiera_ls.source.spans import FileSpan, Problem, Span
from hiera_ls.source.spliced_nodes import SplicedNodes, splice_inner_nodes, splice_nodes
from hiera_ls.source.text_diff import common_ends
from hiera_ls.source.yaml_document import Outline, YamlDocument
from hiera_ls.source.yaml_loader import load_yaml
from hiera_ls.source.yaml_nodes import COPY_BUDGET

__all__ = ["changed_lines", "changed_region", "reload_yaml"]

# Lines the slice must not hold: a document marker or a directive changes what follows.
_MARKERS = re.compile(r"^(?:---|\.\.\.)(?:[ \t\r\n]|$)|^%", re.M)
_ODD_BREAKS = ("\x85", "\u2028", "\u2029")  # line breaks to libyaml, not to str.count("\n")


def reload_yaml(previous: YamlDocument, previous_text: str, text: str) -> YamlDocument:
    """``text`` loaded as :func:`load_yaml` would, re-using ``previous`` (from
    ``previous_text``).
    """
    spliced = _splice(previous, previous_text, text)
    return spliced if spliced is not None else load_yaml(previous.path, text)


@dataclass(frozen=True, slots=True)
class _Edit:
    """Where two texts differ: ``old[start:old_stop]`` is what the edit replaced."""

    start: int
    old_stop: int
    first_line: int  # the line holding ``start``
    old_stop_line: int  # the line holding ``old_stop`` in ``old``
    old_end_line: int  # first line wholly after the change in ``old``
    new_end_line: int  # the same line in ``new``


def _edit(old: str, new: str) -> _Edit | None:
    """The changed region, or None for equal texts (lines counted by "\\n")."""
    p, s = common_ends(old, new)
    if p == len(old) == len(new):
        return None
    old_stop, new_stop = len(old) - s, len(new) - s
    first = old.count("\n", 0, p)
    stop_line = old.count("\n", 0, old_stop)
    new_stop_line = first + new.count("\n", p, new_stop)
    # the unchanged end starts a line in both texts: that line is not part of the change
    whole = (old_stop == 0 or old[old_stop - 1] == "\n") and (
        new_stop == 0 or new[new_stop - 1] == "\n"
    )
    extra = 0 if whole else 1
    return _Edit(p, old_stop, first, stop_line, stop_line + extra, new_stop_line + extra)


def changed_lines(old: str, new: str) -> tuple[int, int, int]:
    """(first changed line, first line after the change in ``old``, the same in ``new``).

    Lines before the first and from the returned ends on are equal in both texts (lines
    counted by "\\n"); equal texts give three times the number of lines.
    """
    first, _, old_end, new_end = changed_region(old, new)
    return first, old_end, new_end


def changed_region(old: str, new: str) -> tuple[int, int, int, int]:
    """:func:`changed_lines` with the column the change starts at on its first line, second:
    what stands before it on that line is the same in both texts (columns counted from the
    "\\n" before, as lines are)."""
    edit = _edit(old, new)
    if edit is None:
        n = old.count("\n") + 1
        return n, 0, n, n
    column = edit.start - (old.rfind("\n", 0, edit.start) + 1)
    return edit.first_line, column, edit.old_end_line, edit.new_end_line


def _line_start(text: str, line_of_offset: int, offset: int, line: int) -> int:
    """Offset of the start of ``line``, walking from ``offset`` (which lies on
    ``line_of_offset``).
    """
    pos = text.rfind("\n", 0, offset) + 1
    at = line_of_offset
    while at > line:
        pos = text.rfind("\n", 0, pos - 1) + 1
        at -= 1
    while at < line:
        nxt = text.find("\n", pos)
        if nxt < 0:
            return len(text)
        pos = nxt + 1
        at += 1
    return pos


def _splice(previous: YamlDocument, old: str, new: str) -> YamlDocument | None:
    outline = previous.outline
    value = previous.value
    if (
        outline is None
        or not isinstance(value, dict)
        or previous.fatal is not None
        or not outline.lines
        or outline.column
        or previous.too_large
    ):
        return None
    if _odd_breaks(old) or _odd_breaks(new):
        return None
    edit = _edit(old, new)
    if edit is None:
        return previous
    delta = edit.new_end_line - edit.old_end_line
    lines = outline.lines
    i1 = bisect_right(lines, edit.first_line) - 1  # the entry the change starts in
    if i1 < 0:
        return None  # before the first key: the header, a directive, "---"
    i2 = bisect_left(lines, edit.old_end_line)  # first entry wholly after the change
    if i2 == i1 + 1 and edit.first_line > lines[i1] and _long(previous, i1):
        inner = _splice_inner(previous, old, new, edit, i1)  # one entry's children
        if inner is not None:
            return inner
    while True:
        b1 = lines[i1]
        start = _line_start(old, edit.first_line, edit.start, b1)
        if start < len(new) and new[start] not in " \t\r\n":
            break
        # A blank (or indented) first line may belong to the entry before: take it in too.
        if i1 == 0:
            return None
        i1 -= 1
    if i2 < len(lines):
        stop = _line_start(old, edit.old_stop_line, edit.old_stop, lines[i2]) + len(new) - len(old)
    else:
        stop = len(new)
    piece = new[start:stop]
    if _MARKERS.search(piece):
        return None
    part = load_yaml(previous.path, piece)
    if part.fatal is not None or part.too_large:
        return None  # (values too large to walk are said in an order of their own)
    if part.outline is not None and isinstance(part.value, dict) and not part.outline.column:
        part_outline = part.outline
        part_value: dict[object, object] = part.value
    elif part.value is None and not part.nodes and not part.problems:
        part_outline = Outline((), ())  # only comments left: the entries were deleted
        part_value = {}
    else:
        return None
    keys = outline.keys
    kept_before, dropped, kept_after = keys[:i1], keys[i1:i2], keys[i2:]
    if not (part_value or kept_before or kept_after):
        return None  # nothing left: the file is empty now, which a full parse words
    outside = set(kept_before)
    outside.update(kept_after)
    if not outside.isdisjoint(part_value):
        return None  # a duplicate key across entries: Psych's last-wins needs the full parse
    ties = _ties(outline, part_outline, kept_before, kept_after)
    if ties is None:
        return None
    merged: dict[object, object] = {k: value[k] for k in kept_before}
    merged.update(part_value)
    for k in kept_after:
        merged[k] = value[k]
    new_lines = (
        *lines[:i1],
        *(line + b1 for line in part_outline.lines),
        *(line + delta for line in lines[i2:]),
    )
    new_outline = Outline(new_lines, (*kept_before, *part_outline.keys, *kept_after), *ties)
    part_nodes = part.nodes
    if not isinstance(part_nodes, NodeTable) or not isinstance(previous.nodes, Nodes):
        return None
    nodes = splice_nodes(
        previous.nodes,
        keys,
        dropped,
        kept_after,
        delta,
        part_nodes,
        part_outline.keys,
        b1,
        (new_outline.keys[0], new_outline.keys[-1]),
    )
    joints = (i1, i1 + len(part_outline.keys))  # where old and new entries now meet
    if not all(_follows(nodes, new_outline, i) for i in joints):
        return None
    end = lines[i2] if i2 < len(lines) else None
    problems = _problems(previous.problems, part.problems, b1, end, delta)
    return YamlDocument(previous.path, merged, nodes, problems, None, new_outline)


_Ties = tuple[tuple[tuple[object, object], ...], tuple[tuple[object, int], ...], tuple[object, ...]]


def _ties(
    outline: Outline,
    part: Outline,
    kept_before: Sequence[object],
    kept_after: Sequence[object],
) -> _Ties | None:
    """The new outline's links, copies spent and anchored keys; None when an alias after the
    slice reads an anchor before it or in it, or the copies overrun the budget."""
    if not (outline.links or outline.spent or outline.anchored):
        if sum(n for _, n in part.spent) > COPY_BUDGET:
            return None
        return part.links, part.spent, part.anchored
    after = set(kept_after)
    if any(user in after and holder not in after for user, holder in outline.links):
        return None
    before = set(kept_before)
    spent = (
        *((k, n) for k, n in outline.spent if k in before),
        *part.spent,
        *((k, n) for k, n in outline.spent if k in after),
    )
    if sum(n for _, n in spent) > COPY_BUDGET:
        return None  # which alias goes without its ranges is decided in file order
    links = (
        *(link for link in outline.links if link[0] in before),
        *part.links,
        *(link for link in outline.links if link[0] in after),
    )
    anchored = (
        *(k for k in outline.anchored if k in before),
        *part.anchored,
        *(k for k in outline.anchored if k in after),
    )
    return links, spent, anchored


def _problems(
    old: tuple[Problem, ...], part: tuple[Problem, ...], start: int, end: int | None, delta: int
) -> tuple[Problem, ...]:
    """The old problems before line ``start``, the slice's (moved to it), and the old ones
    from line ``end`` on (moved by ``delta``)."""
    problems = [pr for pr in old if pr.where.span.start.line < start]
    problems.extend(_moved(pr, start) for pr in part)
    if end is not None:
        problems.extend(_moved(pr, delta) for pr in old if pr.where.span.start.line >= end)
    return tuple(problems)


def _children(value: object, nodes: Nodes, key: object) -> tuple[list[int], int] | None:
    """The line of each child key of the top-level entry ``key`` and their column, when its
    value is a block mapping whose keys start lines of their own at one column (as
    :func:`outline_of` asks of a document's), below the key's line."""
    own = nodes.raw((key,))
    if not isinstance(value, dict) or not value or own is None:
        return None
    column = own[5]
    if column <= 0 or own[4] <= own[2]:
        return None  # not a block mapping below its key
    lines: list[int] = []
    last_end = (own[4], 0)
    for child in value:
        r = nodes.raw((key, child))
        if r is None or r[1] != column or r[0] != r[2] or (r[0], 0) < last_end:
            return None
        lines.append(r[0])
        last_end = (r[6], r[7])
    if lines[0] != own[4]:
        return None  # the value starts before its first key: a duplicate dropped there
    return lines, column


_NOT_A_KEY = ("", " ", "\t", "\r", "\n", "#")
# An entry this long is re-parsed a child at a time (a shorter one is cheap to parse whole,
# and its nodes stay in one piece, which is quicker to walk)
INNER_LINES = 200


def _long(previous: YamlDocument, i: int) -> bool:
    outline = previous.outline
    if outline is None:
        return False
    if i + 1 < len(outline.lines):
        return outline.lines[i + 1] - outline.lines[i] > INNER_LINES
    own = previous.nodes.get((outline.keys[i],))
    return own is not None and own.value.end.line - outline.lines[i] > INNER_LINES


def _splice_inner(
    previous: YamlDocument, old: str, new: str, edit: _Edit, i: int
) -> YamlDocument | None:
    """Re-parse only the children an edit touched of the one top-level entry it is inside
    (Wikimedia's admin data: three top-level keys over 7,310 lines). The slice of children
    is parsed alone as a document indented as they are, which libyaml reads as it reads
    them in place; an entry with anchors, aliases or merges is left to the others."""
    outline = previous.outline
    value = previous.value
    nodes = previous.nodes
    if outline is None or not isinstance(value, dict) or not isinstance(nodes, Nodes):
        return None
    key = outline.keys[i]
    if key in outline.anchored or any(k == key for k, _ in outline.spent):
        return None
    entry = value[key]
    found = nodes.children.get(key) if isinstance(nodes, SplicedNodes) else None
    if found is None:
        found = _children(entry, nodes, key)  # once after a full parse, then kept
    if found is None or not isinstance(entry, dict):
        return None
    lines, column = found
    after_line = outline.lines[i + 1] if i + 1 < len(outline.lines) else None
    if any(
        pr.code == "yaml-duplicate-key"
        and pr.where.span.start.line >= outline.lines[i]
        and (after_line is None or pr.where.span.start.line < after_line)
        for pr in previous.problems
    ):
        return None  # a child given twice: the first may lie outside the slice
    j1 = bisect_right(lines, edit.first_line) - 1
    if j1 < 0:
        return None  # between the key and its first child
    j2 = bisect_left(lines, edit.old_end_line)
    indent = " " * column
    while True:
        start = _line_start(old, edit.first_line, edit.start, lines[j1])
        if new.startswith(indent, start) and new[start + column : start + column + 1] not in (
            _NOT_A_KEY
        ):
            break
        if j1 == 0:
            return None
        j1 -= 1
    b1 = lines[j1]
    end = lines[j2] if j2 < len(lines) else after_line
    if end is not None:
        stop = _line_start(old, edit.old_stop_line, edit.old_stop, end) + len(new) - len(old)
    else:
        stop = len(new)
    piece = new[start:stop]
    if _MARKERS.search(piece) or _dedented(piece, column):
        return None
    part = load_yaml(previous.path, piece)
    part_outline = part.outline
    if (
        part.fatal is not None
        or part.too_large
        or part_outline is None
        or part_outline.column != column
        or part_outline.anchored
        or part_outline.spent
        or not isinstance(part.value, dict)
        or not isinstance(part.nodes, NodeTable)
    ):
        return None
    children = tuple(entry)
    kept_before, dropped, kept_after = children[:j1], children[j1:j2], children[j2:]
    if any(k in entry and k not in dropped for k in part.value):
        return None  # a duplicate key across children: the full parse says which wins
    delta = edit.new_end_line - edit.old_end_line
    changed = _replaced(entry, kept_before, dropped, part.value, kept_after)
    merged = {k: (changed if k == key else v) for k, v in value.items()}
    keys = outline.keys
    try:
        spliced_nodes = splice_inner_nodes(
            nodes,
            keys,
            key,
            (kept_before, dropped, part_outline.keys, kept_after),
            delta,
            part.nodes,
            b1,
            keys[i + 1 :],
            (keys[0], keys[-1]),
        )
    except KeyError:
        return None
    new_lines = (*outline.lines[: i + 1], *(line + delta for line in outline.lines[i + 1 :]))
    new_outline = replace(outline, lines=new_lines)
    # each child starts after the one before ends, and the entry before the next top-level key
    after = lines[j2:] if not delta else tuple(n + delta for n in lines[j2:])
    inner = Outline(
        (*lines[:j1], *(n + b1 for n in part_outline.lines), *after),
        (*kept_before, *part_outline.keys, *kept_after),
    )
    joints = (j1, j1 + len(part_outline.keys))
    if not all(_follows(spliced_nodes, inner, j, (key,)) for j in joints):
        return None
    if not _follows(spliced_nodes, new_outline, i + 1):
        return None
    if isinstance(spliced_nodes, SplicedNodes):
        # what _children would find in the result: the children kept are as they were (those
        # after moved by delta), the new ones passed outline_of and the joints were checked
        spliced_nodes.children[key] = (inner.lines, column)
    problems = _problems(previous.problems, part.problems, b1, end, delta)
    return YamlDocument(previous.path, merged, spliced_nodes, problems, None, new_outline)


def _replaced(
    entry: dict[object, object],
    kept_before: Sequence[object],
    dropped: Sequence[object],
    fresh: dict[object, object],
    kept_after: Sequence[object],
) -> dict[object, object]:
    """``entry`` with the children ``dropped`` replaced by ``fresh``, in file order; copied
    whole at once when the keys did not change (typing inside one child): strings or
    integers, whose equal values are the same key (not 0.0 for -0.0)."""
    if len(fresh) == len(dropped) and all(
        type(a) is type(b) and type(a) in (str, int) and a == b
        for a, b in zip(fresh, dropped, strict=True)
    ):
        changed = dict(entry)
        changed.update(fresh)
        return changed
    changed = {k: entry[k] for k in kept_before}
    changed.update(fresh)
    for k in kept_after:
        changed[k] = entry[k]
    return changed


def _dedented(piece: str, column: int) -> bool:
    """Whether a line of ``piece`` other than a blank or a comment starts left of
    ``column``: in the file it ends the entry (or the file), in the slice alone the document,
    which libyaml then reads no further."""
    for line in piece.split("\n"):
        text = line.lstrip(" ")
        if text and text[0] not in "#\r" and len(line) - len(text) < column:
            return True
    return False


def _odd_breaks(text: str) -> bool:
    """Line breaks libyaml counts that "\\n" does not (a lone CR, NEL, LS, PS)."""
    return any(ch in text for ch in _ODD_BREAKS) or (
        "\r" in text and text.count("\r") != text.count("\r\n")
    )


def _follows(nodes: Nodes, outline: Outline, i: int, within: tuple[object, ...] = ()) -> bool:
    """Entry ``i`` starts on a line after entry ``i - 1`` ends (as :func:`outline_of` wants);
    ``within``: the path of the mapping whose entries ``outline`` lists."""
    if i <= 0 or i >= len(outline.keys):
        return True
    before = nodes.raw((*within, outline.keys[i - 1]))
    return before is not None and (before[6], before[7]) <= (outline.lines[i], 0)


def _moved(problem: Problem, delta: int) -> Problem:
    span = problem.where.span
    moved = Span.of(
        span.start.line + delta, span.start.column, span.end.line + delta, span.end.column
    )
    return replace(problem, where=FileSpan(problem.where.path, moved))
