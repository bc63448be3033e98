"""``hiera-ls check``: the server's diagnostics over a repository, as a report and an exit
status (0 clean, 1 findings at or above ``--fail-on``, 2 usage or configuration error)."""

from __future__ import annotations

import argparse
import os
from typing import TYPE_CHECKING, TextIO

from hiera_ls.checks.rules import RULES
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
from hiera_ls.report.formats import FORMATS, Report, formatter
from hiera_ls.report.progress import ProgressBar
from hiera_ls.report.run import CheckError, check_roots, run_check
from hiera_ls.report.selection import Selection, SelectionError, parse_codes
from hiera_ls.report.workers import WorkerDied
from hiera_ls.source.rules import Needs

if TYPE_CHECKING:
    from hiera_ls.report.fix import FixResult


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.description = (
        "Check every environment, data file, hiera.yaml and facts file under PATH with the "
        "language server's rules, for every facts profile. Exit status: 0 clean, 1 findings at "
        "or above --fail-on, 2 usage or configuration error."
    )
    p.add_argument(
        "paths", nargs="*", metavar="PATH", help="directories or files (default: the current one)"
    )
    p.add_argument(
        "--profiles",
        action="append",
        metavar="NAMES",
        help="facts profiles to check with: 'all' (the default) or comma-separated names "
        "(the option may be repeated)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        help="report format (default: text; github when GITHUB_ACTIONS=true)",
    )
    p.add_argument("--output", metavar="FILE", help="write the report to FILE, not stdout")
    p.add_argument(
        "--select", metavar="CODES", help="only these codes (comma-separated; globs like yaml-*)"
    )
    p.add_argument("--ignore", metavar="CODES", help="leave out these codes (comma-separated)")
    p.add_argument(
        "--fail-on",
        choices=("error", "warning", "info"),
        default="error",
        help="the least severity that makes the exit status 1 (default: error)",
    )
    p.add_argument(
        "--hiera-config",
        "--hiera_config",
        dest="hiera_config",
        metavar="FILE",
        help="the global layer's hiera.yaml (the server's hiera.hieraConfig setting)",
    )
    add_trust_options(p)
    p.add_argument(
        "--fix",
        action="store_true",
        help="first apply the safe quick fixes (docs/diagnostics.md lists them) to the files, "
        "then report what is left",
    )
    p.add_argument(
        "--show-values",
        action="store_true",
        help="quote the data's values in messages, for a person at a terminal (text format "
        "only: a report that leaves the machine never carries them)",
    )
    add_jobs_option(p)
    add_puppetdb_arguments(p, live=True)


def chosen_format(given: str | None) -> str:
    if given is not None:
        return given
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    try:
        if args.show_values and chosen_format(args.format) != "text":
            raise CheckError(
                "--show-values is for the text format only: the other formats are for CI, "
                "code scanning and dashboards, which never get the data's values"
            )
        selection = Selection(parse_codes(args.select), parse_codes(args.ignore))
        settings = settings_for(args.hiera_config, args.facts_paths, args.max_files, args.target)
        profiles = split_names(args.profiles)
        fixed = None
        if args.fix:
            from hiera_ls.report.fix import fix_files  # --fix only

            roots, only = check_roots(args.paths)
            fixed = fix_files(roots, sorted(only), settings)
        start = args.paths[0] if args.paths else os.getcwd()
        fleet = fleet_for_run(args, start, "check", stderr)
        progress = ProgressBar(stderr)
        try:
            result = run_check(
                args.paths,
                profiles=profiles,
                settings=settings,
                selection=selection,
                progress=progress,
                show_values=args.show_values,
                fleet=fleet,
                jobs=args.jobs,
            )
        finally:
            progress.close()
    except (CheckError, SelectionError, FleetConfigError, PuppetDBError, WorkerDied) as e:
        stderr.write(f"hiera-ls check: error: {e}\n")
        return USAGE_ERROR
    for note in result.notes:
        stderr.write(f"hiera-ls check: note: {note}\n")
    report = Report(result, args.fail_on, os.getcwd())
    with full_passes_put_off():  # the report holds every finding
        text = formatter(chosen_format(args.format))(report)
    if not write_report("check", text, args.output, stdout, stderr):
        return USAGE_ERROR
    if fixed is not None:
        _tell_fixes(fixed, stderr)  # stderr: stdout may be a report a program reads
        if fixed.failed:
            return USAGE_ERROR
    _tell_skipped(result.profiles, selection, stderr)
    return 1 if report.failing else 0


def _tell_skipped(profiles: tuple[str, ...], selection: Selection, stderr: TextIO) -> None:
    """Without a facts profile the checks that look keys up for a node do not run: say so once
    (stderr: stdout may be a report a program reads), or a clean run would claim too much."""
    skipped = [c for c, r in RULES.items() if Needs.PROFILE in r.needs and selection.wants(c)]
    if profiles or not skipped:
        return
    stderr.write(
        f"hiera-ls check: note: no facts profile found, so {len(skipped)} checks that look "
        f"keys up for a node did not run ({', '.join(skipped)}). Add a profile per kind of "
        "node to .hiera-ls/facts/: on a node, `puppet facts show --render-as json > "
        "NODE.json` (or `facter -j > NODE.json`); from PuppetDB, `hiera-ls facts pull "
        "--puppetdb URL`; or name facts files with --facts-path.\n"
    )


def _tell_fixes(fixed: FixResult, stderr: TextIO) -> None:
    if fixed.fixes:
        files = len(fixed.files)
        stderr.write(
            f"Fixed {fixed.fixes} problem{'s' * (fixed.fixes != 1)} in {files} "
            f"file{'s' * (files != 1)}.\n"
        )
    cwd = os.getcwd().rstrip(os.sep) + os.sep
    for skipped in fixed.not_fixed:
        path = skipped.path.removeprefix(cwd)
        stderr.write(f"Not fixed: {path}: {skipped.why}\n")
