"""One connection to PuppetDB's query API, kept open across requests, with a time limit.

Standard library only (``http.client`` and ``ssl``): a GET with its parameters in the URL,
or a POST with a JSON body (a batch of names is longer than a URL may be), an optional
``X-Authentication`` token (PE's RBAC), gzip accepted.
Each request, from connecting to its last byte, must finish within the timeout; the body
is read in chunks against that deadline, so a server that trickles bytes is stopped too.

Every failure becomes a :class:`PuppetDBError` that names the URL and the cause in words
an operator acts on (connection refused, a certificate not trusted, 403 with PuppetDB's
own message, an answer that is not JSON); no exception from the layers below escapes.
"""

from __future__ import annotations

import http.client
import json
import socket
import ssl
import time
import zlib
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

from hiera_ls import __version__
from hiera_ls.fleet.errors import PuppetDBError

MAX_BODY_BYTES = 1 << 30  # one page of answers (after gzip): far above 500 nodes' facts
_CHUNK = 1 << 16
_SHOWN_BODY = 300  # characters of an error answer quoted in the message


@dataclass(frozen=True, slots=True)
class Endpoint:
    """PuppetDB's URL taken apart, as the connection needs it."""

    url: str  # as given, no trailing slash
    https: bool
    host: str
    port: int
    base_path: str  # the URL's path (PuppetDB behind a proxy at /puppetdb), no trailing slash


def endpoint(url: str) -> Endpoint:
    parts = urlsplit(url)
    https = parts.scheme == "https"
    host = parts.hostname or ""
    port = parts.port or (443 if https else 80)
    return Endpoint(url.rstrip("/"), https, host, port, parts.path.rstrip("/"))


class Connection:
    """GET requests to one PuppetDB; close() when done (or use as a context manager)."""

    def __init__(
        self,
        url: str,
        *,
        timeout: float,
        context: ssl.SSLContext | None = None,
        token: str | None = None,
        client_cert: bool = False,
    ) -> None:
        self.endpoint = endpoint(url)
        self.client_cert = client_cert  # the context shows a client certificate
        self.timeout = timeout
        self.context = context
        self.token = token
        self._conn: http.client.HTTPConnection | None = None

    def __enter__(self) -> Connection:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def url_of(self, path: str) -> str:
        return self.endpoint.url + path

    def get_json(self, path: str, params: list[tuple[str, str]]) -> object:
        """The JSON answer of ``GET path?params``; PuppetDBError for anything else."""
        target = path + ("?" + urlencode(params) if params else "")
        return self._json(path, self._request("GET", target, None, self.url_of(path)))

    def post_json(self, path: str, data: object) -> object:
        """The JSON answer of ``POST path`` with ``data`` as its JSON body."""
        body = json.dumps(data, separators=(",", ":")).encode("utf-8")
        return self._json(path, self._request("POST", path, body, self.url_of(path)))

    def _json(self, path: str, answer: tuple[bytes, str]) -> object:
        url = self.url_of(path)
        body, content_type = answer
        try:
            return json.loads(body)
        except (UnicodeDecodeError, ValueError) as e:
            shown = body[:80].decode("utf-8", "replace").replace("\n", " ")
            kind = f" ({content_type})" if content_type else ""
            raise PuppetDBError(
                url, f"answered something that is not JSON{kind}: {e}; it begins '{shown}'"
            ) from None

    # ------------------------------------------------------------------ the request

    def _request(self, method: str, target: str, body: bytes | None, url: str) -> tuple[bytes, str]:
        deadline = time.monotonic() + self.timeout
        target = self.endpoint.base_path + target
        headers = {
            "Accept": "application/json",
            "Accept-Encoding": "gzip",
            "User-Agent": f"hiera-ls/{__version__}",
        }
        if self.token is not None:
            headers["X-Authentication"] = self.token
        if body is not None:
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            fresh = self._conn is None
            try:
                conn = self._connection(deadline)
                conn.request(method, target, body=body, headers=headers)
                response = conn.getresponse()
                answer = self._read(response, deadline, url)
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as e:
                self.close()
                if attempt == 1 and not fresh:
                    continue  # a kept-alive connection the server had closed: once more
                raise PuppetDBError(url, _closed(e, self.endpoint)) from None
            except PuppetDBError:
                self.close()
                raise
            except (OSError, http.client.HTTPException) as e:
                self.close()
                raise PuppetDBError(url, self._why(e)) from None
            if response.getheader("Connection", "").lower() == "close":
                self.close()
            _check_status(response, answer, url)
            return answer, response.getheader("Content-Type", "")
        raise AssertionError("unreachable")

    def _connection(self, deadline: float) -> http.client.HTTPConnection:
        if self._conn is None:
            remaining = _remaining(deadline)
            ep = self.endpoint
            if ep.https:
                self._conn = http.client.HTTPSConnection(
                    ep.host, ep.port, timeout=remaining, context=self.context
                )
            else:
                self._conn = http.client.HTTPConnection(ep.host, ep.port, timeout=remaining)
            self._conn.connect()
        elif self._conn.sock is not None:
            self._conn.sock.settimeout(_remaining(deadline))
        return self._conn

    def _read(self, response: http.client.HTTPResponse, deadline: float, url: str) -> bytes:
        gzipped = response.getheader("Content-Encoding", "").lower() == "gzip"
        inflate = zlib.decompressobj(zlib.MAX_WBITS | 16) if gzipped else None
        parts: list[bytes] = []
        size = 0
        while True:
            sock = self._conn.sock if self._conn is not None else None
            if sock is not None:
                sock.settimeout(_remaining(deadline))
            chunk = response.read1(_CHUNK)  # one read of the socket: the deadline is seen
            if not chunk:
                response.read()  # marks the answer read: the connection serves the next page
                if inflate is not None:
                    parts.append(inflate.flush())
                break
            if inflate is not None:
                try:
                    chunk = inflate.decompress(chunk, MAX_BODY_BYTES - size + 1)
                except zlib.error as e:
                    why = f"sent a gzip answer that does not inflate: {e}"
                    raise PuppetDBError(url, why) from None
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                raise PuppetDBError(
                    url, f"answered more than {MAX_BODY_BYTES} bytes for one page; stopped"
                )
            parts.append(chunk)
            if time.monotonic() > deadline:
                raise TimeoutError
        return b"".join(parts)

    def _why(self, error: BaseException) -> str:
        ep = self.endpoint
        where = f"{ep.host}:{ep.port}"
        if isinstance(error, TimeoutError | socket.timeout):
            return f"no complete answer within {self.timeout:g} s (the timeout; --timeout sets it)"
        if isinstance(error, ConnectionRefusedError):
            return f"cannot connect to {where}: connection refused (is PuppetDB running there?)"
        if isinstance(error, socket.gaierror):
            return f"cannot resolve the host name {ep.host}: {error.strerror}"
        if isinstance(error, ssl.SSLCertVerificationError):
            return (
                f"PuppetDB's certificate is not trusted: {error.verify_message} (give the CA "
                "that signed it with --cacert)"
            )
        if isinstance(error, ssl.SSLError):
            return _tls_failure(error, ep, self.client_cert)
        if isinstance(error, http.client.BadStatusLine) and not ep.https:
            return (
                "did not answer HTTP (its first line is not an HTTP status line): is this "
                "PuppetDB's TLS port? Use https://"
            )
        if isinstance(error, http.client.HTTPException):
            return f"did not answer HTTP ({type(error).__name__})"
        if isinstance(error, OSError):
            return f"cannot connect to {where}: {error.strerror or error}"
        return str(error)


def _remaining(deadline: float) -> float:
    left = deadline - time.monotonic()
    if left <= 0:
        raise TimeoutError
    return left


def _tls_failure(error: ssl.SSLError, ep: Endpoint, client_cert: bool) -> str:
    reason = str(error.reason or error).lower().replace("_", " ")
    if "wrong version number" in reason or "record layer failure" in reason:
        return (
            f"refused TLS: {ep.host}:{ep.port} does not speak TLS (is this PuppetDB's HTTP "
            "port? Use http://, or PuppetDB's TLS port, usually 8081)"
        )
    alert = ("certificate required", "handshake failure", "bad certificate", "unknown ca")
    if any(a in reason for a in alert) or "certificate unknown" in reason:
        if not client_cert:
            return (
                f"refused the TLS connection ({reason}): PuppetDB asks for a client "
                "certificate and none was given; name one with --cert and --key"
            )
        return (
            f"refused the TLS connection ({reason}): PuppetDB does not accept the client "
            "certificate (--cert) this connection showed: is it signed by PuppetDB's CA?"
        )
    return f"TLS failed: {reason}"


def _closed(error: BaseException, ep: Endpoint) -> str:
    if ep.https:
        return (
            "closed the connection without an answer (over TLS this is often a client "
            f"certificate PuppetDB refuses: {type(error).__name__})"
        )
    return f"closed the connection without an answer ({type(error).__name__})"


def _said(body: bytes) -> str:
    """PuppetDB's own words, on their own lines when it wrote several (a PQL parse error
    points at its column with a caret under the query)."""
    text = body.decode("utf-8", "replace").strip()
    if not text:
        return ""
    if len(text) > _SHOWN_BODY * 4:
        text = text[: _SHOWN_BODY * 4] + " ..."
    lines = [line.rstrip() for line in text.splitlines()]
    if len(lines) == 1:
        return f": {lines[0]}"
    return ":\n" + "\n".join(f"    {line}" for line in lines)


def _check_status(response: http.client.HTTPResponse, body: bytes, url: str) -> None:
    status = response.status
    if status == 200:
        return
    said = _said(body)
    head = f"answered {status} {response.reason}".rstrip()
    if status in (301, 302, 303, 307, 308):
        where = response.getheader("Location", "?")
        raise PuppetDBError(url, f"{head}, a redirect to {where}; give that URL instead", status)
    if status == 401:
        raise PuppetDBError(
            url,
            f"{head}{said} (PuppetDB wants credentials: a token with --token, or --cert)",
            status,
        )
    if status == 403:
        raise PuppetDBError(
            url,
            f"{head}{said} (PuppetDB refused this client: its certificate is not on PuppetDB's "
            "certificate-allowlist, or the token lacks permission)",
            status,
        )
    raise PuppetDBError(url, f"{head}{said}", status)
