"""PuppetDB as a live source of profiles for ``check``, ``diff`` and the server.

The nodes are pulled (hiera_ls.fleet.pull) into the user's cache, never the repository:
one directory per PuppetDB URL and query, files only the user reads, pruned to what the
query selects. A later run re-reads only the nodes whose facts changed, and when PuppetDB
cannot be reached the server keeps the last nodes it pulled (``cached``).
"""

from __future__ import annotations

import os
from collections.abc import Callable

from hiera_ls.fleet.config import PuppetDBConfig, cache_root
from hiera_ls.fleet.pull import pull
from hiera_ls.fleet.store import PullSummary
from hiera_ls.project.fleet_profiles import FleetProfiles


def cache_directory(config: PuppetDBConfig) -> str:
    return os.path.join(cache_root(), config.cache_key())


def live_fleet(
    config: PuppetDBConfig, progress: Callable[[int], None] | None = None
) -> tuple[FleetProfiles, PullSummary]:
    """The nodes PuppetDB answers now (PuppetDBError, FleetConfigError when it cannot)."""
    root = cache_root()
    os.makedirs(root, mode=0o700, exist_ok=True)
    directory = cache_directory(config)
    summary = pull(config, directory, prune=True, private=True, progress=progress)
    return FleetProfiles(directory, config.url), summary


def cached(config: PuppetDBConfig) -> FleetProfiles | None:
    """The nodes an earlier run pulled for this PuppetDB and query, if any."""
    directory = cache_directory(config)
    return FleetProfiles(directory, config.url) if os.path.isdir(directory) else None


def described(summary: PullSummary, config: PuppetDBConfig) -> str:
    """One line: how many nodes, and what changed since the last pull."""
    nodes = f"{summary.nodes} node{'s' * (summary.nodes != 1)}"
    changes = f"{len(summary.new)} new, {len(summary.changed)} changed"
    if summary.removed:
        changes += f", {len(summary.removed)} gone"
    skipped = f", {len(summary.skipped)} skipped" if summary.skipped else ""
    return f"PuppetDB {config.url}: {nodes} as facts profiles ({changes}{skipped})"
