"""hiera.yaml beyond what Puppet validates: variables in locations, and levels that find no file.

Puppet's own validation (structure, semantic rules, method calls in locations) is done when
the file is loaded (project/hiera_config.py); those problems are forwarded unchanged.  Added
here: the variable checks of interpolation tokens in datadir and location templates, a
datadir that does not exist, and location templates that match no file for any value of
their variables (a missing file is not an error for Puppet: the level simply finds nothing).
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Iterator

from hiera_ls.checks.cross_file import CrossFileIndex
from hiera_ls.checks.interpolation import token_problems
from hiera_ls.checks.legacy_facts import LegacyFacts
from hiera_ls.project.code_index import CodeIndex
from hiera_ls.project.hiera_config_model import HierarchyEntry
from hiera_ls.project.level_files import LevelRef, is_data_file, layer_levels, static_datadirs
from hiera_ls.project.model import Environment, Layer, LayerKind
from hiera_ls.project.puppetfile import declared_modules
from hiera_ls.puppet.functions import HIERA_FUNCTIONS, PUPPET_FUNCTIONS
from hiera_ls.source.files import FileAccess
from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.rules import Needs, Rule
from hiera_ls.source.scalars import Locator, StringSite
from hiera_ls.source.spans import Details, Problem, Severity, Span
from hiera_ls.source.text_edits import Fix, edit
from hiera_ls.source.yaml_edits import distance

NO_SPAN = Span.of(0, 0, 0, 0)

DATADIR_MISSING = Rule(
    "hiera-datadir-missing",
    Severity.WARNING,
    "A datadir that does not exist: the levels using it find no data",
)
PATH_MATCHES_NOTHING = Rule(
    "hiera-path-matches-nothing",
    Severity.HINT,
    "A location that names no existing file for any value of its variables",
)
DATA_FILE_UNUSED = Rule(
    "hiera-data-file-unused",
    Severity.HINT,
    "A data file under a datadir that no hierarchy level can read",
    needs=Needs.INDEX,
)
READS_OUTSIDE = Rule(
    "hiera-reads-outside-workspace",
    Severity.INFORMATION,
    "A hierarchy level reads files outside the directory of its hiera.yaml's environment "
    "or module (an absolute path, '..', or a symlink out)",
)


def _function_fix(problem: Problem, src: FixSource) -> list[Fix]:
    """The function the name most likely misspells."""
    span = problem.where.span
    if not problem.details.suggestions or span.start.line != span.end.line:
        return []
    written = src.at(span)
    if written != problem.details.option:
        return []
    meant = problem.details.suggestions[0]
    return [Fix(f"Change to {meant}", edit(span, meant), preferred=True)]


FUNCTION_UNKNOWN = Rule(
    "hiera-function-unknown",
    Severity.ERROR,
    "A level's data_hash, lookup_key or data_dig function exists nowhere in the environment: "
    "Puppet fails every lookup that reaches the level",
    needs=Needs.INDEX | Needs.CODE,
    fix=_function_fix,
)
RULES = (DATADIR_MISSING, PATH_MATCHES_NOTHING, DATA_FILE_UNUSED, READS_OUTSIDE, FUNCTION_UNKNOWN)


def check_config_tokens(
    layer: Layer,
    text: str,
    legacy: LegacyFacts | None = None,
    node_scope: frozenset[str] = frozenset(),
) -> list[Problem]:
    """Variable problems in each level's datadir and location templates (``node_scope``: the
    variables the code's node definitions set)."""
    config = layer.config
    if config is None or config.path is None:
        return []
    locator = Locator.of(text)
    out: list[Problem] = []
    for site, local in config_strings(layer):

        def span_of(start: int, end: int, site: StringSite = site) -> Span:
            return locator.span(site, start, end)

        out.extend(
            token_problems(
                site.value,
                span_of,
                config.path,
                config=True,
                local_variable=local,
                legacy=legacy,
                node_scope=node_scope,
            )
        )
    return out


def config_strings(layer: Layer) -> Iterator[tuple[StringSite, str | None]]:
    """Each datadir and location template of the layer's levels holding a ``%{``, with the
    variable a mapped_paths template binds for itself."""
    config = layer.config
    if config is None:
        return
    seen_datadirs: set[Span] = set()
    for entry in (*config.hierarchy, *config.default_hierarchy):
        if entry.datadir_span is not None and entry.datadir_span not in seen_datadirs:
            seen_datadirs.add(entry.datadir_span)
            if "%{" in entry.datadir:
                yield StringSite((), entry.datadir, False, entry.datadir_span, None, False), None
        location = entry.location
        local = None
        slots = range(len(location.values))
        if location.kind == "mapped_paths":
            slots = range(2, min(3, len(location.values)))
            local = location.values[1] if len(location.values) > 1 else None
        for slot in slots:
            if slot < len(location.spans) and location.spans[slot] != NO_SPAN:
                value = location.values[slot]
                if "%{" in value:
                    yield StringSite((), value, False, location.spans[slot], None, False), local


def check_datadirs(layer: Layer, files: FileAccess) -> list[Problem]:
    """Each datadir (without variables) that levels read from but that does not exist."""
    config = layer.config
    if config is None or config.path is None or config.version < 4:
        return []
    out: list[Problem] = []
    reported: set[str] = set()
    for entry in (*config.hierarchy, *config.default_hierarchy):
        if entry.location.kind in (None, "uri", "uris") or "%{" in entry.datadir:
            continue
        datadir = os.path.normpath(os.path.join(layer.root, entry.datadir))
        if datadir in reported or files.is_dir(datadir) or _has_buffer_under(files, datadir):
            continue
        reported.add(datadir)
        out.append(
            DATADIR_MISSING.at(
                f"The datadir '{entry.datadir}' ({datadir}) does not exist: hierarchy level "
                f"'{entry.name}' and every level sharing it find no data",
                config.path,
                _datadir_span(entry),
                Details(level=entry.name, file=datadir, option="datadir"),
            )
        )
    return out


def _datadir_span(entry: HierarchyEntry) -> Span:
    """Where the datadir is written; the level's name when it is Puppet's default ``data``.

    A range over several lines is the enclosing mapping (the default was filled in), not a
    written datadir.
    """
    span = entry.datadir_span
    if span is not None and span != NO_SPAN and span.start.line == span.end.line:
        return span
    return entry.name_span


def _has_buffer_under(files: FileAccess, directory: str) -> bool:
    prefix = directory.rstrip(os.sep) + os.sep
    return any(p.startswith(prefix) for p in files.overlay)


def check_unmatched_templates(
    layer: Layer,
    files: FileAccess,
    existing: Collection[str],
    templates: list[LevelRef] | None = None,
) -> list[Problem]:
    """Location templates of built-in file functions that name no existing file at all.

    ``existing``: absolute paths of the files under the templates' directories
    (see :func:`hiera_ls.project.level_files.candidate_files`).
    """
    config = layer.config
    if config is None or config.path is None:
        return []
    out: list[Problem] = []
    for template in templates if templates is not None else layer_levels(layer):
        if not template.names_files or template.span == NO_SPAN or not template.walkable:
            continue
        if not files.is_dir(template.datadir) and not _has_buffer_under(files, template.datadir):
            continue  # hiera-datadir-missing says it once
        if any(template.can_read(p) for p in _candidates(existing, template.walk_root)):
            continue
        if template.static:
            message = (
                f"{template.pattern} does not exist: hierarchy level '{template.entry.name}' finds "
                "nothing here (Puppet skips a missing file without a word)"
            )
        else:
            message = (
                f"No file matches {template.pattern} for any value of its variables: hierarchy "
                f"level '{template.entry.name}' finds nothing here for any node"
            )
        details = Details(level=template.entry.name, file=template.pattern)
        out.append(PATH_MATCHES_NOTHING.at(message, config.path, template.span, details))
    return out


def check_outside_reads(
    layer: Layer,
    files: FileAccess,
    existing: Collection[str],
    templates: list[LevelRef] | None = None,
    repository: str | None = None,
) -> list[Problem]:
    """Location templates that read files outside the layer's directory: an absolute path,
    ``..``, or a data file that is a symlink out.  Puppet reads them, and so does hiera-ls;
    the user learns that the answer depends on files the repository does not hold.

    A global hiera.yaml kept inside the ``repository`` (Wikimedia's rake_modules/hiera.yaml
    reads ../hieradata) is judged by the repository's directory, not its own."""
    config = layer.config
    if config is None or config.path is None:
        return []
    root = layer.root.rstrip(os.sep)
    if (
        layer.kind is LayerKind.GLOBAL
        and repository is not None
        and config.path.startswith(repository.rstrip(os.sep) + os.sep)
    ):
        root = repository.rstrip(os.sep)
    real_root = os.path.realpath(root)
    where = {LayerKind.GLOBAL: "global hiera.yaml", LayerKind.MODULE: "module"}.get(
        layer.kind, "environment"
    )
    out: list[Problem] = []
    links: dict[str, bool] = {}
    for template in templates if templates is not None else layer_levels(layer):
        if not template.names_files or template.span == NO_SPAN:
            continue
        if not (template.walk_root + os.sep).startswith(root + os.sep):
            message = (
                f"Hierarchy level '{template.entry.name}' reads files outside the {where} "
                f"directory {root}: {template.pattern}"
            )
        else:
            outside = [
                (p, real)
                for p in sorted(_candidates(existing, template.walk_root))
                if template.can_read(p)
                and p not in files.overlay
                and (real := _symlinked_out(p, root, real_root, links)) is not None
            ]
            if not outside:
                continue
            path, real = outside[0]
            more = f" (and {len(outside) - 1} more)" if len(outside) > 1 else ""
            message = (
                f"Hierarchy level '{template.entry.name}' reads {path}, a symlink to {real}, "
                f"outside the {where} directory {root}{more}"
            )
        details = Details(level=template.entry.name, file=template.pattern)
        out.append(READS_OUTSIDE.at(message, config.path, template.span, details))
    return out


def _symlinked_out(path: str, root: str, real_root: str, links: dict[str, bool]) -> str | None:
    """Where ``path`` (under ``root``) really is, when a symlink takes it outside ``real_root``.

    Only a path with a symlink among its components below ``root`` can leave it, so each
    component is checked once (``links`` remembers directories) before any realpath.
    """
    here = root
    linked = False
    for part in os.path.relpath(path, root).split(os.sep):
        here = os.path.join(here, part)
        if here not in links:
            links[here] = os.path.islink(here)
        linked = linked or links[here]
    if not linked:
        return None
    real = os.path.realpath(path)
    inside = real == real_root or real.startswith(real_root.rstrip(os.sep) + os.sep)
    return None if inside else real


def _candidates(existing: Collection[str], root: str) -> list[str]:
    prefix = root.rstrip(os.sep) + os.sep
    return [p for p in existing if p.startswith(prefix)]


def check_unused_data_files(index: CrossFileIndex) -> list[Problem]:
    """Data files under a layer's datadir that no level of that layer can ever read."""
    out: list[Problem] = []
    for layer in index.layers():
        config = layer.config
        if config is None or config.path is None or config.error is not None:
            continue
        templates = index.templates.get(layer.root, [])
        for datadir in static_datadirs(layer):
            prefix = datadir.rstrip(os.sep) + os.sep
            for path in sorted(index.existing):
                if not path.startswith(prefix) or not is_data_file(path):
                    continue
                if index.role(path).layer is not layer or any(t.can_read(path) for t in templates):
                    continue
                if _plan_reads(layer, path):
                    continue  # Bolt's plans read it
                indexed = index.files.get(path)
                first_line = indexed.first_line if indexed is not None else 0
                message = (
                    f"No hierarchy level of {config.path} reads this file: Puppet never looks "
                    "at its keys"
                )
                yaml_twin = path[: -len(".yml")] + ".yaml" if path.endswith(".yml") else None
                if yaml_twin is not None and any(t.can_read(yaml_twin) for t in templates):
                    message += (
                        "; this file ends in .yml, and the level that would read it names "
                        f"{os.path.basename(yaml_twin)}"
                    )
                span = Span.of(0, 0, 0, first_line)
                out.append(DATA_FILE_UNUSED.at(message, path, span, Details(file=config.path)))
    return out


def _plan_reads(layer: Layer, path: str) -> bool:
    """A plan_hierarchy level names the file (as written, without variables): Bolt's plans
    read it, though Puppet's own lookups never do."""
    config = layer.config
    for entry in config.plan_hierarchy if config is not None else ():
        if entry.location.kind not in ("path", "paths"):
            continue
        for value in entry.location.values:
            named = os.path.normpath(os.path.join(layer.root, entry.datadir, value))
            if "%{" not in value and named == path:
                return True
    return False


FUNCTION_KINDS = ("data_hash", "lookup_key", "data_dig")
_WHO_READS = {
    LayerKind.GLOBAL: "every lookup",
    LayerKind.ENVIRONMENT: "every lookup",
    LayerKind.MODULE: "every lookup of the module's keys",
}


def check_unknown_functions(
    layer: Layer, text: str, env: Environment, code: CodeIndex, files: FileAccess
) -> list[Problem]:
    """Each level whose function Puppet cannot find: neither Puppet's own nor defined by
    the environment's code (a module's ``lib/puppet/functions`` or ``functions/``). Puppet
    fails every lookup that reaches the level (``Unable to find 'data_hash' function named
    'yml_data'``). A function of a module that is not here (one the Puppetfile deploys, or
    a git submodule not checked out) may exist on the server: only a name that misspells a
    known function is then reported. A custom function mapped to a reader (``backends``)
    is the user's word that it exists."""
    config = layer.config
    if config is None or config.path is None or config.error is not None:
        return []
    defined = code.function_names()
    out: list[Problem] = []
    said: set[Span] = set()
    for entry in (*config.hierarchy, *config.default_hierarchy):
        name = entry.function_name
        if entry.function_kind not in FUNCTION_KINDS or entry.custom_reader is not None:
            continue
        if name in PUPPET_FUNCTIONS or name.lower() in defined:
            continue
        meant = _misspelt(name, sorted({*HIERA_FUNCTIONS, *defined}))
        if meant is None and _may_exist_elsewhere(name, env, files):
            continue
        span = _function_span(text, entry, name)
        if span in said:
            continue  # one function in defaults: said once
        said.add(span)
        error = (
            f"Unable to find '{entry.function_kind}' function named '{name}' (file: {config.path})"
        )
        ask = (
            f" Did you mean '{meant}'?"
            if meant is not None
            else " Neither Puppet nor any module of the environment defines it."
        )
        out.append(
            FUNCTION_UNKNOWN.at(
                f"Puppet has no function '{name}' for hierarchy level '{entry.name}': "
                f"{_WHO_READS[layer.kind]} that reaches the level fails with: {error}.{ask}",
                config.path,
                span,
                Details(
                    level=entry.name,
                    option=name,
                    suggestions=(meant,) if meant is not None else (),
                ),
            )
        )
    return out


def _misspelt(name: str, known: list[str]) -> str | None:
    """The known function ``name`` misspells: a letter or two off (one in five at most), so
    ``vault_data`` (another backend) is not taken for ``yaml_data``."""
    scored = sorted((distance(name.lower(), k), k) for k in known)
    if scored and scored[0][0] <= max(1, len(scored[0][1]) // 5):
        return scored[0][1]
    return None


def _may_exist_elsewhere(name: str, env: Environment, files: FileAccess) -> bool:
    """A function the server may have though this checkout lacks it: one of a module that
    is not here, or (a name without a namespace, which any module may define) when some of
    the environment's modules are not here (the Puppetfile's, an empty submodule)."""
    module, sep, rest = name.partition("::")
    if sep:
        if module == "environment":
            return _environment_function(env, rest, files)
        layer = env.modules.get(module)
        return layer is None or _empty(layer.root)
    deployed = declared_modules(env.root, files)
    if any(m not in env.modules for m in deployed):
        return True
    return any(_empty(layer.root) for layer in env.modules.values())


def _environment_function(env: Environment, name: str, files: FileAccess) -> bool:
    """``environment::name`` lives in the environment's own ``functions/`` or ``lib/``."""
    return files.exists(os.path.join(env.root, "functions", f"{name}.pp")) or files.exists(
        os.path.join(env.root, "lib", "puppet", "functions", "environment", f"{name}.rb")
    )


def _empty(directory: str) -> bool:
    try:
        with os.scandir(directory) as entries:
            return not any(True for _ in entries)
    except OSError:
        return False


_FUNCTION_LINE = re.compile(r"\b(?:data_hash|lookup_key|data_dig)\s*:\s*(['\"]?)([^'\"\s#,}]+)\1")


def _function_span(text: str, entry: HierarchyEntry, name: str) -> Span:
    """Where the level names its function: within the level, else in ``defaults``."""
    lines = text.splitlines()
    first = range(entry.span.start.line, min(entry.span.end.line + 1, len(lines)))
    for numbers in (first, range(len(lines))):
        for number in numbers:
            for m in _FUNCTION_LINE.finditer(lines[number]):
                if m.group(2) == name:
                    return Span.of(number, m.start(2), number, m.end(2))
    return entry.name_span
