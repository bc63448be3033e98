"""Which codes a run reports: ``--select`` and ``--ignore`` lists of codes or globs."""

from __future__ import annotations

import fnmatch
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from hiera_ls.checks.rules import RULES


class SelectionError(ValueError):
    """A pattern that names no registered code: a typo would silently check nothing."""


def parse_codes(text: str | None, known: Collection[str] = RULES.keys()) -> tuple[str, ...]:
    """``"yaml-*,reference-cycle"`` -> the patterns, each checked to match some code."""
    if text is None:
        return ()
    patterns = tuple(p.strip() for p in text.split(",") if p.strip())
    for pattern in patterns:
        if not any(fnmatch.fnmatchcase(code, pattern) for code in known):
            raise SelectionError(
                f"unknown diagnostic code '{pattern}' (see docs/diagnostics.md for the codes)"
            )
    return patterns


@dataclass(frozen=True, slots=True)
class Selection:
    """The codes ``--select`` and ``--ignore`` chose."""

    select: Sequence[str] = ()  # empty: every code
    ignore: Sequence[str] = ()

    def wants(self, code: str) -> bool:
        if self.select and not any(fnmatch.fnmatchcase(code, p) for p in self.select):
            return False
        return not any(fnmatch.fnmatchcase(code, p) for p in self.ignore)
