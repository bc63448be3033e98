"""Where a key's value comes from: for one node (from the engine's trace) or for every node.

With a facts profile the engine is the authority: its trace says which files were read,
what each contributed, which merge ran and whether lookup_options chose it.  Without a
profile nothing can be resolved, so every file a level can read is searched for the key,
in the order Puppet would search them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from hiera_ls.engine.lookup import LookupOutcome, LookupSession
from hiera_ls.engine.merge import MergeStrategy
from hiera_ls.engine.trace import NO_VALUE, Event, Kind, TraceNode
from hiera_ls.features.sessions import new_session
from hiera_ls.project.level_files import LevelRef
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.puppet.errors import PuppetError
from hiera_ls.puppet.regexp import compile_ruby_regex, regex_search_or
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.spans import FileSpan, Span

NodePath = tuple[object, ...]


def module_of(root: str) -> str | None:
    i = root.find("::")
    return root[:i] if i > 0 else None


# ------------------------------------------------------------------ without a node


@dataclass(frozen=True, slots=True)
class Definition:
    """A file that defines the key, found through a level that can read it."""

    where: FileSpan  # the key's own range (the nested key's when a sub key was asked)
    level: LevelRef


def levels_searched(view: EnvironmentView, root: str) -> list[LevelRef]:
    """Levels a lookup of ``root`` can read, in search order (modules only for their keys)."""
    module = module_of(root)
    out: list[LevelRef] = []
    for level in view.levels:
        if level.layer.module_name is not None and level.layer.module_name != module:
            continue
        if level.reads_files:
            out.append(level)
    return out


def files_by_level(snapshot: Snapshot, view: EnvironmentView) -> dict[int, list[str]]:
    """id(level) -> data files it can read (from the snapshot's listing, no disk access)."""
    out: dict[int, list[str]] = {}
    for path, info in snapshot.data_files.items():
        if info.view is not view:
            continue
        for level in info.levels:
            out.setdefault(id(level), []).append(path)
    return out


def node_span(snapshot: Snapshot, path: str, node_path: NodePath) -> Span | None:
    """Where a (nested) key is written; from the loaded file alone, so a hover right after
    an edit does not wait for the file's token index."""
    df = snapshot.data_file(path)
    if df is None or not isinstance(node_path[0], str) or node_path[0] not in df.data:
        return None
    spans = df.nodes.get(node_path)
    return (spans.key or spans.value) if spans is not None else None


def definitions(snapshot: Snapshot, view: EnvironmentView, node_path: NodePath) -> list[Definition]:
    """Every definition of the key (or nested key) in Puppet's search order; a file two
    locations of one level can read is listed once, under the first."""
    root = str(node_path[0])
    by_level = files_by_level(snapshot, view)
    out: list[Definition] = []
    seen: set[tuple[str, int]] = set()
    for level in levels_searched(view, root):
        for path in by_level.get(id(level), []):
            span = node_span(snapshot, path, node_path)
            if span is None or (path, id(level.entry)) in seen:
                continue
            seen.add((path, id(level.entry)))
            out.append(Definition(FileSpan(path, span), level))
    return out


@dataclass(frozen=True, slots=True)
class OptionEntry:
    """A lookup_options entry that applies to a key: where it is and what it says."""

    pattern: str
    where: FileSpan
    value: object


def option_entries(snapshot: Snapshot, view: EnvironmentView, root: str) -> list[OptionEntry]:
    """lookup_options entries in any readable file whose key names or matches ``root``."""
    out: list[OptionEntry] = []
    for d in definitions(snapshot, view, (LOOKUP_OPTIONS,)):
        keys = snapshot.file_keys(d.where.path)
        df = snapshot.data_file(d.where.path)
        if keys is None or df is None:
            continue
        options = df.data.get(LOOKUP_OPTIONS)
        if not isinstance(options, dict):
            continue
        for pattern, entry in keys.options.items():
            if pattern_matches(pattern, root):
                out.append(
                    OptionEntry(
                        pattern, FileSpan(d.where.path, entry.key_span), options.get(pattern)
                    )
                )
    return out


def pattern_matches(pattern: str, root: str) -> bool:
    if pattern.startswith("^"):
        try:
            return regex_search_or(compile_ruby_regex(pattern), root, True)
        except PuppetError:
            return False
    return pattern == root


def keys_matching(
    snapshot: Snapshot, view: EnvironmentView, pattern: str
) -> dict[str, list[FileSpan]]:
    """Every data key (across the environment's files) a lookup_options key applies to."""
    out: dict[str, list[FileSpan]] = {}
    compiled = None
    if pattern.startswith("^"):
        try:
            compiled = compile_ruby_regex(pattern)
        except PuppetError:
            return out
    for keys in snapshot.all_file_keys(view):
        for key, kd in keys.keys.items():
            if key == LOOKUP_OPTIONS:
                continue
            hit = regex_search_or(compiled, key, True) if compiled is not None else key == pattern
            if hit:
                out.setdefault(key, []).append(FileSpan(keys.path, kd.key_span))
    return out


# ------------------------------------------------------------------ for one node


@dataclass(frozen=True, slots=True)
class Contribution:
    """One value the engine read for the node: which layer, level and file, and the value."""

    layer: str
    entry: str
    file: str
    template: str
    where: FileSpan | None
    value: object


@dataclass(frozen=True, slots=True)
class OptionSource:
    """The lookup_options entry that chose the merge strategy."""

    pattern: str
    where: FileSpan | None
    value: object


@dataclass(frozen=True, slots=True)
class Resolution:
    """How a key's value for a node came about: its strategy, options and sources."""

    key: str
    outcome: LookupOutcome
    strategy: MergeStrategy | None  # None: Puppet's default, first found
    option_source: OptionSource | None
    contributions: tuple[Contribution, ...]  # what the real lookup read, highest priority first
    candidates: tuple[Contribution, ...]  # every level that holds the root key for this node


def _contributions(
    node: TraceNode, root: str, layer: str = "", entry: str = ""
) -> Iterator[Contribution]:
    for child in node.children:
        kind = child.kind
        if kind in (Kind.INTERPOLATE, Kind.META, Kind.SUB_KEY):
            continue
        if kind is Kind.DATA_PROVIDER:
            yield from _contributions(child, root, child.label, entry)
        elif kind is Kind.HIERARCHY_ENTRY:
            yield from _contributions(child, root, layer, child.label)
        elif kind is Kind.PATH:
            if child.event is Event.FOUND and child.key == root:
                yield Contribution(
                    layer, entry, child.label, child.original or "", child.where, child.value
                )
        else:
            yield from _contributions(child, root, layer, entry)


def failed_at(res: Resolution) -> Contribution | None:
    """Where a failed lookup stopped: the level and file whose value it was reading (its
    interpolation failed), when the failure happened there."""
    trace = res.outcome.trace
    if res.outcome.error is None or trace is None:
        return None
    node = _root_node(trace, res.key)
    if node is None:
        return None
    found = list(_unfinished(node))
    return found[-1] if found else None


def _unfinished(node: TraceNode, layer: str = "", entry: str = "") -> Iterator[Contribution]:
    for child in node.children:
        kind = child.kind
        if kind in (Kind.META, Kind.SUB_KEY):
            continue
        if kind is Kind.DATA_PROVIDER:
            yield from _unfinished(child, child.label, entry)
        elif kind is Kind.HIERARCHY_ENTRY:
            yield from _unfinished(child, layer, child.label)
        elif kind is Kind.PATH:
            if child.event is None and child.exists and child.children:
                yield Contribution(layer, entry, child.label, child.original or "", None, NO_VALUE)
        else:
            yield from _unfinished(child, layer, entry)


def _root_node(trace: TraceNode, key: str) -> TraceNode | None:
    for child in trace.children:
        if child.kind is Kind.ROOT and child.label == key:
            return child
    return None


def _strategy(root: TraceNode) -> MergeStrategy | None:
    for child in root.children:
        if child.kind is Kind.MERGE and isinstance(child.merge, MergeStrategy):
            return child.merge
    return None


def _option_values(node: TraceNode) -> Iterator[tuple[FileSpan | None, str, object]]:
    for child in node.children:
        if child.kind is Kind.INTERPOLATE:
            continue
        if child.kind is Kind.PATH and child.event is Event.FOUND and child.key == LOOKUP_OPTIONS:
            yield child.where, child.label, child.value
        else:
            yield from _option_values(child)


def option_source(snapshot: Snapshot, trace: TraceNode, root: str) -> OptionSource | None:
    """Which lookup_options entry applies to ``root``, following Puppet's hash-merge order."""
    found: list[tuple[str, Mapping[object, object]]] = []
    for child in trace.children:
        if child.kind is Kind.META:
            for _where, path, value in _option_values(child):
                if isinstance(value, dict):
                    found.append((path, value))
    if not found:
        return None
    merged: dict[object, object] = {}
    owner: dict[object, str] = {}
    for path, value in found:  # highest priority first; lower-priority keys iterate first
        for k in value:
            owner.setdefault(k, path)
        merged = {**value, **merged}
    chosen: object = None
    if merged.get(root) is not None:
        chosen = root
    else:
        for k in merged:
            if isinstance(k, str) and k.startswith("^") and pattern_matches(k, root):
                chosen = k
                break
    if not isinstance(chosen, str):
        return None
    path = owner[chosen]
    df = snapshot.data_file(path)
    spans = df.nodes.get((LOOKUP_OPTIONS, chosen)) if df is not None else None
    where = FileSpan(path, spans.key or spans.value) if spans is not None else None
    return OptionSource(chosen, where, merged[chosen])


def resolve(
    snapshot: Snapshot, view: EnvironmentView, key: str, root: str, merge: object = None
) -> Resolution:
    """Look ``key`` up for the active profile (with ``merge``, the merge argument the code
    passes; None: the key's lookup_options decide) and explain where its value came from."""
    session = new_session(snapshot, view)
    outcome = session.lookup(key, merge, explain=True)
    trace = outcome.trace
    strategy: MergeStrategy | None = None
    contributions: tuple[Contribution, ...] = ()
    source: OptionSource | None = None
    if trace is not None:
        root_node = _root_node(trace, key)
        if root_node is not None:
            strategy = _strategy(root_node)
            contributions = tuple(_contributions(root_node, root))
        if any(c.kind is Kind.MERGE_SOURCE for c in trace.children):
            source = option_source(snapshot, trace, root)
    candidates = contributions
    if strategy is None or strategy.name == "first":
        candidates = _every_level(session, root) or contributions
    return Resolution(key, outcome, strategy, source, contributions, candidates)


def winning_files(outcome: LookupOutcome, key: str) -> tuple[bool, tuple[str, ...]]:
    """(a merge ran, the files whose values the node gets, highest priority first) of an
    explained lookup of the root key ``key``: one file unless a merge added others."""
    trace = outcome.trace
    node = _root_node(trace, key) if trace is not None else None
    if node is None:
        return False, ()
    strategy = _strategy(node)
    merged = strategy is not None and strategy.name != "first"
    return merged, tuple(c.file for c in _contributions(node, key))


def _every_level(session: LookupSession, root: str) -> tuple[Contribution, ...]:
    """Values of ``root`` at every level for this node: a deep merge visits them all (in
    the session of the hover's own lookup, whose lookup_options and hierarchies it reuses:
    a fresh one read them again, a third of a hover's time)."""
    probe = session.lookup(root, {"strategy": "deep"}, explain=True)
    if probe.trace is None:
        return ()
    node = _root_node(probe.trace, root)
    return tuple(_contributions(node, root)) if node is not None else ()


def shown_path(path: str, snapshot: Snapshot, view: EnvironmentView | None) -> str:
    base = view.env.root if view is not None else (snapshot.roots[0] if snapshot.roots else None)
    if base:
        rel = os.path.relpath(path, base)
        if not rel.startswith(".."):
            return rel
    return path


def distinct(items: Sequence[FileSpan]) -> list[FileSpan]:
    seen: set[tuple[str, object]] = set()
    out: list[FileSpan] = []
    for item in items:
        key = (item.path, item.span)
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


# ------------------------------------------------------------------ one level, one node

PROBE_KEY = "__hiera_ls_probe__"


def resolved_locations(
    snapshot: Snapshot, view: EnvironmentView, level: LevelRef
) -> list[tuple[str, bool]]:
    """The files a level reads for the active profile: (path, exists), in the engine's order.

    The engine fills the location in (as Puppet does), so this asks it, through the trace
    of a lookup of a key no file defines, rather than interpolating a second time.
    """
    module = level.layer.module_name
    key = f"{module}::{PROBE_KEY}" if module else PROBE_KEY
    trace = new_session(snapshot, view).lookup(key, None, explain=True).trace
    if trace is None:
        return []
    out: list[tuple[str, bool]] = []
    glob_like = level.entry.location.kind in ("glob", "globs")

    def walk(node: TraceNode, provider: TraceNode | None, entry: TraceNode | None) -> None:
        for child in node.children:
            if child.kind in (Kind.META, Kind.INTERPOLATE):
                continue
            if child.kind is Kind.DATA_PROVIDER:
                walk(child, child, None)
            elif child.kind is Kind.HIERARCHY_ENTRY:
                walk(child, provider, child)
            elif child.kind is Kind.PATH:
                if (
                    provider is not None
                    and entry is not None
                    and provider.layer == level.layer.kind.value
                    and provider.module == module
                    and entry.label == level.entry.name
                    and (glob_like or child.original == level.template)
                ):
                    out.append((child.label, bool(child.exists)))
            else:
                walk(child, provider, entry)

    walk(trace, None, None)
    return out
