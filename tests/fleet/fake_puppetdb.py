"""A stand-in for PuppetDB's query API on loopback, for the answers a real PuppetDB cannot
be made to give on demand: 401 and 500, garbage, a hang, a trickle, a dropped connection,
a node with broken facts, a failure on the third batch.

It answers as PuppetDB does the two requests a pull makes: a GET for the certnames (every
row of ``nodes`` with a certname; the query itself is not evaluated), and a POST of
``["in", "certname", ["array", NAMES]]`` for those nodes' rows, in certname order; rows
that are no node (no certname) come with the first batch. Every request is recorded.
"""

from __future__ import annotations

import gzip
import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qsl, urlsplit


@dataclass(frozen=True, slots=True)
class Request:
    method: str
    path: str
    params: dict[str, str]
    headers: dict[str, str]
    body: object = None  # a POST's JSON


# A fault: given the request and its number (0, 1, ...: the names request is 0, the first
# batch 1), write a whole answer and return True, or return False for the normal answer.
Fault = Callable[["_Handler", Request, int], bool]


@dataclass
class FakePuppetDB:
    nodes: list[object] = field(default_factory=list)
    fault: Fault | None = None
    gzip: bool = False  # compress answers when the client accepts gzip
    requests: list[Request] = field(default_factory=list)
    url: str = ""

    def answer(self, request: Request) -> list[object]:
        if request.method == "GET":
            return [{"certname": name} for name in self._named()]
        query = request.body.get("query") if isinstance(request.body, dict) else None
        wanted = set(query[2][1]) if isinstance(query, list) and len(query) == 3 else set()
        rows = [self._named()[name] for name in sorted(wanted) if name in self._named()]
        first = min(self._named(), default=None) in wanted
        return [*rows, *(n for n in self.nodes if _name(n) is None)] if first else rows

    def _named(self) -> dict[str, object]:
        return {name: n for n in self.nodes if (name := _name(n)) is not None}


def _name(row: object) -> str | None:
    name = row.get("certname") if isinstance(row, dict) else None
    return name if isinstance(name, str) and name else None


class _Handler(BaseHTTPRequestHandler):
    server: _Server
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        self._answer(None)

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        self._answer(json.loads(self.rfile.read(length)))

    def _answer(self, body: object) -> None:
        fake = self.server.fake
        parts = urlsplit(self.path)
        request = Request(
            self.command,
            parts.path,
            dict(parse_qsl(parts.query)),
            dict(self.headers.items()),
            body,
        )
        number = len(fake.requests)
        fake.requests.append(request)
        if fake.fault is not None and fake.fault(self, request, number):
            return
        self.send_json(200, fake.answer(request))

    def send_json(self, status: int, data: object) -> None:
        self.send_body(status, json.dumps(data).encode(), "application/json; charset=utf-8")

    def send_body(self, status: int, body: bytes, content_type: str = "text/plain") -> None:
        fake = self.server.fake
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        if fake.gzip and "gzip" in self.headers.get("Accept-Encoding", ""):
            body = gzip.compress(body)
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: FakePuppetDB

    def handle_error(self, request: object, client_address: object) -> None:
        pass  # a client that gave up on a slow answer, as it should


@contextmanager
def serving(fake: FakePuppetDB) -> Iterator[FakePuppetDB]:
    server = _Server(("127.0.0.1", 0), _Handler)
    server.fake = fake
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield fake
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# ---------------------------------------------------------------------- faults


def status(code: int, body: str) -> Fault:
    def answer(handler: _Handler, request: Request, page: int) -> bool:
        handler.send_body(code, body.encode())
        return True

    return answer


def body(data: bytes, content_type: str = "text/html") -> Fault:
    def answer(handler: _Handler, request: Request, page: int) -> bool:
        handler.send_body(200, data, content_type)
        return True

    return answer


def hang(seconds: float) -> Fault:
    def answer(handler: _Handler, request: Request, page: int) -> bool:
        time.sleep(seconds)
        return False

    return answer


def trickle(every: float, chunks: int) -> Fault:
    """Headers at once, then the body a byte at a time: each read is quick, the whole slow."""

    def answer(handler: _Handler, request: Request, page: int) -> bool:
        data = json.dumps(handler.server.fake.answer(request)).encode()
        data += b" " * chunks
        handler.send_response(200)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(len(data)))
        handler.end_headers()
        try:
            for byte in data[:chunks]:
                handler.wfile.write(bytes([byte]))
                handler.wfile.flush()
                time.sleep(every)
            handler.wfile.write(data[chunks:])
        except OSError:
            pass  # the client gave up, as it should
        return True

    return answer


def drop() -> Fault:
    def answer(handler: _Handler, request: Request, page: int) -> bool:
        handler.close_connection = True
        handler.connection.close()
        return True

    return answer


def on_request(number: int, fault: Fault) -> Fault:
    """``fault`` for request ``number`` only (0: the names, 1: the first batch)."""

    def answer(handler: _Handler, request: Request, page: int) -> bool:
        return page == number and fault(handler, request, page)

    return answer


def inventory_row(certname: str, facts: object, trusted: object = None) -> dict[str, object]:
    return {
        "certname": certname,
        "timestamp": "2026-11-27T10:00:00.000Z",
        "environment": "production",
        "facts": facts,
        "trusted": trusted,
    }


def good_row(certname: str, **facts: object) -> dict[str, object]:
    hostname, _, domain = certname.partition(".")
    trusted = {
        "authenticated": "remote",
        "certname": certname,
        "domain": domain,
        "extensions": {},
        "hostname": hostname,
    }
    return inventory_row(certname, {"role": "web", "os": {"family": "Debian"}, **facts}, trusted)
