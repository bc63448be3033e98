"""One word per key: an unused-key hint gives way to a stronger finding on the same key."""

from __future__ import annotations

import bisect
import itertools
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hiera_ls.checks.problems import on_lines
from hiera_ls.checks.unused_data import KEY_UNUSED
from hiera_ls.source.spans import Problem, Severity
from hiera_ls.source.text_diff import common_ends


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


@dataclass(slots=True)
class SaidOnce:
    """:func:`without_said` for the server's publishes of each file, kept from one to the
    next: after an edit, only the findings between those it shares with the last publish at
    either end (``common_ends``) are looked at, when no warning or error is among the
    ones that changed (a hint far from the edit then keeps its fate). The 2,371 findings of
    a 10,000-line file were looked at on every keystroke."""

    _last: dict[str, _Said] = field(default_factory=dict)

    def without_said(self, path: str, found: list[Problem]) -> list[Problem]:
        """``without_said(found, found)``: the policy changed nothing."""
        last = self._last.get(path)
        said = _after_edit(last, found) if last is not None else None
        if said is None:
            out = without_said(found, found)
            said = _Said(
                found, _flags(found, out), list(map(_START, found)), list(map(_END, found))
            )
        else:
            out = list(itertools.compress(found, said.kept))
        self._last[path] = said
        return out

    def forget(self, path: str) -> None:
        self._last.pop(path, None)

    def reuse(
        self, path: str, found: list[Problem], pause: Callable[[], None] | None = None
    ) -> list[Problem]:
        """``found`` (a new run of the checks), each finding equal to one of the last pass's
        replaced by that one, a slice at a time with a ``pause`` between: this pass, the
        conversion and the next edit's publish then compare them by identity. Compared value
        by value, 4,744 findings of a 10,000-line file cost the background run 25 ms in the
        pass and 25 ms in the conversion, stretches the first edit after a pause met."""
        last = self._last.get(path)
        if last is None:
            return found
        known = {p: p for p in last.found}
        out: list[Problem] = []
        for start in range(0, len(found), REUSE_SLICE):
            if start and pause is not None:
                pause()
            out.extend([known.get(p, p) for p in found[start : start + REUSE_SLICE]])
        return out

    def copy(self) -> SaidOnce:
        return SaidOnce(dict(self._last))

    def adopt(self, other: SaidOnce, path: str) -> None:
        """``other``'s last pass of ``path`` becomes this one's."""
        said = other._last.get(path)
        if said is not None:
            self._last[path] = said


@dataclass(frozen=True, slots=True)
class _Said:
    """A publish's findings, which of them were reported, and the lines each starts and
    ends on (taken from the last publish's by slices: read from every finding, they cost
    the first edit after each cross-file run, whose findings differ on the edited lines
    from the edit's, 4 ms of 4,742 findings)."""

    found: list[Problem]
    kept: list[bool]
    starts: list[int]
    ends: list[int]


MAX_CHANGED = 256  # findings changed by an edit that are looked at one by one
REUSE_SLICE = 512  # findings compared between two pauses (see SaidOnce.reuse)


def _after_edit(last: _Said, found: list[Problem]) -> _Said | None:
    """``found``'s publish from the last one (None: the edit changed too much). The hints
    the edit changed are judged again, and those a warning or an error it changed overlaps
    (those it dropped on its lines marked the hints beside them)."""
    head, tail = common_ends(last.found, found)
    stop = len(found) - tail
    old_stop = len(last.found) - tail
    old = last.found[head:old_stop]
    new = found[head:stop]
    if len(old) + len(new) > MAX_CHANGED:
        return None
    if not old and not new:  # (the lists are never changed once made: shared)
        return _Said(found, last.kept, last.starts, last.ends)
    starts = [*last.starts[:head], *map(_START, new), *last.starts[old_stop:]]
    ends = [*last.ends[:head], *map(_END, new), *last.ends[old_stop:]]
    kept = [*last.kept[:head], *([True] * len(new)), *last.kept[old_stop:]]
    hint = KEY_UNUSED.code
    changed = [_numbers(p) for p in (*old, *new) if _marks(p)]
    again = [i for i in range(head, stop) if found[i].code == hint]
    if not again and not changed:
        return _Said(found, kept, starts, ends)
    # (in file order, only the findings on the lines concerned are looked at)
    near = on_lines(starts, ends) or (lambda low, high: range(len(found)))
    if changed:  # the hints beside the changed warnings and errors are judged again too
        low = min(c[0] for c in changed)
        high = max(c[2] for c in changed)
        again.extend(
            i
            for i in near(low, high)
            if found[i].code == hint
            and not head <= i < stop
            and low <= found[i].where.span.end.line
            and found[i].where.span.start.line <= high
        )
    # against the warnings and errors on their lines
    spans = [found[i].where.span for i in again]
    first = min((s.start.line for s in spans), default=0)
    last_line = max((s.end.line for s in spans), default=-1)
    strong = [
        _numbers(p)
        for p in (found[i] for i in near(first, last_line))
        if p.where.span.end.line >= first and p.where.span.start.line <= last_line and _marks(p)
    ]
    strong.sort()  # (bisected as without_said does: a warning spanning the file meets all)
    starts_at = [m[:2] for m in strong]
    furthest = list(itertools.accumulate((m[2:] for m in strong), max))
    for i in again:
        n = _numbers(found[i])
        at = bisect.bisect_right(starts_at, n[2:])
        kept[i] = not at or furthest[at - 1] < n[:2]
    return _Said(found, kept, starts, ends)


_START = operator.attrgetter("where.span.start.line")
_END = operator.attrgetter("where.span.end.line")


def _marks(p: Problem) -> bool:
    """A finding that silences the unused-key hints it overlaps (when reported)."""
    return p.code != KEY_UNUSED.code and p.severity in _STRONG


def _flags(found: list[Problem], out: list[Problem]) -> list[bool]:
    """For each of ``found``, whether it is in ``out`` (a subsequence of it)."""
    if len(out) == len(found):
        return [True] * len(found)
    flags: list[bool] = []
    it = iter(out)
    nxt = next(it, None)
    for p in found:
        if p is nxt:
            flags.append(True)
            nxt = next(it, None)
        else:
            flags.append(False)
    return flags
