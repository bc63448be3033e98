"""What ``hiera-ls serve`` has imported when it publishes its first diagnostics.

Before its first publish the server needs pygls, lsprotocol, the loader and the checks of a
plain data file; eyaml's cryptography (met only with an eyaml key or ``ENC[`` value), the
``regex`` engine (lookup_options patterns beyond plain text), the PuppetDB client,
Puppet's type system (class parameters' types), ruamel.yaml (hover's values), the
reports, the PuppetDB configuration without a PuppetDB, and the features only a request
needs (hover, definition, references, links, inlay hints, outline, workspace symbols, explain,
the key view, the change lens, eyaml's views and actions, the quick fixes) load when
something needs them, not at start; the Puppet code's readers with the code index, read in
the background after the first publish. The server runs in a process of its own, fed
JSON-RPC on stdin; it writes its ``sys.modules`` to a file at its first publish.
"""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

import pytest

NOT_AT_START = (
    "cryptography",
    "regex",
    "ruamel",
    "http",
    "configparser",  # (PuppetDB's TLS files, read from puppet.conf)
    "hiera_ls.fleet",  # its configuration too, until a PuppetDB is named
    "hiera_ls.puppet.types",
    "hiera_ls.puppet.type_parser",
    "hiera_ls.report",
    "hashlib",  # (a pulling client's result ids)
    "hiera_ls.checks.fixes",  # (quick fixes: the first code action request)
    # what only a request needs, imported by its handler when it first runs
    "hiera_ls.features.hover",
    "hiera_ls.features.definition",
    "hiera_ls.features.references",
    "hiera_ls.features.document_links",
    "hiera_ls.features.inlay_hints",
    "hiera_ls.features.outline",
    "hiera_ls.features.workspace_symbols",
    "hiera_ls.features.explain",
    "hiera_ls.features.key_view",
    "hiera_ls.features.change_lens",
    "hiera_ls.features.eyaml",
)

# what a big environment's first publish (the opened file's loader findings) does without:
# the checks' implementations (the catalog of their records is read without them), the
# engine's lookups, and what only a request or a fleet needs
NOT_BEFORE_THE_CHECKS = (
    "hiera_ls.checks.registry",
    "hiera_ls.checks.class_parameters",
    "hiera_ls.checks.data_shapes",
    "hiera_ls.checks.fact_paths",
    "hiera_ls.checks.hiera_yaml",
    "hiera_ls.checks.interpolation",
    "hiera_ls.checks.legacy_facts",
    "hiera_ls.checks.lookup_options",
    "hiera_ls.checks.module_data",
    "hiera_ls.checks.profile",
    "hiera_ls.checks.profile_coverage",
    "hiera_ls.checks.same_file_levels",
    "hiera_ls.engine.lookup",
    "hiera_ls.engine.explain",
    "hiera_ls.features.spread",
    "hiera_ls.features.profile_classes",
    "hiera_ls.features.sessions",
    "hiera_ls.features.completion",
    "hiera_ls.features.rename",
    "hiera_ls.features.targets",
    "hiera_ls.project.eyaml_keys",
    "hiera_ls.source.eyaml_crypto",
    # the Puppet code's readers (the code index is read in the background after it)
    "hiera_ls.source.manifest_parser",
    "hiera_ls.source.puppet_lexer",
    "hiera_ls.source.template_reader",
)

# the server, with its first publish recorded (pygls' publish method, which every publish
# goes through); ``sync_files``: environments with more data files get their index in the
# background, and an opened file its loader's findings first (features/diagnostics.py)
SERVER = """
import json, sys
from pygls.lsp import _base_server
from hiera_ls.features import diagnostics
diagnostics.SYNC_INDEX_FILES = int(sys.argv[2])
publish = _base_server.BaseLanguageServer.text_document_publish_diagnostics
written = []
def first(self, params):
    if not written:
        written.append(True)
        with open(sys.argv[1], "w") as f:
            json.dump(sorted(sys.modules), f)
    return publish(self, params)
_base_server.BaseLanguageServer.text_document_publish_diagnostics = first
from hiera_ls.cli import main
sys.exit(main(["serve"]))
"""

HIERA_YAML = """\
version: 5
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: common
    path: common.yaml
"""


def _send(stdin: IO[bytes], message: dict[str, Any]) -> None:
    body = json.dumps({"jsonrpc": "2.0", **message}).encode()
    stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stdin.flush()


def _read_messages(stdout: IO[bytes], into: queue.Queue[dict[str, Any]]) -> None:
    while True:
        length = None
        while (line := stdout.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.strip().lower() == "content-length":
                length = int(value)
        if not line or length is None:
            return
        into.put(json.loads(stdout.read(length)))


def _modules_at_first_publish(root: Path, opened: Path, sync_files: int) -> list[str]:
    dump = root / "modules.json"
    _serve_until_published(SERVER, root, opened, [str(dump), str(sync_files)], publishes=1)
    return list(json.loads(dump.read_text()))


def _serve_until_published(
    script: str, root: Path, opened: Path, args: list[str], publishes: int
) -> None:
    """Runs ``script`` (a server) on ``root`` with ``opened`` opened at start-up, until it
    has published diagnostics ``publishes`` times."""
    server = subprocess.Popen(
        [sys.executable, "-c", script, *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "HIERA_LS_LOG": "error"},
    )
    assert server.stdin is not None and server.stdout is not None
    messages: queue.Queue[dict[str, Any]] = queue.Queue()
    threading.Thread(target=_read_messages, args=(server.stdout, messages), daemon=True).start()
    try:
        init = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}}
        _send(server.stdin, {"id": 1, "method": "initialize", "params": init})
        _send(server.stdin, {"method": "initialized", "params": {}})
        item = {"uri": opened.as_uri(), "languageId": "yaml", "version": 1}
        item["text"] = opened.read_text()
        _send(server.stdin, {"method": "textDocument/didOpen", "params": {"textDocument": item}})
        while publishes:
            message = messages.get(timeout=60)  # a hung server, never a speed assertion
            if "id" in message and "method" in message:  # a request of the server's
                _send(server.stdin, {"id": message["id"], "result": None})
            if message.get("method") == "textDocument/publishDiagnostics":
                publishes -= 1
    finally:
        server.kill()
        server.wait()


def _repo(root: Path) -> Path:
    """A data file to open, with a facts profile; the file is returned."""
    (root / "hiera.yaml").write_text(HIERA_YAML)
    (root / "data" / "nodes").mkdir(parents=True)
    (root / "data" / "common.yaml").write_text("port: 80\nntp::servers: [a, b]\n")
    node = root / "data" / "nodes" / "n1.example.com.yaml"
    node.write_text("port: 8080\nflag: on\nmotd: 'on %{facts.os.family}'\n")
    facts = root / ".hiera-ls" / "facts"
    facts.mkdir(parents=True)
    (facts / "n1.example.com.json").write_text(json.dumps({"os": {"family": "Debian"}}))
    return node


@pytest.mark.parametrize(
    "sync_files",
    [
        pytest.param(1, id="big environment"),
        pytest.param(300, id="small environment", marks=pytest.mark.slow),
    ],
)
def test_the_first_publish_of_a_plain_data_file_loads_only_what_it_needs(
    tmp_path: Path, sync_files: int
) -> None:
    """A big environment publishes the opened file's loader findings first; a small one
    after the file's checks ran (lookups of every key for the facts profile included)."""
    node = _repo(tmp_path)
    loaded = _modules_at_first_publish(tmp_path, node, sync_files)
    assert "lsprotocol.types" in loaded  # it did start, and publish
    left_out = NOT_AT_START + (NOT_BEFORE_THE_CHECKS if sync_files == 1 else ())
    assert [h for h in left_out if any(m == h or m.startswith(h + ".") for m in loaded)] == []


# the server, with the cycle collector's state at each publish: paused at the first, running
# at the next (its first run, started by the first publish, awaited), the objects it left
# frozen
COLLECTOR = """
import gc, json, sys, threading
from pygls.lsp import _base_server
from hiera_ls.features import diagnostics
diagnostics.SYNC_INDEX_FILES = 1
publish = _base_server.BaseLanguageServer.text_document_publish_diagnostics
def recorded(self, params):
    states = json.load(open(sys.argv[1])) if states_written else []
    if states:
        for t in threading.enumerate():
            if t.name == "hiera-ls-first-collection":
                t.join()
    states.append([gc.isenabled(), gc.get_freeze_count()])
    json.dump(states, open(sys.argv[1], "w"))
    states_written.append(True)
    return publish(self, params)
states_written = []
_base_server.BaseLanguageServer.text_document_publish_diagnostics = recorded
from hiera_ls.cli import main
sys.exit(main(["serve"]))
"""


def test_the_collector_runs_once_the_first_diagnostics_are_out(tmp_path: Path) -> None:
    """The start-up's garbage is collected after the first publish, not before it (the
    collection walked every object the modules made: 70-100 ms of CPU before the first
    diagnostics); then the collector runs, the objects left frozen out of its walks.
    Before: it ran at the start of ``serve``, before the first publish."""
    node = _repo(tmp_path)
    node.write_text("port: 80\n")  # as common.yaml says: the complete publish adds that
    dump = tmp_path / "collector.json"
    _serve_until_published(COLLECTOR, tmp_path, node, [str(dump)], publishes=2)
    first, later = json.loads(dump.read_text())[:2]
    assert first[0] is False, first  # paused until the first publish is out
    assert later[0] is True and later[1] > 10_000, later  # then on, the start-up's frozen
