"""The catalog: every rule's record, gathered from the families that declare them.

A family module declares its rules beside its check (``RULES``); this is the one list of
families. The checks' policy (which codes a configuration or a comment names), the reports
(SARIF's rules, what to mask), the editor's code actions and ``check --fix`` read the records
here; ``tests/checks/test_rules.py`` fails when a code is emitted without one or a record has
no section in docs/diagnostics.md.
"""

from __future__ import annotations

import fnmatch
from functools import cache

from hiera_ls.checks import (
    class_parameters,
    data_shapes,
    eyaml,
    fact_paths,
    hiera_functions,
    hiera_yaml,
    interpolation,
    legacy_facts,
    lookup_options,
    module_data,
    profile,
    profile_coverage,
    references,
    same_file_levels,
    suppression_rules,
    unused_data,
)
from hiera_ls.project import hiera_config_rules, repo_config
from hiera_ls.source import loader_rules
from hiera_ls.source.rules import Rule, table

RULES: dict[str, Rule] = table(
    loader_rules.RULES,
    hiera_config_rules.RULES,
    interpolation.RULES,
    hiera_functions.RULES,
    legacy_facts.RULES,
    fact_paths.RULES,
    lookup_options.RULES,
    module_data.RULES,
    data_shapes.RULES,
    references.RULES,
    hiera_yaml.RULES,
    repo_config.RULES,
    suppression_rules.RULES,
    eyaml.RULES,
    profile_coverage.RULES,
    same_file_levels.RULES,
    class_parameters.RULES,
    profile.RULES,
    unused_data.RULES,
)


def rule(code: str) -> Rule | None:
    return RULES.get(code)


def code_matches(pattern: str, code_id: str) -> bool:
    """A code or a glob of codes (``yaml11-*``), as select, ignore and suppressions write them."""
    return pattern == code_id or fnmatch.fnmatchcase(code_id, pattern)


@cache
def matching(pattern: str) -> tuple[str, ...]:
    """The codes a code or glob names (none: a typo)."""
    if pattern in RULES:
        return (pattern,)
    return tuple(c for c in RULES if fnmatch.fnmatchcase(c, pattern))


def known_pattern(pattern: str) -> bool:
    """Whether a code or glob names at least one code."""
    return bool(matching(pattern))
