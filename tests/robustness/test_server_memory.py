"""The server keeps nothing per request or per edit: hours of typing do not grow its memory.

Memory is measured by what stays reachable, not by time or RSS: the server runs in this
process, is fed many edits, opens, closes and hovers, and the objects still alive afterwards
are counted against those alive after a warm-up.
"""

from __future__ import annotations

import asyncio
import collections
import concurrent.futures
import gc
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from hiera_ls.lsp import diagnostics_scheduler
from hiera_ls.lsp.serve import create_server
from hiera_ls.lsp.server import HieraLanguageServer
from hiera_ls.lsp.transport import SWEEP_FUTURES, MessageProtocol
from hiera_ls.project.workspace import Snapshot

pytestmark = pytest.mark.slow  # long sessions of edits and hovers: seconds each

HIERA_YAML = """\
version: 5
hierarchy:
  - name: common
    path: common.yaml
"""
COMMON = "a: 1\nb: \"%{lookup('a')}\"\n"


class _Sink:
    """The client's end of stdout: answers are dropped."""

    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


class InProcess:
    """A server fed JSON-RPC bodies in this process, on the running event loop."""

    def __init__(self, root: Path) -> None:
        (root / "hiera.yaml").write_text(HIERA_YAML)
        (root / "data").mkdir()
        self.common = root / "data" / "common.yaml"
        self.common.write_text(COMMON)
        self.other = root / "data" / "other.yaml"
        self.other.write_text("c: 3\n")
        self.root = root
        self.server: HieraLanguageServer = create_server()
        self.protocol = self.server.protocol
        assert isinstance(self.protocol, MessageProtocol)
        self.protocol.set_writer(_Sink())
        self.version = 1
        self.msg_id = 1

    def send(self, method: str, params: dict[str, Any], request: bool = False) -> None:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.msg_id += 1
            message["id"] = self.msg_id
        self.protocol.receive(json.dumps(message).encode())

    def start(self) -> None:
        params = {"processId": None, "rootUri": self.root.as_uri(), "capabilities": {}}
        self.send("initialize", params, request=True)
        self.send("initialized", {})
        self.open(self.common, COMMON)

    def open(self, path: Path, text: str) -> None:
        item = {"uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": text}
        self.send("textDocument/didOpen", {"textDocument": item})

    def edit(self, n: int) -> None:
        """Replace the value of ``a`` (line 0) with one digit."""
        self.version += 1
        start, end = {"line": 0, "character": 3}, {"line": 0, "character": 4}
        change = {"range": {"start": start, "end": end}, "text": str(n % 10)}
        document = {"uri": self.common.as_uri(), "version": self.version}
        self.send("textDocument/didChange", {"textDocument": document, "contentChanges": [change]})

    def hover(self) -> None:
        position = {"line": 1, "character": 0}
        params = {"textDocument": {"uri": self.common.as_uri()}, "position": position}
        self.send("textDocument/hover", params, request=True)


async def settle() -> None:
    """Let every handler, publish and background run that is due finish."""
    for _ in range(50):
        await asyncio.sleep(0.01)


def alive(*kinds: type) -> collections.Counter[str]:
    gc.collect()
    return collections.Counter(type(o).__name__ for o in gc.get_objects() if isinstance(o, kinds))


def test_edits_and_hovers_leave_no_task_or_future_behind(tmp_path: Path) -> None:
    server = InProcess(tmp_path)
    counts: list[collections.Counter[str]] = []

    async def session() -> None:
        server.start()
        for rounds in (20, 200):
            for n in range(rounds):
                server.edit(n)
                server.hover()
                if n % 10 == 0:
                    server.open(server.other, "c: 3\n")
                    server.send(
                        "textDocument/didClose", {"textDocument": {"uri": server.other.as_uri()}}
                    )
                await asyncio.sleep(0)
            await settle()
            counts.append(alive(asyncio.Task, asyncio.Future, concurrent.futures.Future))

    asyncio.run(session())
    warm, after = counts
    # Before: each of the 200 edits (and each open and close) kept a task and a future, 240
    # more of each; now the done ones are forgotten once SWEEP_FUTURES of them are kept.
    for kind in ("Task", "Future"):
        assert after[kind] - warm[kind] <= SWEEP_FUTURES, (kind, warm, after)


def test_full_checks_slower_than_typing_run_once_on_the_newest_snapshot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While a run of the cross-file checks is under way, the pauses in typing that ask for
    another one do not queue one each: one more run follows, on the newest snapshot."""
    monkeypatch.setattr(diagnostics_scheduler, "REBUILD_DELAY_S", 0.01)
    server = InProcess(tmp_path)
    scheduler = server.server.scheduler
    release = threading.Event()
    runs: list[int] = []
    original = scheduler.full_checks

    def slow_full_checks(snapshot: Snapshot, changes: int, paths: list[str]) -> Any:
        runs.append(changes)
        release.wait(10)  # a run far longer than the pauses below (a safety net, not a bound)
        return original(snapshot, changes, paths)

    monkeypatch.setattr(scheduler, "full_checks", slow_full_checks)
    kept: list[int] = []

    async def session() -> None:
        server.start()
        await settle()  # the first run starts and blocks
        for n in range(30):
            server.edit(n)
            await asyncio.sleep(0.03)  # a pause in typing: a run is asked for
        kept.append(alive(Snapshot)["Snapshot"])
        release.set()
        await settle()
        await settle()

    asyncio.run(session())
    # Before: one run queued per pause, 31 in all, each keeping its snapshot until it ran.
    assert len(runs) == 2, runs
    assert runs[-1] == server.server.diagnostics.changes
    assert kept[0] <= 3, kept
