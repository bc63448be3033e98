"""The rules of hiera.yaml as Puppet reads and validates it (``hiera_config.py``), with their
quick fixes. A hiera.yaml Puppet refuses fails every lookup of its layer: those failures are
its consequences."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hiera_ls.source.rules import FixBuilder, Rule, table
from hiera_ls.source.spans import Position, Problem, Severity, Span

if TYPE_CHECKING:  # the fixes' helpers are imported when a fix is asked for, not by lookups
    from hiera_ls.source.fix_source import FixSource
    from hiera_ls.source.text_edits import Fix

E, W, INFO = Severity.ERROR, Severity.WARNING, Severity.INFORMATION

# Every key a hiera.yaml of any version may hold: what an unrecognized key most likely misspells.
HIERA_KEYS = (
    "version", "defaults", "hierarchy", "default_hierarchy", "plan_hierarchy", "name", "path",
    "paths", "glob", "globs", "uri", "uris", "mapped_paths", "datadir", "data_hash",
    "lookup_key", "data_dig", "hiera3_backend", "options",
)  # fmt: skip


def _unrecognized_key(problem: Problem, src: FixSource) -> list[Fix]:
    """The key Puppet does not know, as the key it most likely misspells."""
    from hiera_ls.source.text_edits import Fix, edit
    from hiera_ls.source.yaml_edits import word_in_span

    details = problem.details
    span, word, quote = word_in_span(problem, src)
    if not details.suggestions or word != details.option:
        return []
    best = details.suggestions[0]
    return [Fix(f"Write {best}", edit(span, f"{quote}{best}{quote}"), preferred=True)]


def _hiera3_backend(problem: Problem, src: FixSource) -> list[Fix]:
    """``hiera3_backend: yaml`` -> ``data_hash: yaml_data``, as Puppet's message says."""
    from hiera_ls.source.text_edits import Fix, edit
    from hiera_ls.source.yaml_edits import one_line

    wanted = problem.details.suggestions
    span = one_line(problem)
    before = re.search(r"hiera3_backend\s*:\s*$", src.line(span.start.line)[: span.start.column])
    if not wanted or before is None:
        return []
    whole = Span(Position(span.start.line, before.start()), span.end)
    return [Fix(f"Write {wanted[0]}", edit(whole, wanted[0]), preferred=True)]


def _options_refused(problem: Problem, src: FixSource) -> list[Fix]:
    """Remove the level's own ``options`` entry (one inherited from defaults is not here)."""
    from hiera_ls.source.text_edits import Fix, edit
    from hiera_ls.source.yaml_edits import entry_lines, mapping_with_key_at, one_line

    if src.at(one_line(problem)) != "options":
        return []
    found = mapping_with_key_at(src, problem.where.span.start)
    if found is None:
        return []
    mapping, index = found
    removed = entry_lines(src, mapping, index)
    if removed is None:
        return []
    return [Fix("Remove the options", edit(removed, ""), preferred=True)]


def _refused(code: str, summary: str, fix: FixBuilder | None = None) -> Rule:
    """A finding that makes Puppet refuse the layer's hiera.yaml."""
    return Rule(code, E, summary, fix=fix, cause=True)


RULES = (
    Rule(
        "hiera-config-not-a-hash",
        W,
        "hiera.yaml is empty or not a hash: Puppet falls back to the Hiera 3 default config",
    ),
    _refused(
        "hiera-config-bad-version",
        "`version` is true, a list, a hash or a symbol: Puppet cannot turn it into a number",
    ),
    _refused(
        "hiera-config-unsupported-version",
        "`version` is not 3, 4 or 5 (a string is read with to_i: 'abc' is 0)",
    ),
    Rule(
        "hiera-config-deprecated-version",
        W,
        "hiera.yaml version 3 (no `version` key) or 4 is deprecated",
    ),
    _refused(
        "hiera-config-v3-not-allowed",
        "A version 3 hiera.yaml (or one without `version`) in an environment or module: every "
        "lookup there fails",
    ),
    Rule(
        "hiera-config-v3-not-evaluated",
        INFO,
        "A version 3 global hiera.yaml names a custom Hiera 3 backend: Puppet runs it, "
        "hiera-ls skips its data",
    ),
    _refused(
        "hiera-config-v4-in-global", "hiera.yaml version 4 is not accepted in the global layer"
    ),
    _refused(
        "hiera-config-wrong-type",
        "A key or value does not have the type Puppet requires (unknown key, missing name, wrong "
        "type, size)",
        fix=_unrecognized_key,
    ),
    _refused(
        "hiera-config-multiple-functions",
        "More than one of data_hash, lookup_key, data_dig, hiera3_backend in one level or in "
        "defaults",
    ),
    _refused(
        "hiera-config-missing-function",
        "A level names no data provider function and defaults names none either",
    ),
    _refused(
        "hiera-config-reserved-option",
        "`options` uses the key path or uri, which Puppet reserves",
    ),
    _refused(
        "hiera-config-hiera3-backend-not-global",
        "hiera3_backend is only allowed in the global hiera.yaml",
    ),
    _refused(
        "hiera-config-hiera3-backend-replaced",
        "hiera3_backend: yaml/json/hocon is refused; use data_hash: yaml_data (json_data, "
        "hocon_data)",
        fix=_hiera3_backend,
    ),
    _refused(
        "hiera-config-multiple-locations",
        "More than one of path, paths, glob, globs, uri, uris, mapped_paths in one level",
    ),
    _refused(
        "hiera-config-default-hierarchy-not-in-module",
        "default_hierarchy is only allowed in a module's hiera.yaml",
    ),
    _refused("hiera-config-duplicate-name", "Two levels of one hierarchy have the same name"),
    _refused(
        "hiera-config-method-interpolation",
        "%{lookup('x')}-style method calls are not allowed in datadir, locations or options",
    ),
    _refused(
        "hiera-config-unknown-backend",
        "A version 4 level names a backend other than yaml, json or hocon",
    ),
    _refused(
        "hiera-config-missing-location",
        "A built-in data provider function with no path, paths, glob, globs or mapped_paths: "
        "lookups reaching the level fail",
    ),
    _refused(
        "hiera-config-options-refused",
        "yaml_data, json_data and hocon_data accept no options: lookups reading an existing file "
        "of the level fail",
        fix=_options_refused,
    ),
)
BY_CODE = table(RULES)  # hiera_config.py names its findings by Puppet's issue codes
