"""Facts profiles of a workspace: where they live, and one name per node.

Operators already keep facts around: hiera-ls' own ``.hiera-ls/facts/``, onceover's
``spec/factsets/``, and whatever the ``hiera.factsPaths`` setting names.  Loading is keyed
by the file's content stamp, so rescanning after a change re-reads only changed files.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from hiera_ls.project.facts import FactsProfile, as_target_reads, load_facts
from hiera_ls.project.targets import DEFAULT_TARGET, Target
from hiera_ls.source.files import FileAccess, Stamp, walk_files

DEFAULT_DIRS = (os.path.join(".hiera-ls", "facts"), os.path.join("spec", "factsets"))
EXTENSIONS = (".yaml", ".yml", ".json")


@dataclass(frozen=True, slots=True)
class ProfileEntry:
    """A loaded profile under the unique name the user picks it by."""

    name: str
    profile: FactsProfile


def _files_under(directory: str, files: FileAccess) -> list[str]:
    """Facts files under ``directory``: at most ``files.max_files`` (``facts: ["/"]`` would
    make every YAML file of the disk a profile), a cut said in ``files.cut_walks``."""
    out: dict[str, None] = {}
    for path in walk_files(directory, files.max_files * 10, files.cut_walks):
        if path.endswith(EXTENSIONS):
            out[path] = None
            if len(out) > files.max_files:
                files.cut_walks.setdefault(
                    directory, f"more than {files.max_files:,} facts files lie there"
                )
                break
    prefix = directory.rstrip(os.sep) + os.sep
    out.update((p, None) for p in files.overlay if p.startswith(prefix) and p.endswith(EXTENSIONS))
    return list(out)


def profile_paths(roots: Sequence[str], extra: Sequence[str], files: FileAccess) -> list[str]:
    """Facts files in discovery order: default directories of each root, then the setting's."""
    found: list[str] = []
    places: list[str] = []
    for root in roots:
        places.extend(os.path.join(root, d) for d in DEFAULT_DIRS)
    for entry in extra:
        expanded = os.path.expanduser(entry)
        if os.path.isabs(expanded):
            places.append(expanded)
        else:
            places.extend(os.path.join(root, expanded) for root in roots)
    seen: dict[str, None] = {}
    for place in places:
        place = os.path.normpath(place)
        if files.is_dir(place):
            candidates = _files_under(place, files)
        elif files.is_file(place):
            candidates = [place]
        else:
            candidates = []
        seen.update((path, None) for path in candidates)
    found.extend(seen)
    return found


def is_profile_path(path: str, roots: Sequence[str], extra: Sequence[str]) -> bool:
    """Whether a changed file can be a facts profile (decides when to rescan)."""
    if not path.endswith(EXTENSIONS):
        return False
    places = [os.path.join(r, d) for r in roots for d in DEFAULT_DIRS]
    for entry in extra:
        expanded = os.path.expanduser(entry)
        places.extend(
            [expanded] if os.path.isabs(expanded) else [os.path.join(r, expanded) for r in roots]
        )
    for place in places:
        place = os.path.normpath(place)
        if path == place or path.startswith(place + os.sep):
            return True
    return False


@dataclass(slots=True)
class ProfileCache:
    """path -> (stamp, target, profile): a rescan re-reads only files whose content (or the
    target, which decides the facts a profile keeps) changed."""

    _entries: dict[str, tuple[Stamp, Target, FactsProfile]] = field(default_factory=dict)

    def load(
        self, paths: Iterable[str], files: FileAccess, target: Target = DEFAULT_TARGET
    ) -> list[ProfileEntry]:
        profiles: list[FactsProfile] = []
        seen: set[str] = set()
        for path in paths:
            seen.add(path)
            stamp = files.stamp(path)
            if stamp is None:
                continue
            cached = self._entries.get(path)
            if cached is None or cached[:2] != (stamp, target):
                found = files.read(path)
                if found is None:
                    continue
                profile = load_facts(path, found.text, found.problem)
                cached = (stamp, target, as_target_reads(profile, target))
                self._entries[path] = cached
            profiles.append(cached[2])
        for gone in [p for p in self._entries if p not in seen]:
            del self._entries[gone]
        return unique_names(profiles)


def unique_names(profiles: Sequence[FactsProfile]) -> list[ProfileEntry]:
    """The first profile keeps its certname; a later one with the same certname gets its file name
    added.
    """
    taken: set[str] = set()
    out: list[ProfileEntry] = []
    for profile in profiles:
        name = profile.name
        if name in taken:
            name = f"{profile.name} ({os.path.basename(profile.path)})"
        n = 2
        while name in taken:
            name = f"{profile.name} ({os.path.basename(profile.path)} {n})"
            n += 1
        taken.add(name)
        out.append(ProfileEntry(name, profile))
    return out


def find_profile(entries: Sequence[ProfileEntry], wanted: str | None) -> ProfileEntry | None:
    """By name, else by file path or file name (what a user may type in settings)."""
    if not wanted:
        return None
    for entry in entries:
        if entry.name == wanted:
            return entry
    for entry in entries:
        path = entry.profile.path
        base = os.path.basename(path)
        if wanted in (path, base, base.rsplit(".", 1)[0]):
            return entry
    return None
