"""Problems as the checks hand them on: each once, in file order."""

from __future__ import annotations

import bisect
import itertools
import operator
from collections.abc import Callable, Iterable

from hiera_ls.source.spans import Problem


def unique(problems: Iterable[Problem]) -> list[Problem]:
    """Drop repeats, keeping the first: aliases and ``<<`` merges show one scalar twice."""
    seen: set[Problem] = set()
    out: list[Problem] = []
    for p in problems:
        if p not in seen:
            seen.add(p)
            out.append(p)
    return out


def in_file_order(problems: Iterable[Problem]) -> list[Problem]:
    return sorted(
        problems, key=lambda p: (p.where.path, p.where.span.start, p.where.span.end, p.code)
    )


def on_lines(starts: list[int], ends: list[int]) -> Callable[[int, int], range] | None:
    """For a file's findings in file order, starting and ending on these lines: the indices
    of those that may be on lines ``low`` to ``high`` (a slice, the lines compared in C, not
    a walk of every finding); None when the starts are not in order."""
    if not all(map(operator.le, starts, itertools.islice(starts, 1, None))):
        return None
    reach = list(itertools.accumulate(ends, max))  # the furthest end so far

    def near(low: int, high: int) -> range:
        return range(bisect.bisect_left(reach, low), bisect.bisect_right(starts, high))

    return near


def file_order(p: Problem) -> tuple[object, ...]:
    """A file's findings in file order: by start, end, code (plain numbers, compared without
    the Python calls Position's ordering makes)."""
    span = p.where.span
    return (span.start.line, span.start.column, span.end.line, span.end.column, p.code)
