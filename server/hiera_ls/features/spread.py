"""A key's value for every facts profile at once: what a data change lands on.

A hover previews one profile, but data reaches every node; the spread groups the
profiles by the merged value they get (and by the error when the lookup fails), so one
hover answers "which nodes get what". Lookups are cached per (profile, key) in the
snapshot's ``data_memo`` (project/workspace.py): it lives as long as no data, hiera.yaml
or setting changes, and a profile's entry is dropped when its own facts change (its
FactsProfile is a new object then), so an edit re-runs exactly the lookups it can change.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass

from hiera_ls.checks.profile import profile_label
from hiera_ls.display_text import md_escape
from hiera_ls.engine.lookup import LookupOutcome, LookupSession
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
    value: object
    profiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class FailureGroup:
    error: str
    profiles: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Spread:
    """The profiles grouped by what ``lookup(key)`` gives them, in profile order."""

    key: str
    total: int
    values: tuple[ValueGroup, ...]
    missing: tuple[str, ...]
    failures: tuple[FailureGroup, ...]


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


def spread(
    snapshot: Snapshot,
    view: EnvironmentView,
    key: str,
    profiles: Sequence[ProfileEntry] | None = None,
    merge: MergeValue | None = None,
) -> Spread:
    """What every profile (or ``profiles``) gets for ``key``, with ``merge`` when the code
    asks for one."""
    entries = snapshot.profiles if profiles is None else profiles
    values: dict[object, tuple[object, list[str]]] = {}
    missing: list[str] = []
    failures: dict[str, list[str]] = {}
    known: dict[int, object] = {}  # id(value) -> identity: profiles reading one file share it
    for entry in entries:
        outcome = profile_lookup(snapshot, view, entry, key, merge=merge)
        if outcome.error is not None:
            failures.setdefault(outcome.error, []).append(entry.name)
        elif not outcome.found:
            missing.append(entry.name)
        else:
            value = outcome.value
            same = known.get(id(value))
            if same is None:
                same = known[id(value)] = identity(value)
            values.setdefault(same, (value, []))[1].append(entry.name)
    return Spread(
        key,
        len(entries),
        tuple(ValueGroup(v, tuple(names)) for v, names in values.values()),
        tuple(missing),
        tuple(FailureGroup(e, tuple(names)) for e, names in failures.items()),
    )


def spread_lines(found: Spread, active: str | None) -> list[str]:
    """The hover's section: one line per distinct answer, the profiles named once."""
    total = found.total
    if total <= 1:
        return []
    groups = len(found.values) + (1 if found.missing else 0) + len(found.failures)
    if groups == 1 and found.values:
        return [f"**Across {total} facts profiles:** every one gets this value."]
    out = [f"**Across {total} facts profiles:** {groups} different answers", ""]

    def who(names: Sequence[str]) -> str:
        mark = " (this profile)" if active is not None and active in names else ""
        return f"{len(names)} of {total}: {md_escape(profile_label(names, total))}{mark}"

    for group, text in zip(found.values, _texts(found.values), strict=True):
        out.append(f"- {text} — {who(group.profiles)}")
    if found.missing:
        out.append(f"- not found — {who(found.missing)}")
    for failure in found.failures:
        out.append(f"- fails — {who(failure.profiles)}: {md_escape(failure.error)}")
    return out


def _texts(groups: Sequence[ValueGroup]) -> list[str]:
    """Each value shortened; hashes whose shortened texts would read the same are shown by
    the entries they differ in, so no two lines look alike."""
    texts = [short(g.value) for g in groups]
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
