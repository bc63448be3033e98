"""The defined key an undefined one is most likely a misspelling of ("did you mean"), fast.

The answer is exactly ``difflib.get_close_matches(key, candidates, n=1, cutoff=0.85)`` over
the defined keys within two characters of its length, as before; what changed is the cost.
That scan ran a ``SequenceMatcher`` against every such key: 5,000 undefined references
took about 47 s in ``hiera-ls check``. Now the keys are grouped by length once per set of
defined keys, each with the set of characters it holds as a bit mask, and a key is compared
only when the characters that only one of the two holds leave room for the cutoff: every
occurrence of such a character is unmatched, so ``ratio <= (len(a) + len(b) - d) /
(len(a) + len(b))`` for ``d`` of them (bits shared by two characters only make ``d``
smaller, so the bound still holds). The answer for each key is remembered.
"""

from __future__ import annotations

import difflib
import heapq
from collections.abc import Collection

CUTOFF = 0.85  # difflib's ratio a suggestion must reach
LENGTH_SLACK = 2  # a suggestion is at most this many characters longer or shorter


def _mask(text: str) -> int:
    bits = 0
    for ch in set(text):
        bits |= 1 << (ord(ch) & 255)
    return bits


def _most_unshared(total: int) -> int:
    """The most characters held by one side only that leave ``(total - d) / total`` at the
    cutoff (worked out with the float division difflib's ratio uses)."""
    if total == 0:
        return 0
    d = 0
    while d < total and (total - (d + 1)) / total >= CUTOFF:
        d += 1
    return d


class NearKeys:
    """The defined keys, ready for :meth:`closest`; one per set of defined keys."""

    __slots__ = ("_answers", "_by_length", "_defined")

    def __init__(self, defined: Collection[str]) -> None:
        self._defined = defined
        self._by_length: dict[int, list[tuple[int, str]]] | None = None  # on the first ask
        self._answers: dict[str, str | None] = {}

    def _lengths(self) -> dict[int, list[tuple[int, str]]]:
        if self._by_length is None:
            by_length: dict[int, list[tuple[int, str]]] = {}
            for key in self._defined:
                by_length.setdefault(len(key), []).append((_mask(key), key))
            self._by_length = by_length
        return self._by_length

    def closest(self, key: str) -> str | None:
        """What ``difflib.get_close_matches(key, near, n=1, cutoff=0.85)`` gives, ``near``
        being the defined keys within two characters of ``key``'s length."""
        if key in self._answers:
            return self._answers[key]
        mask, size = _mask(key), len(key)
        matcher = difflib.SequenceMatcher()
        matcher.set_seq2(key)
        scored: list[tuple[float, str]] = []
        by_length = self._lengths()
        for length in range(size - LENGTH_SLACK, size + LENGTH_SLACK + 1):
            limit = _most_unshared(size + length)
            for bits, candidate in by_length.get(length, ()):
                if (bits ^ mask).bit_count() > limit:
                    continue
                matcher.set_seq1(candidate)
                if (
                    matcher.real_quick_ratio() >= CUTOFF
                    and matcher.quick_ratio() >= CUTOFF
                    and matcher.ratio() >= CUTOFF
                ):
                    scored.append((matcher.ratio(), candidate))
        best = heapq.nlargest(1, scored)
        answer = best[0][1] if best else None
        self._answers[key] = answer
        return answer
