"""Keys that ``%{lookup()}``, ``%{hiera()}`` and ``%{alias()}`` tokens name: missing ones and cycles.

A token naming a key no data file defines is not an error for Puppet: the lookup's default
is '' (semantics §4.2), which is rarely what the author meant.  A cycle of such tokens is
an error: Puppet's recursion guard raises ``Recursive lookup detected in [...]``.

Which definitions meet in one lookup depends on the node, so a cycle seen in the union of
all files may never happen.  The search below only reports a cycle that some node can
reach: its files can be read together (two files of one ``path`` level with variables are
never read for the same node), and no definition on it is hidden by a higher-priority
definition of the same key among those files, or in a file every node reads (first-found
keys only: a key merged by its lookup_options reads every definition).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from hiera_ls.checks.problems import problem
from hiera_ls.project.level_files import LevelRef, layer_levels
from hiera_ls.project.model import Layer, LayerKind
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.interpolation import TokenKind, scan
from hiera_ls.source.keys import LOOKUP_OPTIONS, KeySyntaxError, LookupKey
from hiera_ls.source.scalars import Locator, iter_strings
from hiera_ls.source.spans import Problem, Span

KEY_METHODS = frozenset({"lookup", "hiera", "alias"})
SEARCH_BUDGET = 5_000


@dataclass(frozen=True, slots=True)
class Reference:
    """A token in file ``path``, inside root key ``source``, that looks up ``key_text``."""

    path: str
    source: str
    target: str  # root of key_text
    key_text: str
    method: str
    span: Span
    whole: bool  # the token is the whole string


def references_in(
    path: str, data_file: DataFile, locator: Locator, module_name: str | None = None
) -> list[Reference]:
    """Every lookup/hiera/alias token of the file (keys Puppet drops from module data skipped)."""
    prefix = f"{module_name}::" if module_name is not None else None
    out: list[Reference] = []
    seen: set[tuple[str, str, Span]] = set()
    if not locator.may_have_tokens:
        return out
    for site in iter_strings(data_file, locator.lines):
        source = site.root_key
        if not isinstance(source, str):
            continue
        if prefix is not None and source != LOOKUP_OPTIONS and not source.startswith(prefix):
            continue
        for token in scan(site.value):
            if token.kind is not TokenKind.METHOD or token.method not in KEY_METHODS:
                continue
            argument = token.argument or ""
            try:
                target = LookupKey.parse(argument).root
            except KeySyntaxError:
                continue
            span = site.scalar if site.alias else locator.span(site, token.start, token.end)
            mark = (source, target, span)
            if mark in seen and not site.alias:
                continue
            seen.add(mark)
            out.append(
                Reference(
                    path,
                    source,
                    target,
                    argument,
                    token.method or "",
                    span,
                    token.text == site.value,
                )
            )
    return out


# --------------------------------------------------------------------------- the graph


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


# --------------------------------------------------------------------------- the checks


def check_references(
    path: str,
    references: Sequence[Reference],
    *,
    defined_keys: Collection[str] | None = None,
    known_modules: Collection[str] | None = None,
    graph: ReferenceGraph | None = None,
    unindexed: Collection[str | None] = (),
) -> list[Problem]:
    """Undefined targets (needs ``defined_keys``) and cycles (needs ``graph``) of one file.

    ``unindexed``: what :func:`unindexed_layers` gives; keys those layers may answer are not judged.
    """
    out: list[Problem] = []
    for ref in references:
        if ref.path != path:
            continue
        if (
            defined_keys is not None
            and ref.target not in defined_keys
            and _knowable(ref.target, known_modules)
            and not _maybe_elsewhere(ref.target, unindexed)
        ):
            gives = "'' (an empty String)" if ref.method == "alias" else "''"
            out.append(
                problem(
                    "reference-undefined-key",
                    f"No data file of this environment defines '{ref.target}': Puppet's "
                    f"{ref.method}('{ref.key_text}') gives {gives} here",
                    path,
                    ref.span,
                )
            )
        if graph is not None:
            chain = graph.cycle_through(ref)
            if chain is not None:
                stack = ", ".join(chain[:-1])
                out.append(
                    problem(
                        "reference-cycle",
                        f"Recursive lookup: {' -> '.join(chain)}. Looking up '{chain[0]}' fails with: "
                        f"Lookup of key '{chain[0]}' failed: Recursive lookup detected in [{stack}]",
                        path,
                        ref.span,
                    )
                )
    return out


def _knowable(key: str, known_modules: Collection[str] | None) -> bool:
    """A module key can only be judged when the module's data is in the workspace."""
    if known_modules is None:
        return True
    module, sep, _rest = key.partition("::")
    return not sep or not module or module in known_modules


def unindexed_layers(
    layers: Iterable[Layer], templates: Mapping[str, Sequence[LevelRef]] | None = None
) -> frozenset[str | None]:
    """Layers with a level whose keys the index cannot know: None for the global or the
    environment layer, a module's name for its layer.

    Real hierarchies mix file levels with code: a custom ``data_hash`` function that builds
    keys from a generated file (magic_castle's ``terraform_self``), a ``lookup_key`` backend
    such as Vault, a hiera.yaml version 3, or a datadir outside the repository
    (``/etc/puppetlabs/code/hieradata``).  A key no indexed file defines may come from any
    of those, so calling it undefined would be a guess.
    """
    out: set[str | None] = set()
    for layer in layers:
        config = layer.config
        if config is None or config.path is None:
            continue
        scope = layer.module_name if layer.kind is LayerKind.MODULE else None
        own = templates.get(layer.root) if templates is not None else None
        if config.version < 4:
            out.add(scope)
            continue
        entries = (*config.hierarchy, *config.default_hierarchy)
        by_code = any(
            not e.read_by_hiera_ls for e in entries
        )  # a custom function can answer any key
        if by_code or any(
            not t.walkable for t in (own if own is not None else layer_levels(layer))
        ):
            out.add(scope)
    return frozenset(out)


def _maybe_elsewhere(key: str, unindexed: Collection[str | None]) -> bool:
    if not unindexed:
        return False
    module, sep, _rest = key.partition("::")
    return None in unindexed or (bool(sep) and module in unindexed)
