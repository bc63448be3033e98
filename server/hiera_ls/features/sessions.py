"""Lookups for a snapshot: the node scope of the active profile, and engine sessions.

A session caches lookup_options and resolved hierarchies, so it lives exactly as long as
the snapshot it was made for (any change makes a new snapshot); the DataCache is shared,
so a new session re-reads nothing that did not change.
"""

from __future__ import annotations

from hiera_ls.engine.lookup import LookupSession
from hiera_ls.project.facts import node_scope
from hiera_ls.project.scope import NodeScope
from hiera_ls.project.workspace import NO_PROFILE_CERTNAME, EnvironmentView, Snapshot


def scope_for(snapshot: Snapshot, view: EnvironmentView) -> NodeScope:
    """``puppet lookup --node CERTNAME --facts FILE``'s scope; no profile: no facts, localhost."""
    target = snapshot.target
    if snapshot.active is None:
        return node_scope({}, NO_PROFILE_CERTNAME, view.env.name, target)
    profile = snapshot.active.profile
    return node_scope(profile.facts, profile.name, view.env.name, target)


def new_session(snapshot: Snapshot, view: EnvironmentView) -> LookupSession:
    """A fresh session: its trace shows the lookup_options retrieval too (hover needs it)."""
    return LookupSession(view.env, scope_for(snapshot, view), snapshot.files, snapshot.cache)


def shared_session(snapshot: Snapshot, view: EnvironmentView) -> LookupSession:
    """One session per snapshot and environment, for callers on the server's thread."""
    key = ("session", view.env.root)
    session = snapshot.memo.get(key)
    if not isinstance(session, LookupSession):
        session = new_session(snapshot, view)
        snapshot.memo[key] = session
    return session
