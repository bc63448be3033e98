"""How long a test waits before it calls a case hung.

The suite asserts behaviour, never speed: speed and its targets are measured in bench/
(medians, with a peer in the same run). Some cases here hung, or stalled for minutes, before
their fix; a test of such a case still needs a point where it stops waiting, and this is it:
far beyond any answer on a busy CI machine, far below a hang.
"""

HUNG_S = 60.0
