"""``hiera-ls diff``: what a change of the data does to every key for every facts profile, and
an exit status (0 nothing changes, 1 some key changes for some profile, 2 usage error: not a
git repository, an unknown revision)."""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from typing import TextIO

from hiera_ls.cli.reports import (
    USAGE_ERROR,
    add_jobs_option,
    add_trust_options,
    settings_for,
    split_names,
    write_report,
)
from hiera_ls.fleet.config import FleetConfigError
from hiera_ls.fleet.errors import PuppetDBError
from hiera_ls.fleet.options import add_puppetdb_arguments, fleet_for_run
from hiera_ls.report.collector import full_passes_put_off
from hiera_ls.report.diff import run_diff
from hiera_ls.report.diff_formats import DIFF_FORMATS
from hiera_ls.report.git_tree import GitError
from hiera_ls.report.progress import ProgressBar
from hiera_ls.report.run import CheckError
from hiera_ls.report.workers import WorkerDied


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Compare the merged value of every key for every facts profile between two "
        "revisions of the git repository (default: HEAD against the working tree). The facts "
        "profiles are the head side's, used at both revisions. Values from eyaml are masked. "
        "Exit status: 0 nothing changes, 1 something changes, 2 usage error."
    )
    p.add_argument("--base", metavar="REV", help="the revision before (HEAD)")
    p.add_argument("--head", metavar="REV", help="the revision after (default: the files on disk)")
    p.add_argument(
        "--base-environment",
        metavar="NAME",
        help="compare two environments of the files on disk instead of two revisions: this "
        "one before (with --head-environment; no git needed)",
    )
    p.add_argument(
        "--head-environment",
        metavar="NAME",
        help="the environment after (with --base-environment)",
    )
    p.add_argument(
        "--profiles",
        nargs="+",
        action="extend",
        metavar="NAME",
        help="facts profiles: 'all' (the default) or names (also comma-separated)",
    )
    p.add_argument(
        "--keys",
        nargs="+",
        action="extend",
        metavar="GLOB",
        help="keys to compare, as names or globs like 'profile::web::*' (default: every key "
        "the data defines)",
    )
    p.add_argument("--format", choices=tuple(DIFF_FORMATS), default="text")
    p.add_argument("--output", metavar="FILE", help="write the report to FILE, not stdout")
    p.add_argument(
        "-C",
        "--directory",
        default=".",
        metavar="DIR",
        help="the control repository or environment to compare (default: the current one)",
    )
    p.add_argument(
        "--hiera-config",
        "--hiera_config",
        dest="hiera_config",
        metavar="FILE",
        help="the global layer's hiera.yaml",
    )
    add_trust_options(p)
    add_jobs_option(p)
    add_puppetdb_arguments(p, live=True)


class _Stopped(BaseException):
    """A signal asked the process to stop: raised where the run is, so every temporary
    directory it made is removed on the way out."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP, signal.SIGINT)


@contextlib.contextmanager
def _cleaned_up_on_signals() -> Iterator[None]:
    """SIGTERM (a CI job's timeout), SIGHUP and SIGINT end the run through its ``finally``
    blocks (the revisions' temporary checkouts are removed), then the process dies of the
    same signal, as its caller expects. Off the main thread, signals stay as they are."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: object) -> None:
        raise _Stopped(signum)

    previous = {s: signal.signal(s, stop) for s in STOP_SIGNALS}
    try:
        yield
    except _Stopped as e:
        for s, handler in previous.items():
            signal.signal(s, handler)
        signal.signal(e.signum, signal.SIG_DFL)
        os.kill(os.getpid(), e.signum)
        raise SystemExit(128 + e.signum) from None  # if the signal is blocked
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    with _cleaned_up_on_signals():
        return _run(args, stdout, stderr)


def _environment_misuse(
    args: argparse.Namespace, environments: tuple[str | None, str | None]
) -> str | None:
    if not any(environments):
        return None
    if not all(environments):
        return "give both --base-environment and --head-environment"
    if args.base is not None or args.head is not None:
        return "--base and --head compare revisions; environments are compared on disk"
    return None


def _run(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    environments = (args.base_environment, args.head_environment)
    wrong = _environment_misuse(args, environments)
    if wrong is not None:
        stderr.write(f"hiera-ls diff: error: {wrong}\n")
        return USAGE_ERROR
    try:
        settings = settings_for(args.hiera_config, args.facts_paths, args.max_files, args.target)
        fleet = fleet_for_run(args, args.directory, "diff", stderr)
        progress = ProgressBar(stderr)
        try:
            result = run_diff(
                args.directory,
                args.base if args.base is not None else "HEAD",
                args.head,
                profiles=split_names(args.profiles),
                keys=split_names(args.keys),
                settings=settings,
                progress=progress,
                fleet=fleet,
                environments=environments if all(environments) else None,
                jobs=args.jobs,
            )
        finally:
            progress.close()
    except (CheckError, GitError, FleetConfigError, PuppetDBError, WorkerDied) as e:
        stderr.write(f"hiera-ls diff: error: {e}\n")
        return USAGE_ERROR
    for note in result.notes:
        stderr.write(f"hiera-ls diff: note: {note}\n")
    with full_passes_put_off():
        report = DIFF_FORMATS[args.format](result)
    if not write_report("diff", report, args.output, stdout, stderr):
        return USAGE_ERROR
    return 1 if result.changes else 0
