"""Quick fixes: the text edits that carry out a diagnostic's documented fix.

One answer for the editor's code actions and for ``hiera-ls check --fix``. Each rule's record
names its fix builder (beside the rule, in its family's module); a fix is computed from the
problem (its code, range and details, never its message's words) and the file's current text
only, so an editor's diagnostic, which may be a keystroke old, gets a fix only if the text
under its range is still what the check saw: every fix re-reads that text and offers nothing
when it differs.

``safe`` fixes are those ``check --fix`` applies unasked (the record's ``fix_safe``): they
keep every value and key order Puppet reads, or make a file or token Puppet refuses say what
it evidently meant (docs/diagnostics.md lists them per code). Quoting ``0644`` or ``no``
changes the value Puppet reads, so those are offered, never applied unasked.
"""

from __future__ import annotations

import bisect
import contextlib
from collections.abc import Iterable
from dataclasses import replace

from hiera_ls.checks.hiera_functions import PUPPET_CODE
from hiera_ls.checks.rules import RULES
from hiera_ls.checks.suppression_rules import disable_line
from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.json_loader import load_json
from hiera_ls.source.spans import Problem
from hiera_ls.source.text_edits import Fix, apply_edits, overlap
from hiera_ls.source.yaml_loader import load_yaml

__all__ = [
    "Fix",
    "FixSource",
    "apply_safe_fixes",
    "fixed_text",
    "fixes_for",
    "safe_codes",
    "safe_fixes",
]


def fixes_for(problem: Problem, text: str | FixSource) -> tuple[Fix, ...]:
    """Every fix for ``problem`` in ``text`` (the file it is located in), best first.

    The last one is always "Disable CODE on this line" where a YAML comment can hold it (a
    YAML or JSON file's problem).
    ``text`` may be a :class:`FixSource` kept for the file's text, so an editor's code action
    on every cursor move scans the file's tokens once per text, not once per request.
    """
    path = problem.where.path
    json = path.endswith(".json")
    if isinstance(text, str):
        text = FixSource(text, json)
    text.json = json
    # Puppet code (a hiera-function hint's file) is not YAML: no disable comment is placed
    return _fixes(problem, text, disable=not path.endswith(PUPPET_CODE))


def safe_codes() -> frozenset[str]:
    """The codes whose fix ``check --fix`` may apply."""
    return frozenset(code for code, rule in RULES.items() if rule.fix_safe)


def safe_fixes(text: str, problems: Iterable[Problem]) -> tuple[Fix, ...]:
    """The safe fixes ``apply_safe_fixes`` makes: the first safe fix of each problem, in file
    order, leaving out any whose edits touch a range an earlier chosen fix edits."""
    return tuple(_safe_fixes(FixSource(text, False), problems)[0])


def _safe_fixes(source: FixSource, problems: Iterable[Problem]) -> tuple[list[Fix], int]:
    """The fixes chosen, and how many problems they fix (one fix may serve many: every
    duplicate of a key)."""
    chosen: list[Fix] = []
    chosen_set: set[Fix] = set()
    fixed = 0
    chosen_ids: set[int] = set()
    seen: set[int] = set()  # the fixes met (one fix serves every duplicate of a key)
    taken: list[tuple[int, int]] = []
    for problem in sorted(problems, key=lambda p: (p.where.span.start, p.where.span.end, p.code)):
        source.json = problem.where.path.endswith(".json")
        fix = next((f for f in _fixes(problem, source, disable=False) if f.safe), None)
        if fix is None:
            continue
        if id(fix) in seen or fix in chosen_set:
            fixed += id(fix) in chosen_ids
            continue
        seen.add(id(fix))
        ranges = [source.offsets(e.span) for e in fix.edits]
        if any(_touches(taken, r) for r in ranges):
            continue
        chosen.append(fix)
        chosen_set.add(fix)
        chosen_ids.add(id(fix))
        fixed += 1
        for r in ranges:
            bisect.insort(taken, r)
    return chosen, fixed


def _touches(taken: list[tuple[int, int]], edit: tuple[int, int]) -> bool:
    """Does ``edit`` overlap a range of ``taken`` (sorted, none overlapping another)? A
    search, so a file with thousands of fixes costs no pass over all of them per fix."""
    i = max(0, bisect.bisect_left(taken, (edit[0], edit[0])) - 1)
    while i < len(taken) and taken[i][0] <= edit[1]:
        if overlap(edit, taken[i]):
            return True
        i += 1
    return False


def apply_safe_fixes(text: str, problems: Iterable[Problem]) -> str:
    """``text`` with every safe fix of ``problems`` applied once; the caller re-checks it
    (a fix may reveal what the problem hid, as a file that now parses shows its values)."""
    return apply_edits(text, [e for f in safe_fixes(text, problems) for e in f.edits])


def fixed_text(
    path: str, text: str, problems: Iterable[Problem]
) -> tuple[str, tuple[Fix, ...], int]:
    """``path``'s text with the safe fixes of ``problems`` applied, those fixes, and how many
    problems they fix; the text as it was and none when the result would not load (a fix
    that leaves the file broken, or breaks it, is no fix: it is neither written nor
    counted)."""
    fixes, fixed_problems = _safe_fixes(FixSource(text, False), problems)
    if not fixes:
        return text, (), 0
    fixed = apply_edits(text, [e for f in fixes for e in f.edits])
    loaded = load_json(path, fixed) if path.endswith(".json") else load_yaml(path, fixed)
    if loaded.fatal is not None:
        return text, (), 0
    return fixed, tuple(fixes), fixed_problems


def _fixes(problem: Problem, src: FixSource, disable: bool = True) -> tuple[Fix, ...]:
    found: list[Fix] = []
    rule = RULES.get(problem.code)
    if rule is not None and rule.fix is not None:
        # The text may not be what the check saw (a stale diagnostic), or not parse: then no
        # fix rather than a wrong one, and never a failed request or `check --fix`.
        with contextlib.suppress(Exception):
            made = rule.fix(problem, src)
            found.extend(f if rule.fix_safe else replace(f, safe=False) for f in made)
    comment = disable_line(problem, src) if disable else None
    if comment is not None:
        found.append(comment)
    return tuple(found)
