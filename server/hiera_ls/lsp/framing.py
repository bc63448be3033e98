"""The client's byte stream cut into JSON-RPC message bodies, whatever the client sends.

LSP frames a message as header lines (``Content-Length: N``, CRLF-terminated, then an empty
line) and N bytes of JSON. pygls' own reader trusts the length: a client bug that sends a
wrong length or none leaves it waiting for ever or reading every later message as part of a
body, and a length of 10^11 makes it allocate that much and die. This reader never does:

- a body longer than ``MAX_BODY_BYTES`` is skipped as it arrives, never held in memory;
- after any framing error it resynchronises on the next ``Content-Length:`` header. Such a
  header can never occur inside a JSON body (JSON has no bare words, and a JSON string may
  not hold a raw line break), so one found inside a declared body proves the declared length
  wrong: the body ends where that header starts.

Pure and incremental (bytes in, events out), so it is tested without a process.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BODY_BYTES = 128 * 1024 * 1024
"""The largest message body read. A document is sent whole in ``didOpen`` (and in every
``didChange`` of a client that syncs full text), JSON-escaped: a 47.5 MB data file takes
about 50 MB, up to twice that when most of it needs escaping. VS Code sends no text above
50 MB to a language server at all."""

MAX_HEADER_BYTES = 8 * 1024
"""The largest header block (real ones are under 100 bytes: a length and a content type)."""

_MARKER = b"Content-Length:"
_HEADER_LINE = re.compile(rb"Content-Length:[ \t]*[0-9]+[ \t]*\r?\n")
_LINE = re.compile(rb"([A-Za-z0-9][A-Za-z0-9_-]*)[ \t]*:[ \t]*(.*?)[ \t]*\r?\n", re.DOTALL)
_LEADING_ID = re.compile(
    rb'\s*\{\s*(?:"jsonrpc"\s*:\s*"[^"\\]*"\s*,\s*)?"id"\s*:\s*(-?[0-9]{1,18}|"[^"\\]{0,200}")\s*[,}]'
)
_CONFIRM = 64  # bytes after a marker within which its header line must end
_PREFIX = 1024  # bytes of a skipped body kept to find its request id


@dataclass(frozen=True, slots=True)
class Body:
    """One message body, to be parsed as JSON (it may still not be JSON)."""

    data: bytes


@dataclass(frozen=True, slots=True)
class FramingError:
    """Bytes that were not a well-framed message; the reader has resynchronised past them.

    ``oversized``: a body above the limit was skipped (a document too big to check, most
    likely, which the user should hear about). ``request_id``: the id of such a request, when
    it could be read without holding its body (it is answered with an error instead).
    """

    message: str
    oversized: bool = False
    request_id: int | str | None = None


Event = Body | FramingError


class Framer:
    """Feed it the bytes as they arrive; it returns the bodies and errors they complete."""

    def __init__(self, max_body: int = MAX_BODY_BYTES) -> None:
        self.max_body = max_body
        self._buf = bytearray()
        self._length: int | None = None  # Content-Length of the headers read so far
        self._header_bytes = 0  # bytes of the current header block
        self._in_headers = False  # a header line of the current block has been read
        self._garbage = 0  # bytes skipped since the last good header
        self._body: int | None = None  # reading a body of this many bytes
        self._scanned = 0  # body bytes already searched for a header
        self._skip: int | None = None  # skipping an over-long body: bytes left
        self._skip_length = 0
        self._skip_prefix = bytearray()  # its first bytes, to find a request's id
        self._skip_reported = False

    @property
    def buffered(self) -> int:
        """Bytes held (never much more than ``max_body``)."""
        return len(self._buf)

    def feed(self, data: bytes) -> list[Event]:
        self._buf += data
        events: list[Event] = []
        while True:
            if self._skip is not None:
                progressed = self._skip_body(events)
            elif self._body is not None:
                progressed = self._read_body(events)
            else:
                progressed = self._read_header_line(events)
            if not progressed:
                return events

    # -- headers -----------------------------------------------------------------------

    def _read_header_line(self, events: list[Event]) -> bool:
        buf = self._buf
        end = buf.find(b"\n", 0, MAX_HEADER_BYTES)
        if end < 0:
            if len(buf) < MAX_HEADER_BYTES:
                return False  # wait for the rest of the line
            # Noise without line breaks: drop it, keeping what may start a header.
            found = _find_header(buf, 0, len(buf))
            if found is None:
                return self._drop_garbage(len(buf) - len(_MARKER) + 1)
            return self._drop_garbage(found[0]) if found[0] else False
        found = _find_header(buf, 1, end + 1)
        if found is not None:
            # The rest of a body whose length was too short, then the next header.
            return self._drop_garbage(found[0])
        line = bytes(buf[: end + 1])
        del buf[: end + 1]
        if not line.strip():
            if self._in_headers:
                return self._headers_done(events)
            if self._garbage:
                self._garbage += len(line)
            return True  # a stray blank line between messages is no error
        match = _LINE.fullmatch(line)
        if match is None:
            self._reset_headers()
            self._garbage += len(line)
            return True
        self._header_bytes += len(line)
        if self._header_bytes > MAX_HEADER_BYTES:
            self._reset_headers()
            self._garbage += len(line)
            events.append(FramingError(f"a header block longer than {MAX_HEADER_BYTES} bytes"))
            return True
        self._report_garbage(events)
        self._in_headers = True
        if match.group(1).lower() == b"content-length":
            value = match.group(2)
            if not value.isdigit():
                self._reset_headers()
                text = value[:40].decode("ascii", "replace")
                events.append(FramingError(f"Content-Length {text!r} is not a number"))
                return True
            self._length = int(value) if len(value) <= 30 else 10**30
        return True

    def _headers_done(self, events: list[Event]) -> bool:
        length = self._length
        self._reset_headers()
        if length is None:
            events.append(FramingError("a message without a Content-Length header"))
        elif length == 0:
            events.append(FramingError("a message with Content-Length 0"))
        elif length > self.max_body:
            self._skip = length
            self._skip_length = length
            self._skip_prefix = bytearray()
            self._skip_reported = False
        else:
            self._body = length
            self._scanned = 0
        return True

    def _reset_headers(self) -> None:
        self._length = None
        self._header_bytes = 0
        self._in_headers = False

    def _drop_garbage(self, upto: int) -> bool:
        if upto <= 0:
            return False
        self._reset_headers()
        self._garbage += upto
        del self._buf[:upto]
        return True

    def _report_garbage(self, events: list[Event]) -> None:
        if self._garbage:
            events.append(FramingError(f"skipped {self._garbage} bytes that were not a message"))
            self._garbage = 0

    # -- bodies ------------------------------------------------------------------------

    def _read_body(self, events: list[Event]) -> bool:
        buf = self._buf
        length = self._body
        assert length is not None
        end = min(len(buf), length)
        found = _find_header(buf, max(0, self._scanned - len(_MARKER) + 1), end)
        if found is not None and found[1]:
            at = found[0]
            events.append(
                FramingError(
                    f"Content-Length {length} is longer than the message "
                    f"(the next message starts after {at} bytes)"
                )
            )
            self._body = None
            if at:
                events.append(Body(_take(buf, at)))
            return True
        if len(buf) < length:
            self._scanned = found[0] if found is not None else end
            return False
        self._body = None
        events.append(Body(_take(buf, length)))
        return True

    def _skip_body(self, events: list[Event]) -> bool:
        """An over-long body: drop it as it arrives (a header inside it ends it early)."""
        buf = self._buf
        left = self._skip
        assert left is not None
        end = min(len(buf), left)
        prefix = self._skip_prefix
        if len(prefix) < _PREFIX:
            start = len(prefix) - (self._skip_length - left)  # buf bytes already in it
            prefix += buf[start : min(end, start + _PREFIX - len(prefix))]
        found = _find_header(buf, 0, end)
        if found is not None and found[1]:
            upto, done = found[0], True
        elif end == left:
            upto, done = end, True
        else:
            # keep a header whose line is not complete yet, or a marker cut off at the end
            upto = found[0] if found is not None else max(0, end - len(_MARKER) + 1)
            done = False
        if not self._skip_reported:
            # Report once the request's id is known (its client waits for the answer), or
            # once the id cannot be among the first keys.
            request_id = _leading_id(bytes(prefix))
            if request_id is not None or done or len(prefix) >= _PREFIX:
                self._skip_reported = True
                events.append(
                    FramingError(
                        f"a message of {self._skip_length} bytes, above the limit of "
                        f"{self.max_body} bytes: skipped",
                        oversized=True,
                        request_id=request_id,
                    )
                )
        del buf[:upto]
        if done:
            self._skip = None
            return True
        self._skip = left - upto
        return False


def _take(buf: bytearray, size: int) -> bytes:
    """The first ``size`` bytes, removed from ``buf``, copied once (a body may be 128 MiB)."""
    with memoryview(buf) as view:
        data = bytes(view[:size])
    del buf[:size]
    return data


def _find_header(buf: bytearray, start: int, end: int) -> tuple[int, bool] | None:
    """The first ``Content-Length:`` starting in ``buf[start:end]`` that may begin a header
    line: (where, True) when its whole line is there, (where, False) when the line is not
    complete yet; None when there is none."""
    while True:
        at = buf.find(_MARKER, start, min(len(buf), end + len(_MARKER) - 1))
        if at < 0 or at >= end:
            return None
        if _HEADER_LINE.match(buf, at):
            return at, True
        if buf.find(b"\n", at, at + _CONFIRM) < 0 and len(buf) - at < _CONFIRM:
            return at, False
        start = at + 1


def _leading_id(prefix: bytes) -> int | str | None:
    """The id of a request whose body starts ``{"jsonrpc": "2.0", "id": ...`` (as clients
    write them); None when the id is not among the first keys."""
    match = _LEADING_ID.match(prefix)
    if match is None:
        return None
    raw = match.group(1)
    return raw[1:-1].decode("utf-8", "replace") if raw.startswith(b'"') else int(raw)
