"""The entry points the language server and the CLI call, running every family of rules.

- :func:`check_data_file`: one data file (YAML or JSON): what its loader found, its tokens,
  its lookup_options, module rules, references, and (with a profile) failing lookups.
- :func:`check_hiera_config`: one hiera.yaml: Puppet's validation plus location checks.
- :func:`check_workspace`: findings about files as members of the environment (data files
  no hierarchy level reads), grouped by the file they are about.
- :func:`check_profile_coverage`: what every facts profile's lookups make of the whole
  environment (definitions and files no profile needs), grouped by file; costly, so the
  language server runs it in the background.

Each works without a :class:`CrossFileIndex` (rules that need the whole environment are
then skipped), so a file opened outside any environment still gets its local checks.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence

from hiera_ls.checks.class_parameters import CodeContext, check_class_keys, check_class_values
from hiera_ls.checks.cross_file import (
    CrossFileIndex,
    DataSource,
    FileRole,
    build_index,
    role_of,
)
from hiera_ls.checks.data_shapes import check_dash_items, check_key_colons, check_null_words
from hiera_ls.checks.eyaml import check_encrypted_blocks, check_eyaml_keys
from hiera_ls.checks.fact_paths import (
    NO_FACTS,
    KnownFacts,
    check_config_fact_paths,
    check_data_fact_paths,
)
from hiera_ls.checks.hiera_yaml import (
    check_config_tokens,
    check_datadirs,
    check_outside_reads,
    check_unknown_functions,
    check_unmatched_templates,
    check_unused_data_files,
)
from hiera_ls.checks.interpolation import check_data_tokens, unquoted_token_problem
from hiera_ls.checks.legacy_facts import LegacyFacts
from hiera_ls.checks.lookup_options import check_lookup_options
from hiera_ls.checks.module_data import check_module_keys, check_unread_module_data
from hiera_ls.checks.problems import in_file_order, unique
from hiera_ls.checks.profile import Folded, ProfileLookup, check_profiles, per_profile
from hiera_ls.checks.profile_coverage import CoverageMemo, NodeProfile, check_profile_coverage
from hiera_ls.checks.references import check_references
from hiera_ls.checks.required_parameters import check_required_parameters
from hiera_ls.checks.yaml11_parameters import judge_yaml11_booleans
from hiera_ls.project.code_index import CodeIndex
from hiera_ls.project.key_index import LARGE_FILE_CHARS
from hiera_ls.project.level_files import candidate_files, layer_levels
from hiera_ls.project.model import Environment, Layer
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.files import FileAccess
from hiera_ls.source.loader_rules import DATA_LARGE_FILE, YAML_SYNTAX
from hiera_ls.source.scalars import Locator
from hiera_ls.source.spans import Problem, Span

__all__ = [
    "CoverageMemo",
    "CrossFileIndex",
    "DataSource",
    "LegacyFacts",
    "NodeProfile",
    "ProfileLookup",
    "build_index",
    "check_data_file",
    "check_data_file_lookups",
    "check_hiera_config",
    "check_profile_coverage",
    "check_workspace",
]


def check_data_file(
    index: CrossFileIndex | None,
    source: DataSource,
    profile: ProfileLookup | Sequence[ProfileLookup] | None = None,
    env: Environment | None = None,
    code: CodeIndex | None = None,
    declared: Callable[[], Collection[str]] = frozenset,
    folded: Folded | None = None,
    facts: KnownFacts = NO_FACTS,
    legacy: LegacyFacts | None = None,
    pause: Callable[[], None] | None = None,
) -> list[Problem]:
    """All problems of one data file, in file order.

    ``index``: the environment's :class:`CrossFileIndex` (None: only the file's own rules).
    ``profile``: the facts profiles to look the keys up for (None or none: no lookups are
    run); a finding several give is reported once, naming them.
    ``env``: the environment when there is no index (tells module data from other data).
    ``code``: the environment's Puppet code (the class parameter checks need it and the
    index: which keys data reads through interpolation, which have lookup_options).
    ``declared``: the classes the code declares resource-like (asked only when needed).
    ``folded``: whether a failure's cause is reported where it is (checks/causes.py): such
    failures are its consequences, not findings of this file.
    ``facts``: every facts profile's facts (a misspelt fact is one none of them has).
    ``legacy``: the target's agents send no legacy facts (checks/legacy_facts.py).
    ``pause``: called between families of checks (the server's background run gives way
    there to an edit or a request, or gives up by raising).
    """
    step = pause if pause is not None else _no_pause
    data = source.data
    path = source.path
    out: list[Problem] = []
    for found in data.problems:
        clearer = (
            unquoted_token_problem(found, source.text) if found.code == YAML_SYNTAX.code else None
        )
        out.append(clearer if clearer is not None else found)
    refused = data.error is not None
    if data.readable is not None:  # refused for a date or a tag: the rest of it still counts
        out.extend(data.readable.problems)
        data = data.readable
    elif refused:
        return in_file_order(unique(out))
    role = _role(index, env, path)
    module_name = role.module_name
    large = len(source.text) > LARGE_FILE_CHARS
    if large:
        out.append(
            DATA_LARGE_FILE.at(
                f"This file holds {len(source.text):,} characters, more than "
                f"{LARGE_FILE_CHARS:,}: hiera-ls skips its per-string checks (interpolation "
                "tokens, references, unused keys) and the facts-profile lookup of each key. "
                "Lookups and hovers still read the whole file",
                path,
                Span.of(0, 0, 0, 0),
            )
        )
    locator = Locator.of(source.text, source.is_json)
    if not large:
        node_scope = code.node_variables() if code is not None else frozenset()
        out.extend(check_data_tokens(path, data, locator, legacy, node_scope))
        step()
        out.extend(check_data_fact_paths(path, data, locator, facts))
        step()
        if not source.is_json:
            out.extend(check_null_words(path, data, source.text, code))
            out.extend(check_dash_items(path, data, source.text))
    referenced = index.referenced_keys if index is not None else frozenset()
    out.extend(check_key_colons(path, data, code, referenced))
    out.extend(
        check_lookup_options(
            path,
            data,
            module_name=module_name,
            all_keys=index.defined_keys if index is not None and index.keys_complete() else None,
        )
    )
    if _reads_eyaml(role, path):
        out.extend(check_encrypted_blocks(path, data, source.text))
    if module_name is not None and not _unread_module(role):
        function = role.function_name or ("json_data" if source.is_json else "yaml_data")
        out.extend(check_module_keys(path, data, module_name, function))
    step()
    references = [] if large else source.file_keys().kept_references(module_name)
    if index is not None:
        out.extend(
            check_references(
                path,
                references,
                defined_keys=index.defined_keys,
                known_modules=index.module_names,
                graph=index.graph,
                unindexed=index.unindexed,
                near=index.near_keys(),
            )
        )
    context = _code_context(index, code, role)
    if context is not None:
        step()
        out.extend(check_class_keys(path, data, context, module_name=module_name, pause=step))
        out = judge_yaml11_booleans(out, data, source.text, context, module_name)
    step()
    out.extend(check_data_file_lookups(index, source, profile, env, code, declared, folded))
    return in_file_order(unique(out))


def _no_pause() -> None:
    """No pause: a command-line run has no editor to give way to."""


def check_data_file_lookups(
    index: CrossFileIndex | None,
    source: DataSource,
    profile: ProfileLookup | Sequence[ProfileLookup] | None,
    env: Environment | None = None,
    code: CodeIndex | None = None,
    declared: Callable[[], Collection[str]] = frozenset,
    folded: Folded | None = None,
) -> list[Problem]:
    """The part of :func:`check_data_file` that looks keys up for the facts profiles (failing
    lookups, the values class parameters get, required parameters), with the same arguments:
    ``hiera-ls check`` runs the rest once and this once per class of profiles that get the
    same answers."""
    profiles = [profile] if isinstance(profile, ProfileLookup) else list(profile or ())
    data = source.data
    refused = data.error is not None
    if data.readable is not None:
        data = data.readable
    elif refused:
        return []
    role = _role(index, env, source.path)
    if not profiles or len(source.text) > LARGE_FILE_CHARS or refused or role.read_by_no_level:
        return []
    module_name = role.module_name
    out = check_profiles(
        profiles,
        source.path,
        data,
        module_name=module_name,
        references=source.file_keys().kept_references(module_name),
        folded=folded,
    )
    context = _code_context(index, code, role)
    if context is not None:
        out.extend(_class_values(profiles, source.path, data, context, module_name, declared))
    return out


def _code_context(
    index: CrossFileIndex | None, code: CodeIndex | None, role: FileRole
) -> CodeContext | None:
    if code is None or index is None or role.read_by_no_level:
        return None
    return CodeContext(code, index.referenced_keys, index.has_options)


def _class_values(
    profiles: Sequence[ProfileLookup],
    path: str,
    data: DataFile,
    context: CodeContext,
    module_name: str | None,
    declared: Callable[[], Collection[str]],
) -> list[Problem]:
    """The values and required parameters the classes get for each profile's node."""
    return per_profile(
        profiles,
        lambda profile: [
            *check_class_values(profile, path, data, context, module_name=module_name),
            *check_required_parameters(
                profile, path, data, context, declared, module_name=module_name
            ),
        ],
    )


def _reads_eyaml(role: FileRole, path: str) -> bool:
    """eyaml_lookup_key decrypts this file's values (a ``.eyaml`` file read by no level is
    taken as meant for one)."""
    if role.templates:
        return any(t.entry.function_name == "eyaml_lookup_key" for t in role.templates)
    return path.endswith(".eyaml")


def _unread_module(role: FileRole) -> bool:
    """The file lies in a module's data directory that nothing reads (no hiera.yaml):
    ``module-data-not-read`` says so, and Puppet never warns about its keys."""
    return role.layer is not None and role.layer.unread_datadir is not None


def _role(index: CrossFileIndex | None, env: Environment | None, path: str) -> FileRole:
    if index is not None:
        return index.role(path)
    if env is not None:
        return role_of(env, {}, path)
    return FileRole(None)


def check_hiera_config(
    layer: Layer,
    text: str,
    files: FileAccess | None = None,
    index: CrossFileIndex | None = None,
    code: CodeIndex | None = None,
    facts: KnownFacts = NO_FACTS,
    legacy: LegacyFacts | None = None,
) -> list[Problem]:
    """Puppet's findings for the layer's hiera.yaml (from ``layer.config``) plus location checks.

    ``files`` enables the checks that look at the disk (datadir, templates matching no file);
    ``code`` (with ``index``) the one that looks for the levels' functions in the code.
    ``legacy``: the target's agents send no legacy facts (checks/legacy_facts.py).
    """
    config = layer.config
    if config is None or config.path is None:
        return []
    out: list[Problem] = list(config.problems)
    node_scope = code.node_variables() if code is not None else frozenset()
    out.extend(check_config_tokens(layer, text, legacy, node_scope))
    out.extend(check_config_fact_paths(layer, text, facts))
    if files is not None:
        out.extend(check_datadirs(layer, files))
        out.extend(check_eyaml_keys(layer, files))
        levels = layer_levels(layer)  # from this config: the index may hold an older one
        existing: Collection[str] = (
            index.existing if index is not None else candidate_files(levels, (), files)
        )
        out.extend(check_unmatched_templates(layer, files, existing, levels))
        repository = index.env.root if index is not None else None
        out.extend(check_outside_reads(layer, files, existing, levels, repository))
        if index is not None and code is not None:
            out.extend(check_unknown_functions(layer, text, index.env, code, files))
    return in_file_order(unique(out))


def check_workspace(index: CrossFileIndex) -> dict[str, list[Problem]]:
    """Problems about files as members of the environment, by the path they are about."""
    grouped: dict[str, list[Problem]] = {}
    for found in (*check_unused_data_files(index), *check_unread_module_data(index)):
        grouped.setdefault(found.where.path, []).append(found)
    return grouped
