"""What the checks know about a whole environment: each file's role, and its keys together.

Some rules look past the file at hand: whether a looked-up key is defined anywhere, whether
a lookup_options pattern matches any key, whether interpolations form a cycle, which
hierarchy level can read a file.  :func:`build_index` gathers that from the key index's
entries of every data file (:mod:`hiera_ls.project.key_index`: one walk of each file, shared
with the features, kept per content version) and from the level templates of each layer; the
per-file checks then only read it.  It keeps no file's text.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from hiera_ls.checks.near_keys import NearKeys
from hiera_ls.checks.references import unindexed_layers
from hiera_ls.project.environment_keys import (
    EnvironmentKeys,
    MergedKeys,
    PlacedFile,
    environment_keys,
)
from hiera_ls.project.key_index import FileKeys, index_file
from hiera_ls.project.level_files import (
    LevelRef,
    candidate_files,
    datadir_data_files,
    function_for,
    layer_levels,
    listed_datadirs,
)
from hiera_ls.project.model import Environment, Layer, LayerKind
from hiera_ls.project.reference_graph import FilePlace, ReferenceGraph
from hiera_ls.puppet.errors import PuppetError
from hiera_ls.puppet.regexp import compile_ruby_regex
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.files import FileAccess

if TYPE_CHECKING:
    from hiera_ls.puppet.regexp import RubyRegex


@dataclass(frozen=True, slots=True)
class DataSource:
    """One data file as the server has it: its (buffer or disk) text and the parsed file."""

    path: str
    text: str
    data: DataFile
    keys: FileKeys | None = None  # the key index's entry for this very text, if at hand

    @property
    def is_json(self) -> bool:
        return self.path.endswith(".json")

    def file_keys(self) -> FileKeys:
        return self.keys if self.keys is not None else index_file(self.data, self.text)


@dataclass(frozen=True, slots=True)
class FileRole:
    """The layer a data file belongs to and the level templates that can name it."""

    layer: Layer | None
    templates: tuple[LevelRef, ...] = ()

    @property
    def module_name(self) -> str | None:
        if self.layer is None or self.layer.kind is not LayerKind.MODULE:
            return None
        return self.layer.module_name

    @property
    def function_name(self) -> str | None:
        return self.templates[0].entry.function_name if self.templates else None

    @property
    def read_by_no_level(self) -> bool:
        """No level of the file's layer can read it (``hiera-data-file-unused``, or
        ``module-data-not-read`` in a module without hiera.yaml): it takes no part in any
        lookup (unknown when its hiera.yaml cannot be read)."""
        layer = self.layer
        if layer is not None and layer.unread_datadir is not None:
            return True  # a module without hiera.yaml (module-data-not-read)
        if layer is None or layer.config is None or layer.config.path is None:
            return False
        config = layer.config
        return config.error is None and config.version >= 4 and not self.templates


@dataclass(slots=True)
class CrossFileIndex:
    """One environment's data files together: their keys and references, and their roles."""

    env: Environment
    templates: Mapping[str, list[LevelRef]]  # layer root -> its level templates
    existing: frozenset[str]  # files under the directories the templates can name
    module_names: frozenset[str]
    keys: EnvironmentKeys
    _roles: dict[str, FileRole] = field(default_factory=dict)
    _unindexed: frozenset[str | None] | None = None
    _complete: bool | None = None  # keys_complete(), worked out once
    _referenced: frozenset[str] | None = None
    _optioned: MergedKeys | None = None
    _near: NearKeys | None = None  # near_keys(), made once

    @property
    def files(self) -> Mapping[str, FileKeys]:
        """Every data file indexed."""
        return self.keys.files

    @property
    def defined_keys(self) -> frozenset[str]:
        """Root keys a lookup can find somewhere."""
        return self.keys.defined_keys

    def near_keys(self) -> NearKeys:
        """The defined keys ready for "did you mean", shared by every file's check."""
        if self._near is None:
            self._near = NearKeys(self.defined_keys)
        return self._near

    @property
    def graph(self) -> ReferenceGraph:
        return self.keys.graph

    def layers(self) -> list[Layer]:
        return self.env.layers

    def keys_complete(self) -> bool:
        """Every key a lookup can find is in an indexed file: no level reads through code,
        from outside the repository, or from a datadir that is missing here (a private
        repository deployed beside this one)."""
        if self._complete is None:
            self._complete = not self.unindexed and not any(
                _missing_datadir(layer) for layer in self.layers()
            )
        return self._complete

    @property
    def referenced_keys(self) -> frozenset[str]:
        """Root keys some ``%{lookup()}``, ``%{hiera()}`` or ``%{alias()}`` in data reads."""
        if self._referenced is None:
            self._referenced = frozenset(
                ref.target for keys in self.files.values() for ref in keys.references
            )
        return self._referenced

    def has_options(self, key: str) -> bool:
        """Some lookup_options entry of the environment's data (literal or pattern) names
        ``key``: a merge or a convert_to may change what a lookup of it gives."""
        if self._optioned is None:
            literal: set[str] = set()
            patterns: list[RubyRegex] = []
            for keys in self.files.values():
                for name in keys.options:
                    if not name.startswith("^"):
                        literal.add(name)
                        continue
                    try:
                        patterns.append(compile_ruby_regex(name))
                    except PuppetError:
                        continue
            self._optioned = MergedKeys({None: literal}, {None: patterns})
        return self._optioned(key)

    def role(self, path: str) -> FileRole:
        if path not in self._roles:
            self._roles[path] = role_of(self.env, self.templates, path)
        return self._roles[path]

    @property
    def unindexed(self) -> frozenset[str | None]:
        """:func:`unindexed_layers` of the environment, and the layers holding a data file
        Puppet cannot read (the keys it would define are unknown), computed once per index
        (every data file's reference check reads it: once per file cost 0.3 s on 1,490
        files)."""
        if self._unindexed is None:
            unread = {self.role(path).module_name for path, k in self.files.items() if k.unread}
            self._unindexed = unindexed_layers(self.layers(), self.templates) | unread
        return self._unindexed


def role_of(
    env: Environment,
    templates: Mapping[str, list[LevelRef]],
    path: str,
    by_root: Mapping[str, list[Layer]] | None = None,
) -> FileRole:
    """The deepest layer holding ``path`` whose levels can read it; else the deepest holding it.

    A module's directory may hold data that only the environment's hiera.yaml reads: a
    ``hieradata`` module that r10k deploys and the control repository's datadir points into
    (``datadir: modules/hieradata/data``).  Puppet reads those keys as environment data; the
    module's own data provider never sees them, so they are not judged as module data.

    ``by_root``: :func:`layers_by_root` of ``env``, when many files are placed at once
    (the layers holding a file are then found from its directories, not by a scan of
    hundreds of modules per file).
    """
    if by_root is None:
        holders = [
            layer for layer in env.layers if path.startswith(layer.root.rstrip(os.sep) + os.sep)
        ]
        holders.sort(key=lambda layer: len(layer.root), reverse=True)
    else:
        holders = []
        directory = os.path.dirname(path)
        while True:
            holders.extend(by_root.get(directory, ()))
            parent = os.path.dirname(directory)
            if parent == directory:
                break
            directory = parent
    if not holders:
        return FileRole(None)
    for layer in holders:
        own = templates.get(layer.root)
        if own is None:
            own = layer_levels(layer)
        reading = tuple(t for t in own if t.can_read(path))
        if reading:
            return FileRole(layer, reading)
    return FileRole(holders[0])


def layers_by_root(env: Environment) -> dict[str, list[Layer]]:
    """The environment's layers by their directory (without a trailing separator)."""
    out: dict[str, list[Layer]] = {}
    for layer in env.layers:
        root = layer.root.rstrip(os.sep) or os.sep
        out.setdefault(root, []).append(layer)
    return out


def build_index(
    env: Environment,
    indexed: Iterable[FileKeys],
    files: FileAccess | None = None,
    existing: Iterable[str] | None = None,
) -> CrossFileIndex:
    """``indexed``: the key index's entries of the environment's data files.

    ``existing``: files under the datadirs, if the caller lists them; else they are walked.
    """
    files = files or FileAccess()
    entries = list(indexed)
    templates = {layer.root: layer_levels(layer) for layer in env.layers}
    if existing is None:
        levels = [t for ts in templates.values() for t in ts]
        datadirs = [d for layer in env.layers for d in listed_datadirs(layer)]
        existing = candidate_files(levels, datadirs, files)
    by_root = layers_by_root(env)
    roles = {keys.path: role_of(env, templates, keys.path, by_root) for keys in entries}
    placed = [
        PlacedFile(keys, roles[keys.path].module_name, _place(roles[keys.path])) for keys in entries
    ]
    index = CrossFileIndex(
        env=env,
        templates=templates,
        existing=frozenset(existing) | frozenset(roles),
        module_names=frozenset(env.modules),
        keys=environment_keys(placed),
        _roles=roles,
    )
    return index


def _place(role: FileRole) -> FilePlace:
    if not role.templates:
        return FilePlace()
    rank = min(t.rank for t in role.templates)
    static = any(t.static for t in role.templates)
    exclusive: object = None
    if len(role.templates) == 1:
        t = role.templates[0]
        if t.single and not t.static:
            exclusive = (t.layer.root, t.section, t.index, t.location)
    return FilePlace(rank, static, exclusive)


def discover_sources(
    env: Environment, files: FileAccess, cache: DataCache | None = None
) -> list[DataSource]:
    """Every data file under the datadirs of the environment's layers, loaded."""
    cache = cache or DataCache()
    datadirs = [d for layer in env.layers for d in listed_datadirs(layer)]
    levels = [t for layer in env.layers for t in layer_levels(layer)]
    existing = candidate_files(levels, datadirs, files)
    out: list[DataSource] = []
    for path in datadir_data_files(["/"], existing):
        data = cache.get(files, path, function_for(path))
        text = files.read_text(path)
        if data is None or text is None:
            continue
        out.append(DataSource(path, text, data))
    return out


def _missing_datadir(layer: Layer) -> bool:
    config = layer.config
    if config is None or config.path is None or config.version < 4:
        return False
    for entry in (*config.hierarchy, *config.default_hierarchy):
        if entry.location.kind in (None, "uri", "uris") or "%{" in entry.datadir:
            continue
        if not os.path.isdir(os.path.normpath(os.path.join(layer.root, entry.datadir))):
            return True
    return False
