"""``hiera-ls diff``'s arguments to a report and an exit status: 0 nothing changes, 1 some
key changes for some profile, 2 usage error (not a git repository, an unknown revision)."""

from __future__ import annotations

import argparse
from typing import TextIO

from hiera_ls.report.command import USAGE_ERROR, settings_for, split_names, write_report
from hiera_ls.report.diff import run_diff
from hiera_ls.report.diff_formats import DIFF_FORMATS
from hiera_ls.report.git_tree import GitError
from hiera_ls.report.progress import ProgressBar
from hiera_ls.report.run import CheckError


def add_diff_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "diff",
        help="what a change of the data does to every key for every facts profile",
        description="Compare the merged value of every key for every facts profile between two "
        "revisions of the git repository (default: HEAD against the working tree). The facts "
        "profiles are the head side's, used at both revisions. Values from eyaml are masked. "
        "Exit status: 0 nothing changes, 1 something changes, 2 usage error.",
    )
    p.add_argument("--base", default="HEAD", metavar="REV", help="the revision before (HEAD)")
    p.add_argument("--head", metavar="REV", help="the revision after (default: the files on disk)")
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


def run_diff_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    try:
        settings = settings_for(args.hiera_config, args.target)
        progress = ProgressBar(stderr)
        try:
            result = run_diff(
                args.directory,
                args.base,
                args.head,
                profiles=split_names(args.profiles),
                keys=split_names(args.keys),
                settings=settings,
                progress=progress,
            )
        finally:
            progress.close()
    except (CheckError, GitError) as e:
        stderr.write(f"hiera-ls diff: error: {e}\n")
        return USAGE_ERROR
    for note in result.notes:
        stderr.write(f"hiera-ls diff: note: {note}\n")
    report = DIFF_FORMATS[args.format](result)
    if not write_report("diff", report, args.output, stdout, stderr):
        return USAGE_ERROR
    return 1 if result.changes else 0
