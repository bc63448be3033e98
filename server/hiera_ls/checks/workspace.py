"""What the checks need to know about the whole environment, computed once per change.

Some rules look past the file at hand: whether a looked-up key is defined anywhere, whether
a lookup_options pattern matches any key, whether interpolations form a cycle, which
hierarchy level can read a file.  :func:`build_index` gathers that from every data file the
server has loaded; the per-file checks then only read it.

The index keeps no file's text (a large repository's texts are megabytes), and it is rebuilt
after every pause in typing: a file whose content stamp is the one a previous index saw
keeps that index's findings (finding the references walks every string of the file).
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import regex

from hiera_ls.checks.module_data import kept_keys
from hiera_ls.checks.references import FilePlace, Reference, ReferenceGraph, references_in
from hiera_ls.engine.options import compile_ruby_regex, regex_search
from hiera_ls.project.level_files import (
    LevelRef,
    candidate_files,
    datadir_data_files,
    function_for,
    layer_levels,
    static_datadirs,
)
from hiera_ls.project.model import Environment, Layer, LayerKind
from hiera_ls.puppet.errors import PuppetError
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.files import FileAccess, Stamp
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.scalars import Locator

_NOT_MERGING = (None, "first", "default")


@dataclass(frozen=True, slots=True)
class DataSource:
    """One data file as the server has it: its (buffer or disk) text and the parsed file."""

    path: str
    text: str
    data: DataFile
    stamp: Stamp | None = None  # the content version ``text`` is; None: unknown

    @property
    def is_json(self) -> bool:
        return self.path.endswith(".json")


@dataclass(frozen=True, slots=True)
class StampedData:
    """A data file without its text: :func:`build_index` reads the text only when no
    previous index saw this very version (``stamp``)."""

    path: str
    data: DataFile
    stamp: Stamp


@dataclass(frozen=True, slots=True)
class IndexedFile:
    """What the index keeps of one data file."""

    stamp: Stamp | None  # the version indexed; None: unknown, so never reused
    references: tuple[Reference, ...]
    first_line: int  # length of the first line: the range of a finding about the whole file


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


@dataclass(slots=True)
class WorkspaceIndex:
    env: Environment
    files: Mapping[str, IndexedFile]  # every data file indexed
    templates: Mapping[str, list[LevelRef]]  # layer root -> its level templates
    existing: frozenset[str]  # files under the directories the templates can name
    defined_keys: frozenset[str]  # root keys a lookup can find somewhere
    module_names: frozenset[str]
    graph: ReferenceGraph
    _roles: dict[str, FileRole] = field(default_factory=dict)

    def layers(self) -> list[Layer]:
        return layers_of(self.env)

    def role(self, path: str) -> FileRole:
        if path not in self._roles:
            self._roles[path] = role_of(self.env, self.templates, path)
        return self._roles[path]


def layers_of(env: Environment) -> list[Layer]:
    return [env.global_layer, env.environment_layer, *env.modules.values()]


def layer_of(env: Environment, path: str) -> Layer | None:
    """The layer whose directory holds ``path`` (the deepest one: modules sit inside the environment)."""
    best: Layer | None = None
    for layer in layers_of(env):
        root = layer.root.rstrip(os.sep) + os.sep
        if path.startswith(root) and (best is None or len(layer.root) > len(best.root)):
            best = layer
    return best


def role_of(env: Environment, templates: Mapping[str, list[LevelRef]], path: str) -> FileRole:
    """The deepest layer holding ``path`` whose levels can read it; else the deepest holding it.

    A module's directory may hold data that only the environment's hiera.yaml reads: a
    ``hieradata`` module that r10k deploys and the control repository's datadir points into
    (``datadir: modules/hieradata/data``).  Puppet reads those keys as environment data; the
    module's own data provider never sees them, so they are not judged as module data.
    """
    holders = [
        layer for layer in layers_of(env) if path.startswith(layer.root.rstrip(os.sep) + os.sep)
    ]
    if not holders:
        return FileRole(None)
    holders.sort(key=lambda layer: len(layer.root), reverse=True)
    for layer in holders:
        own = templates.get(layer.root)
        if own is None:
            own = layer_levels(layer)
        reading = tuple(t for t in own if t.can_read(path))
        if reading:
            return FileRole(layer, reading)
    return FileRole(holders[0])


def build_index(
    env: Environment,
    sources: Iterable[DataSource | StampedData],
    files: FileAccess | None = None,
    existing: Iterable[str] | None = None,
    previous: WorkspaceIndex | None = None,
) -> WorkspaceIndex:
    """``existing``: files under the datadirs, if the caller lists them; else they are walked.

    ``previous``: an older index of ``env``, whose findings are kept for files at the same
    stamp.  A :class:`StampedData` it did not see is read from ``files`` (skipped if gone).
    """
    files = files or FileAccess()
    reusable = previous.files if previous is not None and previous.env is env else {}
    data: dict[str, DataFile] = {}
    found: dict[str, IndexedFile | DataSource] = {}
    for source in sources:
        old = reusable.get(source.path)
        if old is not None and old.stamp is not None and old.stamp == source.stamp:
            found[source.path] = old
        elif isinstance(source, StampedData):
            text = files.read_text(source.path)
            if text is None:
                continue
            found[source.path] = DataSource(source.path, text, source.data, source.stamp)
        else:
            found[source.path] = source
        data[source.path] = source.data
    templates = {layer.root: layer_levels(layer) for layer in layers_of(env)}
    if existing is None:
        levels = [t for ts in templates.values() for t in ts]
        datadirs = [d for layer in layers_of(env) for d in static_datadirs(layer)]
        existing = candidate_files(levels, datadirs, files)
    index = WorkspaceIndex(
        env=env,
        files={},
        templates=templates,
        existing=frozenset(existing) | frozenset(found),
        defined_keys=frozenset(),
        module_names=frozenset(env.modules),
        graph=ReferenceGraph.build((), {}),
    )
    definitions: dict[str, list[str]] = {}
    indexed: dict[str, IndexedFile] = {}
    places: dict[str, FilePlace] = {}
    for path, item in found.items():
        role = index.role(path)
        module_name = role.module_name
        for key in kept_keys(data[path], module_name):
            definitions.setdefault(key, []).append(path)
        indexed[path] = item if isinstance(item, IndexedFile) else _indexed(item, module_name)
        places[path] = _place(role)
    index.defined_keys = frozenset(definitions)
    index.files = indexed
    index.graph = ReferenceGraph.build(
        (r for entry in indexed.values() for r in entry.references),
        definitions,
        places,
        _merged_keys(index, data),
    )
    return index


# Characters above which a data file's per-string checks are skipped, said once by the
# ``data-large-file`` note: they cost about 0.2 ms a key, so 2 MB (some 35,000 keys) take
# seconds. The file's own references to other keys are not indexed either.
LARGE_FILE_CHARS = 2_000_000


def _indexed(source: DataSource, module_name: str | None) -> IndexedFile:
    text = source.text
    references: tuple[Reference, ...] = ()
    if len(text) <= LARGE_FILE_CHARS:
        locator = Locator.of(text, source.is_json)
        references = tuple(references_in(source.path, source.data, locator, module_name))
    end = text.find("\n")
    first_line = text[: end if end >= 0 else len(text)].rstrip("\r")
    return IndexedFile(source.stamp, references, len(first_line))


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


def _merged_keys(index: WorkspaceIndex, data: Mapping[str, DataFile]) -> _MergedKeys:
    literal: dict[str | None, dict[str, bool]] = {}
    patterns: dict[str | None, list[tuple[regex.Pattern[str], bool]]] = {}
    for path, data_file in data.items():
        options = data_file.data.get(LOOKUP_OPTIONS)
        if not isinstance(options, dict):
            continue
        scope = index.role(path).module_name
        for key, value in options.items():
            if not isinstance(key, str) or not isinstance(value, dict):
                continue
            merges = value.get("merge") not in _NOT_MERGING
            if key.startswith("^"):
                try:
                    patterns.setdefault(scope, []).append((compile_ruby_regex(key), merges))
                except PuppetError:
                    continue
            else:
                literal.setdefault(scope, {})[key] = (
                    literal.get(scope, {}).get(key, False) or merges
                )
    return _MergedKeys(literal, patterns)


@dataclass(frozen=True, slots=True)
class _MergedKeys:
    """Whether a key's lookup_options (any layer) give it a merge: then every definition is read."""

    literal: Mapping[str | None, Mapping[str, bool]]
    patterns: Mapping[str | None, Sequence[tuple[regex.Pattern[str], bool]]]

    def __call__(self, key: str) -> bool:
        module, sep, _ = key.partition("::")
        scopes: list[str | None] = [None, module] if sep and module else [None]
        for scope in scopes:
            if self.literal.get(scope, {}).get(key):
                return True
            for pattern, merges in self.patterns.get(scope, ()):
                if merges and regex_search(pattern, key):
                    return True
        return False


def discover_sources(
    env: Environment, files: FileAccess, cache: DataCache | None = None
) -> list[DataSource]:
    """Every data file under the datadirs of the environment's layers, loaded."""
    cache = cache or DataCache()
    datadirs = [d for layer in layers_of(env) for d in static_datadirs(layer)]
    levels = [t for layer in layers_of(env) for t in layer_levels(layer)]
    existing = candidate_files(levels, datadirs, files)
    out: list[DataSource] = []
    for path in datadir_data_files(["/"], existing):
        data = cache.get(files, path, function_for(path))
        text = files.read_text(path)
        if data is None or text is None:
            continue
        out.append(DataSource(path, text, data))
    return out
