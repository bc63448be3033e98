"""The facts profiles a data file's keys are looked up for by the server's checks
(features/diagnostics.py), each with its lookups kept for the snapshot's data generation."""

from __future__ import annotations

from collections.abc import Callable

from hiera_ls.checks.profile import ProfileLookup
from hiera_ls.engine.lookup import LookupOutcome, LookupSession
from hiera_ls.features.spread import profile_lookup
from hiera_ls.project.facts import node_scope
from hiera_ls.project.profiles import ProfileEntry
from hiera_ls.project.workspace import EnvironmentView, Snapshot


def file_profiles(
    snapshot: Snapshot, view: EnvironmentView, pause: Callable[[], None] | None, every: bool
) -> list[ProfileLookup]:
    """The profiles to look the file's keys up for: the active one first (named first in
    a finding), then with ``every`` all the others; none when no profile is active.

    Each profile's session and answers live in the snapshot's data memo, one per thread
    (features/spread.py): the files of one data generation share its lookup_options,
    hierarchies and nested lookups (a session per file re-read them for each: 1,490 times
    on Wikimedia's data), and a worker thread never shares a session with the server's.
    """
    active = snapshot.active
    if active is None:
        return []
    entries = [active, *(e for e in snapshot.profiles if e is not active)] if every else [active]

    def lookup_for(entry: ProfileEntry) -> Callable[[str], LookupOutcome]:
        def lookup(key: str) -> LookupOutcome:
            if pause is not None:
                pause()
            return profile_lookup(snapshot, view, entry, key)

        return lookup

    def explain_for(entry: ProfileEntry) -> Callable[[str], LookupOutcome]:
        def explain(key: str) -> LookupOutcome:
            profile = entry.profile
            target = snapshot.target
            scope = node_scope(profile.facts, profile.name, view.env.name, target)
            session = LookupSession(view.env, scope, snapshot.files, snapshot.cache)
            return session.lookup(key, None, explain=True)

        return explain

    return [ProfileLookup(entry.name, lookup_for(entry), explain_for(entry)) for entry in entries]
