"""The one place a repository's choices are laid over the checks' findings.

``hiera-ls check`` and the language server both call :func:`apply_policy` (through
``features.diagnostics.Diagnostics``), so a code turned off, a severity changed, a path
excluded or a line suppressed reads the same in CI and in the editor.

In order: ``exclude`` and ``per-path`` (a path the config excludes shows nothing), then
``select``/``ignore`` and ``severity: off``, then inline suppressions, then severity
overrides. A suppression comment that silences nothing is reported (``suppression-unused``)
only when the checks could have found what it names: not for a code the configuration turns
off for the file, nor for a code whose check did not run (the facts-profile lookups when no
profile is active, the cross-file rules before the environment's index is built, the rest
while a big file shows quick results). The problems about suppressions pass through
``select``/``ignore``/``severity`` like any other code. A caller that merges the results of
several facts profiles keeps a ``suppression-unused`` finding only when every profile's
result has it (a profile-dependent problem may show up for one profile only).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from functools import cache

from hiera_ls.checks.problems import file_order
from hiera_ls.checks.rules import RULES, code_matches, known_pattern, matching
from hiera_ls.checks.suppression_rules import CONFIG_UNKNOWN_CODE, SUPPRESSION_UNUSED
from hiera_ls.checks.suppressions import Suppression, find_suppressions, may_hold_suppressions
from hiera_ls.project.repo_config import RepoConfig
from hiera_ls.source.rules import Needs
from hiera_ls.source.spans import Details, Problem, Severity


@dataclass(frozen=True, slots=True)
class Coverage:
    """Which codes the checks looked for: a suppression of any other code is not 'unused'."""

    complete: bool = True  # False: an unknown part of the checks did not run
    skipped: tuple[str, ...] = ()  # codes or globs of the checks that did not run

    def covers(self, code_id: str) -> bool:
        return self.complete and not any(code_matches(p, code_id) for p in self.skipped)


COMPLETE = Coverage()
PARTIAL = Coverage(complete=False)


@cache  # asked per file and profile; the catalog of rules never changes
def coverage(*, index: bool, profile: bool, loaded: bool = True, code: bool = False) -> Coverage:
    """The codes checked for a file: each rule's record says what its check needs
    (``code``: the environment's Puppet code was read, with the index)."""
    if not loaded:  # a file the loader refused gets the loader's findings only
        return PARTIAL
    have = Needs.FILE
    if index:
        have |= Needs.INDEX
    if index and code:
        have |= Needs.CODE
    if profile:
        have |= Needs.PROFILE
    skipped = tuple(r.code for r in RULES.values() if r.needs & ~have)
    return Coverage(True, skipped)


def config_code_problems(config: RepoConfig) -> list[Problem]:
    """The codes and globs ``.hiera-ls.yaml`` names that name no code (a typo changes
    nothing; said where it is written)."""
    if config.path is None:
        return []
    return [
        CONFIG_UNKNOWN_CODE.at(
            f"{pattern} names no hiera-ls diagnostic code (docs/diagnostics.md lists them)",
            config.path,
            span,
            Details(option=pattern),
        )
        for pattern, span in config.code_places
        if not known_pattern(pattern)
    ]


def apply_policy(
    config: RepoConfig,
    path: str,
    text: str | None,
    problems: Sequence[Problem],
    checked: Coverage = COMPLETE,
) -> list[Problem]:
    """``problems`` of ``path`` as the repository's configuration and comments want them."""
    if not config.has_rules and not may_hold_suppressions(path, text):
        return list(problems)
    if config.path is not None and path == config.path:
        return list(problems)  # the configuration's own problems are never hidden by it
    rel = config.relative(path)
    off: list[str] = []  # codes or globs turned off for this file by a per-path rule
    if rel is not None:
        for rule in config.rules:
            if rule.matches(rel):
                if not rule.codes:
                    return []
                off.extend(rule.codes)

    def enabled(code_id: str) -> bool:
        return _enabled(config, off, code_id)

    kept = [p for p in problems if enabled(p.code)]
    found = find_suppressions(path, text or "")
    if found.found:
        kept, unused = _suppress(found.found, kept)
        if enabled(SUPPRESSION_UNUSED.code):
            kept.extend(_unused(path, unused, enabled, checked))
    kept.extend(p for p in found.problems if enabled(p.code))
    if config.severity:
        kept = [_with_severity(config, p) for p in kept]
    return sorted(kept, key=file_order)


@cache
def _known(patterns: tuple[str, ...]) -> tuple[str, ...]:
    """The patterns that name some code: one that names none (reported) changes nothing."""
    return tuple(p for p in patterns if known_pattern(p))


def _enabled(config: RepoConfig, off: Iterable[str], code_id: str) -> bool:
    select = _known(config.select)
    if select and not any(code_matches(p, code_id) for p in select):
        return False
    if any(code_matches(p, code_id) for p in config.ignore):
        return False
    if any(code_matches(p, code_id) for p in off):
        return False
    return not (config.severity and _override(config, code_id) == (True, None))


def _override(config: RepoConfig, code_id: str) -> tuple[bool, Severity | None]:
    """(found, severity): an exact code wins over globs, a longer glob over a shorter one."""
    best: tuple[int, int] | None = None
    chosen: Severity | None = None
    for pattern, severity in config.severity:
        if not code_matches(pattern, code_id):
            continue
        rank = (1 if pattern == code_id else 0, len(pattern))
        if best is None or rank >= best:  # a tie: the later entry wins
            best, chosen = rank, severity
    return (best is not None, chosen)


def _with_severity(config: RepoConfig, p: Problem) -> Problem:
    found, severity = _override(config, p.code)
    if not found or severity is None or severity is p.severity:
        return p
    return replace(p, severity=severity)


def _suppress(
    suppressions: Sequence[Suppression], problems: list[Problem]
) -> tuple[list[Problem], list[tuple[Suppression, str | None]]]:
    """The problems left, and each (suppression, code) that silenced nothing (None: bare)."""
    used: set[tuple[int, str | None]] = set()
    kept: list[Problem] = []
    for p in problems:
        silenced = False
        line = p.where.span.start.line
        for i, s in enumerate(suppressions):
            if s.line is not None and s.line != line:
                continue
            if not s.codes:
                used.add((i, None))
                silenced = True
                continue
            for code_pattern in s.codes:
                if code_matches(code_pattern, p.code):
                    used.add((i, code_pattern))
                    silenced = True
        if not silenced:
            kept.append(p)
    unused: list[tuple[Suppression, str | None]] = []
    for i, s in enumerate(suppressions):
        patterns: tuple[str | None, ...] = s.codes or (None,)
        for pattern in patterns:
            if (i, pattern) not in used:
                unused.append((s, pattern))
    return kept, unused


def _unused(
    path: str,
    unused: Sequence[tuple[Suppression, str | None]],
    enabled: Callable[[str], bool],
    checked: Coverage,
) -> list[Problem]:
    out: list[Problem] = []
    for s, pattern in unused:
        names = list(RULES) if pattern is None else matching(pattern)
        if not all(enabled(c) and checked.covers(c) for c in names):
            continue  # the checks could not have found it here: not known to be unused
        where = "in this file" if s.line is None else f"on line {s.line + 1}"
        what = "any problem" if pattern is None else pattern
        out.append(
            SUPPRESSION_UNUSED.at(
                f"This suppression of {what} {where} suppresses nothing: remove it",
                path,
                s.span,
            )
        )
    return out
