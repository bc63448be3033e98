"""The connection to the client over stdio: bytes in, an answer for every request, and exit.

pygls' own reader (``pygls.io_.run_async``) is replaced here, because on bad input it leaves
the client waiting for ever: params it cannot read (a position of 2^31, a negative or
missing one) are logged and never answered, a framing error loses every later message, and
a huge Content-Length kills it (see ``framing``). Here:

- every request gets a result or an error: a body that is not JSON gets Parse error (-32700);
  params that do not fit the request's type get Invalid params (-32602) saying which field
  and why; a request before ``initialize`` gets -32002 and one after ``shutdown`` Invalid
  request (-32600), as LSP says; a skipped over-long request gets Invalid request;
- framing errors are reported on stderr and to the client's log, and reading goes on from
  the next well-framed message;
- ``exit`` (and the end of input) ends the process at once, even while a background check
  is running in its worker thread: nothing hiera-ls holds needs saving.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import contextvars
import json
import logging
import os
import sys
import threading
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, NoReturn, Protocol, cast
from urllib.parse import unquote

import cattrs
from cattrs.v import format_exception
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import (
    JsonRPCNotification,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
)
from pygls.protocol.language_server import lsp_method

from hiera_ls.features.lsp_ranges import encoding_name
from hiera_ls.lsp.document_edits import apply_change
from hiera_ls.lsp.framing import Body, Event, Framer, FramingError

CHUNK_BYTES = 1024 * 1024  # read at most this much from stdin at a time
SWEEP_FUTURES = 64  # handler futures kept before the done ones are forgotten
EXIT_GRACE_S = 2.0  # after exit (or the end of input), time for the loop to get to it
READ_AHEAD_BYTES = 16 * 1024 * 1024  # read while the loop is busy, so exit is always seen
SMALL_ANSWER = 64 * 1024  # bytes: a RawJson answer this small is written in one piece
REQUEST_PEEK_BYTES = 64 * 1024  # a body this small is looked into in the reader's thread

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
SERVER_NOT_INITIALIZED = -32002

# The background checks wait while a handler runs (lsp/server.py: guard) and until its answer
# is written: pygls writes it from the handler's done-callback, and a check that resumed in
# between held the interpreter while the written answer waited (bench_lsp: 1.9 ms of a
# hover's wall time at the median, 9 ms at p95, for 0.2 ms of work). A handler run by
# _execute_handler leaves its hold here; outside it (None) the guard lets go at its end.


class AnswerHold:
    """What waits for one handler's answer to be written, then lets go."""

    def __init__(self) -> None:
        self._held: list[contextlib.ExitStack] = []
        self._answered = False

    def keep(self, held: contextlib.ExitStack) -> None:
        if self._answered:  # (a task that outlived the handler whose context it copied)
            held.close()
        else:
            self._held.append(held)

    def answered(self) -> None:
        self._answered = True
        for held in self._held:
            held.close()
        self._held.clear()


ANSWER_HOLD: contextvars.ContextVar[AnswerHold | None] = contextvars.ContextVar(
    "hiera_ls_answer_hold", default=None
)

log = logging.getLogger(__name__)

MsgId = int | str | None


class ChunkReader(Protocol):
    def read1(self, size: int = ..., /) -> bytes: ...


class Gate(Protocol):
    """What the background work waits on (lsp/diagnostics_scheduler.py: hold, release)."""

    def hold(self) -> None: ...

    def release(self) -> None: ...


class StdoutWriter:
    """stdout for pygls, silent once closed (after ``exit``) or once the client is gone.

    pygls reports a failed write by writing an error message to the client, which fails in
    turn: with a closed stdout that recursed until the process stopped answering.
    """

    def __init__(self, stdout: BinaryIO) -> None:
        self._stdout = stdout
        self.closed = False

    def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError, ValueError):
            self._stdout.close()

    def write(self, data: bytes) -> None:
        if self.closed:
            return
        try:
            self._stdout.write(data)
            self._stdout.flush()
        except (OSError, ValueError):  # the client is gone; the end of input follows
            self.closed = True


@dataclass(frozen=True, slots=True)
class _Published:
    """A document's last published diagnostics (kept: their ids stay theirs), each one's
    JSON by id, and the JSON of the list's items, joined."""

    diagnostics: list[types.Diagnostic]
    texts: dict[int, str]
    body: bytes


def _same_objects(a: Sequence[object], b: Sequence[object]) -> bool:
    return len(a) == len(b) and all(x is y for x, y in zip(a, b, strict=True))


class RawJson(str):
    """A result already written as JSON text: sent as it is, never walked or encoded again.

    For answers of megabytes (the outline of a 10,000-line file): building lsprotocol
    objects, unstructuring them and ``json.dumps`` took most of the request's time.
    """

    def utf8(self) -> bytes:
        """The text as UTF-8, encoded once (an answer kept for a snapshot is sent again
        each time the editor asks)."""
        encoded = self.__dict__.get("_utf8")
        if not isinstance(encoded, bytes):
            encoded = self.__dict__["_utf8"] = self.encode()
        return encoded


class MessageProtocol(LanguageServerProtocol):
    """pygls' protocol, receiving whole bodies and answering every request it gets."""

    def __init__(self, server: LanguageServer, converter: cattrs.Converter) -> None:
        super().__init__(server, converter)
        self.initialize_seen = False
        self._sweep_at = SWEEP_FUTURES  # see _execute_handler
        # uri -> the diagnostics last published for it, with their JSON (see _publish_text)
        self._published_json: dict[str, _Published] = {}

    @property
    def shutting_down(self) -> bool:
        return self._shutdown

    def send_error(self, msg_id: MsgId, code: int, message: str) -> None:
        """An error response; ``id`` is null when the request's id could not be read."""
        error = {"code": code, "message": message}
        self._send_data({"jsonrpc": "2.0", "id": msg_id, "error": error})

    def _send_data(self, data: Any) -> None:
        params = getattr(data, "params", None)
        if isinstance(params, types.PublishDiagnosticsParams):
            if self.writer is not None:
                self._write((self._publish_text(params),))
            return
        result = getattr(data, "result", None)
        if not isinstance(result, RawJson) or getattr(data, "error", None) is not None:
            super()._send_data(data)
            return
        if self.writer is None:
            return
        # the parts as they are, without copying megabytes into one string and again into
        # one bytes object
        head = f'{{"jsonrpc":"2.0","id":{json.dumps(data.id)},"result":'.encode()
        self._write((head, result.utf8(), b"}"))

    def _write(self, parts: tuple[bytes, ...]) -> None:
        """One message: its header, then the parts of its body."""
        assert self.writer is not None
        length = sum(len(part) for part in parts)
        if self._include_headers:
            header = (
                f"Content-Length: {length}\r\n"
                f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
            ).encode()
            parts = (header, *parts)
        # StdoutWriter (serve_stdio): plain, blocking writes, all from this thread
        if length < SMALL_ANSWER:
            self.writer.write(b"".join(parts))
        else:
            for part in parts:
                self.writer.write(part)

    def _publish_text(self, params: types.PublishDiagnosticsParams) -> bytes:
        """The publishDiagnostics notification as pygls writes it, each diagnostic's JSON
        kept from the last publish of the document: an edit republishes the same diagnostic
        objects (features/lsp_ranges.py's ConvertedDiagnostics), and unstructuring 2,371 of
        them and encoding them again cost every keystroke tens of milliseconds. When every
        one is the same as last time, so is their text, encoded once."""
        last = self._published_json.get(params.uri)
        diagnostics = params.diagnostics
        if last is None or not _same_objects(last.diagnostics, diagnostics):
            known = last.texts if last is not None else {}
            texts: dict[int, str] = {}
            for d in diagnostics:
                text = known.get(id(d))
                texts[id(d)] = (
                    text
                    if text is not None
                    else json.dumps(self._converter.unstructure(d, types.Diagnostic))
                )
            body = ",".join(texts[id(d)] for d in diagnostics).encode()
            last = _Published(list(diagnostics), texts, body)
        if diagnostics:
            self._published_json[params.uri] = last
        else:  # (a closed document's last publish is [])
            self._published_json.pop(params.uri, None)
        version = "" if params.version is None else f'"version":{json.dumps(params.version)},'
        head = (
            f'{{"jsonrpc":"2.0","method":"{types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS}",'
            f'"params":{{"uri":{json.dumps(params.uri)},{version}"diagnostics":['
        )
        return b"".join((head.encode(), last.body, b"]}}"))

    def receive(self, body: bytes) -> None:
        """Parse one body and hand it to pygls, or answer it with an error."""
        try:
            data = json.loads(body)
        except (ValueError, RecursionError) as e:
            self.report(f"a message that is not JSON ({_short(e)}): ignored")
            self.send_error(None, PARSE_ERROR, f"Parse error: {_short(e)}")
            return
        if not isinstance(data, dict) or data.get("jsonrpc") != "2.0":
            self.report("a message that is not a JSON-RPC 2.0 object: ignored")
            msg_id = _id_of(data) if isinstance(data, dict) else None
            self.send_error(msg_id, INVALID_REQUEST, "Invalid request: not a JSON-RPC 2.0 object")
            return
        method = data.get("method")
        msg_id = _id_of(data)
        is_request = "id" in data and isinstance(method, str)
        if isinstance(method, str) and is_request and not self._allowed(method, msg_id):
            return
        if not self.initialize_seen and not is_request and method not in (None, types.EXIT):
            return  # LSP: notifications before initialize are dropped
        try:
            message = self._structure(data)
        except Exception as e:
            self._unreadable(data, method, msg_id, is_request, e)
            return
        if is_request and not hasattr(message, "id"):
            self.send_error(msg_id, INVALID_REQUEST, f"{method} is a notification, not a request")
            return
        try:
            self.handle_message(message)
        except Exception as e:  # pygls answers handler errors itself; this is its own bug
            log.exception("hiera-ls: could not handle %s", method)
            if is_request:
                self.send_error(msg_id, INTERNAL_ERROR, f"Internal error: {_short(e)}")

    def _execute_handler(
        self,
        msg_id: MsgId,
        handler: Any,
        callback: Any,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        """pygls' own, then forgetting the futures of handlers that are done.

        pygls keeps each handler's future by id so that ``$/cancelRequest`` can find it, and
        forgets it when it answers a request. A notification's handler runs under a fresh id
        that nothing forgets (pygls 2.1: its built-in ``didOpen``, ``didChange`` ... handlers
        yield to ours), so every edit kept a task, its context and a future for the life of
        the server (the soak's memory grew by tens of MiB per 10 minutes of typing). A done
        future has nothing left to cancel. The sweep runs each time the map has doubled since
        the last one, so a burst of edits costs a constant time per edit. Not a done-callback:
        ``shutdown`` cancels futures while iterating over them.
        """
        hold = AnswerHold()

        def answered(future: Any) -> None:
            try:
                callback(future)
            finally:
                hold.answered()

        token = ANSWER_HOLD.set(hold)  # the handler's task copies the context: it sees it
        try:
            super()._execute_handler(msg_id, handler, answered, args, kwargs)  # type: ignore[arg-type]
        finally:
            ANSWER_HOLD.reset(token)
        futures = self._request_futures
        if len(futures) < self._sweep_at:
            return
        for key, future in list(futures.items()):
            if future.done() and futures.get(key) is future:
                del futures[key]
        self._sweep_at = max(SWEEP_FUTURES, 2 * len(futures))

    @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(
        self, params: types.DidChangeTextDocumentParams
    ) -> Generator[Any, Any, None]:
        """pygls' own, applying the edits in time that does not grow with the document's
        line count in Python steps, at LSP's line breaks (see ``document_edits``)."""
        uri = params.text_document.uri
        doc = self.workspace.text_documents.get(unquote(uri))
        if doc is None:  # never opened: pygls would read it from disk, whatever it is
            self.report(f"an edit of {uri}, which is not open: ignored")
            return
        encoding = encoding_name(self.workspace.position_encoding)
        text = doc.source
        for change in params.content_changes:
            text = apply_change(text, change, encoding)
        whole = types.TextDocumentContentChangeWholeDocument(text=text)
        self.workspace.update_text_document(params.text_document, whole)
        if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield handler, (params,), None

    def _structure(self, data: dict[str, Any]) -> Any:
        """The typed message, as pygls' ``structure_message`` makes it, but raising the
        converter's own error (which says which field is wrong) without logging a traceback."""
        method = data.get("method")
        message_type: Any
        if "id" not in data:
            message_type = self.get_message_type(str(method)) or JsonRPCNotification
        elif "error" in data:
            message_type = types.ResponseErrorMessage
        elif method is not None:
            message_type = self.get_message_type(str(method)) or JsonRPCRequestMessage
        else:
            message_type = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
        return self._converter.structure(data, message_type)

    def _allowed(self, method: str, msg_id: MsgId) -> bool:
        if method == types.INITIALIZE:
            self.initialize_seen = True
            return True
        if not self.initialize_seen:
            self.send_error(
                msg_id, SERVER_NOT_INITIALIZED, f"{method}: the server is not initialized yet"
            )
            return False
        if self._shutdown:
            self.send_error(msg_id, INVALID_REQUEST, f"{method}: the server is shutting down")
            return False
        return True

    def _unreadable(
        self,
        data: dict[str, Any],
        method: object,
        msg_id: MsgId,
        is_request: bool,
        error: Exception,
    ) -> None:
        why = _why(error)
        if is_request:
            self.send_error(msg_id, INVALID_PARAMS, f"Invalid params for {method}: {why}")
        elif method is not None:
            self.report(f"a {method} notification with params that do not fit: {why}; ignored")
        elif "id" in data:
            # The client's answer to one of our requests: whoever waits for it gets an error.
            future = self._request_futures.pop(msg_id, None) if msg_id is not None else None
            if future is not None and not future.done():
                future.set_exception(JsonRpcInvalidParams(f"unreadable answer: {why}"))
            self.report(f"an answer that does not fit its request: {why}")

    def report(self, message: str, show: bool = False) -> None:
        """A protocol problem: on stderr, and in the client's log (or a message it shows)."""
        text = f"hiera-ls: {message}"
        log.warning("%s", text)
        if self.writer is None or not self.initialize_seen:
            return
        try:
            if show:
                self.notify(
                    types.WINDOW_SHOW_MESSAGE,
                    types.ShowMessageParams(type=types.MessageType.Warning, message=text),
                )
            else:
                self.notify(
                    types.WINDOW_LOG_MESSAGE,
                    types.LogMessageParams(type=types.MessageType.Warning, message=text),
                )
        except Exception:  # the client is gone; stderr has it
            pass

    def framing_error(self, error: FramingError) -> None:
        self.report(error.message, show=error.oversized)
        if error.request_id is not None:
            self.send_error(error.request_id, INVALID_REQUEST, f"Invalid request: {error.message}")


class _Inbox:
    """Batches the reader thread hands the loop, without waiting for the loop to take them.

    The reader must see ``exit`` whatever the loop is doing: when it waited for the loop to
    take each batch, a hover or ``shutdown`` sent while the loop was busy left ``exit`` unread
    in the pipe, and the server lived on for 33-36 s. It reads on while up to
    :data:`READ_AHEAD_BYTES` are waiting; past that it waits (a client that writes faster
    than the server works still waits on the pipe, and memory stays bounded).
    """

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.items: collections.deque[tuple[list[Event] | None, int, bool]] = collections.deque()
        self.size = 0
        self.room = threading.Condition()
        self.ready = asyncio.Event()

    def put(self, batch: list[Event] | None, held: bool = False) -> bool:
        """From the reader thread (``held``: it holds the gate for the batch, which the
        loop lets go once it has dispatched it); False once the loop has stopped."""
        size = sum(len(e.data) for e in batch if isinstance(e, Body)) if batch else 0
        with self.room:
            while self.size > READ_AHEAD_BYTES:
                self.room.wait()
            self.items.append((batch, size, held))
            self.size += size
        try:
            self.loop.call_soon_threadsafe(self.ready.set)
        except RuntimeError:  # the loop has stopped
            return False
        return True

    async def get(self) -> tuple[list[Event] | None, bool]:
        while True:
            with self.room:
                if self.items:
                    batch, size, held = self.items.popleft()
                    self.size -= size
                    self.room.notify()
                    return batch, held
                self.ready.clear()
            await self.ready.wait()


class StdioConnection:
    """Reads and frames stdin in a thread, and dispatches on the event loop.

    The thread never waits for the loop to take what it read (up to :data:`READ_AHEAD_BYTES`
    waiting, see :class:`_Inbox`), and it watches for ``exit`` and the end of input: when
    the loop is busy with a long computation and does not act on them within
    ``EXIT_GRACE_S``, the thread ends the process itself (exit code 0 when it read a
    ``shutdown`` request before, as LSP says).

    ``gate``: held by the reading thread from the moment it has read a request or an edit
    until the loop has handed it to its handler (whose guard then holds it until the answer
    is written: lsp/server.py), so the background work waits for it at once (other
    notifications are left to their handlers).
    """

    def __init__(
        self, protocol: MessageProtocol, stdin: ChunkReader, gate: Gate | None = None
    ) -> None:
        self.protocol = protocol
        self.stdin = stdin
        self.framer = Framer()
        self.shutdown_read = False
        self.gate = gate

    async def run(self) -> int:
        """Until ``exit`` or the end of input; returns the exit code."""
        inbox = _Inbox(asyncio.get_running_loop())
        threading.Thread(
            target=self._pump, args=(inbox,), name="hiera-ls-stdin", daemon=True
        ).start()
        while True:
            batch, held = await inbox.get()
            if batch is None:
                return self._end_of_input()
            try:
                for event in batch:
                    try:
                        self.dispatch(event)
                    except SystemExit as e:  # pygls' exit handler
                        return e.code if isinstance(e.code, int) else 1
            finally:
                if held and self.gate is not None:
                    # after the handlers' first steps, queued before: each guard holds by then
                    asyncio.get_running_loop().call_soon(self.gate.release)

    def dispatch(self, event: Event) -> None:
        if isinstance(event, Body):
            self.protocol.receive(event.data)
        else:
            self.protocol.framing_error(event)

    def _end_of_input(self) -> int:
        if self.protocol.shutting_down:
            return 0
        self.protocol.report("the client closed the connection without shutdown")
        return 1

    def _pump(self, inbox: _Inbox) -> None:
        while True:
            try:
                chunk = self.stdin.read1(CHUNK_BYTES)
            except (OSError, ValueError):
                chunk = b""
            batch = self.framer.feed(chunk) if chunk else None
            if batch is not None and any(_is_method(e, types.SHUTDOWN) for e in batch):
                self.shutdown_read = True
            if batch is None or any(_is_method(e, types.EXIT) for e in batch):
                watchdog = threading.Timer(EXIT_GRACE_S, self._exit_now, args=(batch is None,))
                watchdog.daemon = True
                watchdog.start()
            held = self.gate is not None and batch is not None and _has_request(batch)
            if held and self.gate is not None:
                self.gate.hold()
            if not inbox.put(batch, held) or batch is None:
                return

    def _exit_now(self, end_of_input: bool) -> None:
        """The loop did not get to ``exit`` (or the end of input) in time: end anyway."""
        code = 0 if self.protocol.shutting_down or self.shutdown_read else 1
        what = "the end of input" if end_of_input else "exit"
        log.warning("hiera-ls: %s while busy for %s s: ending now", what, EXIT_GRACE_S)
        _end_process(code)


def _has_request(batch: list[Event]) -> bool:
    """Whether a batch holds a request of the client's (an id and a method), whose answer
    the client waits for, or an edit, whose publish it waits for. A body too big to parse
    twice is taken for a notification (a document's text): its handler holds the gate
    itself."""
    return any(_is_request(event) or _is_edit(event) for event in batch)


_DID_CHANGE = f'"{types.TEXT_DOCUMENT_DID_CHANGE}"'.encode()


def _is_edit(event: Event) -> bool:
    """A ``didChange`` (or, rarely, a message whose text holds its method's name: it holds
    the background work only until it is handed on). The background run then stops at its
    next pause, before the loop has got to the edit: it ran on meanwhile, sharing the
    interpreter with the edit's way to its handler, and the first edit after each pause in
    typing, which meets that run, waited for it (the bench's 10,002-line file)."""
    return isinstance(event, Body) and _DID_CHANGE in event.data


def _is_request(event: Event) -> bool:
    if not isinstance(event, Body) or len(event.data) > REQUEST_PEEK_BYTES:
        return False
    if b'"id"' not in event.data or b'"method"' not in event.data:
        return False
    try:
        data = json.loads(event.data)
    except (ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "id" in data and isinstance(data.get("method"), str)


def _is_method(event: Event, method: str) -> bool:
    """An ``exit`` or ``shutdown`` message (checked without parsing every body: they are
    tiny)."""
    needle = f'"{method}"'.encode()
    if not isinstance(event, Body) or len(event.data) > 200 or needle not in event.data:
        return False
    try:
        data = json.loads(event.data)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("method") == method


def _end_process(code: int) -> NoReturn:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def serve_stdio(server: LanguageServer, gate: Gate | None = None) -> NoReturn:
    """Serve the client on stdin/stdout until it says exit, then end the process at once;
    ``gate``: what the background work waits on (see StdioConnection)."""
    protocol = server.protocol
    assert isinstance(protocol, MessageProtocol)
    protocol.set_writer(StdoutWriter(sys.stdout.buffer))
    connection = StdioConnection(protocol, cast(ChunkReader, sys.stdin.buffer), gate)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    try:
        code = loop.run_until_complete(connection.run())
    except KeyboardInterrupt:
        code = 1
    # Not asyncio.run: its clean-up would wait for a background check to finish.
    _end_process(code)


def _id_of(data: dict[str, Any]) -> MsgId:
    msg_id = data.get("id")
    return msg_id if isinstance(msg_id, (int, str)) and not isinstance(msg_id, bool) else None


def _why(error: Exception) -> str:
    """What cattrs found wrong, by field: ``Position.line should be in range ... @ $.params``."""
    if isinstance(error, cattrs.BaseValidationError):
        return _short("; ".join(cattrs.transform_error(error, format_exception=_describe)))
    return _short(error)


def _describe(exc: BaseException, type_: type | None) -> str:
    text = str(exc)
    if isinstance(exc, ValueError) and text and not text.startswith("invalid literal"):
        return text  # attrs' validators say what range a number must be in
    return format_exception(exc, type_)


def _short(error: BaseException | str) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= 200 else text[:200] + "..."
