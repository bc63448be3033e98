"""The background checks stop at their next pause as soon as a message is read, not only once
the server's thread has got to it.

The checks give way while a handler runs (lsp/server.py: guard). Before, they ran on from the
moment the reader thread had read a hover until the event loop handed it to its handler,
sharing the interpreter with every step of that way: bench_lsp's hovers waited 5-35 ms
there. Here the loop's thread is kept busy while a hover arrives, and the background work,
a loop of units each after the scheduler's pause, must not go on meanwhile; it must resume
once the hover is handled.
"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from typing import Any

import pytest
from pygls.protocol import LanguageServerProtocol

from hiera_ls.lsp import transport
from hiera_ls.lsp.framing import FramingError
from hiera_ls.lsp.serve import create_server
from tests.robustness.raw_lsp import encode, frame

BUSY_S = 0.5  # the loop's thread busy with something else while the hover arrives
UNIT_S = 0.002  # one unit of background work, after each pause


class _Pipe:
    def __init__(self, fd: int) -> None:
        self.fd = fd

    def read1(self, size: int = -1) -> bytes:
        return os.read(self.fd, size if size > 0 else 65536)


class _Protocol:
    """Stands for the server's protocol: records the units done when each message is handled."""

    def __init__(self, units: list[int]) -> None:
        self.units = units
        self.shutting_down = False
        self.handled: list[tuple[bytes, int]] = []
        self.done = threading.Event()

    def receive(self, body: bytes) -> None:
        self.handled.append((body, self.units[0]))
        self.done.set()

    def framing_error(self, error: FramingError) -> None:
        pass

    def report(self, message: str, show: bool = False) -> None:
        pass


@pytest.mark.parametrize(
    ("method", "request_", "held"),
    [
        ("textDocument/hover", True, True),
        # an edit: its publish is waited for (the first edit after a pause in typing met the
        # cross-file run, which went on until the loop got to the edit)
        ("textDocument/didChange", False, True),
        ("textDocument/hover", False, False),
    ],
    ids=["request", "edit", "notification"],
)
def test_a_request_read_stops_the_background_work_until_it_is_handled(
    monkeypatch: pytest.MonkeyPatch, method: str, request_: bool, held: bool
) -> None:
    """Another notification is left to its handler: it holds the gate itself (lsp/server.py:
    guard). An edit then makes the background run give up at its next pause."""
    # the end of input ends the run below; its watchdog, which would end this process after
    # the grace, is left waiting instead
    monkeypatch.setattr(transport, "EXIT_GRACE_S", 24 * 3600.0)
    scheduler = create_server().scheduler
    units = [0]
    stop = threading.Event()

    def background() -> None:  # as full_checks: a pause before each unit of work
        while not stop.is_set():
            scheduler.wait_idle()
            time.sleep(UNIT_S)
            units[0] += 1

    protocol: Any = _Protocol(units)
    read_fd, write_fd = os.pipe()
    connection = transport.StdioConnection(protocol, _Pipe(read_fd), scheduler)
    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=lambda: loop.run_until_complete(connection.run()))
    runner.daemon = True
    worker = threading.Thread(target=background, daemon=True)
    try:
        runner.start()
        worker.start()
        time.sleep(0.05)
        loop.call_soon_threadsafe(time.sleep, BUSY_S)  # the loop's thread, busy
        time.sleep(0.02)
        sent_at = units[0]
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if request_:
            message["id"] = 1
        os.write(write_fd, frame(encode({**message, "params": {}})))
        assert protocol.done.wait(10)
        ((_, handled_at),) = protocol.handled
        # the unit under way when it was read, and a few while the reader woke: not the
        # BUSY_S / UNIT_S (250) units the loop's busy stretch leaves room for
        if held:
            assert handled_at - sent_at < 25
        else:
            assert handled_at - sent_at >= 25
        deadline = time.monotonic() + 10
        while units[0] < handled_at + 10 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert units[0] >= handled_at + 10  # and resumed once it was handed on
        assert scheduler._idle.is_set()
    finally:
        stop.set()
        os.close(write_fd)  # the end of input ends the connection's run
        runner.join(10)
        worker.join(10)
        os.close(read_fd)
        loop.close()
        scheduler._worker.shutdown(wait=True)
        LanguageServerProtocol.get_message_type.cache_clear()
        LanguageServerProtocol.get_result_type.cache_clear()
