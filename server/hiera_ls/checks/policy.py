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

from hiera_ls.checks.problems import problem
from hiera_ls.checks.registry import CHECKS
from hiera_ls.checks.suppressions import Suppression, find_suppressions, may_hold_suppressions
from hiera_ls.codes import CODES
from hiera_ls.project.repo_config import RepoConfig, code_matches
from hiera_ls.source.spans import Problem, Severity


@dataclass(frozen=True, slots=True)
class Coverage:
    """Which codes the checks looked for: a suppression of any other code is not 'unused'."""

    complete: bool = True  # False: an unknown part of the checks did not run
    skipped: tuple[str, ...] = ()  # codes or globs of the checks that did not run

    def covers(self, code_id: str) -> bool:
        return self.complete and not any(code_matches(p, code_id) for p in self.skipped)


COMPLETE = Coverage()
PARTIAL = Coverage(complete=False)


def coverage(*, index: bool, profile: bool, loaded: bool = True, code: bool = False) -> Coverage:
    """The codes checked for a file: the registry says what each family of rules needs
    (``code``: the environment's Puppet code was read, with the index)."""
    if not loaded:  # a file the loader refused gets the loader's findings only
        return PARTIAL
    skipped: list[str] = []
    for check in CHECKS:
        if (
            (check.needs == "profile" and not profile)
            or (check.needs == "index" and not index)
            or (check.needs == "index and code" and not (index and code))
            or (check.needs == "index, code and profile" and not (index and code and profile))
        ):
            skipped.extend(check.codes)
    return Coverage(True, tuple(skipped))


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
        if enabled("suppression-unused"):
            kept.extend(_unused(path, unused, enabled, checked))
    kept.extend(p for p in found.problems if enabled(p.code))
    if config.severity:
        kept = [_with_severity(config, p) for p in kept]
    return sorted(kept, key=_order)


def _enabled(config: RepoConfig, off: Iterable[str], code_id: str) -> bool:
    if config.select and not any(code_matches(p, code_id) for p in config.select):
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
        names = [c for c in CODES if pattern is None or code_matches(pattern, c)]
        if not all(enabled(c) and checked.covers(c) for c in names):
            continue  # the checks could not have found it here: not known to be unused
        where = "in this file" if s.line is None else f"on line {s.line + 1}"
        what = "any problem" if pattern is None else pattern
        out.append(
            problem(
                "suppression-unused",
                f"This suppression of {what} {where} suppresses nothing: remove it",
                path,
                s.span,
            )
        )
    return out


def _order(p: Problem) -> tuple[object, ...]:
    return (p.where.span.start, p.where.span.end, p.code)
