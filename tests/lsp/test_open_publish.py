"""A file opened in a big environment gets its loader's findings at once, then the checks'.

The index of a big environment is built in the background (9 s for the bench's 2,042
files): a file opened at start-up is published with what its loader found (its YAML as
Puppet reads it) before that run starts, and again, complete, after it. A small
environment's file is published once the run is under way, as before.
The server is fed JSON-RPC in this process; publishes and the start of the background run
are recorded in one list, so the tests assert their order, not a time.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from hiera_ls.features import diagnostics
from hiera_ls.lsp import diagnostics_scheduler
from hiera_ls.project.workspace import Snapshot
from tests.lsp.fed_server import FedServer

HIERA_YAML = """\
version: 5
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: common
    path: common.yaml
"""
# port: as common.yaml says, for the one node reading it (a cross-file finding); on: a
# YAML 1.1 boolean (the file's own finding)
NODE = "port: 80\nflag: on\n"
REDUNDANT = "profile-redundant-override"
BOOLEAN = "yaml11-boolean"


def _repo(root: Path, text: str) -> Path:
    (root / "hiera.yaml").write_text(HIERA_YAML)
    (root / "data" / "nodes").mkdir(parents=True)
    (root / "data" / "common.yaml").write_text("port: 80\n")
    node = root / "data" / "nodes" / "n1.example.com.yaml"
    node.write_text(text)
    facts = root / ".hiera-ls" / "facts"
    facts.mkdir(parents=True)
    (facts / "n1.example.com.json").write_text(json.dumps({"os": {"family": "Debian"}}))
    return node


def _open_and_record(
    root: Path, monkeypatch: pytest.MonkeyPatch, text: str = NODE
) -> list[tuple[str, int | None, list[str]]]:
    """Opens the node file (``text``) at start-up; every publish for it (each diagnostic's
    code, and its line after an ``@``) and the background run, in order, until that run is
    over."""
    monkeypatch.setattr(diagnostics_scheduler, "REBUILD_DELAY_S", 0.05)
    node = _repo(root, text)
    fed = FedServer()
    server = fed.server
    events: list[tuple[str, int | None, list[str]]] = []

    def published(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == node.as_uri():
            found = [f"{d.code}@{d.range.start.line}" for d in params.diagnostics]
            events.append(("publish", params.version, found))

    monkeypatch.setattr(server, "text_document_publish_diagnostics", published)
    scheduler = server.scheduler
    original = scheduler.full_checks

    def full_checks(snapshot: Snapshot, changes: int, paths: list[str]) -> Any:
        events.append(("cross-file run", None, []))
        return original(snapshot, changes, paths)

    monkeypatch.setattr(scheduler, "full_checks", full_checks)

    async def session() -> None:
        fed.open(root, node, text)
        for _ in range(500):
            if any(f"{REDUNDANT}@0" in e[2] for e in events) and not scheduler._checking:
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError(events)
        await asyncio.sleep(0.05)  # nothing more comes

    asyncio.run(session())
    fed.stop()
    return events


def test_a_big_environment_publishes_an_opened_files_loader_findings_before_the_index(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the opened file waited for the background run (the whole environment parsed
    and indexed: 9-10 s of CPU on the bench's 2,042 files) for its first publish."""
    monkeypatch.setattr(diagnostics, "SYNC_INDEX_FILES", 1)  # 2 data files: a big one
    events = _open_and_record(tmp_path, monkeypatch)
    publishes = [i for i, e in enumerate(events) if e[0] == "publish"]
    run = events.index(("cross-file run", None, []))
    assert publishes[0] < run, events  # the loader's findings, before the run starts
    assert events[publishes[0]][2] == [f"{BOOLEAN}@1"], events
    assert publishes[-1] > run, events  # then complete: the cross-file finding added
    assert events[publishes[-1]][2] == [f"{REDUNDANT}@0", f"{BOOLEAN}@1"], events
    assert all(e[1] == 1 for e in events if e[0] == "publish"), events


def test_a_small_environment_publishes_an_opened_file_once_its_checks_ran(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its index is built at once: nothing is published before the run (the every-profile
    findings, the run's last part, may come in a publish of their own)."""
    events = _open_and_record(tmp_path, monkeypatch)
    publishes = [i for i, e in enumerate(events) if e[0] == "publish"]
    assert events.index(("cross-file run", None, [])) < publishes[0], events
    assert events[publishes[-1]][2] == [f"{REDUNDANT}@0", f"{BOOLEAN}@1"], events


# a class parameter's YAML 1.1 boolean: the Puppet code's type decides whether it is worth a
# note (checks/yaml11_parameters.py), which only the checks after the index know
CLASS = "class ntp (Boolean $enable = true, String $mode = 'x') {}\n"
WITH_PARAMETERS = "port: 80\nflag: on\nntp::enable: yes\nntp::mode: off\n"


def test_nothing_the_loaders_publish_shows_is_withdrawn_by_the_complete_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first publish of a big environment's file shows only what the complete one
    keeps: a class parameter's yaml11-boolean, which the parameter's type may silence
    (``Boolean``) or make a warning (``String``), waits for the checks that judge it; the
    others show at once. Before: the note on ``ntp::enable`` showed, then went away."""
    monkeypatch.setattr(diagnostics, "SYNC_INDEX_FILES", 1)
    manifests = tmp_path / "modules" / "ntp" / "manifests"
    manifests.mkdir(parents=True)
    (manifests / "init.pp").write_text(CLASS)
    events = _open_and_record(tmp_path, monkeypatch, WITH_PARAMETERS)
    publishes = [e[2] for e in events if e[0] == "publish"]
    run = events.index(("cross-file run", None, []))
    assert events.index(("publish", 1, publishes[0])) < run, events
    assert publishes[0] == [f"{BOOLEAN}@1"], events  # flag's: no class parameter judges it
    # every later publish keeps what the first showed; the class parameters' notes judged
    # (ntp::enable's dropped; ntp::mode's a warning, beside the type mismatch it makes), the
    # cross-file findings added
    assert all(set(publishes[0]) <= set(later) for later in publishes[1:]), events
    assert publishes[-1] == [
        "key-unused@0",
        f"{REDUNDANT}@0",
        "key-unused@1",
        f"{BOOLEAN}@1",
        "class-parameter-type-mismatch@3",
        f"{BOOLEAN}@3",
    ], events
