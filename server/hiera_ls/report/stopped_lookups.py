"""The nodes whose lookup of a key stops, at both revisions, at the same definition in a file
both revisions hold alike: ``diff`` compares them without a lookup.

A key that is looked up (report/unchanged_keys.py could not clear it: its definition in
common.yaml changed, say) still gets the same answer at both revisions on every node whose
own node file defines it, when nothing else could reach that answer.  A lookup with the
first-found strategy returns the first definition in hierarchy order, interpolated; it is
the same at both revisions for a node when:

- the hierarchies are the same (every layer's hiera.yaml byte for byte, every level read by
  ``yaml_data``, ``json_data`` or eyaml, the same environment name and target: what
  unchanged_keys.same_hierarchies judges), so the node's scope is the same too (the same
  facts are used at both);
- no lookup_options entry of any data file, at either revision, names the key or matches it
  by pattern (so its merge is first-found and nothing converts it), and no data file fails
  to load (the lookup_options are read from every level);
- at each revision the first file of the node's hierarchy (global, then environment) that
  defines the key, fails to load or fails for the key is the same file (by its name in the
  compared directory), read by ``yaml_data`` or ``json_data``, holds the key cleanly, and is
  one parse for both revisions (the same bytes: report/twin_cache.py), so the definition is
  the same object;
- that definition interpolates only the node's variables (no ``lookup``, ``hiera`` or
  ``alias``), and none of their values holds a token (Puppet interpolates a variable's value
  again, and a token in it could look a key up).

The key's module is never consulted then (first-found stops before the module layer).  Each
compared node is looked up for a class of nodes (per key, a group of them); a group is left
unlooked-up only when all its nodes are, at both revisions, so every node's two answers are
either both looked up or both known to be the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hiera_ls.engine.key_classes import reads_of
from hiera_ls.engine.lookup import LookupSession
from hiera_ls.engine.node_classes import MISSING, hierarchy_reads, variable
from hiera_ls.project.scope import NodeScope
from hiera_ls.puppet.errors import LookupFailure, PuppetError
from hiera_ls.puppet.regexp import compile_ruby_regex, regex_search_or
from hiera_ls.puppet.values import strings_in
from hiera_ls.report.unchanged_keys import Revision, relative_name, same_hierarchies
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.keys import LOOKUP_OPTIONS, KeySyntaxError, split_key

_STOPPING_READERS = frozenset({"yaml_data", "json_data"})
_NO_STOP = None  # the lookup may read something else, or fail


@dataclass(frozen=True, slots=True)
class Nodes:
    """One revision's compared nodes as ``diff`` looks them up: each node's class (None: the
    environment is not there), a session of each class, the groups a key splits a class
    into, and each node's scope."""

    class_of: Sequence[int | None]
    sessions: Sequence[LookupSession]
    split: Callable[[int, str], Sequence[tuple[int, ...]]]
    scopes: Sequence[NodeScope]


def stopped_alike(
    base: Revision, head: Revision, nodes: tuple[Nodes, Nodes], keys: Sequence[str]
) -> dict[str, frozenset[int]]:
    """Per key of ``keys``, the nodes (indexes) that get the same answer at both revisions,
    by the rules in the module's docstring; keys with none are left out."""
    if not same_hierarchies(base, head):
        return {}
    options = _OptionNames.of(base, head)
    if options is None:
        return {}
    stops = (_Stops(base, nodes[0]), _Stops(head, nodes[1]))
    plain: dict[tuple[int, frozenset[str]], bool] = {}  # see _plain_variables
    out: dict[str, frozenset[int]] = {}
    for key in keys:
        if not options.first_found(key):
            continue
        alike: set[int] = set()
        for i, (cb, ch) in enumerate(zip(nodes[0].class_of, nodes[1].class_of, strict=True)):
            if cb is None or ch is None:
                continue
            old, new = stops[0].stop(cb, key), stops[1].stop(ch, key)
            if old is None or new is None or old[0] != new[0] or old[1] is not new[1]:
                continue
            names = old[2]
            if names:
                slot = (i, names)
                if slot not in plain:
                    plain[slot] = _plain_variables(nodes[1].scopes[i], names)
                if not plain[slot]:
                    continue
            alike.add(i)
        _whole_groups(alike, nodes, key)
        if alike:
            out[key] = frozenset(alike)
    return out


class _OptionNames:
    """Every lookup_options entry's name at either revision: literal keys and patterns."""

    def __init__(self, literal: set[str], patterns: list[object]) -> None:
        self.literal = literal
        self.patterns = patterns

    @classmethod
    def of(cls, base: Revision, head: Revision) -> _OptionNames | None:
        """None when a data file fails to load (or its lookup_options do): every lookup
        reads the lookup_options of every level."""
        literal: set[str] = set()
        sources: set[str] = set()
        for side in (base, head):
            for path in side.files:
                df = side.snapshot.data_file(path)
                if df is None:
                    continue
                if df.failure is not None or LOOKUP_OPTIONS in df.key_errors:
                    return None
                entries = df.data.get(LOOKUP_OPTIONS)
                if entries is None:
                    continue
                if not isinstance(entries, dict):
                    return None
                for name in entries:
                    if not isinstance(name, str) or "%{" in name:  # (names interpolate)
                        return None
                    (sources if name.startswith("^") else literal).add(name)
        try:
            patterns: list[object] = [compile_ruby_regex(s) for s in sorted(sources)]
        except (LookupFailure, PuppetError):
            return None
        return cls(literal, patterns)

    def first_found(self, key: str) -> bool:
        """Whether no entry applies to ``key`` (a plain root key): first-found, as it is."""
        try:
            if split_key(key) != [key]:
                return False
        except KeySyntaxError:
            return False
        if key in self.literal:
            return False
        return not any(regex_search_or(p, key, True) for p in self.patterns)  # type: ignore[arg-type]


class _Stops:
    """Where a class's lookup of a key stops at one revision."""

    def __init__(self, side: Revision, nodes: Nodes) -> None:
        self._side = side
        self._nodes = nodes
        # each class's files in hierarchy order (None: a level reads a URI, or the
        # hierarchy is in error), each with its name and whether a lookup may stop there
        self._files: dict[int, list[tuple[DataFile, str, bool]] | None] = {}
        self._file: dict[str, tuple[DataFile, str, bool] | None] = {}  # by path
        self._variables: dict[int, frozenset[str] | None] = {}  # by the definition's id

    def stop(self, c: int, key: str) -> tuple[str, object, frozenset[str]] | None:
        """(the file's name in the compared directory, the definition, the variables it
        interpolates) where class ``c``'s lookup of ``key`` stops; None when it may read
        anything else, fail, or find nothing there."""
        if c not in self._files:
            self._files[c] = self._files_of(c)
        files = self._files[c]
        if files is None:
            return _NO_STOP
        for df, name, stops in files:
            if df.failure is not None or key in df.key_errors:
                return _NO_STOP
            if key not in df.data:
                continue
            if not stops:
                return _NO_STOP
            value = df.data[key]
            variables = self._interpolated(value)
            return (name, value, variables) if variables is not None else _NO_STOP
        return _NO_STOP

    def _files_of(self, c: int) -> list[tuple[DataFile, str, bool]] | None:
        reads = hierarchy_reads(self._nodes.sessions[c])
        if reads is None or any(level.uris for level in reads):
            return None
        out = []
        for level in reads:
            for path in level.files:
                if path not in self._file:
                    self._file[path] = self._read(path)
                found = self._file[path]
                if found is not None:
                    out.append(found)
        return out

    def _read(self, path: str) -> tuple[DataFile, str, bool] | None:
        snapshot = self._side.snapshot
        df = snapshot.data_file(path)
        if df is None:
            return None
        info = snapshot.data_files.get(path)
        stops = info is not None and info.function in _STOPPING_READERS
        return df, relative_name(path, self._side.root), stops

    def _interpolated(self, value: object) -> frozenset[str] | None:
        """The variables ``value`` interpolates; None when it calls a function that reads
        other keys (or one not told apart)."""
        slot = id(value)
        if slot not in self._variables:
            texts = [s for s in strings_in(value, keys=True) if "%{" in s]
            reads = reads_of(texts) if texts else None
            found: frozenset[str] | None = frozenset()
            if texts:
                found = reads.variables if reads is not None and not reads.keys else None
            self._variables[slot] = found
        return self._variables[slot]


def _plain_variables(scope: NodeScope, names: frozenset[str]) -> bool:
    """Whether none of the node's values of ``names`` holds a token (interpolated again)."""
    for name in names:
        value = variable(scope, name)
        if value is MISSING:
            continue
        if any("%{" in s for s in strings_in(value, keys=True)):
            return False
    return True


def _whole_groups(alike: set[int], nodes: tuple[Nodes, Nodes], key: str) -> None:
    """Drop from ``alike`` every node of a group (at either revision) that is not all in it:
    a group is looked up for all its nodes or for none."""
    changed = True
    while changed and alike:
        changed = False
        for side in nodes:
            classes = {side.class_of[i] for i in alike}
            for c in classes:
                assert c is not None
                for group in side.split(c, key):
                    inside = [i for i in group if i in alike]
                    if inside and len(inside) < len(group):
                        alike.difference_update(inside)
                        changed = True
