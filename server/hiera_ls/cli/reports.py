"""What ``check`` and ``diff`` share: settings from the flags, names from repeated options, and
the report written to stdout or a file."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TextIO

from hiera_ls.project.settings import Settings
from hiera_ls.report.run import CheckError

USAGE_ERROR = 2


def settings_for(hiera_config: str | None) -> Settings:
    """The server's default settings, with ``--hiera-config`` (which must exist)."""
    if not hiera_config:
        return Settings()
    config = os.path.abspath(hiera_config)
    if not os.path.isfile(config):
        raise CheckError(f"--hiera-config {hiera_config}: no such file")
    return Settings(hiera_config=config)


def split_names(given: Sequence[str] | None) -> list[str] | None:
    """Names given in repeated or comma-separated options; None when none were given."""
    if not given:
        return None
    return [part.strip() for word in given for part in word.split(",") if part.strip()]


def write_report(
    command: str, text: str, output: str | None, stdout: TextIO, stderr: TextIO
) -> bool:
    """The report to ``output`` (else stdout); False, said on stderr, when it cannot be."""
    if not output:
        stdout.write(text)
        return True
    try:
        with open(output, "w", encoding="utf-8") as out:
            out.write(text)
    except OSError as e:
        stderr.write(f"hiera-ls {command}: error: cannot write {output}: {e.strerror}\n")
        return False
    return True
