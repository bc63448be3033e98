"""``puppet lookup --explain`` for the key under the cursor (or a named key), as text.

Clients show it in a panel; the text is what Puppet prints, so operators can compare it
with a real run.  Without a facts profile the node has no facts and is named localhost,
which the header says.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_ls.features.targets import DataKey, KeyCall, OptionsKey, TokenAt, target_at
from hiera_ls.project.key_index import KEY_METHODS
from hiera_ls.project.workspace import NO_PROFILE_CERTNAME, EnvironmentView, Snapshot
from hiera_ls.source.interpolation import TokenKind
from hiera_ls.source.spans import Position


@dataclass(frozen=True, slots=True)
class ExplainResult:
    """What the explain view shows for one key and the active profile."""

    key: str
    profile: str | None  # the facts profile used; None: no facts, node "localhost"
    environment: str
    found: bool
    error: str | None
    text: str  # the --explain output


def key_at(snapshot: Snapshot, path: str, pos: Position) -> str | None:
    target = target_at(snapshot, path, pos)
    if isinstance(target, DataKey):
        return target.key_text
    if isinstance(target, KeyCall):
        return target.key
    if isinstance(target, OptionsKey) and not target.pattern.startswith("^"):
        return target.pattern
    if isinstance(target, TokenAt):
        token = target.token
        if token.kind is TokenKind.METHOD and token.method in KEY_METHODS:
            return token.argument
    return None


def explain_key(snapshot: Snapshot, view: EnvironmentView, key: str) -> ExplainResult:
    # on first use: the server imports this module at start for its result type
    from hiera_ls.engine.explain import render_text
    from hiera_ls.features.sessions import new_session

    outcome = new_session(snapshot, view).lookup(key, None, explain=True)
    text = render_text(outcome.trace) if outcome.trace is not None else ""
    profile = snapshot.active.name if snapshot.active is not None else None
    if profile is None:
        text = f"# No facts profile selected: node '{NO_PROFILE_CERTNAME}' with no facts\n" + text
    return ExplainResult(key, profile, view.env.name, outcome.found, outcome.error, text)


def key_request(
    snapshot: Snapshot, path: str | None, pos: Position | None, key: str | None
) -> tuple[EnvironmentView, str] | None:
    """The environment and key a request names: ``key`` as given (in the environment of
    ``path``, else the first), or the key under ``pos`` in ``path``. Explain Lookup and the
    side view are asked either way (a command with a typed key, or the cursor)."""
    view = (
        snapshot.environment_for(path)
        if path
        else (snapshot.environments[0] if snapshot.environments else None)
    )
    if view is None:
        return None
    if key is None and path is not None and pos is not None:
        key = key_at(snapshot, path, pos)
    return (view, key) if key else None


def explain(
    snapshot: Snapshot, path: str | None, pos: Position | None, key: str | None
) -> ExplainResult | None:
    asked = key_request(snapshot, path, pos, key)
    return None if asked is None else explain_key(snapshot, *asked)
