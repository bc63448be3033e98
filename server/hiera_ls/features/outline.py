"""The shape of one YAML or JSON file for the editor: the outline (document symbols),
folding ranges and selection ranges, all from the node ranges the loader records.

A data file's parse comes from the snapshot's cache (the parse every other feature uses);
hiera.yaml and facts files are parsed here. A file that does not parse has no outline.
Aliases and ``<<`` merges copy the anchor's nodes under the alias's key with the anchor's
ranges: a node whose range is not inside its parent's is left out (it is written elsewhere).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from operator import itemgetter

from hiera_ls.project.workspace import Snapshot
from hiera_ls.puppet.values import RubySymbol
from hiera_ls.source.data_file import load_json_data
from hiera_ls.source.node_table import Nodes, Path
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
    entries = [] if loaded is None else _tree(*loaded)
    snapshot.memo[memo_key] = entries
    return entries


def folding_ranges(snapshot: Snapshot, path: str) -> list[tuple[int, int, bool]]:
    """(first line, last line, is a comment block) of each multi-line entry and each run of
    two or more comment lines; the last line is the one the entry's text ends on."""
    text = snapshot.text(path)
    if text is None:
        return []
    out: set[tuple[int, int, bool]] = set()
    for entry in _walk(outline(snapshot, path)):
        first, _, end_line, end_column = entry.range
        last = end_line - 1 if end_column == 0 and end_line > first else end_line
        if last > first:
            out.add((first, last, False))
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
    children: dict[Path, list[tuple[Quad, Path, Quad, Quad]]] = {}
    for node_path, raw in nodes.raw_items():
        if not node_path:
            continue
        value = (raw[4], raw[5], raw[6], raw[7])
        if raw[0] >= 0:
            key = (raw[0], raw[1], raw[2], raw[3])
            whole = (raw[0], raw[1], raw[6], raw[7])
        else:
            key = whole = value
        siblings = children.get(node_path[:-1])
        if siblings is None:
            siblings = children[node_path[:-1]] = []
        siblings.append((whole, node_path, key, value))

    def build(parent: Path, within: Quad | None, value: object) -> list[Entry]:
        found = children.get(parent)
        if not found:
            return []
        found.sort(key=itemgetter(0))
        out: list[Entry] = []
        mapping = value if isinstance(value, dict) else None
        for whole, node_path, selection, value_span in found:
            if within is not None and _outside(whole, within):
                continue  # an alias's or merge's copy: written at the anchor
            name = node_path[-1]
            child = mapping.get(name) if mapping is not None else _child(value, name)
            kind = _KINDS.get(type(child)) or _kind(child)
            shown = name if type(name) is str and name else _name(name)
            entry = Entry(shown, kind, whole, selection, value_span, [])
            if kind == "hash" or kind == "array":
                entry.children = build(node_path, whole, child)
            out.append(entry)
        return out

    return build((), None, root)


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


def _walk(entries: Iterable[Entry]) -> Iterable[Entry]:
    for entry in entries:
        yield entry
        yield from _walk(entry.children)


def _comment_blocks(text: str) -> list[tuple[int, int, bool]]:
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
