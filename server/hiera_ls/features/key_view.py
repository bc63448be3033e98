"""One key seen from the side: its value for every facts profile, and the active profile's
hierarchy level by level (the file each level resolves to, whether it exists and holds the
key).

A hover answers for one profile and shows only the levels that contributed; a side view
that follows the cursor answers "who gets what" and "where would this node read it" at a
glance. Profile values come from the spread's per-profile cache (features/spread.py), so
moving the cursor re-runs no lookup whose data and facts did not change; PuppetDB's nodes,
when the user has a fleet, are listed apart, by answer, with counts and a few names, one
lookup per class of nodes (features/profile_classes.py). Every level is
listed whatever a merge stops at: the question is where the node *could* read the key.

Level values are shown as written in the file (before interpolation): that is the text a
user would edit. Values that come from eyaml stay masked (the abbreviated ciphertext, as in
the hover) unless ``hiera.eyaml.decryptInHover`` is on and the keys are readable.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hiera_ls.features.explain import key_request
from hiera_ls.features.render import plain_text, short
from hiera_ls.project.asked_merges import AskedMerge
from hiera_ls.project.backends import EXPAND_PATH, expand_path_file
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.puppet.errors import LookupFailure
from hiera_ls.source.keys import LookupKey, NotFound, dig
from hiera_ls.source.manifest_model import MergeValue
from hiera_ls.source.spans import Position

# The lookups, the spread, the code index and eyaml load on first use: the server imports
# this module at start for its result types (lsp/protocol.py).
if TYPE_CHECKING:
    from hiera_ls.engine.locations import ResolvedLocation


@dataclass(frozen=True, slots=True)
class ProfileValue:
    """What ``lookup(key)`` gives one profile: a value, not found, or the error."""

    name: str
    active: bool
    found: bool
    value: str | None  # one line (features/render.py ``short``); None when absent or failing
    encrypted: bool  # the value holds eyaml ciphertext (masked unless decryption is on)
    error: str | None


@dataclass(frozen=True, slots=True)
class FleetGroup:
    """The fleet's nodes that get one answer: how many, and a few of their names."""

    nodes: int
    examples: list[str]  # the first few nodes' certnames
    active: bool  # the active profile is one of them
    found: bool
    value: str | None  # as ProfileValue's
    encrypted: bool
    error: str | None


@dataclass(frozen=True, slots=True)
class FleetValues:
    """PuppetDB's nodes (those that are not a workspace profile), grouped by answer."""

    source: str  # PuppetDB's URL
    nodes: int
    grouped: bool  # False while the server groups the nodes: ``groups`` is empty then
    groups: list[FleetGroup]
    note: str | None = None  # why the nodes are not looked up (too many groups)


@dataclass(frozen=True, slots=True)
class LevelPath:
    """One file a level resolves to for the active profile."""

    path: str  # absolute
    shown: str  # relative to the environment's root when inside it
    exists: bool
    holds_key: bool
    value: str | None  # the key's value as written there, one line; None when not held
    encrypted: bool
    line: int | None  # 0-based line of the key in the file, when held
    error: str | None  # what Puppet raises when a lookup reads this file (bad YAML ...)


@dataclass(frozen=True, slots=True)
class HierarchyLevel:
    """One hierarchy level in the key view, with each path it reads for the profile."""

    name: str
    layer: str  # global | environment | module
    module: str | None
    default_hierarchy: bool  # a module's default_hierarchy (read only when nothing else has it)
    paths: list[LevelPath]
    skipped: str | None  # why hiera-ls does not read this level (a custom backend)


@dataclass(frozen=True, slots=True)
class MergeProfiles:
    """Every profile's value with another merge some code reads the key with."""

    merge: str  # the merge and who asks for it, in a person's words
    profiles: list[ProfileValue]
    fleet: FleetValues | None = None


@dataclass(frozen=True, slots=True)
class KeyView:
    """The side view of one key: every profile's value and the active profile's levels."""

    key: str
    environment: str
    profile: str | None  # the active profile; None: none, the node 'localhost' without facts
    profiles: list[ProfileValue]
    hierarchy: list[HierarchyLevel]
    notes: list[str]  # said once for the whole view: layer errors, decryption failures
    # the merge ``profiles`` were looked up with when the code asks for one (who asks); None:
    # the key's lookup_options (or first found), as automatic parameter lookup reads it
    merge: str | None = None
    other_merges: list[MergeProfiles] = field(default_factory=list)  # code disagreeing
    fleet: FleetValues | None = None  # PuppetDB's nodes, when the user has a fleet


def key_view(
    snapshot: Snapshot, path: str | None, pos: Position | None, key: str | None
) -> KeyView | None:
    """The view of ``key``, or of the key under ``pos`` in ``path``; None when there is none."""
    asked = key_request(snapshot, path, pos, key)
    return None if asked is None else view_of(snapshot, *asked)


def view_of(snapshot: Snapshot, view: EnvironmentView, key: str) -> KeyView:
    from hiera_ls.features.puppet_code import asked_by, merge_value, previewed_merges

    notes: list[str] = []
    reveal = _revealer(snapshot, view, notes)
    asked = previewed_merges(snapshot, view, _root(key))
    primary = merge_value(asked)
    base = view.env.root
    others: list[MergeProfiles] = []
    for other in asked:
        if other is primary:
            continue
        if not other.known:
            notes.append(
                f"Also read by {asked_by(other, base, markdown=False)} with a merge computed "
                "at run time: not previewed"
            )
            continue
        label = f"{_merge_label(other)}, read by {asked_by(other, base, False)}"
        others.append(
            MergeProfiles(
                label,
                _profile_values(snapshot, view, key, reveal, other.value),
                _fleet_values(snapshot, view, key, reveal, other.value),
            )
        )
    active = snapshot.active
    merge = primary.value if primary else None
    return KeyView(
        key,
        view.env.name,
        active.name if active is not None else None,
        _profile_values(snapshot, view, key, reveal, merge),
        _hierarchy(snapshot, view, key, reveal, notes),
        list(dict.fromkeys(notes)),
        f"{_merge_label(primary)}, asked by {asked_by(primary, base, False)}" if primary else None,
        others,
        _fleet_values(snapshot, view, key, reveal, merge),
    )


def _merge_label(asked: AskedMerge) -> str:
    """``merge deep``, or the lookup_options' merge for readers passing none."""
    if asked.value is None:
        return "merge from lookup_options (else first found)"
    if isinstance(asked.value, str):
        return f"merge {asked.value}"
    options = ", ".join(f"{k}: {v!r}" for k, v in asked.value)
    return f"merge {{{options}}}"


def _root(key: str) -> str:
    try:
        return LookupKey.parse(key).root
    except LookupFailure:
        return key


def _profile_values(
    snapshot: Snapshot,
    view: EnvironmentView,
    key: str,
    reveal: Reveal,
    merge: MergeValue | None,
) -> list[ProfileValue]:
    from hiera_ls.features.spread import profile_lookup

    active = snapshot.active
    texts = _texts(snapshot)
    profiles: list[ProfileValue] = []
    for entry in snapshot.profiles:
        outcome = profile_lookup(snapshot, view, entry, key, merge=merge)
        shown: str | None = None
        encrypted = False
        if outcome.found:
            cached = texts.get(id(outcome))
            if cached is not None and cached[0] is outcome:
                _, shown, encrypted = cached
            else:
                shown, encrypted = reveal(outcome.value)
                if not encrypted:  # a decryption's failure is noted in every view
                    if len(texts) >= MAX_CACHED_TEXTS:
                        texts.clear()
                    texts[id(outcome)] = (outcome, shown, encrypted)
        profiles.append(
            ProfileValue(
                entry.name, entry is active, outcome.found, shown, encrypted, outcome.error
            )
        )
    return profiles


def _fleet_values(
    snapshot: Snapshot,
    view: EnvironmentView,
    key: str,
    reveal: Reveal,
    merge: MergeValue | None,
) -> FleetValues | None:
    """The fleet's nodes by answer, a group per distinct value, missing or error (one lookup
    per class: features/profile_classes.py)."""
    from hiera_ls.checks.profile import NAMED_PROFILES
    from hiera_ls.features.profile_classes import FleetPending, fleet_grouping
    from hiera_ls.features.spread import fleet_spread, fleet_too_varied

    fleet = fleet_grouping(snapshot, view)
    if fleet is None:
        return None
    if isinstance(fleet, FleetPending):
        return FleetValues(fleet.source, fleet.nodes, False, [])
    if fleet.too_many:
        return FleetValues(fleet.source, fleet.nodes, True, [], plain_text(fleet_too_varied(fleet)))
    found = fleet_spread(snapshot, view, fleet, key, merge)
    active = snapshot.active.name if snapshot.active is not None else None

    def group(
        names: tuple[str, ...], value: tuple[str, bool] | None, error: str | None
    ) -> FleetGroup:
        shown, encrypted = value if value is not None else (None, False)
        examples = list(names[:NAMED_PROFILES])
        mine = active is not None and active in names
        return FleetGroup(len(names), examples, mine, value is not None, shown, encrypted, error)

    groups = [group(g.profiles, reveal(g.value), None) for g in found.values]
    if found.missing:
        groups.append(group(found.missing, None, None))
    groups += [group(f.profiles, None, f.error) for f in found.failures]
    return FleetValues(fleet.source, fleet.nodes, True, groups)


Reveal = Callable[[object], tuple[str, bool]]
MAX_CACHED_TEXTS = 20_000
_TEXTS = ("key_view", "texts")


def _texts(snapshot: Snapshot) -> dict[int, tuple[object, str, bool]]:
    """Each cached lookup answer's one-line text, kept beside the answers (the snapshot's
    ``data_memo``, features/spread.py): a cursor moving within a key renders nothing again.
    Keyed by the answer's id, with the answer kept so that the id is not reused."""
    found = snapshot.data_memo.get(_TEXTS)
    if not isinstance(found, dict):
        found = {}
        snapshot.data_memo[_TEXTS] = found
    return found


def _revealer(snapshot: Snapshot, view: EnvironmentView, notes: list[str]) -> Reveal:
    """One line for a value, and whether it held eyaml ciphertext; the plaintext only with
    ``hiera.eyaml.decryptInHover`` on (keys read once per view, failures noted once)."""
    from hiera_ls.features.eyaml import decrypt_tree, environment_pairs, has_encrypted
    from hiera_ls.source.eyaml_crypto import DecryptError, EyamlKeyError, KeyPair

    decrypt = snapshot.settings.eyaml_decrypt_in_hover
    pairs: list[list[KeyPair]] = []
    seen: dict[int, tuple[object, str]] = {}  # profiles reading one file share its value

    def reveal(value: object) -> tuple[str, bool]:
        if not has_encrypted(value):
            known = seen.get(id(value))
            if known is None or known[0] is not value:
                known = seen[id(value)] = (value, short(value))
            return known[1], False
        if not decrypt:
            return short(value), True
        if not pairs:
            found, problems = environment_pairs(view.env)
            pairs.append(found)
            notes.extend(f"Not decrypted: {p}" for p in problems)
        try:
            return short(decrypt_tree(value, pairs[0])), True
        except (EyamlKeyError, DecryptError) as e:
            notes.append(f"Not decrypted: {e}")
            return short(value), True

    return reveal


def _hierarchy(
    snapshot: Snapshot, view: EnvironmentView, key: str, reveal: Reveal, notes: list[str]
) -> list[HierarchyLevel]:
    from hiera_ls.features.sessions import shared_session

    try:
        lk: LookupKey | None = LookupKey.parse(key)
    except LookupFailure:
        lk = None
    levels: list[HierarchyLevel] = []
    for layer in shared_session(snapshot, view).hierarchy(key):
        title = layer.layer.title + (" (default_hierarchy)" if layer.default_hierarchy else "")
        if layer.error is not None:
            notes.append(f"{title}: {layer.error}")
        for rentry in layer.entries:
            entry = rentry.entry
            skipped = None
            paths: list[LevelPath] = []
            if not rentry.supported:
                skipped = (
                    f"hiera-ls does not run the {entry.function_kind} function "
                    f"'{entry.function_name}'"
                )
            elif rentry.locations is not None:
                for loc in rentry.locations:
                    if loc.is_uri:
                        continue
                    paths.append(_level_path(snapshot, view, entry.reader, loc, lk, reveal))
            levels.append(
                HierarchyLevel(
                    entry.name,
                    layer.layer.kind.value,
                    layer.layer.module_name,
                    layer.default_hierarchy,
                    paths,
                    skipped,
                )
            )
    return levels


def _level_path(
    snapshot: Snapshot,
    view: EnvironmentView,
    reader: str | None,
    loc: ResolvedLocation,
    lk: LookupKey | None,
    reveal: Reveal,
) -> LevelPath:
    from hiera_ls.engine.providers import EYAML, mark_encrypted

    path = loc.path
    if reader == EXPAND_PATH and loc.exists and lk is not None:
        path = expand_path_file(path, lk.root)  # a directory per key prefix
    shown = _relative(path, view.env.root)
    df = snapshot.cache.get(snapshot.files, path, reader or "yaml_data") if loc.exists else None
    exists = loc.exists and df is not None
    if df is None or lk is None:
        return LevelPath(path, shown, exists, False, None, False, None, None)
    if df.error is not None:
        return LevelPath(path, shown, exists, False, None, False, None, df.error)
    if lk.root not in df.data:
        return LevelPath(path, shown, exists, False, None, False, None, None)
    raw = df.data[lk.root]
    try:
        value = dig(lk.text, raw, lk.segments) if lk.segments else raw
    except (NotFound, LookupFailure):
        return LevelPath(path, shown, exists, False, None, False, None, None)
    if reader == EYAML:
        value, _ = mark_encrypted(value)
    text, encrypted = reveal(value)
    spans = df.nodes.get((lk.root,))
    line = spans.key.start.line if spans is not None and spans.key is not None else None
    return LevelPath(path, shown, exists, True, text, encrypted, line, None)


def _relative(path: str, root: str) -> str:
    inside = path.startswith(root.rstrip(os.sep) + os.sep)
    return os.path.relpath(path, root) if inside else path
