"""PuppetDB's nodes as the server's facts profiles: the picker lists them, and choosing one
answers hovers and checks as that node.

Which PuppetDB is the user's choice (``hiera.puppetdb.url``, or a repository's
``.hiera-ls.yaml`` URL the user's ``hiera.puppetdb.allowedUrls`` lists: see
hiera_ls.fleet.config); a repository alone never makes the server connect anywhere. The
nodes are pulled in a worker thread into the user's cache (hiera_ls.fleet.source), never
the repository; until the pull ends, and when PuppetDB cannot be reached, the nodes pulled
last time are listed. A pull happens when the server starts and when the settings or
``.hiera-ls.yaml`` change.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from lsprotocol import types

from hiera_ls.project.puppetdb_settings import FILE_FIELDS, PuppetDBSettings, expand_path
from hiera_ls.project.repo_config import RepoConfig

if TYPE_CHECKING:
    from hiera_ls.fleet.config import PuppetDBConfig
    from hiera_ls.lsp.server import HieraLanguageServer


class FleetSync:
    """The PuppetDB the settings choose, and its nodes handed to the workspace."""

    def __init__(self, ls: HieraLanguageServer) -> None:
        self.ls = ls
        self.config: PuppetDBConfig | None = None
        self.task: asyncio.Task[None] | None = None  # the pull under way (tests wait on it)
        self._told: set[str] = set()

    def update(self) -> None:
        """Re-decide the PuppetDB after a settings or .hiera-ls.yaml change; pull its nodes
        in the background when it is a new one. Runs on the server's event loop."""
        config = self._choose()
        if config == self.config:
            return
        self.config = config
        project = self.ls.project
        if config is None:
            project.set_fleet(None)
            return
        # the client (HTTP, TLS, the store) is imported once a PuppetDB is chosen
        from hiera_ls.fleet.source import cached

        project.set_fleet(cached(config))  # the last nodes pulled, until the pull ends
        self.ls.snapshot()  # (its nodes are grouped for the spread: lsp/fleet_grouping.py)
        self.task = asyncio.ensure_future(self._pull(config))

    def _choose(self) -> PuppetDBConfig | None:
        project = self.ls.project
        settings = project.settings
        base = project.roots[0] if project.roots else "."
        user = _files_from(settings.puppetdb, base)
        repo = next(
            (c for _, c in self.ls.snapshot().configs if not c.puppetdb.empty), RepoConfig.EMPTY
        )
        if not user.url and not repo.puppetdb.url:
            return None  # no PuppetDB named: its configuration (TLS files...) is not loaded
        from hiera_ls.fleet.config import FleetConfigError, resolve

        try:
            choice = resolve(
                user,
                repo.puppetdb,
                allowed_urls=settings.puppetdb_allowed,
                user_source="hiera.puppetdb.url",
                repository_file=repo.path or ".hiera-ls.yaml",
            )
        except FleetConfigError as e:
            self._tell(f"hiera-ls: PuppetDB: {e}", types.MessageType.Warning)
            return None
        for note in choice.notes:
            self._tell(f"hiera-ls: {note}", types.MessageType.Info)
        return choice.config

    async def _pull(self, config: PuppetDBConfig) -> None:
        from hiera_ls.fleet.config import FleetConfigError
        from hiera_ls.fleet.errors import PuppetDBError
        from hiera_ls.fleet.source import described, live_fleet

        loop = asyncio.get_running_loop()
        try:
            fleet, summary = await loop.run_in_executor(None, live_fleet, config)
        except (PuppetDBError, FleetConfigError, OSError) as e:
            if config == self.config:
                kept = self.ls.project.fleet
                still = (
                    f"the picker lists the {len(kept)} nodes pulled before"
                    if kept is not None
                    else "the picker lists none of its nodes"
                )
                message = f"hiera-ls: PuppetDB {e}; {still}"
                self.ls.log(message, types.MessageType.Warning)
                self._show(message)
            return
        if config != self.config:
            return  # the settings changed while it ran: a newer pull is under way
        active = self.ls.snapshot().active
        self.ls.project.set_fleet(fleet)
        self.ls.snapshot()  # (its nodes are grouped for the spread: lsp/fleet_grouping.py)
        for broken in summary.skipped:
            self.ls.log(f"hiera-ls: PuppetDB {config.url}: {broken.line()}")
        self.ls.log(f"hiera-ls: {described(summary, config)}")
        if active is not None and active.name in fleet:  # its facts may have changed
            self.ls.scheduler.refresh()

    def _tell(self, message: str, kind: types.MessageType) -> None:
        if message not in self._told:
            self._told.add(message)
            self.ls.log(message, kind)

    def _show(self, message: str) -> None:
        with contextlib.suppress(Exception):  # no client to show it to (shutdown)
            self.ls.window_show_message(
                types.ShowMessageParams(type=types.MessageType.Warning, message=message)
            )


def _files_from(settings: PuppetDBSettings, base: str) -> PuppetDBSettings:
    """The user's file settings as paths (``~`` expanded, relative to the first folder)."""
    files = {
        name: expand_path(value, base)
        for name in FILE_FIELDS
        if isinstance(value := getattr(settings, name), str)
    }
    return PuppetDBSettings(
        url=settings.url, query=settings.query, timeout=settings.timeout, **files
    )
