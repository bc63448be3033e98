"""The nodes of a file edited since its full parse, without copying them.

After an edit only the entries it touched are re-parsed (``yaml_reparse``): each top-level
key names the piece holding its nodes, an old table moved by the lines added or removed
above it or the small new table of the re-parsed slice; an entry re-parsed a child at a
time names a piece per child.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Sequence

from hiera_ls.source.node_table import (
    Nodes,
    NodeTable,
    Path,
    Raw,
    TopEntry,
    shifted,
    spans_line,
)

__all__ = ["MAX_PIECES", "SplicedNodes", "splice_inner_nodes", "splice_nodes"]

# A piece of a spliced table: one parse's table and how many lines its nodes moved since.
_Piece = tuple[NodeTable, int]
MAX_PIECES = 8  # more pieces than this (edits all over a file): flatten into one table


# A top-level entry re-parsed one second-level entry at a time: its own marks, and the piece
# holding each of its children's nodes (paths from the root, as in a whole file's table).
_Inner = tuple[Raw, dict[object, _Piece]]


class SplicedNodes(Nodes):
    """Nodes of a file edited since its full parse; each top-level key names its piece, or
    (``inner``) each of its children does."""

    __slots__ = (
        "_flat",
        "_inner",
        "_of",
        "_pieces",
        "_root",
        "children",
        "suspect",
        "symbol_keys",
    )

    def __init__(
        self, root: Raw, of: dict[object, _Piece], inner: dict[object, _Inner] | None = None
    ) -> None:
        self._root = root
        self._of = of  # top-level key -> the piece holding its nodes
        self._inner = inner or {}
        pieces = {id(p): p for p in of.values()}
        for _, children in self._inner.values():
            held = children.values()
            pieces.update(zip(map(id, held), held, strict=True))  # (C loops: 630 children)
        self._pieces = list(pieces.values())
        self._flat: dict[object, NodeTable] = {}  # an inner entry as one table (outline)
        # an inner entry's children as yaml_reparse found them (each one's line, their
        # column), kept from one edit to the next so that an edit in one child does not
        # walk the others (630 users in Wikimedia's admin data)
        self.children: dict[object, tuple[Sequence[int], int]] = {}
        self.symbol_keys = False  # splicing is only done for files with neither
        self.suspect = False

    def raw(self, path: Path) -> Raw | None:
        if not path:
            return self._root
        piece = self._of.get(path[0])
        if piece is None:
            inner = self._inner.get(path[0])
            if inner is None:
                return None
            if len(path) == 1:
                return inner[0]
            piece = inner[1].get(path[1])
            if piece is None:
                return None
        return _shifted_raw(piece, path)

    def __contains__(self, path: object) -> bool:
        if not isinstance(path, tuple):
            return False
        return self.raw(path) is not None

    def _owns(self, piece: _Piece, path: Path) -> bool:
        if not path:
            return False
        top = self._of.get(path[0])
        if top is not None:
            return top is piece
        inner = self._inner.get(path[0])
        return inner is not None and len(path) > 1 and inner[1].get(path[1]) is piece

    def _owned(self) -> Iterator[tuple[Path, _Piece, int]]:
        """Every node but the root's and the inner entries' own: its path, its piece and its
        number there. Each table is walked once, whatever the pieces it serves (a walk per
        piece walked a 7,310-line file's old table three times on each edit's checks)."""
        of = self._of
        inner = self._inner
        tables = {id(table): table for table, _ in self._pieces}
        for table in tables.values():
            for path, i in table.index_items():
                if not path:
                    continue
                piece = of.get(path[0])
                if piece is None:
                    kids = inner.get(path[0])
                    if kids is None or len(path) < 2:
                        continue
                    piece = kids[1].get(path[1])
                    if piece is None:
                        continue
                if piece[0] is table:
                    yield path, piece, i

    def __iter__(self) -> Iterator[Path]:
        yield ()
        yield from ((key,) for key in self._inner)
        for path, _, _ in self._owned():
            yield path

    def __len__(self) -> int:
        return 1 + len(self._inner) + sum(1 for _ in self._owned())

    def size_bound(self) -> int:
        """Every node of every piece's table, those no longer owned too: no walk (counting
        a 7,310-line file's 9,411 owned nodes took 10-20 ms of each edit's checks)."""
        tables = {id(table): table for table, _ in self._pieces}
        return 1 + len(self._inner) + sum(len(table) for table in tables.values())

    def raw_items(self) -> Iterator[tuple[Path, Raw]]:
        yield (), self._root
        for key, (own, _) in self._inner.items():
            yield (key,), own
        for path, (table, delta), i in self._owned():
            yield path, shifted(table._raw(i), delta)

    def top_entries(self) -> list[TopEntry]:
        tops: list[tuple[int, int, TopEntry]] = []
        for key, (table, delta) in self._of.items():
            i = table._top.get(key)
            if i is not None:
                marks = table._marks
                first_line = marks[8 * i] if marks[8 * i] >= 0 else marks[8 * i + 4]
                tops.append((first_line + delta, len(tops), (key, table, i, delta)))
        for key, (own, _) in self._inner.items():
            flat = self._flat.get(key)
            if flat is None:
                flat = self._flat[key] = NodeTable(
                    {(): self._root, **{p: r for p, r in self.raw_items() if p and p[0] == key}}
                )
            tops.append((own[0], len(tops), (key, flat, flat._top[key], 0)))
        tops.sort(key=operator.itemgetter(0, 1))
        return [entry for _, _, entry in tops]

    def covering(self, line: int) -> Iterator[tuple[Path, Raw]]:
        if spans_line(self._root, line):
            yield (), self._root
        for key, (own, _) in self._inner.items():
            if spans_line(own, line):
                yield (key,), own
        of = self._of
        inner = bool(self._inner)
        for piece in self._pieces:
            table, delta = piece
            for path, r in table.covering(line - delta):
                if self._owns(piece, path) if inner else path and of.get(path[0]) is piece:
                    yield path, shifted(r, delta)


def _shifted_raw(piece: _Piece, path: Path) -> Raw | None:
    table, delta = piece
    r = table.raw(path)
    return None if r is None else shifted(r, delta)


def splice_nodes(
    old: Nodes,
    old_keys: Iterable[object],
    drop: Iterable[object],
    moved: Iterable[object],
    delta: int,
    new: NodeTable,
    new_keys: Iterable[object],
    offset: int,
    ends: tuple[object, object],
) -> Nodes:
    """``old`` without the entries ``drop``, with the entries ``moved`` shifted by ``delta``
    lines, and with ``new`` (parsed from a slice starting at line ``offset``) for ``new_keys``.

    ``old_keys``: every top-level key of ``old`` (needed when ``old`` is still flat);
    ``ends``: the first and last top-level key afterwards, which bound the root's range.
    """
    of, inner = _split(old, old_keys)
    for key in drop:
        if of.pop(key, None) is None:
            del inner[key]
    _move(of, inner, moved, delta)
    fresh: _Piece = (new, offset)
    for key in new_keys:
        of[key] = fresh
    return _spliced(of, inner, ends)


def splice_inner_nodes(
    old: Nodes,
    old_keys: Iterable[object],
    key: object,
    children: tuple[Sequence[object], Sequence[object], Sequence[object], Sequence[object]],
    delta: int,
    new: NodeTable,
    offset: int,
    below: Iterable[object],
    ends: tuple[object, object],
) -> Nodes:
    """``old`` with the top-level entry ``key`` re-parsed in part: of its ``children``
    (before, dropped, new, after the slice) the dropped ones replaced by the new ones,
    ``new``'s (parsed from a slice starting at line ``offset``, its paths re-rooted under
    ``key``), those after and the top-level entries ``below`` moved by ``delta`` lines."""
    of, inner = _split(old, old_keys)
    kept_before, dropped, fresh_keys, kept_after = children
    if key in inner:
        own, kids = inner[key]
        kids = dict(kids)
    else:
        piece = of.pop(key)
        own = _shifted_raw(piece, (key,))  # type: ignore[assignment]
        kids = {k: piece for k in (*kept_before, *dropped, *kept_after)}
    for child in dropped:
        del kids[child]
    moved_pieces: dict[tuple[int, int], _Piece] = {}
    if delta:
        for child in kept_after:
            kids[child] = _moved_piece(moved_pieces, kids[child], delta)
    # (the root and ``key`` too, so that paths are found from ``key`` down; never read)
    rooted = {
        (): own,
        (key,): own,
        **{(key, *p): shifted(r, offset) for p, r in new.raw_items() if p},
    }
    fresh: _Piece = (NodeTable(rooted, False, False), 0)
    for child in fresh_keys:
        kids[child] = fresh
    order = [*kept_before, *fresh_keys, *kept_after]
    first = _shifted_raw(kids[order[0]], (key, order[0]))
    last = _shifted_raw(kids[order[-1]], (key, order[-1]))
    if first is None or last is None:
        raise KeyError(key)
    inner[key] = ((*own[:4], first[0], first[1], last[6], last[7], None), kids)
    _move(of, inner, below, delta, moved_pieces)
    return _spliced(of, inner, ends)


def _split(
    old: Nodes, old_keys: Iterable[object]
) -> tuple[dict[object, _Piece], dict[object, _Inner]]:
    if isinstance(old, SplicedNodes):
        return dict(old._of), dict(old._inner)
    if isinstance(old, NodeTable):
        whole: _Piece = (old, 0)
        return dict.fromkeys(old_keys, whole), {}
    raise TypeError(f"cannot splice {type(old).__name__}")


def _moved_piece(pieces: dict[tuple[int, int], _Piece], piece: _Piece, delta: int) -> _Piece:
    """``piece`` moved by ``delta`` lines, one piece for the entries that shared one."""
    table, d = piece
    moved = pieces.get((id(table), d))
    if moved is None:
        moved = pieces[(id(table), d)] = (table, d + delta)
    return moved


def _move(
    of: dict[object, _Piece],
    inner: dict[object, _Inner],
    keys: Iterable[object],
    delta: int,
    pieces: dict[tuple[int, int], _Piece] | None = None,
) -> None:
    pieces = {} if pieces is None else pieces
    for key in keys:
        piece = of.get(key)
        if piece is not None:
            table, d = piece
            moved = pieces.get((id(table), d))  # (inline: a call per key of a big file)
            if moved is None:
                moved = pieces[(id(table), d)] = (table, d + delta)
            of[key] = moved
            continue
        own, kids = inner[key]
        inner[key] = (
            shifted(own, delta),
            {k: _moved_piece(pieces, p, delta) for k, p in kids.items()},
        )


def _spliced(
    of: dict[object, _Piece], inner: dict[object, _Inner], ends: tuple[object, object]
) -> Nodes:
    first, last = (
        inner[k][0] if k in inner else _shifted_raw(of[k], (k,)) if k in of else None for k in ends
    )
    if first is None or last is None:
        raise KeyError(ends)  # the outline names keys the tables must hold
    spliced = SplicedNodes((-1, -1, -1, -1, first[0], 0, last[6], last[7], None), of, inner)
    if len(spliced._pieces) > MAX_PIECES:
        return NodeTable(dict(spliced.raw_items()), False, False)
    return spliced
