"""The facts profiles a data file's checks look its keys up for, as the checks take them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from hiera_ls.project.profiles import ProfileEntry
from hiera_ls.project.workspace import EnvironmentView, Snapshot

# what they run (the lookups, the profiles' classes) is imported when first run: the server's
# first publish needs none of it (tests/lsp/test_start_imports.py)
if TYPE_CHECKING:
    from hiera_ls.checks.profile import ProfileLookup
    from hiera_ls.checks.profile_coverage import NodeProfile
    from hiera_ls.engine.lookup import LookupOutcome

Pause = Callable[[], None]


def node_profiles(snapshot: Snapshot, view: EnvironmentView) -> list[NodeProfile]:
    """Every facts profile whose facts load, as a node of ``view``'s environment."""
    from hiera_ls.checks.profile_coverage import NodeProfile
    from hiera_ls.features.profile_signature import ProfileSignatures
    from hiera_ls.project.facts import node_scope

    target = snapshot.target
    out: list[NodeProfile] = []
    # profiles that share every answer, or each key's; a profile alone shares with none
    many = len(snapshot.profiles) > 1
    signatures = ProfileSignatures(snapshot) if many else None
    for entry in snapshot.profiles:
        profile = entry.profile
        if profile.error is not None:
            continue
        scope = node_scope(profile.facts, profile.name, view.env.name, target)
        if scope.error is None:
            shares = signatures.shares(view, scope) if signatures is not None else (None, None)
            out.append(NodeProfile(entry.name, scope, *shares))
    return out


def profile_lookups(
    snapshot: Snapshot, view: EnvironmentView, pause: Pause | None, every: bool
) -> list[ProfileLookup]:
    """The profiles to look the file's keys up for: the active one first (named first in
    a finding), then with ``every`` all the others; none when no profile is active.

    Each profile's session and answers live in the snapshot's data memo, one per thread
    (features/spread.py): the files of one data generation share its lookup_options,
    hierarchies and nested lookups (a session per file re-read them for each: 1,490 times
    on Wikimedia's data), and a worker thread never shares a session with the server's.
    """
    from hiera_ls.checks.profile import ProfileLookup
    from hiera_ls.engine.lookup import LookupSession
    from hiera_ls.features.spread import profile_lookup
    from hiera_ls.project.facts import node_scope

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
