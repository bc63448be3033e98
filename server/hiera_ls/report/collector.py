"""The garbage collector's full passes put off while a command runs (``check``, ``diff``).

Each full pass walks every object alive, and what these commands make lives to their end
(the parsed data and code files, the sessions, every answer): over thousands of node files
those passes were a fifth of a diff and found almost nothing (a few thousand objects in a
run of 2,000 nodes), and a tenth of a `check` with 20 profiles (eight passes, 1.2 s of 10;
on Wikimedia's data with 100 profiles eleven passes, 1.6 s, freeing 4,168 objects).  The
young generations' passes, kept, find the rest.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

# passes of the garbage collector's young generations before a full pass, while a command
# runs (Python's default: 10)
FULL_PASS_AFTER = 1_000_000


@contextmanager
def full_passes_put_off() -> Iterator[None]:
    """Full passes put off until the block ends (a library caller's process gets its own
    settings back, whether the block succeeds or fails)."""
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], FULL_PASS_AFTER)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)
