"""Building Problems for the checks: the severity always comes from the code's registration.

A diagnostic code is registered once (hiera_ls.codes) with its severity, so a check can
never report a code at a severity the documentation does not announce.
"""

from __future__ import annotations

from collections.abc import Iterable

from hiera_ls.codes import CODES
from hiera_ls.source.spans import FileSpan, Problem, Span


def problem(code_id: str, message: str, path: str, span: Span) -> Problem:
    return Problem(code_id, message, CODES[code_id].severity, FileSpan(path, span))


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
