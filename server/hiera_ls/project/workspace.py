"""The project as the language server sees it: disk plus open buffers, settings, profiles.

:class:`Workspace` is the one mutable object (owned by the server, never global): it takes
buffer edits, disk changes and settings, and hands out immutable :class:`Snapshot`\\ s that
features read.  Work is proportional to what changed:

- a data-file edit only bumps the snapshot; the file is re-parsed on first use (the
  DataCache and KeyIndex are keyed by content stamp) and no other file is touched;
- a hiera.yaml / environment.conf change rebuilds the environments (other hiera.yaml
  files come from the config cache);
- a facts file change reloads profiles (unchanged files come from the profile cache);
- a file created or deleted re-lists the data files.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum

from hiera_ls.project.code_index import WATCHED_CODE_SUFFIXES, CodeIndex, CodeIndexes
from hiera_ls.project.discovery import find_environment_roots
from hiera_ls.project.environments import (
    CONFIG_FILE,
    ENVIRONMENT_CONF,
    ConfigCache,
    build_environment,
    global_layer,
)
from hiera_ls.project.facts import left_out_note
from hiera_ls.project.fleet_profiles import FleetProfiles
from hiera_ls.project.key_index import FileKeys, KeyIndex
from hiera_ls.project.level_files import (
    LevelRef,
    candidate_files,
    datadir_data_files,
    environment_levels,
    function_for,
    level_files,
    listed_datadirs,
)
from hiera_ls.project.model import Environment, Layer
from hiera_ls.project.profiles import (
    ProfileCache,
    ProfileEntry,
    find_profile,
    is_profile_path,
    profile_paths,
)
from hiera_ls.project.repo_config import CONFIG_NAME, RepoConfig, find_repo_config
from hiera_ls.project.settings import Settings
from hiera_ls.project.targets import DEFAULT_TARGET, Target, TargetChoice, choose_target
from hiera_ls.source.data_cache import CUSTOM_YAML, DataCache
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.files import UNREAD_CODES, FileAccess

NO_PROFILE_CERTNAME = "localhost"


class FileKind(Enum):
    DATA = "data"  # a file some hierarchy level can read (or a data file in a datadir)
    HIERA_CONFIG = "hiera_config"
    FACTS = "facts"
    ENVIRONMENT_CONF = "environment_conf"
    REPO_CONFIG = "repo_config"  # a .hiera-ls.yaml that applies to the workspace
    OTHER = "other"


@dataclass(frozen=True, slots=True)
class EnvironmentView:
    """One environment with its level map: which template can read which file."""

    env: Environment
    levels: tuple[LevelRef, ...]
    configs: Mapping[str, Layer]  # hiera.yaml path -> its layer

    def contains(self, path: str) -> bool:
        if path.startswith(self.env.root.rstrip(os.sep) + os.sep):
            return True
        return any(path.startswith(layer.root.rstrip(os.sep) + os.sep) for layer in self.env.layers)

    def datadirs(self) -> list[str]:
        out: list[str] = []
        for layer in self.env.layers:
            out.extend(d for d in listed_datadirs(layer) if d not in out)
        return out


def build_view(env: Environment) -> EnvironmentView:
    configs: dict[str, Layer] = {}
    for layer in env.layers:
        if layer.config is not None and layer.config.path is not None:
            configs[layer.config.path] = layer
    return EnvironmentView(env, tuple(environment_levels(env)), configs)


@dataclass(frozen=True, slots=True)
class DataFileInfo:
    """A data file of the project with every level that can read it."""

    path: str
    view: EnvironmentView
    levels: tuple[LevelRef, ...]  # empty for a data file in a datadir that no level reads
    # a level of a custom function hiera-ls skips names it literally, or only such levels
    # name it: that function reads it, and may permit classes yaml_data refuses
    custom_file: bool = False

    @property
    def function(self) -> str:
        function = next(
            (level.function for level in self.levels if level.reads_files),
            function_for(self.path),
        )
        # (a yaml level whose path is all variables, `%{::site}.yaml`, may match it as well)
        return CUSTOM_YAML if self.custom_file and function == "yaml_data" else function


_PROFILES_BY_NAME = "profiles by name"  # a key of Snapshot.memo


@dataclass(frozen=True, slots=True)
class Snapshot:
    """An immutable view of the project at one moment; what every feature reads."""

    generation: int
    roots: tuple[str, ...]
    settings: Settings
    environments: tuple[EnvironmentView, ...]
    profiles: tuple[ProfileEntry, ...]
    active: ProfileEntry | None
    files: FileAccess
    cache: DataCache
    key_index: KeyIndex
    data_files: Mapping[str, DataFileInfo]
    messages: tuple[str, ...] = ()  # settings that could not be honoured (unknown profile ...)
    target: Target = DEFAULT_TARGET  # the Puppet the workspace is checked for
    # each workspace root with the .hiera-ls.yaml that applies to it (project/repo_config.py)
    configs: tuple[tuple[str, RepoConfig], ...] = ()
    # per-snapshot caches for the layers above (engine sessions ...): valid as long as it is
    memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)
    # caches shared by the snapshots of one data generation: every change but a facts
    # file's (data, hiera.yaml, settings) starts a new one, so a lookup cached here for a
    # profile stays right until its data or its facts change (features/spread.py)
    data_memo: dict[object, object] = field(default_factory=dict, compare=False, repr=False)
    # the Puppet code indexes, shared by the snapshots of one code generation: a data edit
    # keeps them, a .pp change re-reads that file only (project/code_index.py)
    code: CodeIndexes = field(default_factory=CodeIndexes, compare=False, repr=False)
    # the fleet's nodes (PuppetDB, project/fleet_profiles.py): listed by the picker and
    # selectable as the active profile, read one at a time; a node that also has a
    # profile file among ``profiles`` is that file
    fleet: FleetProfiles | None = field(default=None, compare=False, repr=False)

    def fleet_names(self) -> list[str]:
        """The fleet's nodes that are not also a profile file of the workspace."""
        if self.fleet is None:
            return []
        local = {entry.name for entry in self.profiles}
        return [name for name in self.fleet.names() if name not in local]

    def profile_named(self, name: str) -> ProfileEntry | None:
        """A workspace profile by its name, else a fleet node by its certname (read now)."""
        index = self.memo.get(_PROFILES_BY_NAME)
        if not isinstance(index, dict):  # the first of a name wins; a fleet asks 10,000 times
            index = self.memo[_PROFILES_BY_NAME] = {e.name: e for e in reversed(self.profiles)}
        entry = index.get(name)
        if entry is None and self.fleet is not None:
            entry = self.fleet.entry(name, self.files, self.target)
        return entry

    # -------------------------------------------------------------- what a file is

    def environment_for(self, path: str) -> EnvironmentView | None:
        info = self.data_files.get(path)
        if info is not None:
            return info.view
        for view in self.environments:
            if path in view.configs:
                return view
        best: EnvironmentView | None = None
        for view in self.environments:
            if view.contains(path) and (best is None or len(view.env.root) > len(best.env.root)):
                best = view
        return best or (self.environments[0] if self.environments else None)

    def config_for(self, path: str) -> RepoConfig:
        """The repository configuration that applies to ``path`` (EMPTY: none)."""
        best: tuple[int, RepoConfig] | None = None
        for root, config in self.configs:
            for base in (root, config.root):
                inside = path == base or path.startswith(base.rstrip(os.sep) + os.sep)
                if base and inside and (best is None or len(base) > best[0]):
                    best = (len(base), config)
        return best[1] if best is not None else RepoConfig.EMPTY

    def kind_of(self, path: str) -> FileKind:
        if any(path in view.configs for view in self.environments):
            return FileKind.HIERA_CONFIG
        if os.path.basename(path) == CONFIG_NAME and any(c.path == path for _, c in self.configs):
            return FileKind.REPO_CONFIG
        if os.path.basename(path) == ENVIRONMENT_CONF:
            return FileKind.ENVIRONMENT_CONF
        if any(entry.profile.path == path for entry in self.profiles):
            return FileKind.FACTS
        if path in self.data_files:
            return FileKind.DATA
        return FileKind.OTHER

    def code_index(self, where: EnvironmentView | str | None = None) -> CodeIndex:
        """The Puppet code of an environment (given, or the one holding a path; the first
        when None): built on first use, then kept current file by file."""
        view = where if isinstance(where, EnvironmentView) else None
        if view is None:
            if isinstance(where, str):
                view = self.environment_for(where)
            elif self.environments:
                view = self.environments[0]
        if view is None:
            return CodeIndex({})
        return self.code.index(view.env, self.files)

    def ready_code_index(self, view: EnvironmentView) -> CodeIndex | None:
        """The Puppet code of ``view``'s environment if it is built or nearly; None while
        the server's background build of it has far to go (CodeIndexes.ready): a request
        answers without the code rather than wait seconds."""
        return self.code.ready(view.env, self.files)

    def claim_code_indexes(self) -> tuple[EnvironmentView, ...]:
        """The environments whose code index a background build is now to make (each
        claimed: see CodeIndexes.claim); the caller builds them with :meth:`code_index`."""
        return tuple(view for view in self.environments if self.code.claim(view.env))

    def profile_at(self, path: str) -> ProfileEntry | None:
        for entry in self.profiles:
            if entry.profile.path == path:
                return entry
        return None

    # -------------------------------------------------------------- data

    def text(self, path: str) -> str | None:
        return self.files.read_text(path)

    def data_file(self, path: str) -> DataFile | None:
        info = self.data_files.get(path)
        if info is None:
            return None
        return self.cache.get(self.files, path, info.function)

    def level_files(self, level: LevelRef) -> list[str]:
        """Files ``level`` can read for some node, in Ruby's glob order: the listing's answer
        (what hover, definition and the checks see), with no disk access."""
        found = [path for path, info in self.data_files.items() if level in info.levels]
        return sorted(found, key=lambda p: p.split("/"))

    def file_keys(self, path: str) -> FileKeys | None:
        df = self.data_file(path)
        if df is None:
            return None
        return self.key_index.get(self.files, df)

    def all_file_keys(self, view: EnvironmentView | None = None) -> Iterator[FileKeys]:
        """Every data file's index (built on first use, then per changed file only)."""
        for path, info in self.data_files.items():
            if view is not None and info.view is not view:
                continue
            keys = self.file_keys(path)
            if keys is not None:
                yield keys


class Workspace:
    """Mutable project state; every change marks what must be rebuilt for the next snapshot."""

    def __init__(
        self,
        roots: Sequence[str],
        settings: Settings | None = None,
    ) -> None:
        self.roots: tuple[str, ...] = tuple(os.path.normpath(os.path.abspath(r)) for r in roots)
        self.settings = settings or Settings()
        # Chosen by command; wins over the setting. ("",) means "no profile" was chosen.
        self.selected_profile: tuple[str] | None = None
        # The profiles a run is about (`check --profiles`): the others are left out of every
        # snapshot, so every check (those over all profiles included) sees only these.
        self.profile_filter: frozenset[str] | None = None
        self._buffers: dict[str, str] = {}
        self.cache = DataCache()
        self.key_index = KeyIndex()
        self._configs = ConfigCache()
        self._profile_cache = ProfileCache()
        self._generation = 0
        self._views: tuple[EnvironmentView, ...] | None = None
        self._profiles: tuple[ProfileEntry, ...] | None = None
        self._data_files: dict[str, DataFileInfo] | None = None
        self._repo_configs: tuple[tuple[str, RepoConfig], ...] | None = None
        self._snapshot: Snapshot | None = None
        self._data_memo: dict[object, object] = {}
        self._listed_data: Mapping[str, DataFileInfo] = {}  # the last snapshot's data files
        self._code = CodeIndexes()
        self._built_for: Target | None = None  # the target the environments were built for
        self._fleet: FleetProfiles | None = None

    @property
    def fleet(self) -> FleetProfiles | None:
        return self._fleet

    def set_fleet(self, fleet: FleetProfiles | None) -> None:
        """The fleet's nodes as profiles (None: none); a node's facts may have changed, so
        the lookups cached for the data generation go too."""
        if fleet is self._fleet:
            return
        self._fleet = fleet
        self._snapshot = None
        self._data_memo = {}

    # -------------------------------------------------------------- inputs

    @property
    def buffers(self) -> Mapping[str, str]:
        return self._buffers

    def open_buffer(self, path: str, text: str) -> None:
        new = path not in self._buffers
        self._buffers[path] = text
        self._changed(path, structural=new and not self._listed(path))

    def _listed(self, path: str) -> bool:
        """The file listing already holds ``path`` as it would with the buffer open: opening a
        file that is on disk (not in a hidden directory, which the walk skips) changes no
        listing, so an editor opening a thousand files does not re-walk the tree a thousand
        times (each open would cost as much as all the files open before it)."""
        if self._data_files is not None and path in self._data_files:
            return True
        hidden = any(part.startswith(".") for part in path.split(os.sep)[:-1])
        return not hidden and os.path.isfile(path)

    def update_buffer(self, path: str, text: str) -> None:
        if self._buffers.get(path) == text:
            return
        self._buffers[path] = text
        self._changed(path, structural=False)

    def close_buffer(self, path: str) -> None:
        if self._buffers.pop(path, None) is not None:
            self._changed(path, structural=not os.path.exists(path))

    def disk_changed(self, path: str, created_or_deleted: bool) -> None:
        """A watched file changed on disk; an open buffer still wins over it."""
        if not os.path.exists(path):
            self.cache.forget(path)
            self.key_index.forget(path)
        self._changed(path, structural=created_or_deleted)

    def set_settings(self, settings: Settings) -> None:
        if settings == self.settings:
            return
        old = self.settings
        self.settings = settings
        if (
            old.hiera_config,
            old.environment_path,
            old.environment,
            old.module_dirs,
            old.backends,
        ) != (
            settings.hiera_config,
            settings.environment_path,
            settings.environment,
            settings.module_dirs,
            settings.backends,
        ):
            self._views = None
            self._data_files = None
        if (old.facts_paths, old.target, old.strict_variables) != (
            settings.facts_paths,
            settings.target,
            settings.strict_variables,
        ):
            self._profiles = None  # (the target decides which facts a profile keeps)
        if old.facts_profile != settings.facts_profile:
            self.selected_profile = None  # the user changed the setting: it wins again
        self._snapshot = None
        self._data_memo = {}

    def narrow_profiles(self, names: Sequence[str] | None) -> None:
        """Keep only the profiles named (None: every profile found)."""
        self.profile_filter = frozenset(names) if names is not None else None
        self._snapshot = None
        self._data_memo = {}

    def select_profile(self, name: str | None) -> None:
        """Choose a profile by name; None or "" chooses none (hovers list every definition)."""
        self.selected_profile = (name or "",)
        self._snapshot = None

    def _changed(self, path: str, structural: bool) -> None:
        self._snapshot = None
        base = os.path.basename(path)
        if path.endswith(WATCHED_CODE_SUFFIXES):  # code, never data: the data caches stay
            self._code = self._code.after((path,))
            return
        if base == ENVIRONMENT_CONF:
            self._code = self._code.after((path,), rebuild=True)
        elif structural and not os.path.splitext(path)[1]:
            self._code = self._code.after((path,))  # maybe a directory of code
        if base in (CONFIG_FILE, ENVIRONMENT_CONF, "metadata.json") or self._is_global_config(path):
            self._views = None
            self._data_files = None
        if structural:
            self._data_files = None
            if base == CONFIG_FILE or os.path.isdir(path) or not os.path.splitext(path)[1]:
                self._views = None  # maybe a new module directory
        if base == CONFIG_NAME:
            self._repo_configs = None
            self._views = None  # its backends: may read levels differently
            self._profiles = None  # its facts paths may have changed
        if is_profile_path(path, self._profile_roots(), self._facts_paths()) or (
            self._profiles is not None and any(e.profile.path == path for e in self._profiles)
        ):
            self._profiles = None
            if path not in self._listed_data:
                return  # facts, not data: lookups of the other profiles stay right
        self._data_memo = {}

    def _profile_roots(self) -> tuple[str, ...]:
        """Where facts profiles are searched: the workspace roots, and the environments
        found above a root (an editor opened a folder inside the control repository)."""
        above = [
            v.env.root
            for v in self._views or ()
            if not any(v.env.root == r or v.env.root.startswith(r + os.sep) for r in self.roots)
        ]
        return (*self.roots, *above)

    def _facts_paths(self) -> tuple[str, ...]:
        """Where facts profiles are searched beyond the defaults: the setting's paths, then
        each .hiera-ls.yaml's ``facts`` (absolute)."""
        extra = list(self.settings.facts_paths)
        for _, config in self._repo_configs or ():
            extra.extend(p for p in config.facts if p not in extra)
        return tuple(extra)

    def _target(self) -> TargetChoice:
        """The user's ``hiera.target`` (or the deprecated ``hiera.strictVariables``), else the
        target the repository's .hiera-ls.yaml names."""
        named = [(c.path, c.target) for _, c in self._repo_configs or () if c.target]
        choice = choose_target(
            self.settings.target,
            named[0][1] if named else None,
            self.settings.strict_variables,
            given_as="hiera.target",
            deprecated_as="hiera.strictVariables",
        )
        if len({t for _, t in named}) > 1:
            listed = ", ".join(f"{p}: {t}" for p, t in named)
            note = (
                f"The workspace's .hiera-ls.yaml files name different targets ({listed}); "
                f"{choice.target.name} is used"
            )
            return TargetChoice(choice.target, (*choice.notes, note))
        return choice

    def _is_global_config(self, path: str) -> bool:
        setting = self.settings.hiera_config
        if not setting:
            return False
        full = (
            setting
            if os.path.isabs(setting)
            else os.path.join(self.roots[0] if self.roots else "", setting)
        )
        return os.path.normpath(full) == path

    # -------------------------------------------------------------- outputs

    def files(self) -> FileAccess:
        """Disk with a copy of the buffers laid over it (a snapshot never sees later edits)."""
        return FileAccess(dict(self._buffers), roots=self.roots, max_files=self.settings.max_files)

    def _backends(self) -> dict[str, str]:
        """How to read custom-backend levels: .hiera-ls.yaml's ``backends:`` (the repository's
        answer), with the user's ``hiera.backends`` setting laid over it."""
        merged: dict[str, str] = {}
        for _, config in self._repo_configs or ():
            merged.update(config.backends)
        merged.update(self.settings.backends)
        return merged

    def snapshot(self) -> Snapshot:
        if self._snapshot is not None:
            return self._snapshot
        self._generation += 1
        files = self.files()
        messages: list[str] = []
        if self._repo_configs is None:
            self._repo_configs = _repo_configs(self.roots, files)
            self._profiles = None
        choice = self._target()
        messages.extend(choice.notes)
        if choice.target != self._built_for:
            self._built_for = choice.target
            self._views = None  # which settings the environments read (environment.conf's)
            self._data_files = None
        if self._views is None:
            self._data_memo = {}
            base = self.roots[0] if self.roots else os.getcwd()
            backends = self._backends()
            glob = global_layer(self.settings.hiera_config, base, files, self._configs, backends)
            items = find_environment_roots(
                self.roots, self.settings.environment_path, self.settings.environment, files
            )
            self._views = tuple(
                build_view(
                    build_environment(
                        item,
                        glob,
                        files,
                        self._configs,
                        module_dirs=self.settings.module_dirs,
                        backends=backends,
                        target=choice.target,
                    )
                )
                for item in items
            )
        if self._data_files is None:
            self._data_files = _list_data_files(self._views, files)
        self._listed_data = self._data_files
        if self._profiles is None:
            paths = profile_paths(self._profile_roots(), self._facts_paths(), files)
            self._profiles = tuple(self._profile_cache.load(paths, files, choice.target))
        note = left_out_note([e.profile for e in self._profiles], choice.target)
        if note is not None:
            messages.append(note)
        profiles = self._profiles
        if self.profile_filter is not None:
            profiles = tuple(e for e in profiles if e.name in self.profile_filter)
        wanted = (
            self.selected_profile[0]
            if self.selected_profile is not None
            else self.settings.facts_profile
        )
        messages.extend(_unreadable_configs(self._views))
        active = find_profile(profiles, wanted)
        if wanted and active is None and self._fleet is not None:
            active = self._fleet.entry(wanted, files, choice.target)
        if wanted and active is None:
            messages.append(
                f"No facts profile named '{wanted}': hovers show every definition instead"
            )
        self._snapshot = Snapshot(
            generation=self._generation,
            roots=self.roots,
            settings=self.settings,
            environments=self._views,
            profiles=profiles,
            active=active,
            files=files,
            cache=self.cache,
            key_index=self.key_index,
            data_files=self._data_files,
            messages=tuple(messages),
            target=choice.target,
            configs=self._repo_configs,
            data_memo=self._data_memo,
            code=self._code,
            fleet=self._fleet,
        )
        return self._snapshot


def _repo_configs(roots: Sequence[str], files: FileAccess) -> tuple[tuple[str, RepoConfig], ...]:
    """Each root's .hiera-ls.yaml; a file that several roots share is loaded once."""
    loaded: dict[str, RepoConfig] = {}
    out: list[tuple[str, RepoConfig]] = []
    for root in roots:
        config = find_repo_config(root, files)
        if config.path is not None:
            config = loaded.setdefault(config.path, config)
        out.append((root, config))
    return tuple(out)


def _unreadable_configs(views: Sequence[EnvironmentView]) -> list[str]:
    """A hiera.yaml that exists but cannot be read (a directory, a device): the editor shows
    no file for it, so the log says why every lookup of its layer fails."""
    out: list[str] = []
    for view in views:
        for layer in view.configs.values():
            config = layer.config
            if config is None or config.error is None:
                continue
            if any(p.code in UNREAD_CODES for p in config.problems):
                out.append(f"{config.error}: every lookup of this {layer.kind.value} layer fails")
    return out


def _list_data_files(
    views: Sequence[EnvironmentView], files: FileAccess
) -> dict[str, DataFileInfo]:
    """Every file a level can read, plus the data files lying in a datadir (for diagnostics)."""
    found: dict[str, tuple[EnvironmentView, list[LevelRef]]] = {}
    custom: set[str] = set()
    named: set[str] = set()  # by a custom level's literal path (`regex.yaml`)
    for view in views:
        datadirs = view.datadirs()
        candidates = sorted(candidate_files(view.levels, datadirs, files))
        for level in view.levels:
            for path in level_files(level, files, candidates):
                slot = found.setdefault(path, (view, []))
                if slot[0] is view:
                    slot[1].append(level)
        for level in view.levels:
            if not level.reads_files:
                unread = level_files(level, files, candidates, unread=True)
                custom.update(unread)
                if level.static:
                    named.update(unread)
        for path in datadir_data_files(datadirs, candidates):
            found.setdefault(path, (view, []))
    return {
        path: DataFileInfo(
            path, view, tuple(levels), path in named or (not levels and path in custom)
        )
        for path, (view, levels) in sorted(found.items())
    }
