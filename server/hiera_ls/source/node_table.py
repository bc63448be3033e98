"""Where every node of a loaded file sits: key path from the root -> its ranges.

A repository holds millions of nodes and the language server keeps them all, so this is
most of its memory: marks live in one flat ``array('i')`` and become :class:`NodeSpans`
only when asked for.  After an edit only the top-level entries the edit touched are
re-parsed (``yaml_reparse``); ``spliced_nodes.SplicedNodes`` then answers from the old table for
the entries before the edit, the old table shifted by the lines added or removed for the
entries after it, and a small new table for the re-parsed ones, instead of copying every
node of a 10,000-line file on each keystroke.  An edit inside one big entry re-parses the
children it touched: that entry's children are then pieces of their own.
"""

from __future__ import annotations

import operator
from abc import abstractmethod
from array import array
from bisect import bisect_right
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import compress

from hiera_ls.source.spans import Span

__all__ = [
    "EMPTY_NODES",
    "NodeSpans",
    "NodeTable",
    "Nodes",
    "Path",
    "Raw",
    "TopEntry",
    "Walked",
    "shifted",
    "spans_line",
]


@dataclass(frozen=True, slots=True)
class NodeSpans:
    """Where one node of a file's value sits: its key, its value, its scalar style."""

    key: Span | None  # range of the key scalar (None for the root and sequence items)
    value: Span  # range of the value node
    style: str | None  # scalar style: None plain, "'", '"', "|", ">" ; None for collections


# One node's ranges, flat: key start line/col, key end line/col (-1 when no key), value
# start line/col, value end line/col, style.
Raw = tuple[int, int, int, int, int, int, int, int, "str | None"]
Path = tuple[object, ...]
# A top-level entry (see Nodes.top_entries): key, table, node in it, lines moved.
TopEntry = tuple[object, "NodeTable", int, int]
# A node met by NodeTable.walk_from: its depth (1 for a top-level entry), its key (a sequence
# item's index), then its marks as in Raw, without the style.
Walked = tuple[int, object, int, int, int, int, int, int, int, int]


def _spans(r: Raw) -> NodeSpans:
    key = None if r[0] < 0 else Span.of(r[0], r[1], r[2], r[3])
    return NodeSpans(key, Span.of(r[4], r[5], r[6], r[7]), r[8])


def spans_line(r: Raw, line: int) -> bool:
    return (r[0] <= line <= r[2]) or (r[4] <= line <= r[6])


def shifted(r: Raw, delta: int) -> Raw:
    """``r`` moved down by ``delta`` lines (columns never change: edits cut at line starts)."""
    if not delta:
        return r
    if r[0] < 0:
        return (r[0], r[1], r[2], r[3], r[4] + delta, r[5], r[6] + delta, r[7], r[8])
    return (r[0] + delta, r[1], r[2] + delta, r[3], r[4] + delta, r[5], r[6] + delta, r[7], r[8])


class Nodes(Mapping[Path, NodeSpans]):
    """What features ask of a file's node positions, beyond the mapping itself."""

    __slots__ = ()
    symbol_keys: bool  # some key path holds a RubySymbol
    # False when the loader saw nothing Puppet's RichData check could reject (no Symbol
    # value, Ruby object, or Boolean/null/collection key), so validation can be skipped
    suspect: bool

    @abstractmethod
    def raw(self, path: Path) -> Raw | None:
        """The flat marks of ``path``'s node, or None."""

    @abstractmethod
    def raw_items(self) -> Iterator[tuple[Path, Raw]]:
        """Every (path, marks), in no promised order."""

    @abstractmethod
    def top_entries(self) -> list[TopEntry]:
        """Each top-level entry: its key, the table holding its nodes, its node there and
        how many lines those moved since that table was parsed, in file order.

        What is derived from one entry of one table (its outline) stays true while the
        table lives, moved by the lines: after an edit only the re-parsed entries are new.
        """

    def size_bound(self) -> int:
        """At least ``len(self)``, at once (a visit budget's measure of the file)."""
        return len(self)

    def covering(self, line: int) -> Iterator[tuple[Path, Raw]]:
        """Only the nodes whose key or value spans ``line`` (hover and definition per keystroke)."""
        for path, r in self.raw_items():
            if spans_line(r, line):
                yield path, r

    def __getitem__(self, path: Path) -> NodeSpans:
        r = self.raw(path)
        if r is None:
            raise KeyError(path)
        return _spans(r)


_STYLES: tuple[str | None, ...] = (None, "'", '"', "|", ">")
_STYLE_CODE = {style: code for code, style in enumerate(_STYLES)}
WIDE = 16  # a node with more children than this gets a child dict when searched


class NodeTable(Nodes):
    """The nodes of one parse: 8 ints a node in one array, linked as a tree.

    No path tuples are kept (a repository holds millions of nodes, and their paths were
    most of the server's memory): each node knows its key, parent, first child and next
    sibling, and a path is found by walking down from its top-level key.  Paths are built
    again only when the table is iterated.
    """

    __slots__ = (
        "_by_line",
        "_first",
        "_keys",
        "_kids",
        "_marks",
        "_next",
        "_other",
        "_other_at",
        "_parent",
        "_styles",
        "_top",
        "memo",
        "suspect",
        "symbol_keys",
    )

    def __init__(
        self, raw: Mapping[Path, Raw], symbol_keys: bool = False, suspect: bool = True
    ) -> None:
        count = len(raw)
        position: dict[Path, int] = {}
        marks = array("i")
        styles = bytearray()
        keys: list[object] = []
        for path, data in raw.items():
            position[path] = len(keys)
            marks.extend(data[:8])
            styles.append(_STYLE_CODE.get(data[8], 0))
            keys.append(path[-1] if path else None)
        parent = array("i", [-1]) * count
        first = array("i", [-1]) * count
        following = array("i", [-1]) * count
        last_child: dict[int, int] = {}
        top: dict[object, int] = {}
        other: dict[Path, int] = {}  # the root, and any node whose parent has no entry
        for path, i in position.items():
            up = position.get(path[:-1]) if path else None
            if up is None:
                other[path] = i
                continue
            parent[i] = up
            if len(path) == 1:
                top[path[0]] = i
            before = last_child.get(up)
            if before is None:
                first[up] = i
            else:
                following[before] = i
            last_child[up] = i
        self._top = top
        self._other = other
        self._keys = keys
        self._parent = parent
        self._first = first
        self._next = following
        self._kids: dict[
            int, dict[object, int]
        ] = {}  # child dicts of wide nodes, made when searched
        self._marks = marks
        self._styles = bytes(styles)
        self.symbol_keys = symbol_keys
        self.suspect = suspect
        self._by_line: _LineIndex | None = None  # built by the first covering()
        self._other_at: dict[int, Path] | None = None
        # what features derive from this table alone (an open file's outline), kept as long
        # as the table: None until one does (thousands of tables never get any)
        self.memo: dict[object, object] | None = None

    def find(self, path: Path) -> int | None:
        """The node at ``path``, or None."""
        i = self._top.get(path[0]) if path else None
        if i is None:
            return self._other.get(path)
        keys = self._keys
        first = self._first
        following = self._next
        for step in path[1:]:
            kids = self._kids.get(i)
            if kids is not None:
                found = kids.get(step)
                if found is None:
                    return self._other.get(path)
                i = found
                continue
            j = first[i]
            seen = 0
            while j >= 0 and keys[j] != step:
                j = following[j]
                seen += 1
            if seen > WIDE:
                self._kids[i] = self._child_dict(i)
            if j < 0:
                return self._other.get(path)
            i = j
        return i

    def _child_dict(self, i: int) -> dict[object, int]:
        out: dict[object, int] = {}
        j = self._first[i]
        while j >= 0:
            out.setdefault(self._keys[j], j)
            j = self._next[j]
        return out

    def index_items(self) -> Iterator[tuple[Path, int]]:
        """(path, node) of every node, each after its parent.

        Parents are mostly recorded before their children; not a duplicate key's later
        value whose insides an alias copied: its path keeps the first value's place."""
        paths: list[Path | None] = [None] * len(self._keys)
        for path, i in self._other.items():
            paths[i] = path
        parent = self._parent
        keys = self._keys
        later: list[int] = []  # nodes whose parent had no path yet
        for i in range(len(keys)):
            up = parent[i]
            if up >= 0:
                above = paths[up]
                if above is None:
                    later.append(i)
                    continue
                paths[i] = (*above, keys[i])
            here = paths[i]
            if here is not None:
                yield here, i
        while later:
            waiting: list[int] = []
            for i in later:
                above = paths[parent[i]]
                if above is None:
                    waiting.append(i)
                    continue
                here = paths[i] = (*above, keys[i])
                yield here, i
            if len(waiting) == len(later):
                return  # no path reaches them
            later = waiting

    def _raw(self, i: int) -> Raw:
        m = self._marks
        b = 8 * i
        return (
            m[b],
            m[b + 1],
            m[b + 2],
            m[b + 3],
            m[b + 4],
            m[b + 5],
            m[b + 6],
            m[b + 7],
            _STYLES[self._styles[i]],
        )

    def raw(self, path: Path) -> Raw | None:
        i = self.find(path)
        return None if i is None else self._raw(i)

    def __contains__(self, path: object) -> bool:
        return isinstance(path, tuple) and self.find(path) is not None

    def __iter__(self) -> Iterator[Path]:
        for path, _ in self.index_items():
            yield path

    def __len__(self) -> int:
        return len(self._keys)

    def raw_items(self) -> Iterator[tuple[Path, Raw]]:
        for path, i in self.index_items():
            yield path, self._raw(i)

    def top_entries(self) -> list[TopEntry]:
        root = self._other.get(())
        out: list[TopEntry] = []
        if root is None:
            return out
        i = self._first[root]
        while i >= 0:
            out.append((self._keys[i], self, i, 0))
            i = self._next[i]
        return out

    def walk_from(self, i: int, delta: int) -> Iterator[Walked]:
        """Node ``i`` (depth 1) and every node below it, each before its children, moved
        down by ``delta`` lines: depth, key and marks.

        Siblings come in the order the loader recorded them (file order, but for a
        duplicate key, which keeps its first place); no path is built (the outline of a
        10,000-line file spent half its time building paths it did not need)."""
        first = self._first
        following = self._next
        keys = self._keys
        m = self._marks
        stack = [i]
        while stack:
            i = stack[-1]
            if i < 0:
                stack.pop()
                continue
            stack[-1] = following[i] if len(stack) > 1 else -1
            b = 8 * i
            key_line = m[b]
            yield (
                len(stack),
                keys[i],
                key_line + delta if key_line >= 0 else key_line,
                m[b + 1],
                m[b + 2] + delta if key_line >= 0 else m[b + 2],
                m[b + 3],
                m[b + 4] + delta,
                m[b + 5],
                m[b + 6] + delta,
                m[b + 7],
            )
            child = first[i]
            if child >= 0:
                stack.append(child)

    def covering(self, line: int) -> Iterator[tuple[Path, Raw]]:
        m = self._marks
        for path, i in self._on_line(line):
            b = 8 * i
            if (m[b] <= line <= m[b + 2]) or (m[b + 4] <= line <= m[b + 6]):
                yield path, self._raw(i)

    def _on_line(self, line: int) -> list[tuple[Path, int]]:
        """The nodes whose lines include ``line``, in node order, from an index built on
        first use.

        Only files someone hovers get one (an open file, re-used by every hover until
        the next edit), so the other thousands of tables stay small. The index holds node
        numbers only; paths are built for the nodes of the line asked for (a file of
        800,000 keys would otherwise build 800,000 paths on its first hover). It is a list
        sorted by first line, not a list per line: that took 6 s (and 2 million lists) on
        the first hover of a 47.7 MB file.
        """
        index = self._by_line
        if index is None:
            index = self._by_line = _LineIndex(self._marks, self._other.get(()))
        found: list[tuple[Path, int]] = []
        for i in index.covering(line):
            path = self._path_of(i)
            if path is not None:
                found.append((path, i))
        root = self._other.get(())
        return [((), root), *found] if root is not None else found

    def _path_of(self, i: int) -> Path | None:
        """The path of node ``i`` (None when no path reaches it), walking up its parents."""
        steps: list[object] = []
        parent = self._parent
        while parent[i] >= 0:
            steps.append(self._keys[i])
            i = parent[i]
        tops = self._other_at
        if tops is None:
            tops = self._other_at = {j: p for p, j in self._other.items()}
        base = tops.get(i)
        if base is None:
            return None
        steps.reverse()
        return (*base, *steps)


EMPTY_NODES = NodeTable({})

SHORT_LINES = 64  # nodes spanning more lines than this are kept apart by _LineIndex


class _LineIndex:
    """Which nodes span a line: node numbers sorted by first line (a search and a short
    walk back), and apart from them the few nodes longer than ``SHORT_LINES`` lines."""

    __slots__ = ("_firsts", "_lasts", "_long", "_order")

    def __init__(self, m: array[int], root: int | None) -> None:
        # Every step is a C loop (map, compress, sort), never a Python step per node: a
        # 47.7 MB file holds 1.8 million nodes. A key starts before its value, and a missing
        # key's -1 read as unsigned is above every line, so min() picks the first line.
        key_starts = array("I")
        key_starts.frombytes(m[0::8].tobytes())
        firsts = list(map(min, key_starts, m[4::8]))
        lasts = array("i", map(max, m[2::8], m[6::8]))
        lengths = list(map(operator.sub, lasts, firsts))
        count = len(firsts)
        short = list(compress(range(count), map(SHORT_LINES.__ge__, lengths)))
        longer = list(compress(range(count), map(SHORT_LINES.__lt__, lengths)))
        if root is not None:  # the root spans the file: the caller adds it
            for where in (short, longer):
                if root in where:
                    where.remove(root)
        short.sort(key=firsts.__getitem__)  # near sorted already: nodes come in file order
        self._order = array("i", short)
        self._firsts = array("i", map(firsts.__getitem__, short))
        self._lasts = lasts
        self._long = [(i, firsts[i], lasts[i]) for i in longer]

    def covering(self, line: int) -> list[int]:
        """Node numbers whose first line <= ``line`` <= last line, ascending."""
        found = [i for i, first, last in self._long if first <= line <= last]
        firsts, order, lasts = self._firsts, self._order, self._lasts
        j = bisect_right(firsts, line) - 1
        while j >= 0 and firsts[j] >= line - SHORT_LINES:
            i = order[j]
            if lasts[i] >= line:
                found.append(i)
            j -= 1
        found.sort()
        return found
