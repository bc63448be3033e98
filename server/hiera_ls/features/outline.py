"""The shape of one YAML or JSON file for the editor: the outline (document symbols),
folding ranges and selection ranges, all from the node ranges the loader records.

A data file's parse comes from the snapshot's cache (the parse every other feature uses);
hiera.yaml and facts files are parsed here. A file that does not parse has no outline.
Aliases and ``<<`` merges copy the anchor's nodes under the alias's key with the anchor's
ranges: a node whose range is not inside its parent's is left out (it is written elsewhere).
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from operator import attrgetter

from hiera_ls.project.workspace import Snapshot
from hiera_ls.puppet.values import RubySymbol
from hiera_ls.source.data_file import load_json_data
from hiera_ls.source.node_table import Nodes, Walked
from hiera_ls.source.spans import Position, Span
from hiera_ls.source.yaml_loader import load_yaml

# (start line, start column, end line, end column) in code points: an outline of a
# 10,000-key file holds 30,000 ranges, and Span objects would be a third of its cost.
Quad = tuple[int, int, int, int]


@dataclass(slots=True)
class Entry:
    """One key (or sequence item) of the file, with its nested entries in file order."""

    name: str
    kind: str  # "hash", "array", "string", "number", "boolean", "null", "other"
    range: Quad  # key start (item: value start) to value end
    selection: Quad  # the key (item: the value)
    value: Quad
    children: list[Entry] = field(default_factory=list)


def span_of(quad: Quad) -> Span:
    return Span(Position(quad[0], quad[1]), Position(quad[2], quad[3]))


def _contains(quad: Quad, pos: Position) -> bool:
    return (quad[0], quad[1]) <= (pos.line, pos.column) <= (quad[2], quad[3])


def outline(snapshot: Snapshot, path: str) -> list[Entry]:
    """The file's top-level entries, nested; [] for a file that does not parse.

    Kept for the snapshot: the outline, folding and selection ranges of one text all read
    it, and an editor asks for them again on every cursor move (read-only to callers)."""
    memo_key = ("outline", path)
    cached = snapshot.memo.get(memo_key)
    if isinstance(cached, list):
        return cached
    loaded = _loaded(snapshot, path)
    with _collector_paused():
        entries = [] if loaded is None else _tree(*loaded)
    snapshot.memo[memo_key] = entries
    return entries


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cycle collector held off while an outline is built.

    An outline of 10,000 keys allocates some 60,000 containers (entries, their lists and
    ranges), none in a cycle; each 700 allocations start a collection, and every tenth of
    those walks older objects too, which in a server holding a whole repository's data cost
    two thirds of an outline's time (bench/bench_outline.py, ``symbols@edit``). Nothing is
    lost: the collector runs again afterwards, once, over what is left."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def folding_ranges(snapshot: Snapshot, path: str) -> list[tuple[int, int, bool]]:
    """(first line, last line, is a comment block) of each multi-line entry and each run of
    two or more comment lines; the last line is the one the entry's text ends on."""
    text = snapshot.text(path)
    if text is None:
        return []
    out: set[tuple[int, int, bool]] = set()
    for entry in _walk(outline(snapshot, path)):
        first, _, end_line, end_column = entry.range
        if end_line > first and (end_column or end_line - 1 > first):
            out.add((first, end_line - 1 if end_column == 0 else end_line, False))
    out.update(_comment_blocks(text))
    return sorted(out)


def selection_chain(snapshot: Snapshot, path: str, pos: Position) -> list[Span]:
    """The ranges around ``pos``, innermost first: the key or scalar value under it, then
    each enclosing entry out to the top level (the client adds the whole file)."""
    chain: list[Quad] = []
    level = outline(snapshot, path)
    while True:
        inside = next((e for e in level if _contains(e.range, pos)), None)
        if inside is None:
            break
        chain.append(inside.range)
        part = next((q for q in (inside.selection, inside.value) if _contains(q, pos)), None)
        if part is not None and part != inside.range and not inside.children:
            chain.append(part)
        level = inside.children
    chain.reverse()
    out: list[Span] = []
    for quad in chain:  # strictly growing, as LSP asks of a parent
        span = span_of(quad)
        if not out or span != out[-1]:
            out.append(span)
    return out


def _loaded(snapshot: Snapshot, path: str) -> tuple[Nodes, object] | None:
    data_file = snapshot.data_file(path)
    if data_file is not None:
        if data_file.error is not None and not data_file.data:
            return None
        nodes = data_file.nodes
        return (nodes, data_file.data) if isinstance(nodes, Nodes) else None
    text = snapshot.text(path)
    if text is None or not path.endswith((".yaml", ".yml", ".json")):
        return None
    if path.endswith(".json"):
        df = load_json_data(path, text)
        return (df.nodes, df.data) if isinstance(df.nodes, Nodes) else None
    doc = load_yaml(path, text)
    if doc.fatal is not None or not isinstance(doc.nodes, Nodes):
        return None
    return doc.nodes, doc.value


def _tree(nodes: Nodes, root: object) -> list[Entry]:
    """The entries, each top-level one built once per table that holds its nodes (kept in
    the table's memo, moved by the lines added or removed above it since): after an edit
    of a big file, only the entries the edit re-parsed are built again."""
    out: list[Entry] = []
    mapping = root if isinstance(root, dict) else None
    for key, table, node, delta in nodes.top_entries():
        memo = table.memo
        if memo is None:
            memo = table.memo = {}
        moved = memo.get(("outline moved", node))
        if isinstance(moved, tuple) and moved[0] == delta:
            out.append(moved[1])
            continue
        entry = memo.get(("outline", node))
        if not isinstance(entry, Entry):
            value = mapping.get(key) if mapping is not None else _child(root, key)
            entry = _entry(table.walk_from(node, 0), key, value)
            memo[("outline", node)] = entry
        if delta:
            entry = _moved(entry, delta)
            memo[("outline moved", node)] = (delta, entry)  # the copy the newest text needs
        out.append(entry)
    out.sort(key=attrgetter("range"))  # near sorted already: a linear pass
    return out


def _entry(walked: Iterable[Walked], top_key: object, top_value: object) -> Entry:
    """One top-level entry and everything below it, from a walk of its nodes in tree
    order (no paths built: they were half the time of an outline), levels sorted by
    position."""
    root: list[Entry] = []
    levels = [root]
    # the open ancestors of the next node: its children list, its range, its value
    lists: list[list[Entry]] = [root]
    withins: list[Quad | None] = [None]
    values: list[object] = [{top_key: top_value}]
    for depth, name, kl, kc, kel, kec, vl, vc, vel, vec in walked:
        if depth > len(lists):
            continue  # below a left-out entry (or a scalar: no such node, but defensive)
        if depth < len(lists):
            del lists[depth:], withins[depth:], values[depth:]
        value_span = (vl, vc, vel, vec)
        if kl >= 0:
            key = (kl, kc, kel, kec)
            whole = (kl, kc, vel, vec)
        else:
            key = whole = value_span
        within = withins[-1]
        if within is not None and _outside(whole, within):
            continue  # an alias's or merge's copy, written at the anchor: left out, with
            # its children (deeper than the open levels)
        parent = values[-1]
        child = parent.get(name) if type(parent) is dict else _child(parent, name)
        kind = _KINDS.get(type(child)) or _kind(child)
        shown = name if type(name) is str and name else _name(name)
        entry = Entry(shown, kind, whole, key, value_span, [])
        lists[-1].append(entry)
        if kind == "hash" or kind == "array":
            lists.append(entry.children)
            levels.append(entry.children)
            withins.append(whole)
            values.append(child)
    by_range = attrgetter("range")
    for level in levels:
        level.sort(key=by_range)  # near sorted already: a linear pass
    return root[0]


def _moved(entry: Entry, delta: int) -> Entry:
    """``entry`` and its children ``delta`` lines down (a copy: the original stays)."""
    r, s, v = entry.range, entry.selection, entry.value
    return Entry(
        entry.name,
        entry.kind,
        (r[0] + delta, r[1], r[2] + delta, r[3]),
        (s[0] + delta, s[1], s[2] + delta, s[3]),
        (v[0] + delta, v[1], v[2] + delta, v[3]),
        [_moved(child, delta) for child in entry.children],
    )


def _outside(inner: Quad, outer: Quad) -> bool:
    """Does ``inner`` reach out of ``outer``? (No tuple slices: 15,000 calls an outline.)"""
    if inner[0] < outer[0] or (inner[0] == outer[0] and inner[1] < outer[1]):
        return True
    return inner[2] > outer[2] or (inner[2] == outer[2] and inner[3] > outer[3])


def _child(value: object, name: object) -> object:
    try:
        if isinstance(value, dict):
            return value.get(name)
        if isinstance(value, list) and isinstance(name, int):
            return value[name]
    except (TypeError, IndexError):
        pass
    return None


def _name(key: object) -> str:
    if isinstance(key, str):
        return key or '""'
    if isinstance(key, RubySymbol):
        return f":{key.name}"
    if isinstance(key, int) and not isinstance(key, bool):
        return f"[{key}]"
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    return str(key)


_KINDS: dict[type, str] = {
    dict: "hash",
    list: "array",
    bool: "boolean",
    int: "number",
    float: "number",
    str: "string",
    type(None): "null",
}


def _kind(value: object) -> str:
    if isinstance(value, dict):
        return "hash"
    if isinstance(value, list):
        return "array"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if value is None:
        return "null"
    return "other"


def _walk(entries: list[Entry]) -> Iterator[Entry]:
    """Every entry, each before its children (a stack, not nested generators: each item
    of those passed up through every level above it)."""
    stack = [iter(entries)]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        yield entry
        if entry.children:
            stack.append(iter(entry.children))


_COMMENT_LINE = re.compile(r"^[^\S\r\n]*#", re.M)


def _comment_blocks(text: str) -> list[tuple[int, int, bool]]:
    if "\r" not in text:
        return _comment_blocks_lf(text)
    out: list[tuple[int, int, bool]] = []
    start = -1
    lines = re.split(r"\r\n|\r|\n", text)  # LSP's line breaks, not str.splitlines' many
    for n, line in enumerate([*lines, ""]):
        if line.lstrip().startswith("#"):
            if start < 0:
                start = n
        else:
            if start >= 0 and n - 1 > start:
                out.append((start, n - 1, True))
            start = -1
    return out


def _comment_blocks_lf(text: str) -> list[tuple[int, int, bool]]:
    """:func:`_comment_blocks` of a text whose lines all end in \\n, visiting only its
    comment lines (a 10,000-line file has few)."""
    out: list[tuple[int, int, bool]] = []
    line = 0
    at = 0
    start = last = -2
    for found in _COMMENT_LINE.finditer(text):
        line += text.count("\n", at, found.start())
        at = found.start()
        if line != last + 1:
            if last > start >= 0:
                out.append((start, last, True))
            start = line
        last = line
    if last > start >= 0:
        out.append((start, last, True))
    return out
