"""A client that talks to ``hiera-ls serve`` over raw stdio bytes.

pytest-lsp frames every message correctly; these tests need to send what a broken client
sends (wrong or missing ``Content-Length``, bodies that are not JSON), so they write bytes
themselves. Every wait has a deadline: a server that hangs fails the test instead of
hanging it.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SERVER_COMMAND = [sys.executable, "-m", "hiera_ls", "serve"]
WAIT_S = 10.0  # a safety net against a hung server, never a speed assertion

Message = dict[str, Any]


def frame(body: bytes | str, length: int | str | None = None) -> bytes:
    """``body`` with a ``Content-Length`` header (``length`` overrides the true one)."""
    data = body.encode("utf-8") if isinstance(body, str) else body
    return f"Content-Length: {len(data) if length is None else length}\r\n\r\n".encode() + data


def encode(message: Message) -> bytes:
    return json.dumps(message).encode("utf-8")


class RawServer:
    """One ``hiera-ls serve`` subprocess; what it writes is parsed in a reader thread."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            SERVER_COMMAND,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        self.messages: list[Message] = []
        self._stderr: list[bytes] = []
        self._changed = threading.Condition()
        self._next_id = 0
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    def __enter__(self) -> RawServer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- what the server writes --------------------------------------------------------

    def _read_stdout(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            length = None
            while True:
                line = out.readline()
                if not line:
                    self._notify()
                    return
                if not line.strip():
                    break
                name, _, value = line.decode("ascii").partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            assert length is not None, "the server wrote a message without Content-Length"
            body = out.read(length)
            with self._changed:
                self.messages.append(json.loads(body))
                self._changed.notify_all()

    def _read_stderr(self) -> None:
        err = self.proc.stderr
        assert err is not None
        for line in iter(err.readline, b""):
            with self._changed:
                self._stderr.append(line)
                self._changed.notify_all()
        self._notify()

    def _notify(self) -> None:
        with self._changed:
            self._changed.notify_all()

    @property
    def stderr(self) -> str:
        with self._changed:
            return b"".join(self._stderr).decode("utf-8", "replace")

    def wait_for(
        self,
        predicate: Callable[[Message], bool],
        timeout: float = WAIT_S,
        what: str = "",
        after: int = 0,
    ) -> Message:
        """The first message from index ``after`` (received or to come) that ``predicate``
        accepts."""
        deadline = time.monotonic() + timeout
        with self._changed:
            seen = after
            while True:
                for message in self.messages[seen:]:
                    if predicate(message):
                        return message
                seen = len(self.messages)
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(
                        f"no {what or 'matching message'} within {timeout} s; "
                        f"server exit code {self.proc.poll()}; stderr:\n{self.stderr[-3000:]}"
                    )
                self._changed.wait(min(left, 0.2))

    def response(self, msg_id: int | str, timeout: float = WAIT_S) -> Message:
        return self.wait_for(
            lambda m: m.get("id") == msg_id and "method" not in m,
            timeout,
            f"response to request {msg_id!r}",
        )

    def wait_stderr(self, needle: str, timeout: float = WAIT_S) -> str:
        deadline = time.monotonic() + timeout
        with self._changed:
            while needle not in (text := b"".join(self._stderr).decode("utf-8", "replace")):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{needle!r} not on stderr within {timeout} s:\n{text}")
                self._changed.wait(min(left, 0.2))
            return text

    def wait_stderr_count(self, needle: str, more_than: int, timeout: float = WAIT_S) -> int:
        """Waits until ``needle`` is on stderr more than ``more_than`` times (stderr is read
        by a thread, so a line the server wrote may arrive after its next answer)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while (count := self.stderr.count(needle)) <= more_than:
                left = deadline - time.monotonic()
                if left <= 0:
                    break
                self._changed.wait(min(left, 0.2))
            return count

    def exit_code(self, timeout: float = WAIT_S) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            raise AssertionError(
                f"the server did not exit within {timeout} s; stderr:\n{self.stderr[-3000:]}"
            ) from None

    # -- what the client writes --------------------------------------------------------

    def send_bytes(self, data: bytes) -> None:
        stdin = self.proc.stdin
        assert stdin is not None
        stdin.write(data)
        stdin.flush()

    def send(self, message: Message) -> None:
        self.send_bytes(frame(encode(message)))

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def request(self, method: str, params: Any = None, send: bool = True) -> int:
        """Send a request (or, with ``send=False``, only reserve its id); returns its id."""
        msg_id = self.new_id()
        if send:
            self.send(request(msg_id, method, params))
        return msg_id

    def notify(self, method: str, params: Any = None) -> None:
        self.send(notification(method, params))

    def call(self, method: str, params: Any = None, timeout: float = WAIT_S) -> Message:
        return self.response(self.request(method, params), timeout)

    def initialize(self, root: Path) -> None:
        answer = self.call(
            "initialize",
            {
                "processId": None,
                "rootUri": root.as_uri(),
                "capabilities": {},
                "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
            },
        )
        assert "result" in answer, answer
        self.notify("initialized", {})

    def open(self, path: Path, text: str | None = None, version: int = 1) -> str:
        uri = path.as_uri()
        self.notify(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": uri,
                    "languageId": "yaml",
                    "version": version,
                    "text": path.read_text(encoding="utf-8") if text is None else text,
                }
            },
        )
        return uri

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(WAIT_S)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()


def request(msg_id: int | str | None, method: str, params: Any = None) -> Message:
    message: Message = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: Any = None) -> Message:
    message: Message = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def hover_params(uri: str, line: Any, character: Any) -> Message:
    return {"textDocument": {"uri": uri}, "position": {"line": line, "character": character}}
