"""The catalog: every rule's record, gathered from the families that declare them.

A family module declares its rules beside its check (``RULES``); this is the one list of
families. The checks' policy (which codes a configuration or a comment names), the reports
(SARIF's rules, what to mask), the editor's code actions and ``check --fix`` read the records
here; ``tests/checks/test_rules.py`` fails when a code is emitted without one or a record has
no section in docs/diagnostics.md.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterator, Mapping
from functools import cache

from hiera_ls.project import hiera_config_rules
from hiera_ls.source import loader_rules
from hiera_ls.source.rules import Rule, table


@cache
def _gathered() -> dict[str, Rule]:
    """Every family's records, in the catalog's order (a code given twice raises here)."""
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
    from hiera_ls.project import repo_config

    return table(
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


# the loaders' and hiera.yaml's records: their modules are loaded by whatever reads a file
_READING = {**loader_rules.BY_CODE, **hiera_config_rules.BY_CODE}


class Catalog(Mapping[str, Rule]):
    """Every rule's record by code. The families (each check's implementation beside its
    records) are imported when the catalog is first read whole, or asked for a code that is
    not the loaders' or hiera.yaml's: the server's first diagnostics of a file opened in a
    big environment (its loader's findings) wait for none of them, and neither does a
    ``lookup``."""

    __slots__ = ()

    def __getitem__(self, code: str) -> Rule:
        found = _READING.get(code)
        return found if found is not None else _gathered()[code]

    def __iter__(self) -> Iterator[str]:
        return iter(_gathered())

    def __len__(self) -> int:
        return len(_gathered())


RULES: Mapping[str, Rule] = Catalog()


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
