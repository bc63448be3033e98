"""A key's value for every facts profile at once: what a data change lands on.

A hover previews one profile, but data reaches every node; the spread groups the
profiles, and PuppetDB's nodes when the user has a fleet, by the merged value they get
(and by the error when the lookup fails), so one hover answers "which nodes get what".
The fleet's nodes are looked up once per class of nodes that must get the same answer
(features/profile_classes.py), so 10,000 nodes cost about as many lookups as they have
distinct hierarchies. The workspace's profiles are looked up one by one
(``profile_lookup``, which the checks and the change lens ask too): cached per (profile,
key) in the snapshot's ``data_memo`` (project/workspace.py), which lives as long as no
data, hiera.yaml or setting changes; a profile's entry is dropped when its own facts change
(its FactsProfile is a new object then), so an edit re-runs exactly the lookups it can
change.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from hiera_ls.checks.profile import profile_label
from hiera_ls.display_text import md_escape
from hiera_ls.engine.lookup import LookupOutcome, LookupSession
from hiera_ls.features.profile_classes import (
    FleetGrouping,
    FleetPending,
    class_lookup,
    fleet_grouping,
)
from hiera_ls.features.render import code, short
from hiera_ls.project.asked_merges import merge_argument
from hiera_ls.project.facts import FactsProfile, node_scope
from hiera_ls.project.model import Environment
from hiera_ls.project.profiles import ProfileEntry
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.source.files import FileAccess
from hiera_ls.source.manifest_model import MergeValue

MAX_CACHED_KEYS = 2_000  # answers kept per profile; past it the profile's answers restart


@dataclass(slots=True)
class _ProfileLookups:
    """One profile's session in one environment, and the answers it gave."""

    facts: FactsProfile
    env: Environment
    session: LookupSession
    answers: dict[tuple[str, MergeValue | None], LookupOutcome]


def profile_lookup(
    snapshot: Snapshot,
    view: EnvironmentView,
    entry: ProfileEntry,
    key: str,
    files: FileAccess | None = None,
    merge: MergeValue | None = None,
) -> LookupOutcome:
    """``lookup(key)`` (merge from lookup_options, as Puppet's automatic parameter lookup;
    or ``merge``, the one the code asks for) for ``entry``'s node, answered from the cache
    when its data and facts are unchanged.

    ``files``: read the data from these files instead of the snapshot's (the change lens's
    saved text); such lookups are cached under their own name in the snapshot's memo.
    """
    memo = snapshot.data_memo if files is None else snapshot.memo
    slot = ("spread", threading.get_ident(), view.env.root, entry.profile.path, files is None)
    found = memo.get(slot)
    if (
        not isinstance(found, _ProfileLookups)
        or found.facts is not entry.profile
        or found.env is not view.env
    ):
        profile = entry.profile
        scope = node_scope(profile.facts, profile.name, view.env.name, snapshot.target)
        session = LookupSession(view.env, scope, files or snapshot.files, snapshot.cache)
        found = _ProfileLookups(profile, view.env, session, {})
        memo[slot] = found
    asked = (key, merge)
    answer = found.answers.get(asked)
    if answer is None:
        if len(found.answers) >= MAX_CACHED_KEYS:
            found.answers.clear()
        answer = found.answers[asked] = found.session.lookup(key, merge_argument(merge))
    return answer


@dataclass(frozen=True, slots=True)
class ValueGroup:
    """Profiles that get the same value of a key."""

    value: object
    profiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FailureGroup:
    """Profiles whose lookup of a key fails with the same error."""

    error: str
    profiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Spread:
    """The profiles grouped by what ``lookup(key)`` gives them: the workspace's in profile
    order, then the fleet's nodes (PuppetDB) class by class."""

    key: str
    total: int
    values: tuple[ValueGroup, ...]
    missing: tuple[str, ...]
    failures: tuple[FailureGroup, ...]
    fleet: FleetGrouping | FleetPending | None = None  # counted in ``total`` once grouped


def identity(value: object) -> object:
    """A hashable stand-in equal exactly when Puppet's values are (1, 1.0 and true differ)."""
    if isinstance(value, dict):
        return ("h", tuple((identity(k), identity(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("a", tuple(identity(v) for v in value))
    try:
        hash(value)
    except TypeError:
        return (type(value).__name__, repr(value))
    return (type(value).__name__, value)


class _Answers:
    """Names gathered by the answer they get, groups in the order first met."""

    def __init__(self) -> None:
        self.values: dict[object, tuple[object, list[str]]] = {}
        self.missing: list[str] = []
        self.failures: dict[str, list[str]] = {}
        self.known: dict[int, tuple[object, object]] = {}  # id(value) -> (value, identity)

    def add(self, outcome: LookupOutcome, names: Sequence[str]) -> None:
        if outcome.error is not None:
            self.failures.setdefault(outcome.error, []).extend(names)
        elif not outcome.found:
            self.missing.extend(names)
        else:
            value = outcome.value
            same = self.known.get(id(value))  # classes reading one file share its value
            if same is None or same[0] is not value:
                same = self.known[id(value)] = (value, identity(value))
            self.values.setdefault(same[1], (value, []))[1].extend(names)

    def spread(self, key: str, total: int, fleet: FleetGrouping | FleetPending | None) -> Spread:
        return Spread(
            key,
            total,
            tuple(ValueGroup(v, tuple(names)) for v, names in self.values.values()),
            tuple(self.missing),
            tuple(FailureGroup(e, tuple(names)) for e, names in self.failures.items()),
            fleet,
        )


def spread(
    snapshot: Snapshot, view: EnvironmentView, key: str, merge: MergeValue | None = None
) -> Spread:
    """What every facts profile and every node of the fleet gets for ``key``, with ``merge``
    when the code asks for one: the fleet's nodes once a worker has grouped them, one lookup
    per class of nodes that must get the same answer (features/profile_classes.py)."""
    found = _Answers()
    for entry in snapshot.profiles:
        found.add(profile_lookup(snapshot, view, entry, key, merge=merge), (entry.name,))
    total = len(snapshot.profiles)
    fleet = fleet_grouping(snapshot, view)
    if isinstance(fleet, FleetGrouping) and not fleet.too_many:
        total += fleet.nodes
        _add_fleet(snapshot, view, fleet, key, merge, found)
    return found.spread(key, total, fleet)


def fleet_spread(
    snapshot: Snapshot,
    view: EnvironmentView,
    fleet: FleetGrouping,
    key: str,
    merge: MergeValue | None = None,
) -> Spread:
    """What the fleet's nodes alone get for ``key`` (the key view lists them apart)."""
    found = _Answers()
    _add_fleet(snapshot, view, fleet, key, merge, found)
    return found.spread(key, fleet.nodes, fleet)


def _add_fleet(
    snapshot: Snapshot,
    view: EnvironmentView,
    fleet: FleetGrouping,
    key: str,
    merge: MergeValue | None,
    found: _Answers,
) -> None:
    for c, names in enumerate(fleet.classes.names):
        found.add(class_lookup(snapshot, view, fleet.classes, c, key, merge), names)


MAX_ANSWERS = 10  # answer lines a hover shows (the most profiles first); the key view: all


def spread_lines(
    found: Spread, active: str | None, texts: dict[int, tuple[object, str]] | None = None
) -> list[str]:
    """The hover's section: one line per distinct answer (the :data:`MAX_ANSWERS` most
    common, and the active profile's), with how many profiles get it and a few of their
    names; the fleet's source said once. ``texts``: each value's one-line text, kept
    between hovers (by the value's id, with the value)."""
    total = found.total
    fleet = found.fleet
    pending = _fleet_note(fleet)
    if isinstance(fleet, FleetGrouping) and fleet.too_many:
        fleet = None  # (not looked up: said in the note)
    if total <= 1:
        return pending
    whom = f"{total} facts profiles"
    if isinstance(fleet, FleetGrouping):
        local = total - fleet.nodes
        nodes = f"{fleet.nodes} PuppetDB nodes"
        whom = f"{local} facts profiles and {nodes}" if local else nodes
    rows: list[tuple[ValueGroup | FailureGroup | None, tuple[str, ...]]] = [
        *((g, g.profiles) for g in found.values),
        *([(None, found.missing)] if found.missing else []),
        *((f, f.profiles) for f in found.failures),
    ]
    if len(rows) == 1 and found.values:
        out = [f"**Across {whom}:** every one gets this value."]
    else:
        out = [f"**Across {whom}:** {len(rows)} different answers", ""]
        mine = next((i for i, (_, names) in enumerate(rows) if active in names), None)
        biggest = sorted(range(len(rows)), key=lambda i: -len(rows[i][1]))[:MAX_ANSWERS]
        shown = [rows[i] for i in sorted({*biggest, *([mine] if mine is not None else [])})]
        values = [g for g, _ in shown if isinstance(g, ValueGroup)]
        text_of = dict(zip(map(id, values), _texts(values, texts), strict=True))

        def who(names: Sequence[str]) -> str:
            mark = " (this profile)" if active is not None and active in names else ""
            return f"{len(names)} of {total}: {md_escape(profile_label(names, total))}{mark}"

        for group, names in shown:
            if isinstance(group, ValueGroup):
                out.append(f"- {text_of[id(group)]} — {who(names)}")
            elif group is None:
                out.append(f"- not found — {who(names)}")
            else:
                out.append(f"- fails — {who(names)}: {md_escape(group.error)}")
        if len(shown) < len(rows):
            rest = sum(len(names) for _, names in rows) - sum(len(names) for _, names in shown)
            out.append(
                f"- {len(rows) - len(shown)} more answers — {rest} of {total} "
                "(the key view lists every answer)"
            )
    if isinstance(fleet, FleetGrouping):
        lookups = len(fleet.classes.names)
        out += [
            "",
            f"_The nodes are PuppetDB's ({md_escape(fleet.source)}): {lookups} "
            f"lookup{'s' * (lookups != 1)} answer all {fleet.nodes}, one per group of nodes "
            "whose hierarchies read the same files and facts._",
        ]
    return [*out, *([""] if pending else []), *pending]


def _fleet_note(fleet: FleetGrouping | FleetPending | None) -> list[str]:
    """Why the fleet's nodes are not in the hover (yet), or nothing."""
    if isinstance(fleet, FleetGrouping) and fleet.too_many:
        return [f"_{fleet_too_varied(fleet)}_"]
    if not isinstance(fleet, FleetPending):
        return []
    return [
        f"_PuppetDB's {fleet.nodes} nodes ({md_escape(fleet.source)}) are being grouped by "
        "what their hierarchies read; hover again in a moment for their answers._"
    ]


def fleet_too_varied(fleet: FleetGrouping) -> str:
    """Why a fleet of too many groups is not looked up, and what splits it (Markdown)."""
    why = "the data or hierarchy interpolates facts that differ from node to node"
    if fleet.splitting:
        names = " and ".join(code(name) for name in fleet.splitting)
        where = ", ".join(md_escape(path) for path in fleet.splitting_files)
        where = where or "a module's hiera.yaml"  # (a module's hierarchy is taken by value)
        why = f"the data interpolates {names} ({where}), "
        why += "which differ" if len(fleet.splitting) > 1 else "which differs"
        why += " from node to node"
    return (
        f"PuppetDB's {fleet.nodes} nodes ({md_escape(fleet.source)}) are not looked up here: "
        f"they fall into more than {fleet.too_many} groups that may get different answers "
        f"({why}); `hiera-ls diff --puppetdb` answers for every node"
    )


MAX_KEPT_TEXTS = 20_000
_KEPT_TEXTS = ("spread", "texts")


def kept_texts(snapshot: Snapshot) -> dict[int, tuple[object, str]]:
    """The values' one-line texts the hover showed, kept beside the answers (the snapshot's
    ``data_memo``): a hover over the same key renders nothing again."""
    found = snapshot.data_memo.get(_KEPT_TEXTS)
    if not isinstance(found, dict):
        found = snapshot.data_memo[_KEPT_TEXTS] = {}
    return found


def _texts(
    groups: Sequence[ValueGroup], kept: dict[int, tuple[object, str]] | None = None
) -> list[str]:
    """Each value shortened; hashes whose shortened texts would read the same are shown by
    the entries they differ in, so no two lines look alike."""
    texts = [_short(g.value, kept) for g in groups]
    if len(set(texts)) == len(texts) or not all(isinstance(g.value, dict) for g in groups):
        return [code(t) for t in texts]
    hashes = [g.value for g in groups if isinstance(g.value, dict)]
    keys: dict[object, None] = {}
    for h in hashes:
        keys.update(dict.fromkeys(h))
    differing = [
        k for k in keys if len({identity(h[k]) if k in h else ("absent",) for h in hashes}) > 1
    ]
    return [
        f"{code(short({k: h[k] for k in differing if k in h}))} (and the entries all share)"
        for h in hashes
    ]


def _short(value: object, kept: dict[int, tuple[object, str]] | None) -> str:
    """``short(value)``, kept by the value's id (with the value, so the id is not reused)."""
    if kept is None:
        return short(value)
    found = kept.get(id(value))
    if found is None or found[0] is not value:
        if len(kept) >= MAX_KEPT_TEXTS:
            kept.clear()
        found = kept[id(value)] = (value, short(value))
    return found[1]
