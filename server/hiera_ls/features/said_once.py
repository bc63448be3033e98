"""One word per key: an unused-key hint gives way to a stronger finding on the same key."""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence

from hiera_ls.checks.unused_data import KEY_UNUSED
from hiera_ls.source.spans import Problem, Severity


def without_said(found: Sequence[Problem], reported: list[Problem]) -> list[Problem]:
    """``reported`` (``found`` after the repository's policy), but no unused-key hint on a key
    that a warning or an error of the checks marks (an unknown class parameter, a module key
    Puppet ignores) and that is reported too: said once, the stronger way. A finding the
    repository ignores or a comment suppresses leaves the hint, the only word on that key."""
    hint = KEY_UNUSED.code
    hints = [p for p in reported if p.code == hint]
    if not hints:
        return reported
    same = reported is found or (
        len(found) == len(reported) and all(a is b for a, b in zip(found, reported, strict=True))
    )
    if len(hints) <= FEW_HINTS:
        said = _said_near(found, reported, hints, same)
        return [p for p in reported if id(p) not in said] if said else reported
    # Spans as plain numbers, hashed and compared without Python calls: 2,371 findings each
    # hashed as a tree of values, and bisected with Position's comparisons, took most of an
    # edit's publish. Where the policy changed nothing (``reported`` is ``found``), every
    # reported warning or error marks its key.
    spans = [
        (s.start.line, s.start.column, s.end.line, s.end.column)
        for s in (p.where.span for p in reported)
    ]
    if same:
        marked = sorted(
            n
            for p, n in zip(reported, spans, strict=True)
            if p.code != hint and p.severity in _STRONG
        )
    else:
        strong = _strong(found)
        marked = sorted(n for p, n in zip(reported, spans, strict=True) if (p.code, *n) in strong)
    if not marked:
        return reported
    # a span overlaps a marked one when one starting at or before its end ends at or after
    # its start: the furthest end among those starting by then says (a scan of every marked
    # span per hint took 7 s on a 10,000-line file with 2,300 findings)
    starts = [m[:2] for m in marked]
    furthest = list(itertools.accumulate((m[2:] for m in marked), max))
    return [
        p
        for p, n in zip(reported, spans, strict=True)
        if p.code != hint
        or not (i := bisect.bisect_right(starts, n[2:]))
        or furthest[i - 1] < n[:2]
    ]


FEW_HINTS = 16  # up to this many hints, each is compared with the findings on its lines
_STRONG = (Severity.ERROR, Severity.WARNING)


def _strong(found: Sequence[Problem]) -> set[tuple[object, ...]]:
    """The (code, span) of each warning and error found, as plain values."""
    return {
        (p.code, s.start.line, s.start.column, s.end.line, s.end.column)
        for p, s in ((p, p.where.span) for p in found)
        if p.code != KEY_UNUSED.code and p.severity in _STRONG
    }


def _said_near(
    found: Sequence[Problem], reported: list[Problem], hints: list[Problem], same: bool
) -> set[int]:
    """The ids of the hints a reported warning or error overlaps: only the findings on the
    hints' lines are looked at closely (an edit's publish with one hint among 2,371 findings
    paid for sorting them all)."""
    low = min(h.where.span.start.line for h in hints)
    high = max(h.where.span.end.line for h in hints)
    near = [
        p
        for p in reported
        if p.code != KEY_UNUSED.code
        and p.where.span.start.line <= high
        and p.where.span.end.line >= low
    ]
    if not same:
        strong = _strong(found)
        near = [p for p in near if (p.code, *_numbers(p)) in strong]
    else:
        near = [p for p in near if p.severity in _STRONG]
    return {
        id(h)
        for h in hints
        if any(
            m.where.span.start <= h.where.span.end and m.where.span.end >= h.where.span.start
            for m in near
        )
    }


def _numbers(p: Problem) -> tuple[int, int, int, int]:
    s = p.where.span
    return (s.start.line, s.start.column, s.end.line, s.end.column)
