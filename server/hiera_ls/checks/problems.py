"""Problems as the checks hand them on: each once, in file order."""

from __future__ import annotations

from collections.abc import Iterable

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


def file_order(p: Problem) -> tuple[object, ...]:
    """A file's findings in file order: by start, end, code (plain numbers, compared without
    the Python calls Position's ordering makes)."""
    span = p.where.span
    return (span.start.line, span.start.column, span.end.line, span.end.column, p.code)
