"""What ``check`` and ``diff`` share: settings from the flags, names from repeated options, and
the report written to stdout or a file."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import replace
from typing import TextIO

from hiera_ls.project.settings import Settings
from hiera_ls.report.run import CheckError
from hiera_ls.report.workers import usable_cores

USAGE_ERROR = 2


def settings_for(
    hiera_config: str | None,
    facts_paths: Sequence[str] = (),
    max_files: int | None = None,
    target: str | None = None,
) -> Settings:
    """The server's default settings, with ``--hiera-config`` (which must exist),
    ``--facts-path``, ``--max-files`` and ``--target``."""
    settings = Settings(
        facts_paths=tuple(os.path.abspath(p) for p in facts_paths),
        max_files=max_files if max_files is not None else Settings().max_files,
        target=target,
    )
    if max_files is not None and max_files < 1:
        raise CheckError(f"--max-files {max_files}: give a positive number of files")
    if not hiera_config:
        return settings
    config = os.path.abspath(hiera_config)
    if not os.path.isfile(config):
        raise CheckError(f"--hiera-config {hiera_config}: no such file")
    return replace(settings, hiera_config=config)


def add_trust_options(p: argparse.ArgumentParser) -> None:
    """What only the user decides, never the repository's .hiera-ls.yaml."""
    p.add_argument(
        "--facts-path",
        dest="facts_paths",
        action="append",
        default=[],
        metavar="PATH",
        help="a file or directory of facts profiles, also outside the repository (the "
        "server's hiera.factsPaths setting; repeatable)",
    )
    p.add_argument(
        "--max-files",
        type=int,
        default=Settings().max_files,
        metavar="N",
        help="the most files one listing of the workspace holds; a listing cut short is an "
        "error (walk-limit) (default: %(default)s; the server's hiera.maxFiles setting)",
    )


def add_jobs_option(p: argparse.ArgumentParser) -> None:
    """``--jobs N``: the worker processes ``check`` and ``diff`` may spread their work over."""
    p.add_argument(
        "--jobs",
        "-j",
        type=_jobs,
        default=usable_cores(),
        metavar="N",
        help="worker processes to spread the work over (default: the usable cores, "
        "%(default)s here; 1: all in this process). The report is the same for any N",
    )


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"give a whole number of processes, 1 or more: {text!r}")
    return value


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
