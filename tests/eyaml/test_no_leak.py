"""Keys and plaintext never leave the server except in the answer the user asked for.

A whole session with the server's own logging at DEBUG: every message it sends and all it
writes on stderr are searched for the plaintext and for the private key's material; the
workspace is compared before and after (nothing written).
"""

from __future__ import annotations

import base64
import os
from pathlib import Path

import pytest

from hiera_ls.source.eyaml_crypto import encrypt, load_certificate
from tests.eyaml.support import PRIVATE, PUBLIC, write_repo
from tests.robustness.raw_lsp import RawServer

pytestmark = pytest.mark.lsp_e2e  # a `hiera-ls serve` process, its log and its files

SECRET = "leak-canary-7f3a9"
NEW = "typed-canary-55b1"


def _tree(root: Path) -> dict[str, tuple[float, int]]:
    out = {}
    for dirpath, _, names in os.walk(root):
        for name in names:
            path = os.path.join(dirpath, name)
            st = os.stat(path)
            out[path] = (st.st_mtime, st.st_size)
    return out


def _key_material(root: Path) -> list[str]:
    """Pieces of both private keys: each PEM body line, and the DER in one line."""
    pieces: list[str] = []
    for directory in ("keys", "team-keys"):
        pem = (root / directory / PRIVATE).read_text()
        lines = [line for line in pem.splitlines() if line and not line.startswith("-----")]
        pieces.extend(lines)
        pieces.append("".join(lines)[:64])
        pieces.append(base64.b64decode("".join(lines)).hex()[:64])
    return pieces


def test_a_session_leaks_no_plaintext_and_no_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_repo(tmp_path / "repo", {})
    cert = load_certificate((root / "keys" / PUBLIC).read_bytes())
    (root / "data").mkdir()
    secrets = root / "data" / "secrets.eyaml"
    secrets.write_text(f"password: {encrypt(SECRET, cert)}\nplain: {NEW}\n")
    before = _tree(root)
    monkeypatch.setenv("HIERA_LS_LOG", "DEBUG")
    with RawServer() as server:
        server.initialize(root)
        doc = server.open(secrets)
        server.wait_for(
            lambda m: (
                m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == doc
            ),
            what="diagnostics",
        )
        at = {"line": 0, "character": 3}
        server.call("textDocument/hover", {"textDocument": {"uri": doc}, "position": at})
        for line in (0, 1):
            server.call(
                "textDocument/codeAction",
                {
                    "textDocument": {"uri": doc},
                    "range": {
                        "start": {"line": line, "character": 3},
                        "end": {"line": line, "character": 3},
                    },
                    "context": {"diagnostics": []},
                },
            )
        server.call("hiera/explain", {"uri": doc, "position": at})
        server.call("hiera/eyamlDecrypt", {"uri": "file:///nowhere.eyaml", "position": at})
        unasked = list(server.messages)
        # what the user asks for carries the plaintext, and only that answer
        asked = server.call("hiera/eyamlDecrypt", {"uri": doc, "position": at})
        assert asked["result"]["text"] == SECRET
        marked = server.call("hiera/eyamlEditText", {"uri": doc})
        assert SECRET in marked["result"]["text"]
        edited = marked["result"]["text"].replace(SECRET, NEW + "-2")
        server.call("hiera/eyamlReencrypt", {"uri": doc, "text": edited})
        after_asked = [m for m in server.messages if m not in (asked, marked)]
        stderr = server.stderr
    assert "Request 'hiera/eyamlDecrypt' received" in stderr  # the log was on, at DEBUG
    assert "Sending data (body not logged)" in stderr
    sent = repr(unasked)
    assert SECRET not in sent
    everything = repr(after_asked) + stderr
    assert SECRET not in everything and NEW + "-2" not in everything
    for piece in _key_material(root):
        assert piece not in everything
    assert _tree(root) == before
