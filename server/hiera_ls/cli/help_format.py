"""argparse's help layout, at the terminal's width read without ``shutil``.

argparse makes a formatter for every argument it adds (to check the argument's form) and
each asks ``shutil.get_terminal_size``: importing ``shutil`` (with bz2, lzma and zlib) and
asking the terminal 30 times cost a cold ``hiera-ls lookup`` 2 ms, for help text it never
prints. The width is read once, as ``shutil`` reads it: ``$COLUMNS``, else the terminal of
standard output, else 80.
"""

from __future__ import annotations

import argparse
import os
import sys
from functools import cache


@cache
def _columns() -> int:
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns if columns > 0 else 80


class HelpFormatter(argparse.HelpFormatter):
    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        # argparse's own default: the terminal's width less 2
        super().__init__(
            prog, indent_increment, max_help_position, _columns() - 2 if width is None else width
        )
