"""How much of a randomised test the quick loop runs; the full run runs all of it.

Seeded tests give the quick loop their first seeds and mark the others ``slow``
(:func:`seeds`); a property test cannot split its examples across markers, so it asks for its
count (:func:`examples`). ``tests/conftest.py`` says before any test module is imported
whether this session is the quick loop (``-m "not slow"``).
"""

from typing import Any

import pytest

QUICK_SHARE = 2  # the quick loop tries one example in this many


class _Session:
    """Whether this pytest session is the quick loop; set once, when pytest is configured."""

    quick_loop = False


SESSION = _Session()


def examples(full: int) -> int:
    """``full`` examples, or the quick loop's share of them."""
    return max(1, full // QUICK_SHARE) if SESSION.quick_loop else full


def seeds(count: int, quick: int) -> list[Any]:
    """Seeds ``0`` to ``count - 1`` as parameters: the first ``quick`` plain, the others marked
    ``slow``. The quick loop does not make the slow ones at all (3,000 parameters made only to
    be deselected cost it half a second)."""
    first: list[Any] = list(range(min(quick, count)))
    if SESSION.quick_loop:
        return first
    return first + [pytest.param(s, marks=pytest.mark.slow) for s in range(quick, count)]
