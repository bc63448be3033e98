"""``hiera-ls facts pull``: the fleet's facts from PuppetDB, one facts profile per node.

Exit status: 0 every node written, 1 written but some nodes skipped (each said on stderr),
2 nothing changed on disk because of an error (PuppetDB down, slow, refusing, answering
garbage; a flag or file that cannot be used), named with the URL and the cause.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence
from typing import TextIO

from hiera_ls.fleet.config import FleetConfigError, PuppetDBConfig
from hiera_ls.fleet.errors import PuppetDBError
from hiera_ls.fleet.options import add_puppetdb_arguments, choose
from hiera_ls.fleet.pull import pull
from hiera_ls.fleet.store import PullSummary
from hiera_ls.project.repo_config import find_repo_config
from hiera_ls.source.files import FileAccess

DEFAULT_OUTPUT = os.path.join(".hiera-ls", "facts", "puppetdb")
FAILED = 2
LISTED = 20  # certnames named per kind of change; then "and N more"


def add_arguments(facts: argparse.ArgumentParser) -> None:
    commands = facts.add_subparsers(dest="facts_command", metavar="COMMAND")
    p = commands.add_parser(
        "pull",
        help="write one facts profile per node from PuppetDB's inventory",
        description="Write one facts profile (facts and trusted data) per node PuppetDB "
        "knows, or per node --query selects, into a directory hiera-ls reads profiles from. "
        "A re-run rewrites only the nodes whose facts changed, and replaces the directory "
        "in one step: on any failure the last good profiles stay. Exit status: 0 done, "
        "1 done but some nodes were skipped, 2 error (nothing changed).",
    )
    add_puppetdb_arguments(p, live=False)
    p.add_argument(
        "--output",
        metavar="DIR",
        help=f"the profiles' directory (default: {DEFAULT_OUTPUT} in the repository: the "
        "directory of .hiera-ls.yaml, else of .git, else the current one)",
    )
    p.add_argument(
        "--prune",
        action="store_true",
        help="remove the profiles of nodes PuppetDB (or the query) no longer lists "
        "(default: keep them)",
    )


def run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO, stderr: TextIO) -> int:
    if args.facts_command != "pull":
        stderr.write("hiera-ls facts: name a command: hiera-ls facts pull --puppetdb URL\n")
        return FAILED
    cwd = os.getcwd()
    repo = find_repo_config(cwd, FileAccess())
    try:
        if args.puppetdb is None:
            raise FleetConfigError(
                "name PuppetDB: --puppetdb URL, or --puppetdb alone for the URL "
                ".hiera-ls.yaml names"
            )
        config = choose(args, repo).config
        assert config is not None  # --puppetdb was given
        root = repo.root if repo.path is not None else _repository_root(cwd)
        output = os.path.abspath(args.output) if args.output else os.path.join(root, DEFAULT_OUTPUT)
        for line in _tls_notes(config):
            stderr.write(f"hiera-ls facts pull: {line}\n")
        counter = _Counter(stderr)
        try:
            summary = pull(config, output, prune=args.prune, progress=counter)
        finally:
            counter.close()
    except (FleetConfigError, PuppetDBError) as e:
        stderr.write(f"hiera-ls facts pull: error: {e}\n")
        stderr.write("hiera-ls facts pull: nothing was changed on disk\n")
        return FAILED
    except OSError as e:
        where = f" {e.filename}" if e.filename else ""
        stderr.write(f"hiera-ls facts pull: error: cannot write{where}: {e.strerror or e}\n")
        stderr.write("hiera-ls facts pull: nothing was changed on disk\n")
        return FAILED
    for broken in summary.skipped:
        stderr.write(f"hiera-ls facts pull: {broken.line()}\n")
    stdout.write(report(summary, config, cwd))
    return 1 if summary.skipped else 0


def _repository_root(start: str) -> str:
    """The git work tree holding ``start`` (the directory with ``.git``), else ``start``."""
    current = start
    while not os.path.exists(os.path.join(current, ".git")):
        parent = os.path.dirname(current)
        if parent == current:
            return start
        current = parent
    return current


def _tls_notes(config: PuppetDBConfig) -> list[str]:
    taken = config.tls.from_puppet
    return [f"using Puppet's {path}" for path in taken]


def report(summary: PullSummary, config: PuppetDBConfig, cwd: str) -> str:
    """What the pull did, for a person: counts, then the nodes that changed."""
    where = os.path.relpath(summary.directory, cwd)
    if where.startswith(os.pardir):
        where = summary.directory
    nodes = _count(summary.nodes, "node")
    lines = [
        f"Pulled {nodes} from {config.url} into {where}: {len(summary.new)} new, "
        f"{len(summary.changed)} changed, {summary.unchanged} unchanged."
    ]
    if summary.removed:
        lines.append(f"Removed {_count(len(summary.removed), 'node')} this pull did not list.")
    if summary.kept:
        lines.append(
            f"Kept {_count(len(summary.kept), 'node')} this pull did not list "
            "(--prune removes them)."
        )
    if summary.skipped:
        last = len(summary.kept_last_good)
        also = f"; kept the last good profile of {last}" if last else ""
        lines.append(f"Skipped {_count(len(summary.skipped), 'node')} (said above){also}.")
    if not summary.touched:
        lines.append("Nothing changed: the directory was not touched.")
    for title, names in (
        ("new", summary.new),
        ("changed", summary.changed),
        ("removed", summary.removed),
    ):
        if names:
            lines.append(f"  {title}: {_names(names)}")
    return "\n".join(lines) + "\n"


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(names[:LISTED])
    more = len(names) - LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' * (n != 1)}"


class _Counter:
    """Nodes written so far, on a terminal only (every 500, then erased)."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        try:
            self.enabled = stream.isatty()
        except (AttributeError, ValueError):
            self.enabled = False
        self.shown = False

    def __call__(self, done: int) -> None:
        if self.enabled and done % 500 == 0:
            self.stream.write(f"\r{done} nodes")
            self.stream.flush()
            self.shown = True

    def close(self) -> None:
        if self.shown:
            self.stream.write("\r" + " " * 20 + "\r")
            self.stream.flush()
