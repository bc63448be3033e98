"""The workspace is read while the client takes in the answer to ``initialize``.

The client sends ``initialized`` (and its first ``didOpen``) only once it has read that
answer; reading the workspace (its environments, data files and facts profiles) in between
rather than after ``initialized`` takes it off the way to the first diagnostics. The server
is fed JSON-RPC in this process; what it writes, each new snapshot and the ``initialized``
handler's work are recorded in one list, so the test asserts their order, not a time.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from pygls.protocol import LanguageServerProtocol

from hiera_ls.lsp.serve import create_server
from hiera_ls.lsp.transport import MessageProtocol
from hiera_ls.project.workspace import Snapshot, Workspace

HIERA_YAML = """\
version: 5
hierarchy:
  - name: common
    path: common.yaml
"""


class _Recorder:
    """The server's output, as events: each answer by its request's id."""

    def __init__(self, events: list[str]) -> None:
        self.events = events

    def write(self, data: bytes) -> None:
        body = json.loads(data.split(b"\r\n\r\n", 1)[1])
        if "id" in body and "result" in body:
            self.events.append(f"answer {body['id']}")

    def close(self) -> None:
        pass


def test_the_workspace_is_read_once_initialize_is_answered(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the first snapshot was made by the ``initialized`` handler."""
    (tmp_path / "hiera.yaml").write_text(HIERA_YAML)
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "common.yaml").write_text("port: 80\n")
    events: list[str] = []
    made: list[Snapshot] = []
    snapshot = Workspace.snapshot

    def recorded(self: Workspace) -> Snapshot:
        snap = snapshot(self)
        if snap not in made:
            made.append(snap)
            events.append("workspace read")
        return snap

    monkeypatch.setattr(Workspace, "snapshot", recorded)
    server = create_server()
    protocol = server.protocol
    assert isinstance(protocol, MessageProtocol)
    protocol.set_writer(_Recorder(events))
    update = server.fleet.update

    def initialized_ran() -> None:  # (what the ``initialized`` handler does, after settings)
        events.append("initialized")
        update()

    monkeypatch.setattr(server.fleet, "update", initialized_ran)

    def send(message: dict[str, Any]) -> None:
        protocol.receive(json.dumps({"jsonrpc": "2.0", **message}).encode())

    async def until(event: str) -> None:
        for _ in range(500):
            if event in events:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(events)

    async def session() -> None:
        init = {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}
        send({"id": 1, "method": "initialize", "params": init})
        await until("answer 1")  # a client sends nothing more before it has the answer
        send({"method": "initialized", "params": {}})
        await until("initialized")
        await asyncio.sleep(0.05)  # nothing more comes

    asyncio.run(session())
    server.scheduler._worker.shutdown(wait=True)
    # pygls caches message types per protocol object: that cache would keep this server and
    # its snapshots alive, which tests counting the snapshots alive would count
    LanguageServerProtocol.get_message_type.cache_clear()
    LanguageServerProtocol.get_result_type.cache_clear()
    # read once, between the answer and ``initialized``, which found it read
    assert events == ["answer 1", "workspace read", "initialized"], events
