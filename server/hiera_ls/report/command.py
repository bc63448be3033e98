"""``hiera-ls check``'s arguments to a report and an exit status (0, 1 findings, 2 usage)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from dataclasses import replace
from typing import TextIO

from hiera_ls.project.settings import Settings
from hiera_ls.project.targets import TARGET_NAMES
from hiera_ls.report.fix import FixResult, fix_files
from hiera_ls.report.formats import Report, formatters
from hiera_ls.report.progress import ProgressBar
from hiera_ls.report.run import CheckError, check_roots, run_check
from hiera_ls.report.selection import Selection, SelectionError, parse_codes

USAGE_ERROR = 2


def chosen_format(given: str | None) -> str:
    if given is not None:
        return given
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def add_target_option(parser: argparse.ArgumentParser) -> None:
    """``--target``, which every command takes (project/targets.py)."""
    parser.add_argument(
        "--target",
        choices=TARGET_NAMES,
        help="the Puppet the nodes run, whose defaults apply: strict mode and strict "
        "variables, legacy facts (not sent from Puppet 8 on), what OpenVox 9 removed "
        "(default: .hiera-ls.yaml's target, else puppet8)",
    )


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


def run_check_command(args: argparse.Namespace, stdout: TextIO, stderr: TextIO) -> int:
    try:
        selection = Selection(parse_codes(args.select), parse_codes(args.ignore))
        settings = settings_for(args.hiera_config, args.facts_paths, args.max_files, args.target)
        profiles = split_names(args.profiles)
        fixed = None
        if args.fix:
            roots, only = check_roots(args.paths)
            fixed = fix_files(roots, sorted(only), settings)
        progress = ProgressBar(stderr)
        try:
            result = run_check(
                args.paths,
                profiles=profiles,
                settings=settings,
                selection=selection,
                progress=progress,
            )
        finally:
            progress.close()
    except (CheckError, SelectionError) as e:
        stderr.write(f"hiera-ls check: error: {e}\n")
        return USAGE_ERROR
    for note in result.notes:
        stderr.write(f"hiera-ls check: note: {note}\n")
    report = Report(result, args.fail_on, os.getcwd())
    text = formatters()[chosen_format(args.format)](report)
    if not write_report("check", text, args.output, stdout, stderr):
        return USAGE_ERROR
    if fixed is not None:
        _tell_fixes(fixed, stderr)  # stderr: stdout may be a report a program reads
        if fixed.failed:
            return USAGE_ERROR
    return 1 if report.failing else 0


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
