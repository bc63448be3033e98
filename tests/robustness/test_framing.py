"""The framer cuts any byte stream into bodies, resynchronising after every framing error,
with bounded memory, however the bytes are split into reads."""

from __future__ import annotations

import pytest

from hiera_ls.lsp.framing import MAX_BODY_BYTES, Body, Framer, FramingError
from tests.robustness.raw_lsp import frame

FIRST = b'{"jsonrpc":"2.0","id":1,"method":"x"}'
SECOND = b'{"jsonrpc":"2.0","id":2,"method":"y"}'


def feed(data: bytes, chunk: int | None, max_body: int = MAX_BODY_BYTES) -> list[object]:
    framer = Framer(max_body)
    events: list[object] = []
    step = chunk or len(data)
    for i in range(0, len(data), step):
        events += framer.feed(data[i : i + step])
    assert framer.buffered <= max_body + 64
    return events


def bodies(events: list[object]) -> list[bytes]:
    return [e.data for e in events if isinstance(e, Body)]


def errors(events: list[object]) -> list[str]:
    return [e.message for e in events if isinstance(e, FramingError)]


CHUNKS = [None, 1, 7, 64]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_well_framed_messages_pass_through(chunk: int | None) -> None:
    with_type = b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + frame(SECOND)
    events = feed(frame(FIRST) + with_type + b"Content-Length: %d\n\n" % len(FIRST) + FIRST, chunk)
    assert bodies(events) == [FIRST, SECOND, FIRST]
    assert errors(events) == []


@pytest.mark.parametrize("chunk", CHUNKS)
@pytest.mark.parametrize(
    ("broken", "error"),
    [
        (frame(FIRST, len(FIRST) - 10), "skipped 10 bytes that were not a message"),
        (b"Content-Length: twelve\r\n\r\n" + FIRST, "Content-Length 'twelve' is not a number"),
        (b"Content-Length: -5\r\n\r\n" + FIRST, "Content-Length '-5' is not a number"),
        (b"Content-Length: 0\r\n\r\n" + FIRST, "a message with Content-Length 0"),
        (b"Content-Type: x\r\n\r\n" + FIRST, "a message without a Content-Length header"),
        (b"garbage\r\n" * 10 + b"\xff" * 20_000, "bytes that were not a message"),
        (b"X-Long: " + b"a" * 10_000 + b"\r\n\r\n", "bytes that were not a message"),
    ],
)
def test_after_a_framing_error_the_next_message_is_read(
    broken: bytes, error: str, chunk: int | None
) -> None:
    events = feed(broken + frame(SECOND), chunk)
    assert bodies(events)[-1] == SECOND
    assert any(error in e for e in errors(events)), errors(events)


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_length_too_long_ends_the_body_where_the_next_header_starts(chunk: int | None) -> None:
    events = feed(frame(FIRST, len(FIRST) + 500) + frame(SECOND), chunk)
    assert bodies(events) == [FIRST, SECOND]
    assert errors(events) == [
        f"Content-Length {len(FIRST) + 500} is longer than the message "
        f"(the next message starts after {len(FIRST)} bytes)"
    ]


@pytest.mark.parametrize("chunk", CHUNKS)
def test_a_header_inside_a_json_string_is_not_mistaken_for_one(chunk: int | None) -> None:
    # JSON strings cannot hold a raw line break, so this cannot start a header line
    body = b'{"jsonrpc":"2.0","method":"Content-Length: 5\\r\\n\\r\\n"}'
    assert bodies(feed(frame(body) + frame(SECOND), chunk)) == [body, SECOND]


@pytest.mark.parametrize("chunk", [None, 1000, 65536])
def test_a_body_over_the_limit_is_skipped_and_a_request_among_them_is_named(
    chunk: int | None,
) -> None:
    big = b'{"jsonrpc": "2.0", "id": 7, "method": "x", "params": "' + b"a" * 5000 + b'"}'
    events = feed(frame(big) + frame(SECOND), chunk, max_body=1000)
    assert bodies(events) == [SECOND]
    (error,) = [e for e in events if isinstance(e, FramingError)]
    assert error.oversized and error.request_id == 7
    assert error.message == f"a message of {len(big)} bytes, above the limit of 1000 bytes: skipped"


def test_a_content_length_of_10_to_the_11_holds_nothing() -> None:
    framer = Framer()
    events = framer.feed(frame(FIRST, 10**11))
    assert [e.request_id for e in events if isinstance(e, FramingError)] == [1]
    for _ in range(20):
        assert framer.feed(b"x" * 1_000_000) == []
        assert framer.buffered < 64
    assert bodies(framer.feed(frame(SECOND))) == [SECOND]


def test_the_limit_admits_a_47_mb_document_even_when_json_doubles_it() -> None:
    # A 47.5 MB data file opened in an editor is a real case; JSON escaping (quotes,
    # backslashes, line breaks) can add up to one byte per byte.
    assert MAX_BODY_BYTES >= 2 * 47_500_000
    text = b"k: v\\n" * (50_000_000 // 6)
    body = b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":"' + text + b'"}'
    assert bodies(feed(frame(body), 1 << 20)) == [body]
