"""Which hierarchy levels can load a data file, for every node at once.

A level's location is a template (``nodes/%{trusted.certname}.yaml``); without a node we
cannot fill it in, but we can say which files it may ever read: every interpolation
token becomes a ``*`` wildcard, and the result is a Ruby glob under the level's datadir.
Glob locations stay globs; ``mapped_paths`` use their template.  URIs name no files.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from hiera_ls.project.hiera_config import HierarchyEntry
from hiera_ls.project.model import Environment, Layer, LayerKind
from hiera_ls.source.files import FileAccess, glob_match
from hiera_ls.source.interpolation import scan
from hiera_ls.source.spans import Span


@dataclass(frozen=True, slots=True)
class LevelRef:
    """One location of one hierarchy level, as a pattern of the files it can read."""

    layer: Layer
    entry: HierarchyEntry
    index: int  # position of the level in its hierarchy
    location: int  # position of the location inside the level (paths/globs)
    template: str  # as written in hiera.yaml
    template_span: Span | None
    pattern: str  # absolute Ruby glob
    default_hierarchy: bool = False

    @property
    def function(self) -> str:
        return self.entry.function_name

    @property
    def reads_files(self) -> bool:
        return self.entry.read_by_hiera_ls

    def describe(self) -> str:
        """``Environment: "Per-node data" nodes/%{trusted.certname}.yaml``, for hovers and lists."""
        where = self.layer.title.replace(" Data Provider", "")
        hierarchy = "default_hierarchy " if self.default_hierarchy else ""
        return f'{where}, {hierarchy}level "{self.entry.name}": {self.template}'


def to_glob(template: str) -> str:
    """Interpolation tokens become ``*`` (each token stands for one path component's text)."""
    tokens = scan(template)
    if not tokens:
        return template
    out: list[str] = []
    pos = 0
    for token in tokens:
        literal = template[pos : token.start]
        if literal or not out or out[-1] != "*":  # two tokens side by side: one wildcard
            out.append(literal)
            out.append("*")
        pos = token.end
    out.append(template[pos:])
    return "".join(out)


def _join(base: str, path: str) -> str:
    """Ruby ``Pathname#+``: an absolute right side wins; '.' and '..' resolve."""
    return os.path.normpath(os.path.join(base, path))


def entry_levels(
    layer: Layer, entry: HierarchyEntry, index: int, default_hierarchy: bool
) -> Iterator[LevelRef]:
    spec = entry.location
    if spec.kind is None or spec.kind in ("uri", "uris"):
        return
    datadir = _join(layer.root, to_glob(entry.datadir))
    if spec.kind == "mapped_paths":
        if len(spec.values) == 3:
            span = spec.spans[2] if len(spec.spans) == 3 else None
            yield LevelRef(
                layer,
                entry,
                index,
                0,
                spec.values[2],
                span,
                _join(datadir, to_glob(spec.values[2])),
                default_hierarchy,
            )
        return
    for i, value in enumerate(spec.values):
        span = spec.spans[i] if i < len(spec.spans) else None
        yield LevelRef(
            layer, entry, index, i, value, span, _join(datadir, to_glob(value)), default_hierarchy
        )


def layer_levels(layer: Layer) -> list[LevelRef]:
    config = layer.config
    if config is None or config.path is None or config.version != 5:
        return []
    out: list[LevelRef] = []
    for i, entry in enumerate(config.hierarchy):
        out.extend(entry_levels(layer, entry, i, False))
    for i, entry in enumerate(config.default_hierarchy):
        out.extend(entry_levels(layer, entry, i, True))
    return out


def environment_layers(env: Environment) -> list[Layer]:
    """Layers in lookup order: global, environment, then modules by name."""
    return [env.global_layer, env.environment_layer, *env.modules.values()]


def environment_levels(env: Environment) -> list[LevelRef]:
    out: list[LevelRef] = []
    for layer in environment_layers(env):
        out.extend(layer_levels(layer))
    return out


def levels_for(levels: Sequence[LevelRef], path: str) -> list[LevelRef]:
    return [level for level in levels if glob_match(level.pattern, path)]


def level_files(level: LevelRef, files: FileAccess) -> list[str]:
    """Files on disk (or open in the editor) that the level can read, sorted."""
    if not level.reads_files:
        return []
    try:
        return [p for p in files.glob(level.pattern) if files.is_file(p)]
    except (OSError, RecursionError):
        return []


def is_module_layer(layer: Layer) -> bool:
    return layer.kind is LayerKind.MODULE
