"""A progress bar on stderr for long runs at a terminal; nothing at all in CI logs.

It appears only when the stream is a terminal and the run has lasted a second, is redrawn
at most ten times a second, and is erased before the report is written.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

DELAY_S = 1.0
REDRAW_S = 0.1
WIDTH = 30


class ProgressBar:
    def __init__(self, stream: TextIO, clock: Callable[[], float] = time.monotonic) -> None:
        self._stream = stream
        self._clock = clock
        self._started = clock()
        self._drawn = 0.0
        self._shown = False
        self._enabled = _is_terminal(stream)

    def __call__(self, done: int, total: int) -> None:
        if not self._enabled or total <= 0:
            return
        now = self._clock()
        if now - self._started < DELAY_S or (self._shown and now - self._drawn < REDRAW_S):
            return
        filled = WIDTH * done // total
        bar = "#" * filled + "-" * (WIDTH - filled)
        self._stream.write(f"\r[{bar}] {done}/{total} files")
        self._stream.flush()
        self._drawn = now
        self._shown = True

    def close(self) -> None:
        if self._shown:
            self._stream.write("\r" + " " * (WIDTH + 30) + "\r")
            self._stream.flush()
            self._shown = False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
