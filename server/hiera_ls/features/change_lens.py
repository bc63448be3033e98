"""What an unsaved edit does to every node: a code lens on each changed key, and the full
comparison its command opens.

"Before" is the saved file on disk (the workspace's files without this buffer laid over
them; every other open buffer still counts), "after" is the buffer. A key changed in the
text may change no node's value (a level no profile reads, a value a higher level hides),
and that is what the lens says then. Lookups run as Puppet's automatic parameter lookup
does (merge from lookup_options); the "after" answers share the hover spread's cache.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hiera_ls.display_text import md_escape, md_fence
from hiera_ls.features.render import to_yaml
from hiera_ls.project.profiles import ProfileEntry
from hiera_ls.project.workspace import EnvironmentView, FileKind, Snapshot
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.files import FileAccess
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.spans import Span

# The lookups (the engine, the spread, the profiles' check) load on first use: the server
# imports this module at start for its result types (lsp/protocol.py).
if TYPE_CHECKING:
    from hiera_ls.engine.lookup import LookupOutcome


MAX_LENSES = 50  # changed keys given a lens per file (each costs a lookup per profile, twice)


@dataclass(slots=True)
class _SavedCache(DataCache):
    """The shared cache for every file but the edited one, whose saved text is kept apart
    (the shared cache holds one version per file: alternating would re-parse it)."""

    shared: DataCache = field(default_factory=DataCache)
    edited: str = ""

    def get(self, files: FileAccess, path: str, function: str) -> DataFile | None:
        if path != self.edited:
            return self.shared.get(files, path, function)
        return DataCache.get(self, files, path, function)


def _saved_files(snapshot: Snapshot, path: str) -> FileAccess:
    overlay = {p: t for p, t in snapshot.files.overlay.items() if p != path}
    return FileAccess(overlay, roots=snapshot.files.roots)


def _saved_data(snapshot: Snapshot, path: str) -> tuple[FileAccess, _SavedCache, DataFile | None]:
    slot = ("saved", threading.get_ident(), path)
    found = snapshot.memo.get(slot)
    if not isinstance(found, tuple):
        files = _saved_files(snapshot, path)
        cache = _SavedCache(shared=snapshot.cache, edited=path)
        info = snapshot.data_files.get(path)
        data = cache.get(files, path, info.function) if info is not None else None
        found = snapshot.memo[slot] = (files, cache, data)
    return found


def _saved_lookup(
    snapshot: Snapshot, view: EnvironmentView, entry: ProfileEntry, path: str, key: str
) -> LookupOutcome:
    from hiera_ls.engine.lookup import LookupSession
    from hiera_ls.project.facts import node_scope

    files, cache, _ = _saved_data(snapshot, path)
    slot = ("saved-session", threading.get_ident(), path, view.env.root, entry.profile.path)
    found = snapshot.memo.get(slot)
    if not isinstance(found, tuple):
        profile = entry.profile
        scope = node_scope(profile.facts, profile.name, view.env.name, snapshot.target)
        found = snapshot.memo[slot] = (LookupSession(view.env, scope, files, cache), {})
    session, answers = found
    if key not in answers:
        answers[key] = session.lookup(key)
    return answers[key]  # type: ignore[no-any-return]


def _answer(outcome: LookupOutcome) -> object:
    from hiera_ls.features.spread import identity

    if outcome.error is not None:
        return ("error", outcome.error)
    if not outcome.found:
        return ("missing",)
    return ("value", identity(outcome.value))


@dataclass(frozen=True, slots=True)
class ChangedKey:
    """A key the unsaved edit touches, and the profiles whose value of it changes."""

    key: str
    span: Span  # the key in the buffer
    changed: tuple[str, ...]  # profiles whose value of the key the edit changes
    total: int

    @property
    def title(self) -> str:
        from hiera_ls.checks.profile import profile_label

        if not self.changed:
            return "changes no profile's value"
        label = profile_label(self.changed, self.total)
        return f"changes {label if label.startswith('all ') else label.removesuffix(' profiles')}"


def changed_keys(snapshot: Snapshot, path: str) -> list[ChangedKey]:
    """Keys of an edited data file whose value differs from the saved file's, each with the
    profiles whose lookup of it the edit changes; nothing for a saved file or no profile."""
    from hiera_ls.checks.profile import key_text
    from hiera_ls.features.spread import identity

    view = snapshot.environment_for(path)
    if (
        view is None
        or path not in snapshot.files.overlay
        or snapshot.kind_of(path) is not FileKind.DATA
        or not snapshot.profiles
    ):
        return []
    now = snapshot.data_file(path)
    _, _, saved = _saved_data(snapshot, path)
    if now is None or saved is None or now.error is not None:
        return []
    out: list[ChangedKey] = []
    for key, value in now.data.items():
        if len(out) >= MAX_LENSES:
            break
        if not isinstance(key, str) or key == LOOKUP_OPTIONS or key_text(key) is None:
            continue
        if key in saved.data and identity(saved.data[key]) == identity(value):
            continue
        spans = now.nodes.get((key,))
        if spans is None:
            continue
        out.append(
            ChangedKey(
                key,
                spans.key or spans.value,
                tuple(_changed_profiles(snapshot, view, path, key)),
                len(snapshot.profiles),
            )
        )
    return out


def _changed_profiles(snapshot: Snapshot, view: EnvironmentView, path: str, key: str) -> list[str]:
    from hiera_ls.checks.profile import key_text
    from hiera_ls.features.spread import profile_lookup

    text = key_text(key) or key
    return [
        entry.name
        for entry in snapshot.profiles
        if _answer(_saved_lookup(snapshot, view, entry, path, text))
        != _answer(profile_lookup(snapshot, view, entry, text))
    ]


@dataclass(frozen=True, slots=True)
class ProfileComparison:
    """One profile's answer before and after (YAML text, ``not found`` or ``fails: ...``)."""

    name: str
    before: str
    after: str
    changed: bool


@dataclass(frozen=True, slots=True)
class KeyComparison:
    """Every profile's value of a key, saved and unsaved: the change lens's comparison."""

    key: str
    path: str
    profiles: list[ProfileComparison]
    text: str  # the whole comparison as Markdown, for a read-only view


def _shown(outcome: LookupOutcome) -> str:
    if outcome.error is not None:
        return f"fails: {outcome.error}"
    if not outcome.found:
        return "not found"
    return to_yaml(outcome.value)


def compare_key(snapshot: Snapshot, path: str, key: str) -> KeyComparison | None:
    """Every profile's value of ``key`` from the saved file and from the buffer."""
    from hiera_ls.checks.profile import key_text, profile_label
    from hiera_ls.features.spread import profile_lookup

    view = snapshot.environment_for(path)
    text = key_text(key)
    if view is None or text is None or snapshot.kind_of(path) is not FileKind.DATA:
        return None
    rows: list[ProfileComparison] = []
    for entry in snapshot.profiles:
        before = _saved_lookup(snapshot, view, entry, path, text)
        after = profile_lookup(snapshot, view, entry, text)
        rows.append(
            ProfileComparison(
                entry.name, _shown(before), _shown(after), _answer(before) != _answer(after)
            )
        )
    changed = [r for r in rows if r.changed]
    lines = [
        f"# {md_escape(key)}: the unsaved change, profile by profile",
        "",
        f"{len(changed)} of {len(rows)} facts profiles get another value (saved file → buffer).",
        "",
    ]
    for row in changed:
        lines += [
            f"## {md_escape(row.name)}",
            "",
            "Before:",
            "",
            *_block(row.before),
            "",
            "After:",
            "",
        ]
        lines += [*_block(row.after), ""]
    same = [r.name for r in rows if not r.changed]
    if same:
        lines.append(f"Unchanged for {md_escape(profile_label(same, len(rows)))}.")
    return KeyComparison(key, path, rows, "\n".join(lines).rstrip() + "\n")


def _block(text: str) -> list[str]:
    return md_fence(text, "yaml").split("\n")
