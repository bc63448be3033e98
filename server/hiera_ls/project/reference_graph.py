"""Cycles of ``%{lookup()}``, ``%{hiera()}`` and ``%{alias()}`` references between keys.

A cycle is an error for Puppet: its recursion guard raises ``Recursive lookup detected in
[...]``.  Which definitions meet in one lookup depends on the node, so a cycle seen in the
union of all files may never happen.  The search below only reports a cycle that some node
can reach: its files can be read together (two files of one ``path`` level with variables
are never read for the same node), and no definition on it is hidden by a higher-priority
definition of the same key among those files, or in a file every node reads (first-found
keys only: a key merged by its lookup_options reads every definition).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from hiera_ls.project.key_index import Reference
from hiera_ls.source.keys import LOOKUP_OPTIONS

SEARCH_BUDGET = 5_000


@dataclass(frozen=True, slots=True)
class FilePlace:
    """Where a data file sits in the hierarchy, as far as the cycle search needs it."""

    rank: int | None = None  # lower ranks are read first; None: unknown
    static: bool = False  # read for every node
    exclusive: object = None  # files sharing a non-None group are never read together


@dataclass(slots=True)
class ReferenceGraph:
    """Root key -> the references written inside its values, across all data files."""

    edges: dict[str, list[Reference]]
    definitions: Mapping[str, Sequence[str]]  # root key -> files that define it
    places: Mapping[str, FilePlace]
    merged: Callable[[str], bool]  # the key's lookup_options give it a merge (no shadowing)
    _cycles: dict[tuple[str, str, str], list[str] | None] = field(default_factory=dict)
    _components: dict[str, int] | None = None

    @staticmethod
    def build(
        references: Iterable[Reference],
        definitions: Mapping[str, Sequence[str]],
        places: Mapping[str, FilePlace] | None = None,
        merged: Callable[[str], bool] | None = None,
    ) -> ReferenceGraph:
        edges: dict[str, list[Reference]] = {}
        seen: set[tuple[str, str, str]] = set()
        for ref in references:
            if ref.source == LOOKUP_OPTIONS:
                continue
            mark = (ref.source, ref.target, ref.path)
            if mark in seen:
                continue
            seen.add(mark)
            edges.setdefault(ref.source, []).append(ref)
        return ReferenceGraph(edges, definitions, places or {}, merged or (lambda _key: False))

    def cycle_through(self, ref: Reference) -> list[str] | None:
        """Keys of a reachable cycle that starts with ``ref`` (``[a, b, ..., a]``), if any."""
        mark = (ref.source, ref.target, ref.path)
        if mark not in self._cycles:
            self._cycles[mark] = self._search(ref)
        return self._cycles[mark]

    def _component_of(self) -> dict[str, int]:
        """Strongly connected components of the key graph (Tarjan's, without recursion): a
        cycle never leaves its component, so a chain of a thousand keys is searched in
        linear time instead of once from every key."""
        if self._components is not None:
            return self._components
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        on_stack: set[str] = set()
        stack: list[str] = []
        out: dict[str, int] = {}
        for root in self.edges:
            if root in index:
                continue
            work: list[tuple[str, int]] = [(root, 0)]
            while work:
                key, i = work.pop()
                if i == 0:
                    index[key] = low[key] = len(index)
                    stack.append(key)
                    on_stack.add(key)
                refs = self.edges.get(key, ())
                if i < len(refs):
                    work.append((key, i + 1))
                    target = refs[i].target
                    if target not in index:
                        work.append((target, 0))
                    elif target in on_stack:
                        low[key] = min(low[key], index[target])
                    continue
                if low[key] == index[key]:
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        out[member] = index[key]
                        if member == key:
                            break
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[key])
        self._components = out
        return out

    def _search(self, first: Reference) -> list[str] | None:
        start = first.source
        if first.source == LOOKUP_OPTIONS or self._statically_hidden(start, first.path):
            return None
        components = self._component_of()
        home = components.get(start)
        if first.target != start and components.get(first.target, -1) != home:
            return None
        used: list[tuple[str, str]] = [(start, first.path)]
        chain: list[str] = [start]
        budget = [SEARCH_BUDGET]

        def walk(key: str) -> bool:
            if key == start:
                return True
            budget[0] -= 1
            if budget[0] < 0:
                return False
            for ref in self.edges.get(key, ()):
                if (
                    ref.target == key
                    or (ref.target != start and components.get(ref.target, -1) != home)
                    or ref.target in chain[1:]
                    or not self._fits(key, ref.path, used)
                ):
                    continue
                used.append((key, ref.path))
                chain.append(key)
                if walk(ref.target):
                    return True
                used.pop()
                chain.pop()
            return False

        return [*chain, start] if walk(first.target) else None

    def _fits(self, key: str, path: str, used: Sequence[tuple[str, str]]) -> bool:
        if self._statically_hidden(key, path):
            return False
        place = self.places.get(path, FilePlace())
        files = {p for _, p in used} | {path}
        for other_key, other_path in used:
            other = self.places.get(other_path, FilePlace())
            if (
                other_path != path
                and place.exclusive is not None
                and place.exclusive == other.exclusive
            ):
                return False
            if self._hides(other_key, other_path, {path}):
                return False
        return not self._hides(key, path, files)

    def _hides(self, key: str, path: str, candidates: Collection[str]) -> bool:
        """A candidate file defines ``key`` with a higher priority than ``path`` does."""
        if self.merged(key):
            return False
        rank = self.places.get(path, FilePlace()).rank
        if rank is None:
            return False
        for other in self.definitions.get(key, ()):
            if other == path or other not in candidates:
                continue
            other_rank = self.places.get(other, FilePlace()).rank
            if other_rank is not None and other_rank < rank:
                return True
        return False

    def _statically_hidden(self, key: str, path: str) -> bool:
        static = [
            p for p in self.definitions.get(key, ()) if self.places.get(p, FilePlace()).static
        ]
        return self._hides(key, path, static)
