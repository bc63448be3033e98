"""Where two texts (a buffer before and after an edit) begin and end alike."""

from __future__ import annotations

_CHUNK = 4096


def common_prefix(a: str, b: str) -> int:
    """How many leading code points ``a`` and ``b`` share. (Compared a chunk at a time, the
    chunk halved near the difference: the last chunk compared a character at a time took
    most of an edit of Wikimedia's admin data.)"""
    limit = min(len(a), len(b))
    i = 0
    step = _CHUNK
    while step:
        while i + step <= limit and a[i : i + step] == b[i : i + step]:
            i += step
        step //= 2
    return i


def common_suffix(a: str, b: str, limit: int) -> int:
    """How many trailing code points ``a`` and ``b`` share, at most ``limit``."""
    n = 0
    la, lb = len(a), len(b)
    step = _CHUNK
    while step:
        while n + step <= limit and a[la - n - step : la - n] == b[lb - n - step : lb - n]:
            n += step
        step //= 2
    return n
