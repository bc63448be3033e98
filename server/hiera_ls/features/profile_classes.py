"""PuppetDB's nodes in classes that get the same answer to every lookup
(engine/node_classes.py): the hover spread and the key view look a key up once per class
and give the answer to every node of it.

Grouping reads every node's facts (seconds for 10,000), so the server does it in a worker
thread (:func:`group_fleet`, lsp/fleet_grouping.py) when the fleet is loaded and after an
edit; until then :func:`fleet_grouping` answers FleetPending and a request says the nodes
are being grouped. A grouping keeps one node scope per class and the members' names, never
every node's facts. It lives in the snapshot's ``data_memo``, so a data, hiera.yaml,
settings or fleet change drops it, as it drops the cached lookups; an edit that changes no
file's interpolations keeps it (``previous``). The workspace's own profiles are few and
mostly all different: they are looked up one by one (features/spread.py
``profile_lookup``), where grouping them cost more than it saved (bench/bench_spread.py).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from hiera_ls.engine.lookup import LookupOutcome, LookupSession
from hiera_ls.engine.node_classes import Classifier, Grouping
from hiera_ls.project.asked_merges import merge_argument
from hiera_ls.project.facts import FactsProfile, node_scope
from hiera_ls.project.fleet_profiles import FleetProfiles
from hiera_ls.project.model import Environment
from hiera_ls.project.scope import NodeScope
from hiera_ls.project.targets import Target
from hiera_ls.project.workspace import DataFileInfo, EnvironmentView, Snapshot
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.manifest_model import MergeValue

MAX_CACHED_KEYS = 2_000  # answers kept per class; past it the class's answers restart
# groups of fleet nodes a request looks up at most (each lookup ~0.1-0.4 ms on the server's
# thread); a fleet whose data interpolates a fact that differs per node (the certname, an
# address) has about as many groups as nodes, and is then not looked up for hovers
MAX_GROUPS = 500


@dataclass(frozen=True, slots=True)
class ProfileClasses:
    """Profiles split into classes: ``scopes[c]`` answers for every one of ``names[c]``."""

    scopes: tuple[NodeScope, ...]
    names: tuple[tuple[str, ...], ...]


@dataclass(frozen=True, slots=True)
class FleetGrouping:
    """PuppetDB's nodes (those that are not also a workspace profile) in classes."""

    source: str  # where the nodes came from (PuppetDB's URL)
    nodes: int
    classes: ProfileClasses  # empty when ``too_many``
    basis: _Basis = field(compare=False, repr=False)  # what the classes were made from
    too_many: int = 0  # more groups than this (the limit): grouping stopped there; 0: none
    # then: the variables that split the nodes most, and data files that interpolate them
    # (relative to the environment's root when inside it)
    splitting: tuple[str, ...] = ()
    splitting_files: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FleetPending:
    """The fleet is known but not grouped yet for this data (a worker is at it)."""

    source: str
    nodes: int


def fleet_grouping(
    snapshot: Snapshot, view: EnvironmentView
) -> FleetGrouping | FleetPending | None:
    """The fleet's classes for ``view``'s environment; FleetPending until a worker has
    grouped them (:func:`claim_fleet`, :func:`group_fleet`); None: no fleet, or no node
    that is not a workspace profile."""
    fleet = snapshot.fleet
    if fleet is None or not len(fleet):
        return None
    found = snapshot.data_memo.get(_fleet_slot(view))
    if isinstance(found, FleetGrouping) and found.basis.made_for(snapshot, view):
        return found if found.nodes else None
    return FleetPending(fleet.source, len(fleet))


def claim_fleet(snapshot: Snapshot, view: EnvironmentView) -> bool:
    """Whether ``view``'s fleet grouping is still to be made for this data; if so it is now
    claimed, and the caller makes it (:func:`group_fleet`). Called on one thread (the
    server's), so no two workers group the same nodes."""
    fleet = snapshot.fleet
    if fleet is None or not len(fleet):
        return False
    slot = _fleet_slot(view)
    found = snapshot.data_memo.get(slot)
    if isinstance(found, FleetGrouping) and found.basis.made_for(snapshot, view):
        return False
    if isinstance(found, _FleetClaimed) and found.fleet is fleet:
        return False
    snapshot.data_memo[slot] = _FleetClaimed(fleet)
    return True


def release_fleet(snapshot: Snapshot, view: EnvironmentView) -> None:
    """A claimed grouping given up (the data changed meanwhile): the next claim makes it."""
    slot = _fleet_slot(view)
    if isinstance(snapshot.data_memo.get(slot), _FleetClaimed):
        del snapshot.data_memo[slot]


def group_fleet(
    snapshot: Snapshot,
    view: EnvironmentView,
    pause: Callable[[], None] | None = None,
    previous: FleetGrouping | None = None,
    limit: int = MAX_GROUPS,
) -> FleetGrouping | None:
    """Group the fleet's nodes for ``view``'s environment and keep the result for the
    snapshot's data generation. ``previous``, a grouping made for older data, is kept when
    no data file it read changed what it interpolates (an edit of a value, the usual
    case: no node's facts are read again); else every node's facts are read, one node at
    a time. ``pause`` is called between nodes (a server's worker gives way to requests
    there, and may raise to give up). More than ``limit`` groups: grouping stops there
    and the result says so (``too_many``), keeping no node. None: no fleet."""
    fleet = snapshot.fleet
    if fleet is None:
        return None
    kept = previous.basis.kept(snapshot, view) if previous is not None else None
    if previous is not None and kept is not None:
        result = replace(previous, basis=kept)
        snapshot.data_memo[_fleet_slot(view)] = result
        return result
    classifier = Classifier(snapshot)
    grouping = Grouping(classifier, view)
    names: list[str] = []
    listed = snapshot.fleet_names()
    too_many = False
    for name in listed:
        entry = fleet.entry(name, snapshot.files, snapshot.target)
        if entry is not None:  # (gone since listed: the listing is of one moment)
            if grouping.add(_scope(snapshot, view, entry.profile)) >= limit:
                too_many = True  # (no need to read the rest, nor to keep these)
                break
            names.append(name)
        if pause is not None:
            pause()
    split = grouping.classes()
    classes = ProfileClasses(
        () if too_many else tuple(s.scope for s in split.sessions),
        () if too_many else tuple(tuple(names[i] for i in m) for m in split.members),
    )
    basis = _basis(snapshot, view, fleet, classifier)
    splitting = tuple(grouping.splitting()) if too_many else ()
    files = [
        os.path.relpath(p, view.env.root) if p.startswith(view.env.root + os.sep) else p
        for p, found in classifier.variables_read().items()
        if found & set(splitting)
    ]
    result = FleetGrouping(
        fleet.source,
        len(listed) if too_many else len(names),
        classes,
        basis,
        limit * too_many,
        splitting,
        tuple(sorted(files)[:3]),
    )
    snapshot.data_memo[_fleet_slot(view)] = result
    return result


@dataclass(frozen=True, slots=True)
class _Basis:
    """What a fleet grouping was made from: the environment (its hierarchies), the fleet,
    the target, the listing of data files (which exist), and each data file whose
    variables the classes depend on, as read then."""

    env: Environment
    fleet: FleetProfiles
    target: Target
    listing: Mapping[str, DataFileInfo]
    interpolated: Mapping[str, tuple[DataFile | None, frozenset[str]]]
    local: frozenset[str]  # the workspace's profiles (a node that is one is not grouped)

    def made_for(self, snapshot: Snapshot, view: EnvironmentView) -> bool:
        """Made for this environment, fleet, target and workspace profiles (by a worker,
        for this data)."""
        return (
            self.env is view.env
            and self.fleet is snapshot.fleet
            and self.target == snapshot.target
            and self.local == _local(snapshot)
        )

    def kept(self, snapshot: Snapshot, view: EnvironmentView) -> _Basis | None:
        """This basis as read in ``snapshot`` if its classes hold there: the same files
        exist, and each file the classes depend on interpolates the same variables as
        before (only the files changed since are read again); None when they may not."""
        if not self.made_for(snapshot, view) or self.listing is not snapshot.data_files:
            return None
        classifier = Classifier(snapshot)
        now: dict[str, tuple[DataFile | None, frozenset[str]]] = {}
        for path, (read, variables) in self.interpolated.items():
            found = snapshot.data_file(path)
            if found is not read:
                if classifier.file_variables(path) != variables:
                    return None
                now[path] = (found, variables)
        return replace(self, interpolated={**self.interpolated, **now}) if now else self


def _basis(
    snapshot: Snapshot, view: EnvironmentView, fleet: FleetProfiles, classifier: Classifier
) -> _Basis:
    interpolated = {
        path: (snapshot.data_file(path), variables)
        for path, variables in classifier.variables_read().items()
    }
    return _Basis(
        view.env, fleet, snapshot.target, snapshot.data_files, interpolated, _local(snapshot)
    )


def _local(snapshot: Snapshot) -> frozenset[str]:
    return frozenset(entry.name for entry in snapshot.profiles)


def class_lookup(
    snapshot: Snapshot,
    view: EnvironmentView,
    classes: ProfileClasses,
    index: int,
    key: str,
    merge: MergeValue | None = None,
) -> LookupOutcome:
    """``lookup(key)`` (merge from lookup_options, or ``merge``, the one the code asks
    for) for every profile of class ``index``, answered from the cache while the data is
    unchanged. Sessions are made per thread (a session is not shared between threads)."""
    slot = ("class lookups", threading.get_ident(), view.env.root)
    found = snapshot.data_memo.get(slot)
    if not isinstance(found, _ClassLookups) or found.classes is not classes:
        found = _ClassLookups(classes, view.env, {}, {})
        snapshot.data_memo[slot] = found
    answers = found.answers.setdefault(index, {})
    asked = (key, merge)
    answer = answers.get(asked)
    if answer is None:
        session = found.sessions.get(index)
        if session is None:
            scope = classes.scopes[index]
            session = LookupSession(view.env, scope, snapshot.files, snapshot.cache)
            found.sessions[index] = session
        if len(answers) >= MAX_CACHED_KEYS:
            answers.clear()
        answer = answers[asked] = session.lookup(key, merge_argument(merge))
    return answer


def _scope(snapshot: Snapshot, view: EnvironmentView, profile: FactsProfile) -> NodeScope:
    return node_scope(profile.facts, profile.name, view.env.name, snapshot.target)


def _fleet_slot(view: EnvironmentView) -> tuple[str, str]:
    return ("fleet classes", view.env.root)


@dataclass(frozen=True, slots=True)
class _FleetClaimed:
    """Marks the fleet whose grouping a worker has taken on."""

    fleet: FleetProfiles


@dataclass(slots=True)
class _ClassLookups:
    """One thread's sessions for a set of classes, and the answers they gave."""

    classes: ProfileClasses
    env: Environment
    sessions: dict[int, LookupSession]
    answers: dict[int, dict[tuple[str, MergeValue | None], LookupOutcome]]
