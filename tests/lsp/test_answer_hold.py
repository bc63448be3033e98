"""The background checks wait while a request is answered, until its answer is written.

pygls writes a handler's answer from the handler's done-callback, after the handler
returned: the checks used to resume in between and hold the interpreter while the answer
waited. The server is fed JSON-RPC in this process; the writer records, for each answer,
whether the checks were free to run when it was written.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from pygls.protocol import LanguageServerProtocol

from hiera_ls.lsp.serve import create_server
from hiera_ls.lsp.transport import MessageProtocol


def test_the_checks_wait_until_the_answer_is_written(tmp_path: Path) -> None:
    (tmp_path / "hiera.yaml").write_text("version: 5\n")
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "common.yaml").write_text("port: 80\n")
    server = create_server()
    protocol = server.protocol
    assert isinstance(protocol, MessageProtocol)
    scheduler = server.scheduler
    free_at_answer: dict[int, bool] = {}

    class Writer:
        def write(self, data: bytes) -> None:
            body = json.loads(data.split(b"\r\n\r\n", 1)[-1])
            if "id" in body and "method" not in body:  # an answer
                free_at_answer[body["id"]] = scheduler._idle.is_set()

        def close(self) -> None:
            pass

    protocol.set_writer(Writer())

    def send(message: dict[str, Any]) -> None:
        protocol.receive(json.dumps({"jsonrpc": "2.0", **message}).encode())

    async def session() -> None:
        init = {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}
        send({"id": 1, "method": "initialize", "params": init})
        send({"method": "initialized", "params": {}})
        send({"id": 2, "method": "workspace/symbol", "params": {"query": "port"}})
        for _ in range(500):
            if 2 in free_at_answer:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.05)

    asyncio.run(session())
    scheduler._worker.shutdown(wait=True)
    LanguageServerProtocol.get_message_type.cache_clear()
    LanguageServerProtocol.get_result_type.cache_clear()
    assert free_at_answer.get(2) is False  # held while the answer was written
    assert scheduler._idle.is_set()  # and let go after it
