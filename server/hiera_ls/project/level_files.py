"""Which files a hierarchy level can read: the one answer checks, hover, definition,
references and the workspace's file list share.

A level's location is a template (``nodes/%{trusted.certname}.yaml``).  For one node the
engine fills it in (``hiera_ls.engine``); for every node at once we cannot, but we can say
which files it may ever read: each ``%{...}`` stands for any text, the rest keeps its
meaning (plain text for ``path``/``paths``/``mapped_paths``, a Ruby glob for
``glob``/``globs``, see :mod:`hiera_ls.source.ruby_glob`), joined to the datadir as
Puppet joins it.  That over-approximates on purpose: a file a level matches *may* be read
for some node; a file no level matches is read by no node.

Whether a token's text may hold a ``/``: a certname cannot (Puppet checks every certname
against ``/\\A[ -.0-~]+\\Z/``, which leaves ``/`` out: ``puppet/x509/cert_provider.rb``),
and ``clientcert`` is the certname, ``trusted.hostname``/``trusted.domain`` are its two
halves, an environment's name is ``[a-z0-9_]+``.  So ``nodes/%{trusted.certname}.yaml``
reads ``nodes/web01.yaml`` but never ``nodes/dc1/web01.yaml``.  Any other variable (a fact,
a mapped_paths element) may hold any text, ``/`` included, so ``os/%{facts.os.name}.yaml``
may read ``os/x/y.yaml``.  An undefined variable expands to '' (Puppet 8), so a token may
also be empty.

Files are found by walking the directory above the first token or wildcard (hidden
directories skipped, at most :data:`WALK_LIMIT` files), with open editor buffers added.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from hiera_ls.project.backends import EXPAND_PATH
from hiera_ls.project.hiera_config_model import HierarchyEntry
from hiera_ls.project.model import Environment, Layer, LayerKind
from hiera_ls.source import ruby_glob
from hiera_ls.source.files import FileAccess, walk_files
from hiera_ls.source.interpolation import TokenKind, scan
from hiera_ls.source.keys import split_key
from hiera_ls.source.spans import Span

# Extensions of the files a datadir holds as data; a file with one that no level reads is
# reported (hiera-data-file-unused) and still gets its own checks.
DATA_EXTENSIONS = (".yaml", ".yml", ".json", ".eyaml")
# Built-in functions whose locations are file names (hocon's files are named, not read).
FILE_FUNCTIONS = frozenset({"yaml_data", "json_data", "hocon_data", "eyaml_lookup_key"})
PATH_KINDS = frozenset({"path", "paths", "glob", "globs", "mapped_paths"})
WALK_LIMIT = 20_000  # the default of FileAccess.max_files

# Variables whose value can never hold a '/' (see the module docstring).
NO_SLASH_VARIABLES = frozenset(
    {
        ("trusted", "certname"),
        ("trusted", "hostname"),
        ("trusted", "domain"),
        ("clientcert",),
        ("facts", "clientcert"),
        ("environment",),
        ("server_facts", "environment"),
    }
)

_LAYER_RANK = {LayerKind.GLOBAL: 0, LayerKind.ENVIRONMENT: 1, LayerKind.MODULE: 2}
_WORD = ruby_glob.WORD_HOLE  # a token standing for text without '/'
_TEXT = ruby_glob.TEXT_HOLE  # a token standing for any text


@dataclass(frozen=True, slots=True, eq=False)
class LevelRef:
    """One location template of one hierarchy level, and the files it can ever read."""

    layer: Layer
    entry: HierarchyEntry
    index: int  # the level's position in its hierarchy (or default_hierarchy)
    location: int  # the template's position among the level's locations (paths/globs)
    template: str  # as written in hiera.yaml
    template_span: Span | None
    default_hierarchy: bool
    pattern: str  # absolute, each token shown as '*': for messages
    matcher: ruby_glob.Matcher  # matches every absolute path the template can name
    walk_root: str  # the deepest directory that holds every file the template can name
    static: bool  # exactly one file name, read for every node (if it exists)
    rank: int  # priority: lower ranks are searched first

    @property
    def function(self) -> str:
        """How hiera-ls parses the level's files (the user's reader for a custom function)."""
        reader = self.entry.reader or self.entry.function_name
        return "yaml_data" if reader == EXPAND_PATH else reader

    @property
    def reads_files(self) -> bool:
        """hiera-ls reads the level's files itself (yaml_data, json_data, eyaml_lookup_key)."""
        return self.entry.read_by_hiera_ls

    @property
    def names_files(self) -> bool:
        """A built-in function: the location is a file name (even one hiera-ls cannot read)."""
        return self.entry.function_name in FILE_FUNCTIONS or self.entry.custom_reader is not None

    @property
    def single(self) -> bool:
        """A node reads at most one of the files it can name (path/paths)."""
        return self.entry.location.kind in ("path", "paths")

    @property
    def section(self) -> str:
        return "default_hierarchy" if self.default_hierarchy else "hierarchy"

    @property
    def span(self) -> Span:
        """Where the template is written, else the level's name."""
        return self.template_span or self.entry.name_span

    @property
    def datadir(self) -> str:
        return os.path.normpath(os.path.join(self.layer.root, self.entry.datadir))

    @property
    def walkable(self) -> bool:
        """The files it can name lie inside the layer's directory (an absolute template
        such as ``/etc/%{x}.yaml`` would have us walk the machine)."""
        root = self.layer.root.rstrip(os.sep) + os.sep
        return (self.walk_root + os.sep).startswith(root)

    def can_read(self, path: str) -> bool:
        """Whether some node's lookup may read ``path`` through this template."""
        try:
            return self.matcher.match(path)
        except ruby_glob.GlobTooComplex:
            return True  # a glob too complex to judge may read it


def _holes(text: str) -> str:
    """Each token becomes a one-character hole: no-'/' text or any text."""
    out: list[str] = []
    pos = 0
    for token in scan(text):
        out.append(text[pos : token.start])
        if token.kind is not TokenKind.EMPTY:
            out.append(_WORD if _without_slash(token.expression) else _TEXT)
        pos = token.end
    out.append(text[pos:])
    return "".join(out)


def _without_slash(expression: str) -> bool:
    segments = split_key(expression.removeprefix("::"))
    return segments is not None and tuple(segments) in NO_SLASH_VARIABLES


def _level(
    layer: Layer,
    entry: HierarchyEntry,
    index: int,
    slot: int,
    default_hierarchy: bool,
    rank: int,
) -> LevelRef:
    spec = entry.location
    template = spec.values[slot]
    span = spec.spans[slot] if slot < len(spec.spans) else None
    is_glob = spec.kind in ("glob", "globs")
    named = template
    if entry.extension is not None and not named.endswith(entry.extension):
        named += entry.extension  # version 3 adds the backend's extension
    absolute = os.path.normpath(os.path.join(layer.root, _holes(entry.datadir), _holes(named)))
    # A path is a glob with every wildcard escaped (its tokens stay holes).
    glob = absolute if is_glob else re.sub(r"([*?\[\]{}\\])", r"\\\1", absolute)
    tokens = _WORD in absolute or _TEXT in absolute
    expand = entry.reader == EXPAND_PATH
    if expand:  # <path>.yaml for keys without '::', <path>/a/b.yaml for a::b::c
        glob = glob.rstrip(os.sep) + "{.yaml,/**/*.yaml}"
    cut = min(
        (i for i, c in enumerate(absolute) if c in (_WORD, _TEXT) or (is_glob and c in "*?[{")),
        default=len(absolute),
    )
    return LevelRef(
        layer=layer,
        entry=entry,
        index=index,
        location=slot,
        template=template,
        template_span=span,
        default_hierarchy=default_hierarchy,
        pattern=absolute.replace(_WORD, "*").replace(_TEXT, "*"),
        matcher=ruby_glob.Matcher.of(glob, holes=True),
        walk_root=os.path.dirname(absolute[:cut]),
        static=not tokens and not is_glob and not expand and spec.kind != "mapped_paths",
        rank=rank,
    )


def layer_levels(layer: Layer) -> list[LevelRef]:
    """Every file location of the layer's hierarchy, then of its default_hierarchy."""
    config = layer.config
    if config is None or config.path is None or config.version < 4:
        return []
    out: list[LevelRef] = []
    sections = ((False, config.hierarchy), (True, config.default_hierarchy))
    for section_rank, (default_hierarchy, entries) in enumerate(sections):
        for index, entry in enumerate(entries):
            spec = entry.location
            if spec.kind not in PATH_KINDS:
                continue
            slots: Iterable[int] = (2,) if spec.kind == "mapped_paths" else range(len(spec.values))
            for slot in slots:
                if slot >= len(spec.values):
                    continue
                rank = _LAYER_RANK[layer.kind] * 10**9 + section_rank * 10**8 + index * 1000 + slot
                out.append(_level(layer, entry, index, slot, default_hierarchy, rank))
    return out


def environment_levels(env: Environment) -> list[LevelRef]:
    out: list[LevelRef] = []
    for layer in env.layers:
        out.extend(layer_levels(layer))
    return out


def static_datadirs(layer: Layer) -> list[str]:
    """The layer's datadirs without interpolation, in the order levels name them."""
    config = layer.config
    if config is None or config.path is None or config.version < 4:
        return []
    out: list[str] = []
    for entry in (*config.hierarchy, *config.default_hierarchy):
        if entry.location.kind not in PATH_KINDS or "%{" in entry.datadir:
            continue
        datadir = os.path.normpath(os.path.join(layer.root, entry.datadir))
        if datadir not in out:
            out.append(datadir)
    return out


def listed_datadirs(layer: Layer) -> list[str]:
    """The directories whose data files the project lists: the layer's datadirs, and a
    module's ``data`` directory that nothing reads (its files are reported as such)."""
    unread = layer.unread_datadir
    return [*static_datadirs(layer), unread] if unread is not None else static_datadirs(layer)


def is_data_file(path: str) -> bool:
    """A data file by its name: a data extension, not hidden (``.yamllint.yaml`` is a tool's)."""
    return path.endswith(DATA_EXTENSIONS) and not os.path.basename(path).startswith(".")


def function_for(path: str) -> str:
    """How a data file no level reads is parsed, by its extension."""
    if path.endswith(".json"):
        return "json_data"
    if path.endswith(".eyaml"):
        return "eyaml_lookup_key"
    return "yaml_data"


def list_files(roots: Iterable[str], files: FileAccess, limit: int | None = None) -> set[str]:
    """Regular files under the directories (hidden directories skipped), open buffers included.

    At most ``limit`` files (the user's ``files.max_files``); a listing cut short is recorded
    in ``files.cut_walks`` with the limit to raise."""
    limit = limit if limit is not None else files.max_files
    found: set[str] = set()
    roots = sorted(set(roots))
    for root in roots:
        for path in _walk(root, files, limit * 10):
            found.add(path)
            if len(found) > limit:
                files.cut_walks.setdefault(
                    root, f"the workspace holds more than the {limit:,} data files listed at once"
                )
                return found
    prefixes = tuple(root.rstrip(os.sep) + os.sep for root in roots)
    for path in files.overlay:
        if path.startswith(prefixes):
            found.add(path)
    return found


def _walk(root: str, files: FileAccess, entries: int) -> Iterator[str]:
    if os.path.isdir(root):
        yield from walk_files(root, entries, files.cut_walks)


def candidate_files(
    levels: Iterable[LevelRef], datadirs: Iterable[str], files: FileAccess
) -> set[str]:
    """The files any of the levels may read, and those lying in the datadirs: one walk."""
    roots = [level.walk_root for level in levels if level.walkable]
    return list_files([*roots, *datadirs], files)


def datadir_data_files(datadirs: Iterable[str], candidates: Iterable[str]) -> list[str]:
    """The data files (by name) among ``candidates`` that lie in one of the datadirs."""
    prefixes = tuple(d.rstrip(os.sep) + os.sep for d in datadirs)
    if not prefixes:
        return []
    return sorted(p for p in candidates if p.startswith(prefixes) and is_data_file(p))


def readable(level: LevelRef, candidates: Sequence[str]) -> list[str]:
    """The ``candidates`` (sorted absolute paths) the level can read, in their order."""
    prefix = level.walk_root.rstrip(os.sep) + os.sep
    start = bisect.bisect_left(candidates, prefix)
    out: list[str] = []
    for path in candidates[start:]:
        if not path.startswith(prefix):
            break
        if level.can_read(path):
            out.append(path)
    return out


def level_files(
    level: LevelRef,
    files: FileAccess,
    candidates: Sequence[str] | None = None,
    unread: bool = False,
) -> list[str]:
    """Files on disk (or open in the editor) that the level can read for some node, in
    Ruby's glob order.  ``candidates``: sorted :func:`candidate_files`, when the caller has
    them (else the level's directory is walked).

    A level outside its layer's directory (``/etc/puppetlabs/code/hieradata/%{x}.yaml``)
    is not walked: its files are globbed with each token as ``*``, then matched as any
    other level's, so the answer never holds a file the level cannot read.
    ``unread``: instead, the files a level of a custom function hiera-ls skips names.
    """
    if level.reads_files == unread:  # ``unread``: the files of levels hiera-ls skips
        return []
    if level.static:
        found = [level.pattern]
    elif level.walkable:
        if candidates is None:
            candidates = sorted(list_files([level.walk_root], files))
        found = readable(level, candidates)
    else:
        try:
            found = [p for p in files.glob(_as_glob(level)) if level.can_read(p)]
        except (ruby_glob.GlobTooComplex, ruby_glob.GlobTooLarge):
            found = []  # a lookup through the level says so
    return sorted({p for p in found if files.is_file(p)}, key=lambda p: p.split("/"))


def _as_glob(level: LevelRef) -> str:
    """A Ruby glob naming a superset of what the level reads without crossing '/'."""
    text = os.path.normpath(
        os.path.join(level.layer.root, _holes(level.entry.datadir), _holes(level.template))
    )
    if level.entry.location.kind not in ("glob", "globs"):
        text = re.sub(r"([*?\[\]{}\\])", r"\\\1", text)
    if level.entry.reader == EXPAND_PATH:
        text = text.rstrip(os.sep) + "{.yaml,/**/*.yaml}"
    return text.replace(_WORD, "*").replace(_TEXT, "*")
