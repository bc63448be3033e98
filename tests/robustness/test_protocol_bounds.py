"""The protocol layer is bounded: every request is answered, broken framing is survived,
bursts of edits are coalesced, and ``exit`` is honoured at once.

Each test drives a real ``hiera-ls serve`` over raw stdio bytes (see ``raw_lsp``), with a
deadline on every wait. Time bounds are generous for a shared CI machine; each says what it
would be without the bound.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from hiera_ls.lsp.framing import MAX_BODY_BYTES
from hiera_ls.lsp.transport import EXIT_GRACE_S
from tests.hang_guard import HUNG_S
from tests.robustness.raw_lsp import (
    RawServer,
    encode,
    frame,
    hover_params,
    notification,
    request,
)

pytestmark = pytest.mark.lsp_e2e  # every test talks to a hiera-ls serve process

INVALID_PARAMS = -32602
INVALID_REQUEST = -32600
PARSE_ERROR = -32700
SERVER_NOT_INITIALIZED = -32002

HIERA_YAML = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "Per-node data"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Common data"
    path: "common.yaml"
"""


def make_repo(root: Path, keys: int = 3, node_files: int = 0) -> Path:
    """An environment: ``common.yaml`` with ``keys`` keys, and ``node_files`` node files."""
    (root / "data" / "nodes").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HIERA_YAML, encoding="utf-8")
    lines = [f"profile::key{i}: value {i}" for i in range(keys)]
    (root / "data" / "common.yaml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for n in range(node_files):
        body = "".join(
            f"profile::key{i}: \"%{{lookup('profile::key{i + 1}')}}\"\n" for i in range(20)
        )
        (root / "data" / "nodes" / f"node{n}.yaml").write_text(body, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_repo(tmp_path_factory.mktemp("protocol") / "repo")


@pytest.fixture(scope="module")
def server(repo: Path) -> Iterator[RawServer]:
    """One server for the tests after which it must still work (a start takes seconds on a
    busy machine); each of them checks that it does."""
    with RawServer() as srv:
        srv.initialize(repo)
        yield srv


def hover_works(srv: RawServer, repo: Path) -> None:
    """The server still answers a well-formed request correctly."""
    answer = srv.call(
        "textDocument/hover", hover_params((repo / "data/common.yaml").as_uri(), 0, 3)
    )
    assert answer.get("result") is not None, answer
    assert "value 0" in answer["result"]["contents"]["value"]


# -- every request gets an answer ---------------------------------------------------------


@pytest.mark.parametrize(
    ("position", "why"),
    [
        ({"line": 2**31, "character": 0}, "Position.line should be in range [0:2147483647]"),
        ({"line": -1, "character": 0}, "Position.line should be in range"),
        ({"line": 0, "character": -5}, "Position.character should be in range"),
        ({"line": "one", "character": 0}, "position.line"),
        ({"line": 0}, "required field missing @ $.params.position.character"),
        (None, "required field missing @ $.params.position"),
    ],
)
def test_params_that_do_not_fit_get_invalid_params_naming_the_field(
    server: RawServer, repo: Path, position: object, why: str
) -> None:
    # Before: pygls logged the error and never answered, so the client waited for ever.
    params: dict[str, object] = {"textDocument": {"uri": (repo / "data/common.yaml").as_uri()}}
    if position is not None:
        params["position"] = position
    answer = server.call("textDocument/hover", params, timeout=2)
    assert answer["error"]["code"] == INVALID_PARAMS, answer
    assert why in answer["error"]["message"]
    hover_works(server, repo)


@pytest.mark.parametrize(
    "method", ["textDocument/definition", "textDocument/references", "hiera/explain"]
)
def test_every_position_request_answers_a_position_of_2_to_the_31(
    server: RawServer, repo: Path, method: str
) -> None:
    params = hover_params((repo / "data/common.yaml").as_uri(), 2**31, 0)
    if method == "textDocument/references":
        params["context"] = {"includeDeclaration": True}
    answer = server.call(method, params, timeout=2)
    # hiera/explain reads its params leniently and answers null; the LSP requests are typed
    assert "result" in answer or answer["error"]["code"] == INVALID_PARAMS, answer


@pytest.mark.parametrize(
    ("uri", "line", "character"),
    [
        ("data/common.yaml", 100_000, 5),  # past the end of the document
        ("data/common.yaml", 0, 2**31 - 1),  # past the end of the line
        ("data/common.yaml", 2**31 - 1, 2**31 - 1),  # the largest position LSP allows
        ("data/absent.yaml", 1, 1),  # a file that does not exist
        ("untitled:Untitled-1", 1, 1),  # a buffer that was never saved
        ("not a uri", 1, 1),
    ],
)
def test_positions_past_the_end_and_unknown_documents_are_answered(
    server: RawServer, repo: Path, uri: str, line: int, character: int
) -> None:
    doc = (repo / uri).as_uri() if uri.startswith("data/") else uri
    for method in ("textDocument/hover", "textDocument/definition"):
        answer = server.call(method, hover_params(doc, line, character), timeout=2)
        assert "result" in answer, answer
    hover_works(server, repo)


def test_a_body_that_is_not_json_gets_a_parse_error(server: RawServer, repo: Path) -> None:
    server.send_bytes(frame(b'{"jsonrpc": "2.0", "id": 99, "method": '))
    answer = server.wait_for(lambda m: m.get("error", {}).get("code") == PARSE_ERROR, 2)
    assert answer["id"] is None
    hover_works(server, repo)


def test_requests_before_initialize_and_after_shutdown_get_errors(repo: Path) -> None:
    with RawServer() as srv:
        early = srv.call("textDocument/hover", hover_params("file:///x.yaml", 0, 0))
        assert early["error"]["code"] == SERVER_NOT_INITIALIZED, early
        srv.initialize(repo)
        assert srv.call("shutdown", timeout=2)["result"] is None
        # Before: pygls dropped every request after shutdown without an answer.
        late = srv.call("textDocument/hover", hover_params("file:///x.yaml", 0, 0), timeout=2)
        assert late["error"]["code"] == INVALID_REQUEST, late
        srv.notify("exit")
        assert srv.exit_code(timeout=2) == 0


# -- broken framing -----------------------------------------------------------------------

GOOD = encode(request(50, "textDocument/hover", hover_params("file:///nowhere.yaml", 0, 0)))

BROKEN_FRAMING = {
    "Content-Length too short": frame(GOOD, len(GOOD) - 10),
    "Content-Length too long": frame(GOOD, len(GOOD) + 500),
    "Content-Length missing": b"Content-Type: application/vscode-jsonrpc\r\n\r\n" + GOOD,
    "Content-Length not a number": frame(GOOD, "twelve"),
    "Content-Length negative": frame(GOOD, -12),
    "Content-Length zero": frame(GOOD, 0),
    "noise between messages": b"hello\r\nworld\r\n\r\n" + b"\x00\xff" * 3000,
}


@pytest.mark.parametrize("case", list(BROKEN_FRAMING))
def test_the_server_resynchronises_after_broken_framing(
    server: RawServer, repo: Path, case: str
) -> None:
    # Before: the server waited for ever for a body, or read later messages as part of one.
    reported = server.stderr.count("hiera-ls: ")
    server.send_bytes(BROKEN_FRAMING[case])
    hover_works(server, repo)
    said = server.wait_stderr_count("hiera-ls: ", reported, timeout=2)
    assert said > reported  # said what was wrong, on stderr
    assert server.proc.poll() is None


def test_a_too_long_content_length_does_not_lose_the_message_it_frames(
    server: RawServer,
) -> None:
    # The next message's header inside the declared body shows where this body really ends.
    server.send_bytes(BROKEN_FRAMING["Content-Length too long"])
    server.send(request(51, "textDocument/hover", hover_params("file:///nowhere.yaml", 0, 0)))
    assert "result" in server.response(50, timeout=2)
    assert "result" in server.response(51, timeout=2)
    assert "is longer than the message" in server.wait_stderr("longer than", timeout=2)


def test_a_content_length_of_10_to_the_11_is_refused_without_allocating(
    server: RawServer, repo: Path
) -> None:
    # Before: pygls allocated the whole length and died of MemoryError.
    body = encode(request(77, "textDocument/hover", hover_params("file:///x.yaml", 0, 0)))
    seen = len(server.messages)
    server.send_bytes(frame(body, 10**11))
    refused = server.response(77, timeout=2)
    assert refused["error"]["code"] == INVALID_REQUEST
    assert f"above the limit of {MAX_BODY_BYTES} bytes" in refused["error"]["message"]
    shown = server.wait_for(lambda m: m.get("method") == "window/showMessage", 2, after=seen)
    assert "100000000000 bytes" in shown["params"]["message"]
    hover_works(server, repo)
    assert resident_mib(server) < 300


def test_a_body_over_the_limit_is_skipped_as_it_arrives(server: RawServer, repo: Path) -> None:
    uri = (repo / "data/huge.yaml").as_uri()
    head = b'{"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": '
    head += b'{"uri": "' + uri.encode() + b'", "languageId": "yaml", "version": 1, "text": "'
    tail = b'"}}}'
    piece = b"k: v\\n" * 200_000  # 1.2 MB of JSON-escaped YAML, sent again and again
    pieces = MAX_BODY_BYTES // len(piece) + 1
    length = len(head) + pieces * len(piece) + len(tail)
    assert length > MAX_BODY_BYTES
    seen = len(server.messages)
    started = time.monotonic()
    server.send_bytes(f"Content-Length: {length}\r\n\r\n".encode() + head)
    for _ in range(pieces):
        server.send_bytes(piece)
    server.send_bytes(tail)
    shown = server.wait_for(lambda m: m.get("method") == "window/showMessage", 10, after=seen)
    assert f"a message of {length} bytes" in shown["params"]["message"]
    hover_works(server, repo)
    assert time.monotonic() - started < HUNG_S  # about 1 s here: the body is only scanned
    assert resident_mib(server) < 300  # the body is never held: 50 MiB here, as before it


def resident_mib(srv: RawServer) -> float:
    """The server's peak resident memory (VmHWM), in MiB."""
    status = Path(f"/proc/{srv.proc.pid}/status").read_text(encoding="ascii")
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise AssertionError("no VmHWM in /proc")


# -- bursts of edits ----------------------------------------------------------------------


def test_a_burst_of_did_change_is_coalesced_and_hover_answers_promptly(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo", keys=600)
    common = repo / "data/common.yaml"
    last_line = len(common.read_text(encoding="utf-8").splitlines())
    with RawServer() as srv:
        srv.initialize(repo)
        uri = srv.open(common)
        srv.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics", what="publish")
        seen = len(srv.messages)
        burst = b"".join(
            frame(
                encode(
                    notification(
                        "textDocument/didChange",
                        {
                            "textDocument": {"uri": uri, "version": version},
                            "contentChanges": [
                                {
                                    "range": {
                                        "start": {"line": last_line, "character": 0},
                                        "end": {"line": last_line, "character": 0},
                                    },
                                    "text": f"# edit {version}\n",
                                }
                            ],
                        },
                    )
                )
            )
            for version in range(2, 1002)
        )
        started = time.monotonic()
        srv.send_bytes(burst)
        msg_id = srv.request("textDocument/hover", hover_params(uri, 0, 3))
        assert srv.response(msg_id, timeout=10).get("result") is not None
        # One publish per edit took 8 s here before; coalesced, about 0.5 s.
        assert time.monotonic() - started < HUNG_S
        final = srv.wait_for(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics"
                and m["params"].get("version") == 1001
            ),
            what="the publish for the newest version",
        )
        assert final["params"]["diagnostics"] == []
        versions = [
            m["params"]["version"]
            for m in srv.messages[seen:]
            if m.get("method") == "textDocument/publishDiagnostics"
        ]
        assert len(versions) < 50, versions  # one per batch read together, not 1,000
        assert versions == sorted(versions)


# -- exit -----------------------------------------------------------------------------------


def test_shutdown_and_exit_are_honoured_while_background_checks_run(tmp_path: Path) -> None:
    # A thousand files: the index is built in the background worker (seconds; without the
    # bound, exit waited for it to finish).
    repo = make_repo(tmp_path / "repo", node_files=1000)
    with RawServer() as srv:
        srv.initialize(repo)
        srv.open(repo / "data/nodes/node0.yaml")
        srv.wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics", what="publish")
        time.sleep(0.5)  # the background build starts after a pause of 0.3 s
        started = time.monotonic()
        assert srv.call("shutdown", timeout=2)["result"] is None
        srv.notify("exit")
        # Before: the process waited for the background build to finish (seconds).
        assert srv.exit_code(timeout=5) == 0
        assert time.monotonic() - started < HUNG_S


def test_exit_without_shutdown_and_the_end_of_input_end_the_server(repo: Path) -> None:
    with RawServer() as srv:
        srv.initialize(repo)
        srv.notify("exit")
        assert srv.exit_code(timeout=2) == 1  # LSP: exit without shutdown is an error
    with RawServer() as srv:
        srv.initialize(repo)
        assert srv.proc.stdin is not None
        srv.proc.stdin.close()
        assert srv.exit_code(timeout=2) == 1
        assert "closed the connection without shutdown" in srv.stderr


def test_exit_is_honoured_while_the_server_is_busy_answering(repo: Path) -> None:
    # Checking a 6 MB document takes the server's thread several seconds; exit does not
    # wait for it (without the bound it did, for as long as the check took).
    text = "".join(f"profile::key{i}: [value, {i}, {{a: b}}]\n" for i in range(200_000))
    with RawServer() as srv:
        srv.initialize(repo)
        srv.open(repo / "data/nodes/busy.yaml", text=text)
        time.sleep(0.5)
        started = time.monotonic()
        srv.notify("exit")
        assert srv.exit_code(timeout=10) == 1
        assert time.monotonic() - started < EXIT_GRACE_S + HUNG_S
