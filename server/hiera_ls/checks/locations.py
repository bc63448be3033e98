"""Which files a hierarchy level can ever read, whatever its variables turn out to be.

Each location template (path, paths, glob, globs, a mapped_paths template) becomes a
regular expression over absolute file names: every ``%{...}`` may expand to any text
(slashes included, or nothing: Puppet 8 expands an undefined variable to ''), glob
wildcards keep their Ruby meaning.  That over-approximates on purpose: a file the
expression matches *may* be read for some node; a file nothing matches is read by no node.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from hiera_ls.project.hiera_config import HierarchyEntry
from hiera_ls.project.model import Layer, LayerKind
from hiera_ls.source.files import FileAccess
from hiera_ls.source.interpolation import TOKEN_RE
from hiera_ls.source.spans import Span

FILE_FUNCTIONS = frozenset({"yaml_data", "json_data", "hocon_data", "eyaml_lookup_key"})
DATA_EXTENSIONS = (".yaml", ".yml", ".json", ".eyaml")
PATH_KINDS = frozenset({"path", "paths", "glob", "globs", "mapped_paths"})
WALK_LIMIT = 20_000
_LAYER_RANK = {LayerKind.GLOBAL: 0, LayerKind.ENVIRONMENT: 1, LayerKind.MODULE: 2}
_PLACEHOLDER = "\x00"
_GLOB_CHARS = re.compile(r"[*?\[{]")


@dataclass(frozen=True, slots=True)
class LevelTemplate:
    """One location template of one hierarchy level, ready to match file names."""

    layer: Layer
    entry: HierarchyEntry
    section: str  # "hierarchy" or "default_hierarchy"
    index: int  # the level's index in its section
    slot: int  # the template's index in the location's values
    template: str
    span: Span  # where the template is written in hiera.yaml
    absolute: str  # datadir joined, normalised, tokens kept
    pattern: re.Pattern[str]
    walk_root: str  # the deepest directory that holds every file the template can name
    static: bool  # exactly one file name, read for every node (if it exists)
    single: bool  # a node reads at most one of the files it can name (path/paths)
    rank: int  # priority: lower ranks are searched first
    reads_files: bool  # a built-in function: the location is a file name

    @property
    def datadir(self) -> str:
        return _datadir(self.layer, self.entry)

    @property
    def walkable(self) -> bool:
        """The files it can name lie inside the layer's directory (an absolute template
        such as ``/etc/%{x}.yaml`` would have us walk the machine)."""
        root = self.layer.root.rstrip(os.sep) + os.sep
        return (self.walk_root + os.sep).startswith(root)


def _datadir(layer: Layer, entry: HierarchyEntry) -> str:
    return os.path.normpath(os.path.join(layer.root, entry.datadir))


def level_templates(layer: Layer) -> list[LevelTemplate]:
    """Every location template of the layer's hierarchy (and default_hierarchy)."""
    config = layer.config
    if config is None or config.path is None or config.version < 4:
        return []
    out: list[LevelTemplate] = []
    sections = (("hierarchy", config.hierarchy), ("default_hierarchy", config.default_hierarchy))
    for section_rank, (section, entries) in enumerate(sections):
        for index, entry in enumerate(entries):
            location = entry.location
            if location.kind not in PATH_KINDS:
                continue
            slots: Iterable[int] = (
                (2,) if location.kind == "mapped_paths" else range(len(location.values))
            )
            for slot in slots:
                if slot >= len(location.values):
                    continue
                template = location.values[slot]
                span = location.spans[slot] if slot < len(location.spans) else entry.name_span
                rank = _LAYER_RANK[layer.kind] * 10**9 + section_rank * 10**8 + index * 1000 + slot
                out.append(_template(layer, entry, section, index, slot, template, span, rank))
    return out


def _template(
    layer: Layer,
    entry: HierarchyEntry,
    section: str,
    index: int,
    slot: int,
    template: str,
    span: Span,
    rank: int,
) -> LevelTemplate:
    kind = entry.location.kind
    is_glob = kind in ("glob", "globs")
    joined = os.path.join(layer.root, _placeholders(entry.datadir), _placeholders(template))
    absolute = os.path.normpath(joined)
    pattern = re.compile(_to_regex(absolute, is_glob) + r"\Z", re.DOTALL)
    tokens = _PLACEHOLDER in absolute
    cut = len(absolute)
    if tokens:
        cut = absolute.index(_PLACEHOLDER)
    if is_glob:
        wild = _GLOB_CHARS.search(absolute)
        if wild is not None:
            cut = min(cut, wild.start())
    walk_root = os.path.dirname(absolute[:cut])
    reads_files = entry.function_name in FILE_FUNCTIONS
    return LevelTemplate(
        layer=layer,
        entry=entry,
        section=section,
        index=index,
        slot=slot,
        template=template,
        span=span,
        absolute=absolute.replace(_PLACEHOLDER, "*"),
        pattern=pattern,
        walk_root=walk_root,
        static=not tokens and not is_glob and kind != "mapped_paths",
        single=kind in ("path", "paths"),
        rank=rank,
        reads_files=reads_files,
    )


def _placeholders(text: str) -> str:
    return TOKEN_RE.sub(_PLACEHOLDER, text)


def _to_regex(path: str, is_glob: bool, braces: bool = True) -> str:
    """Ruby glob semantics for globs (an unbalanced ``{`` is literal); plain text otherwise."""
    out: list[str] = []
    i = 0
    depth = 0
    while i < len(path):
        c = path[i]
        if c == _PLACEHOLDER:
            out.append(".*")
        elif not is_glob:
            out.append(re.escape(c))
        elif c == "*":
            if path.startswith("**/", i):
                out.append("(?:[^/]*/)*")
                i += 3
                continue
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            close = path.find("]", i + 2)
            if close < 0:
                out.append(re.escape(c))
            else:
                body = path[i + 1 : close]
                if body.startswith(("!", "^")):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = close + 1
                continue
        elif c == "{" and braces:
            depth += 1
            out.append("(?:")
        elif c == "}" and depth:
            depth -= 1
            out.append(")")
        elif c == "," and depth:
            out.append("|")
        elif c == "\\" and i + 1 < len(path):
            out.append(re.escape(path[i + 1]))
            i += 2
            continue
        else:
            out.append(re.escape(c))
        i += 1
    if depth:
        return _to_regex(path, is_glob, braces=False)
    return "".join(out)


def list_files(roots: Iterable[str], files: FileAccess, limit: int = WALK_LIMIT) -> set[str]:
    """Regular files under the directories (hidden directories skipped), open buffers included."""
    found: set[str] = set()
    for root in sorted(set(roots)):
        for path in _walk(root):
            found.add(path)
            if len(found) >= limit:
                return found
    for path in files.overlay:
        if any(path.startswith(root.rstrip(os.sep) + os.sep) for root in roots):
            found.add(path)
    return found


def _walk(root: str) -> Iterator[str]:
    if not os.path.isdir(root):
        return
    for directory, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(names):
            yield os.path.join(directory, name)


def is_data_file(path: str) -> bool:
    return path.endswith(DATA_EXTENSIONS)


def static_datadirs(layer: Layer) -> list[str]:
    """The layer's datadirs without interpolation, in the order levels name them."""
    config = layer.config
    if config is None or config.path is None or config.version < 4:
        return []
    out: list[str] = []
    for entry in (*config.hierarchy, *config.default_hierarchy):
        if entry.location.kind not in PATH_KINDS or "%{" in entry.datadir:
            continue
        datadir = _datadir(layer, entry)
        if datadir not in out:
            out.append(datadir)
    return out
