"""How much two lists of findings share at their ends: what a publish after an edit can take
from the last one as it was (the findings far from the edit are the same objects, or equal)."""

from __future__ import annotations

from typing import Any


def common_ends(old: list[Any], new: list[Any]) -> tuple[int, int]:
    """(n, m): ``old`` and ``new`` begin with the same n items and end with the same m, the
    two not overlapping in either. Compared a slice at a time, the slice halved near the
    difference: list comparison checks identity first, in C (an edit's publish compared
    2,371 findings one by one in Python on every keystroke)."""
    limit = min(len(old), len(new))
    head = _common_run(old, new, limit, 1)
    tail = _common_run(old, new, limit - head, -1)
    return head, tail


def _common_run(old: list[Any], new: list[Any], limit: int, way: int) -> int:
    n = 0
    step = 1
    while step < limit:
        step *= 2
    lo, hi = len(old), len(new)
    while step:
        while n + step <= limit and (
            old[n : n + step] == new[n : n + step]
            if way > 0
            else old[lo - n - step : lo - n] == new[hi - n - step : hi - n]
        ):
            n += step
        step //= 2
    return n
