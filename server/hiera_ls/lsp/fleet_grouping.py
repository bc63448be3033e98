"""PuppetDB's nodes grouped for the hover spread and the key view, off the server's thread.

Grouping a fleet reads every node's facts and resolves its hierarchy (about 2.6 s for
10,000 nodes here), so a worker does it (features/profile_classes.py), after the fleet is
loaded and after a pause in edits that changed the data; requests meanwhile say the nodes
are being grouped. An edit that changes only values, not what a data file interpolates,
keeps the groups (no node is read again). The worker gives way while the server answers a
request and gives up once an edit has made its data stale (that edit schedules its own
run). It is a daemon thread: an exit never waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
import traceback
from typing import TYPE_CHECKING

from lsprotocol import types

from hiera_ls.features.render import plain_text
from hiera_ls.project.workspace import EnvironmentView, Snapshot

# The grouping's machinery (the engine's lookups, the spread) loads with the first fleet
if TYPE_CHECKING:
    from hiera_ls.features.profile_classes import FleetGrouping
    from hiera_ls.lsp.server import HieraLanguageServer

GROUP_DELAY_S = 0.3  # pause in edits before the fleet is grouped again
# how long a hover or key view waits for a grouping due or under way: keeping the groups
# over an edit takes milliseconds, grouping the whole fleet again seconds (it then says so)
WAIT_S = 0.25


class FleetGrouper:
    """One grouping run at a time, for the newest data."""

    def __init__(self, ls: HieraLanguageServer) -> None:
        self.ls = ls
        self._timer: asyncio.TimerHandle | None = None
        self._running = False
        self._again = False
        self._data: object = None  # the newest snapshot's data_memo (stale runs give up)
        self._previous: dict[str, FleetGrouping] = {}  # per environment root: the last made
        self._waiting: list[asyncio.Future[None]] = []  # requests waiting (see settled)
        self._reading = False  # the run reads every node (seconds): requests do not wait

    def snapshot_changed(self, snapshot: Snapshot) -> None:
        """A new snapshot: when it has a fleet, group it after a pause (if its data is new:
        a run finds nothing to do otherwise). On the server's thread."""
        self._data = snapshot.data_memo
        if snapshot.fleet is None:
            return
        if self._timer is not None:
            self._timer.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return  # no loop (tests calling handlers directly): requests say "being grouped"
        self._timer = loop.call_later(GROUP_DELAY_S, self._start)

    async def settled(self) -> None:
        """Before a request reads the groups: a grouping that is due starts now, and the
        request waits for it a little (:data:`WAIT_S`) unless it reads every node (then
        the request says the nodes are being grouped), so the first hover after an edit
        shows the fleet's answers. On the server's thread."""
        if self._timer is None and not self._running:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._start()
        if not self._running or self._reading:
            return
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append(waiter)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.shield(waiter), WAIT_S)

    def _start(self) -> None:
        from hiera_ls.features.profile_classes import claim_fleet

        self._timer = None
        if self._running:
            self._again = True
            return
        snapshot = self.ls.snapshot()
        views = [view for view in snapshot.environments if claim_fleet(snapshot, view)]
        if not views:
            return
        self._running = True
        self._reading = any(view.env.root not in self._previous for view in views)
        loop = asyncio.get_running_loop()
        threading.Thread(
            target=self._group,
            args=(loop, snapshot, views),
            name="hiera-ls-fleet-groups",
            daemon=True,
        ).start()

    def _group(
        self,
        loop: asyncio.AbstractEventLoop,
        snapshot: Snapshot,
        views: list[EnvironmentView],
    ) -> None:
        """In the worker: each environment's grouping, kept in the snapshot's data memo."""
        from hiera_ls.features.profile_classes import group_fleet, release_fleet
        from hiera_ls.features.spread import fleet_too_varied

        def pause() -> None:
            self._reading = True  # (called between nodes only: the groups were not kept)
            self.ls.scheduler.wait_idle()
            if self._data is not snapshot.data_memo:
                raise _Superseded

        messages: list[tuple[str, types.MessageType]] = []
        for i, view in enumerate(views):
            started = time.perf_counter()
            previous = self._previous.get(view.env.root)
            try:
                made = group_fleet(snapshot, view, pause, previous)
            except _Superseded:
                for rest in views[i:]:
                    release_fleet(snapshot, rest)
                break
            except Exception:
                release_fleet(snapshot, view)
                trace = traceback.format_exc()
                messages.append((f"hiera-ls: grouping the fleet failed:\n{trace}", _ERROR))
                continue
            if made is None:
                continue
            self._previous[view.env.root] = made
            if previous is None or made.classes is not previous.classes:  # not kept: made
                took = time.perf_counter() - started
                groups = len(made.classes.names)
                said = (
                    f"PuppetDB's {made.nodes} nodes in {groups} groups for environment "
                    f"'{view.env.name}' ({took:.1f} s): the hover and the key view look a key "
                    "up once per group"
                    if not made.too_many
                    else f"{plain_text(fleet_too_varied(made))} (environment '{view.env.name}')"
                )
                messages.append((f"hiera-ls: {said}", _INFO))
        loop.call_soon_threadsafe(self._finished, messages)

    def _finished(self, messages: list[tuple[str, types.MessageType]]) -> None:
        self._running = self._reading = False
        for message, kind in messages:
            self.ls.log(message, kind)
        waiting, self._waiting = self._waiting, []
        for waiter in waiting:
            if not waiter.done():
                waiter.set_result(None)
        if self._again:
            self._again = False
            self._start()


_ERROR = types.MessageType.Error
_INFO = types.MessageType.Info


class _Superseded(Exception):
    """Raised in the worker: an edit made its data stale, so its groups would be dropped."""
