"""A language server fed JSON-RPC in this process: tests of what it publishes, and in which
order, drive it without a client or a pipe (its answers are dropped)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

from pygls.protocol import LanguageServerProtocol

from hiera_ls.lsp.serve import create_server
from hiera_ls.lsp.transport import MessageProtocol


class _Sink:
    """The client's end of stdout."""

    def write(self, data: bytes) -> None:
        pass

    def close(self) -> None:
        pass


class FedServer:
    def __init__(self) -> None:
        self.server = create_server()
        protocol = self.server.protocol
        assert isinstance(protocol, MessageProtocol)
        protocol.set_writer(_Sink())
        self.protocol = protocol
        self._ids = itertools.count(1)

    def send(self, method: str, params: dict[str, Any], request: bool = False) -> None:
        """A notification, or a request (``request``) with the next id."""
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            message["id"] = next(self._ids)
        self.protocol.receive(json.dumps(message).encode())

    def open(self, root: Path, path: Path, text: str) -> None:
        """``initialize`` with ``root`` as the workspace, ``initialized``, then ``path``
        opened with ``text`` (version 1)."""
        init = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
        self.send("initialize", init, request=True)
        self.send("initialized", {})
        item = {"uri": path.as_uri(), "languageId": "yaml", "version": 1, "text": text}
        self.send("textDocument/didOpen", {"textDocument": item})

    def stop(self) -> None:
        """Joins the background worker. pygls caches message types per protocol object: that
        cache would keep this server and its snapshots alive, which tests counting the
        snapshots alive would count."""
        self.server.scheduler._worker.shutdown(wait=True)
        LanguageServerProtocol.get_message_type.cache_clear()
        LanguageServerProtocol.get_result_type.cache_clear()
