"""The PuppetDB flags ``facts pull``, ``check`` and ``diff`` share, and what they choose.

``--puppetdb URL`` names PuppetDB; ``--puppetdb`` alone takes the URL the repository's
``.hiera-ls.yaml`` names (the user asks for it on this command line). The other flags lay
the user's files and limits over the repository's (hiera_ls.fleet.config).
"""

from __future__ import annotations

import argparse
import os
from typing import TextIO

from hiera_ls.fleet.config import Choice, FleetConfigError, resolve
from hiera_ls.project.fleet_profiles import FleetProfiles
from hiera_ls.project.puppetdb_settings import PuppetDBSettings, timeout_problem, url_problem
from hiera_ls.project.repo_config import RepoConfig, find_repo_config
from hiera_ls.source.files import FileAccess

REPOSITORY = "\0repository"  # --puppetdb given without a URL


def add_puppetdb_arguments(parser: argparse.ArgumentParser, *, live: bool) -> None:
    """``live``: the command reads the fleet for this run (check, diff), rather than
    writing profiles (facts pull)."""
    title = "PuppetDB (its nodes as facts profiles)" if live else "PuppetDB"
    group = parser.add_argument_group(title)
    group.add_argument(
        "--puppetdb",
        nargs="?",
        const=REPOSITORY,
        metavar="URL",
        help="PuppetDB's URL (https://puppetdb.example.com:8081); alone: the URL "
        ".hiera-ls.yaml names (puppetdb: url:)"
        + (". Its nodes are checked as facts profiles, beside the repository's" if live else ""),
    )
    group.add_argument(
        "--query",
        metavar="QUERY",
        help='which nodes: PQL (inventory[certname] { facts.os.family = "Debian" }) or a '
        'JSON AST filter (["=", "facts.os.family", "Debian"]); default: every active node',
    )
    group.add_argument("--cert", metavar="FILE", help="client certificate (PEM)")
    group.add_argument("--key", metavar="FILE", help="the client certificate's private key")
    group.add_argument("--cacert", metavar="FILE", help="the CA that signed PuppetDB's certificate")
    group.add_argument(
        "--token",
        metavar="FILE",
        help="a file holding an RBAC token (Puppet Enterprise), sent as X-Authentication",
    )
    group.add_argument(
        "--timeout",
        type=float,
        metavar="SECONDS",
        help="the time one request to PuppetDB may take (default: 30)",
    )


def user_settings(args: argparse.Namespace) -> PuppetDBSettings:
    """The flags as settings; FleetConfigError for a value that cannot be used."""
    url = args.puppetdb if args.puppetdb not in (None, REPOSITORY) else None
    if url is not None and (problem := url_problem(url)) is not None:
        raise FleetConfigError(f"--puppetdb: {problem.removeprefix('url ')}")
    if args.timeout is not None and (problem := timeout_problem(args.timeout)) is not None:
        raise FleetConfigError(f"--{problem}")
    files = {
        name: os.path.abspath(os.path.expanduser(value))
        for name in ("cert", "key", "cacert", "token")
        if (value := getattr(args, name)) is not None
    }
    return PuppetDBSettings(url=url, query=args.query, timeout=args.timeout, **files)


def choose(args: argparse.Namespace, repo: RepoConfig) -> Choice:
    """The PuppetDB these flags choose (no ``--puppetdb``: none; the other flags alone are
    a mistake)."""
    if args.puppetdb is None:
        given = [f"--{n}" for n in ("query", "cert", "key", "cacert", "token", "timeout")]
        used = [flag for flag in given if getattr(args, flag[2:]) is not None]
        if used:
            verb = "needs" if len(used) == 1 else "need"
            raise FleetConfigError(f"{', '.join(used)} {verb} --puppetdb")
        return Choice(None)
    return resolve(
        user_settings(args),
        repo.puppetdb,
        use_repository_url=args.puppetdb == REPOSITORY,
        user_source="--puppetdb",
        repository_file=repo.path or ".hiera-ls.yaml",
    )


def fleet_for_run(
    args: argparse.Namespace, start: str, command: str, stderr: TextIO
) -> FleetProfiles | None:
    """``check``'s and ``diff``'s fleet: the nodes the flags' PuppetDB answers now (None
    without ``--puppetdb``); PuppetDBError or FleetConfigError when it cannot be had."""
    choice = choose(args, find_repo_config(start, FileAccess()))
    if choice.config is None:
        return None
    from hiera_ls.fleet.source import described, live_fleet  # the client, once it is asked

    fleet, summary = live_fleet(choice.config)
    for broken in summary.skipped:
        stderr.write(f"hiera-ls {command}: {broken.line()}\n")
    stderr.write(f"hiera-ls {command}: {described(summary, choice.config)}\n")
    return fleet
