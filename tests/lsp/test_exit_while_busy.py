"""``exit`` is read and honoured within the grace whatever the event loop is doing.

Before, the reader thread handed each batch to the loop and waited until the loop took it:
a request sent while the loop was busy (a hover, ``shutdown``) left ``exit`` unread in the
pipe until the loop was free again (the server lived on for 33-36 s). Here the loop is held
by a request that blocks it, and the connection must still end the process EXIT_GRACE_S
after ``exit`` arrives, with LSP's exit code.
"""

from __future__ import annotations

import asyncio
import io
import os
import threading
import time
from typing import Any

import pytest

from hiera_ls.lsp import transport
from hiera_ls.lsp.framing import FramingError
from tests.robustness.raw_lsp import encode, frame


class _BusyProtocol:
    """Stands for the server's protocol: a ``hover`` holds the loop's thread."""

    def __init__(self, release: threading.Event) -> None:
        self.release = release
        self.shutting_down = False
        self.received: list[str] = []

    def receive(self, body: bytes) -> None:
        self.received.append(body.decode())
        if b"textDocument/hover" in body:
            self.release.wait(30)  # the loop's thread, busy

    def framing_error(self, error: FramingError) -> None:
        pass

    def report(self, message: str, show: bool = False) -> None:
        pass


class _Pipe(io.RawIOBase):
    def __init__(self, fd: int) -> None:
        self.fd = fd

    def read1(self, size: int = -1) -> bytes:
        return os.read(self.fd, size if size > 0 else 65536)


@pytest.mark.slow  # seconds of waiting for the grace
@pytest.mark.parametrize(("before", "code"), [("textDocument/hover", 1), ("shutdown", 0)])
def test_exit_is_honoured_while_the_loop_is_busy(
    monkeypatch: pytest.MonkeyPatch, before: str, code: int
) -> None:
    ended: list[int] = []
    done = threading.Event()

    def end(status: int) -> None:
        ended.append(status)
        done.set()

    monkeypatch.setattr(transport, "_end_process", end)
    release = threading.Event()
    protocol: Any = _BusyProtocol(release)
    read_fd, write_fd = os.pipe()
    connection = transport.StdioConnection(protocol, _Pipe(read_fd))
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=lambda: loop.run_until_complete(connection.run()))
    runner.daemon = True
    runner.start()
    try:
        hover = {"jsonrpc": "2.0", "id": 1, "method": "textDocument/hover", "params": {}}
        os.write(write_fd, frame(encode(hover)))
        time.sleep(0.3)  # the loop takes the hover and is busy with it
        if before == "shutdown":
            os.write(write_fd, frame(encode({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})))
            time.sleep(0.3)
        started = time.monotonic()
        os.write(write_fd, frame(encode({"jsonrpc": "2.0", "method": "exit"})))
        assert done.wait(transport.EXIT_GRACE_S + 10), "exit was not honoured while busy"
        assert time.monotonic() - started >= transport.EXIT_GRACE_S - 0.1
        assert ended == [code]
    finally:
        release.set()
        os.close(write_fd)  # the end of input: its own watchdog fires within this test
        runner.join(10)
        time.sleep(transport.EXIT_GRACE_S + 0.5)
        os.close(read_fd)
        loop.close()
