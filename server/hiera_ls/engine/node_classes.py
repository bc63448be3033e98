"""Nodes that must get the same answer to every lookup: one lookup serves them all.

A fleet of 10,000 nodes has a few dozen distinct hierarchies: a node's answers depend only
on (a) which data files its global and environment hierarchy levels name and find, with
their options as interpolated for it (eyaml keys, a HOCON file), and any URI they name;
(b) the values of the variables the data interpolates (``%{facts.os.family}`` in a value,
``%{scope('x')}``, in a hash key too) and those modules' hiera.yaml files interpolate (a
module's hierarchy is resolved per module, so its variables are taken by value).  Two
nodes that agree on all of these read the same bytes and interpolate the same values, so
every lookup, nested lookups and errors included, gives both the same answer.  A node whose
scope or hierarchy is in error is a class of its own.

The signature is conservative: nodes are split whenever a difference *could* matter (two
nodes whose node file names differ but neither exists are one class; two whose data reads
``%{trusted.certname}`` are two).
"""

from __future__ import annotations

import os
import re
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import cast

from hiera_ls.engine.lookup import UNDEFINED_KEY, LookupSession
from hiera_ls.project.hiera_config_model import HieraConfig, HierarchyEntry
from hiera_ls.project.model import Environment
from hiera_ls.project.scope import NodeScope
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.puppet.values import canonical, strings_in

INTERPOLATION = re.compile(r"%\{([^}]*)\}")  # one %{...} token, its inside
LITERAL_CALL = re.compile(r"""^\s*literal\(\s*(['"])(.*?)\1\s*\)\s*$""")  # %{literal('x')}'s inside
_SCOPE_CALL = re.compile(r"""^\s*scope\(\s*(['"])(.*?)\1\s*\)\s*$""")
_NAME = re.compile(r"^(?:::)?([A-Za-z_][\w:]*(?:\.[^.\s]+)*)$")
MISSING = object()  # a variable the node does not have
_ABSENT = ("absent",)  # its place among canonical values


def interpolated_variables(texts: Iterable[str]) -> list[str]:
    """The variables ``%{...}`` in ``texts`` read, each once, in order: ``%{facts.os.family}``,
    ``%{::role}``, ``%{scope('x')}``; never a lookup (``%{lookup('k')}``, ``%{alias('k')}``),
    which reads data, not the node. A token ``literal()`` writes counts too
    (``%{literal('%')}{facts.scheme}``): a ``%{lookup()}`` of the value reads it again."""
    found: dict[str, None] = {}
    for text in texts:
        if "%{" not in text:
            continue
        again = literal_written(text)
        for match in INTERPOLATION.finditer(text if again is None else f"{text}\n{again}"):
            inner = match.group(1).strip()
            call = _SCOPE_CALL.match(inner)
            name = _NAME.match(call.group(2) if call else inner)
            if name is not None:
                found.setdefault(name.group(1), None)
    return list(found)


def literal_written(text: str) -> str | None:
    """``text`` with each ``%{literal('x')}`` written as its ``x``, when that makes a token
    (``%{literal('%')}{facts.scheme}`` is ``%{facts.scheme}``), which Puppet interpolates
    again where another key looks the value up (``%{lookup()}``, ``%{hiera()}``); else None."""
    if "literal(" not in text:
        return None
    written = INTERPOLATION.sub(
        lambda m: found.group(2) if (found := LITERAL_CALL.match(m.group(1))) else m.group(0),
        text,
    )
    made = [m.group(0) for m in INTERPOLATION.finditer(written)]
    kept = [m.group(0) for m in INTERPOLATION.finditer(text) if not LITERAL_CALL.match(m.group(1))]
    return written if made != kept else None


def location_variables(entry: HierarchyEntry) -> list[str]:
    """The variables a level's locations read, in order; of a mapped_paths level, the one
    holding the node's list (``facts.datacenters``) first."""
    values = entry.location.values
    if entry.location.kind == "mapped_paths" and values:
        return interpolated_variables(["%{" + values[0] + "}", *values[2:]])
    return interpolated_variables(values)


def module_config_variables(env: Environment) -> set[str]:
    """The variables the modules' hiera.yaml files interpolate (paths and options)."""
    found: set[str] = set()
    for layer in env.modules.values():
        found |= config_variables(layer.config)
    return found


def config_variables(config: HieraConfig | None) -> set[str]:
    """What one hiera.yaml's levels interpolate (paths and options)."""
    if config is None:
        return set()
    found: set[str] = set()
    for entry in (*config.hierarchy, *config.default_hierarchy):
        found.update(location_variables(entry))
        found.update(interpolated_variables(strings_in(entry.options, keys=True)))
    return found


def variable(scope: NodeScope, name: str) -> object:
    """``facts.os.family`` in this node's scope (a hash's key or an array's index after
    each dot), or :data:`MISSING`."""
    top, *rest = name.split(".")
    top = top.removeprefix("::")
    if top not in scope.variables:
        return MISSING
    value: object = scope.variables[top]
    for part in rest:
        if isinstance(value, Mapping) and part in value:
            value = value[part]
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return MISSING
    return value


@dataclass(frozen=True, slots=True)
class LevelReads:
    """One global or environment hierarchy level as resolved for a node."""

    layer: str
    name: str
    files: tuple[str, ...]  # existing data files
    uris: tuple[str, ...]
    options: object  # canonical


def hierarchy_reads(
    session: LookupSession, module: str | None = None
) -> tuple[LevelReads, ...] | None:
    """What the node's global and environment hierarchies read (or ``module``'s, which only
    that module's keys read): each level's existing files and URIs and its options, as
    interpolated for the node (no data is looked up).  None when the node's scope or
    hierarchy is in error: a class of its own."""
    if session.scope.error is not None:
        return None
    out: list[LevelReads] = []
    key = UNDEFINED_KEY if module is None else f"{module}::{UNDEFINED_KEY}"
    for layer in session.hierarchy(key):
        if module is not None and layer.layer.module_name != module:
            continue
        if layer.error is not None:
            return None
        kind = f"{layer.layer.kind.value}{'-default' * layer.default_hierarchy}"
        for entry in layer.entries:
            locations = entry.locations or ()
            out.append(
                LevelReads(
                    kind,
                    entry.entry.name,
                    tuple(loc.path for loc in locations if loc.exists and not loc.is_uri),
                    tuple(loc.path for loc in locations if loc.is_uri),
                    canonical(dict(entry.options)),
                )
            )
    return tuple(out)


def values_of(scope: NodeScope, variables: Sequence[str]) -> Hashable:
    """The node's values of ``variables``, as compared between nodes."""
    values = (variable(scope, name) for name in variables)
    return tuple(_ABSENT if v is MISSING else canonical(v) for v in values)


@dataclass(frozen=True, slots=True)
class NodeClasses:
    """Nodes of one environment split into classes that get the same answer to every
    lookup: ``sessions[c]`` answers for every node of ``members[c]`` (indexes into the
    scopes classified)."""

    sessions: tuple[LookupSession, ...]
    members: tuple[tuple[int, ...], ...]
    # the data files some node's hierarchy reads (None: a node's lookups fail, so any may)
    read: frozenset[str] | None
    # per class, the data files its hierarchy reads (None: a node alone, in error); made by
    # classify(by_value=False), whose classes engine/key_classes.py splits per key
    files: tuple[frozenset[str] | None, ...] = ()

    def class_of(self, count: int) -> list[int | None]:
        """Each of ``count`` nodes' class (None: not classified)."""
        of: list[int | None] = [None] * count
        for c, members in enumerate(self.members):
            for i in members:
                of[i] = c
        return of


class Classifier:
    """Splits nodes into :class:`NodeClasses` against one snapshot, remembering what each
    data file interpolates (read once however many nodes and environments ask)."""

    def __init__(self, snapshot: Snapshot) -> None:
        self.snapshot = snapshot
        self._variables_of: dict[str, frozenset[str]] = {}  # data file -> its variables
        self._modules: dict[str, frozenset[str]] = {}  # environment root -> module_variables

    def classify(
        self, view: EnvironmentView, scopes: Sequence[NodeScope], by_value: bool = True
    ) -> NodeClasses:
        """Nodes whose hierarchies read the same files, then that agree on every variable
        those files and the modules interpolate, are one class; a node whose scope or
        hierarchy is in error is a class of its own.  ``by_value=False``: the nodes whose
        hierarchies read the same files are one class, whatever the data interpolates
        (engine/key_classes.py splits them per key)."""
        snapshot = self.snapshot
        by_reads: dict[tuple[LevelReads, ...], list[tuple[int, LookupSession]]] = {}
        alone: list[tuple[int, LookupSession]] = []
        for i, scope in enumerate(scopes):
            session = LookupSession(view.env, scope, snapshot.files, snapshot.cache)
            reads = hierarchy_reads(session)
            if reads is None:
                alone.append((i, session))
            else:
                by_reads.setdefault(reads, []).append((i, session))
        modules = self.module_variables(view) if by_value else frozenset()
        sessions: list[LookupSession] = []
        members: list[list[int]] = []
        class_files: list[frozenset[str] | None] = []
        paths: set[str] = set()
        for reads, nodes in by_reads.items():
            files = frozenset(path for level in reads for path in level.files)
            paths |= files
            if not by_value:
                sessions.append(nodes[0][1])
                members.append([i for i, _ in nodes])
                class_files.append(files)
                continue
            variables = sorted(modules.union(*(self.file_variables(f) for f in files)))
            classes: dict[Hashable, int] = {}
            for i, session in nodes:
                values = values_of(session.scope, variables)
                if values in classes:
                    members[classes[values]].append(i)
                else:
                    classes[values] = len(sessions)
                    sessions.append(session)
                    members.append([i])
                    class_files.append(files)
        read: frozenset[str] | None = frozenset(paths)
        for i, session in alone:
            sessions.append(session)
            members.append([i])
            class_files.append(None)
            named = session.hierarchy_files()
            if named is None:  # this node's lookups fail: every file may matter
                read = None
            elif read is not None:
                read |= named
        return NodeClasses(
            tuple(sessions), tuple(tuple(m) for m in members), read, tuple(class_files)
        )

    def signature(
        self, view: EnvironmentView, scope: NodeScope
    ) -> tuple[tuple[LevelReads, ...], Hashable] | None:
        """What :meth:`classify` groups one node by, for a caller that cannot hold every
        node's scope at once (a fleet of thousands): nodes of equal signatures are one class;
        None: a class of its own (its scope or hierarchy is in error)."""
        session = LookupSession(view.env, scope, self.snapshot.files, self.snapshot.cache)
        reads = hierarchy_reads(session)
        if reads is None:
            return None
        files = {path for level in reads for path in level.files}
        modules = self._modules.get(view.env.root)
        if modules is None:
            modules = self._modules[view.env.root] = self.module_variables(view)
        variables = sorted(modules.union(*(self.file_variables(f) for f in files)))
        return (reads, values_of(scope, variables))

    def file_variables(self, path: str) -> frozenset[str]:
        """What a data file interpolates, in its keys too; of a directory a level reads
        (expand_path: a file per key under it), what every data file under it does."""
        found = self._variables_of.get(path)
        if found is None:
            df = self.snapshot.data_file(path)
            if df is None and self.snapshot.files.is_dir(path):
                under = path.rstrip(os.sep) + os.sep
                inside = (p for p in self.snapshot.data_files if p.startswith(under))
                found = frozenset().union(*(self.file_variables(p) for p in inside))
            else:
                texts = strings_in(df.data if df is not None else None, keys=True)
                found = frozenset(interpolated_variables(texts))
            self._variables_of[path] = found
        return found

    def variables_read(self) -> Mapping[str, frozenset[str]]:
        """Each data file whose variables this classifier has read, and what it interpolates
        (what classes made by it depend on, besides the nodes and the hierarchies)."""
        return dict(self._variables_of)

    def module_variables(self, view: EnvironmentView) -> frozenset[str]:
        """What every module's data and hiera.yaml interpolate: a module's hierarchy is
        resolved per key, so all of it counts for every node."""
        found = set(module_config_variables(view.env))
        for path, info in self.snapshot.data_files.items():
            if info.view is view and info.levels and info.levels[0].layer.module_name:
                found |= self.file_variables(path)
        return frozenset(found)


class Grouping:
    """Nodes classified one at a time as :meth:`Classifier.classify` splits them, keeping
    only each class's first session: a fleet of 10,000 nodes is grouped without holding
    every node's facts (the caller reads one node, adds it, and lets it go).  Classes are
    numbered in the order their first node came."""

    def __init__(self, classifier: Classifier, view: EnvironmentView) -> None:
        self._classifier, self._view = classifier, view
        self._modules = classifier.module_variables(view)
        self._variables: dict[tuple[LevelReads, ...], list[str]] = {}  # per distinct reads
        self._classes: dict[tuple[tuple[LevelReads, ...], tuple[object, ...]], int] = {}
        self._sessions: list[LookupSession] = []
        self._members: list[list[int]] = []
        self._paths: set[str] = set()
        self._alone_read: set[str] | None = set()  # files the lone nodes' hierarchies name
        self._count = 0

    def add(self, scope: NodeScope) -> int:
        """The class of the next node (its index is the number of nodes added before it)."""
        snapshot = self._classifier.snapshot
        session = LookupSession(self._view.env, scope, snapshot.files, snapshot.cache)
        index, self._count = self._count, self._count + 1
        reads = hierarchy_reads(session)
        if reads is None:
            named = session.hierarchy_files()
            if named is None:  # this node's lookups fail: every file may matter
                self._alone_read = None
            elif self._alone_read is not None:
                self._alone_read |= named
            return self._new_class(session, index)
        variables = self._variables.get(reads)
        if variables is None:
            files = {path for level in reads for path in level.files}
            self._paths |= files
            found = self._modules.union(*(self._classifier.file_variables(f) for f in files))
            variables = self._variables[reads] = sorted(found)
        signature = (reads, cast(tuple[object, ...], values_of(scope, variables)))
        known = self._classes.get(signature)
        if known is not None:
            self._members[known].append(index)
            return known
        self._classes[signature] = len(self._sessions)
        return self._new_class(session, index)

    def splitting(self, top: int = 2) -> list[str]:
        """The variables whose values split the nodes into the most classes (a value for at
        least every other class so far; else the one with the most values): why a fleet has
        as many classes as nodes (a certname or host name interpolated where all read)."""
        distinct: dict[str, set[object]] = {}
        for reads, values in self._classes:
            for name, value in zip(self._variables[reads], values, strict=True):
                distinct.setdefault(name, set()).add(value)
        ranked = sorted(distinct, key=lambda name: -len(distinct[name]))
        most = [name for name in ranked if 2 * len(distinct[name]) >= len(self._classes)]
        return (most or [name for name in ranked[:1] if len(distinct[name]) > 1])[:top]

    def _new_class(self, session: LookupSession, index: int) -> int:
        self._sessions.append(session)
        self._members.append([index])
        return len(self._sessions) - 1

    def classes(self) -> NodeClasses:
        """The nodes added so far, split."""
        read = None if self._alone_read is None else frozenset(self._paths | self._alone_read)
        return NodeClasses(tuple(self._sessions), tuple(tuple(m) for m in self._members), read)
