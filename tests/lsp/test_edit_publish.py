"""An edit's own checks are published at once, carrying the file's last cross-file findings.

The server is fed JSON-RPC in this process; what it publishes and when its background run
of cross-file checks starts are recorded in one list, so the test asserts their order, not
a time.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from hiera_ls.features import diagnostics, file_memos
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
NODE = "x: 0\nport: 80\n"  # port: as common.yaml says, for the one node reading it


def _repo(root: Path) -> Path:
    (root / "hiera.yaml").write_text(HIERA_YAML)
    (root / "data" / "nodes").mkdir(parents=True)
    (root / "data" / "common.yaml").write_text("port: 80\n")
    node = root / "data" / "nodes" / "n1.example.com.yaml"
    node.write_text(NODE)
    facts = root / ".hiera-ls" / "facts"
    facts.mkdir(parents=True)
    (facts / "n1.example.com.json").write_text(json.dumps({"os": {"family": "Debian"}}))
    return node


def test_an_edit_publishes_its_own_checks_before_the_cross_file_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Before: the edited file waited for the pause in typing and the whole cross-file run
    (0.6-0.8 s on an 8,254-line file); the publish for the new version came after it."""
    monkeypatch.setattr(diagnostics_scheduler, "REBUILD_DELAY_S", 0.05)
    node = _repo(tmp_path)
    fed = FedServer()
    server, send = fed.server, fed.send
    events: list[tuple[str, int | None, list[tuple[str, int]]]] = []

    def published(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == node.as_uri():
            found = [(str(d.code), d.range.start.line) for d in params.diagnostics]
            events.append(("publish", params.version, found))

    monkeypatch.setattr(server, "text_document_publish_diagnostics", published)
    scheduler = server.scheduler
    original = scheduler.full_checks

    def full_checks(snapshot: Snapshot, changes: int, paths: list[str]) -> Any:
        events.append(("cross-file run", None, []))
        return original(snapshot, changes, paths)

    monkeypatch.setattr(scheduler, "full_checks", full_checks)

    def edit(version: int, line: int, start: int, end: int, text: str) -> None:
        span = {
            "start": {"line": line, "character": start},
            "end": {"line": line, "character": end},
        }
        send(
            "textDocument/didChange",
            {
                "textDocument": {"uri": node.as_uri(), "version": version},
                "contentChanges": [{"range": span, "text": text}],
            },
        )

    async def until(done: Any) -> None:
        for _ in range(500):
            if done():
                return
            await asyncio.sleep(0.01)
        raise AssertionError(events)

    redundant = ("profile-redundant-override", 1)
    moved = ("profile-redundant-override", 2)

    async def session() -> None:
        fed.open(tmp_path, node, NODE)
        await until(lambda: any(redundant in e[2] for e in events))
        await asyncio.sleep(0.2)  # the background run is over
        del events[:]
        edit(2, 0, 3, 4, "5")  # x: 5, a line above the finding's
        await until(lambda: any(e[0] == "cross-file run" for e in events))
        await asyncio.sleep(0.2)
        edit(3, 0, 0, 0, "y: 1\n")  # a line added above: the finding moves down
        await until(lambda: events.count(("cross-file run", None, [])) == 2)
        await until(lambda: not scheduler._checking)  # the run is over
        await asyncio.sleep(0.05)  # (its results equal: not published again)
        edit(4, 2, 8, 8, " ")  # typed after the value, on the finding's line: port's stays
        await until(lambda: events.count(("cross-file run", None, [])) == 3)
        await until(lambda: not scheduler._checking)
        await asyncio.sleep(0.05)

    asyncio.run(session())
    fed.stop()
    runs = [i for i, e in enumerate(events) if e[0] == "cross-file run"]
    first_v2 = next(i for i, e in enumerate(events) if e[1] == 2)
    first_v3 = next(i for i, e in enumerate(events) if e[1] == 3)
    # each version's own checks come before the cross-file run its edit asked for ...
    assert first_v2 < runs[0] < first_v3 < runs[1], events
    # ... carrying the finding only the cross-file run makes, moved with the edit
    assert events[first_v2][2] == [redundant], events
    assert events[first_v3][2] == [moved], events
    first_v4 = next(i for i, e in enumerate(events) if e[1] == 4)
    assert runs[1] < first_v4 < runs[2], events
    # typing on the finding's line after its key (the key's text unchanged) keeps it: it was
    # dropped until the run put it back
    assert events[first_v4][2] == [moved], events
    # and no publish of any version lacks it
    assert all(e[2] for e in events if e[0] == "publish"), events


def test_an_edit_before_the_start_up_run_leaves_the_index_to_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Typing before the start-up checks have built the environment's index publishes the
    new version's loader findings at once, and the complete ones after the run. Before: the
    edit's publish built the index on the server's thread, racing the worker building it
    (1-3 s on 142 files: a code action, an outline or a completion asked meanwhile waited)."""
    monkeypatch.setattr(diagnostics_scheduler, "REBUILD_DELAY_S", 0.05)
    node = _repo(tmp_path)
    (tmp_path / "data" / "nodes" / "n1.example.com.yaml").write_text(NODE + "flag: on\n")
    fed = FedServer()
    server, send = fed.server, fed.send
    events: list[tuple[str, int | None, list[str]]] = []
    built_on: list[str] = []

    def published(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == node.as_uri():
            events.append(("publish", params.version, [str(d.code) for d in params.diagnostics]))

    monkeypatch.setattr(server, "text_document_publish_diagnostics", published)
    build = diagnostics.Diagnostics._build

    def recorded(self: diagnostics.Diagnostics, *args: Any, **kwargs: Any) -> Any:
        built_on.append(threading.current_thread().name)
        return build(self, *args, **kwargs)

    monkeypatch.setattr(diagnostics.Diagnostics, "_build", recorded)
    scheduler = server.scheduler
    text = NODE + "flag: on\n"

    async def session() -> None:
        fed.open(tmp_path, node, text)
        span = {"start": {"line": 0, "character": 3}, "end": {"line": 0, "character": 4}}
        change = {"range": span, "text": "5"}
        send(
            "textDocument/didChange",
            {"textDocument": {"uri": node.as_uri(), "version": 2}, "contentChanges": [change]},
        )
        for _ in range(500):
            if any("profile-redundant-override" in e[2] for e in events):
                break
            await asyncio.sleep(0.01)
        else:
            raise AssertionError(events)
        while scheduler._checking:
            await asyncio.sleep(0.01)

    asyncio.run(session())
    fed.stop()
    assert events[0] == ("publish", 2, ["yaml11-boolean"]), events  # at once, the loader's
    assert sorted(events[-1][2]) == ["profile-redundant-override", "yaml11-boolean"], events
    assert built_on and all(name.startswith("hiera-ls-checks") for name in built_on), built_on


def test_the_first_edit_after_the_cross_file_run_moves_what_the_run_prepared(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first keystroke after a pause moves the findings of the run that ended (or was
    cut short) in it, as every other keystroke moves its predecessor's; before, it sorted
    every finding of that run on the server's thread first (2,371 on a 10,000-line file:
    the first edit after each pause cost twice the others)."""
    monkeypatch.setattr(diagnostics_scheduler, "REBUILD_DELAY_S", 0.05)
    monkeypatch.setattr(diagnostics, "FAST_BUDGET_S", 0.0)  # every file counts as expensive
    node = _repo(tmp_path)
    fed = FedServer()
    server, send = fed.server, fed.send
    published: list[tuple[int | None, list[str]]] = []
    sorted_on: list[str] = []

    def publish(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == node.as_uri():
            published.append((params.version, [str(d.code) for d in params.diagnostics]))

    monkeypatch.setattr(server, "text_document_publish_diagnostics", publish)
    movable = file_memos.Movable.of

    def recorded(full: Any) -> Any:
        sorted_on.append(threading.current_thread().name)
        return movable(full)

    monkeypatch.setattr(file_memos.Movable, "of", recorded)
    scheduler = server.scheduler

    async def session() -> None:
        fed.open(tmp_path, node, NODE)
        for _ in range(500):
            if any("profile-redundant-override" in codes for _, codes in published):
                break
            await asyncio.sleep(0.01)
        while scheduler._checking:
            await asyncio.sleep(0.01)
        del sorted_on[:]
        span = {"start": {"line": 0, "character": 3}, "end": {"line": 0, "character": 4}}
        change = {"range": span, "text": "5"}
        send(
            "textDocument/didChange",
            {"textDocument": {"uri": node.as_uri(), "version": 2}, "contentChanges": [change]},
        )
        for _ in range(500):
            if any(version == 2 for version, _ in published):
                break
            await asyncio.sleep(0.01)

    asyncio.run(session())
    fed.stop()
    edited = [codes for version, codes in published if version == 2]
    assert edited == [["profile-redundant-override"]], published  # carried, as before
    assert sorted_on == [], sorted_on  # nothing of the last run worked out on the edit


def test_a_cross_file_run_cut_short_in_a_file_leaves_the_next_edit_the_last_publish(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An edit read while the background run is half-way through a file (its checks done,
    their publish not yet made) stops the run there; the next edit's publish moves the
    findings of the last publish, as every keystroke does. Before, the run had already
    left its new findings (equal, but other objects) beside the last publish's pass: that
    edit compared thousands of them value by value, sorted and converted them again (the
    first edit after a pause in typing: 15-25 ms more on a 10,000-line file)."""
    monkeypatch.setattr(diagnostics_scheduler, "REBUILD_DELAY_S", 0.05)
    monkeypatch.setattr(diagnostics, "FAST_BUDGET_S", 0.0)  # every file counts as expensive
    node = _repo(tmp_path)
    text = NODE + "bad: \"%{lookup('nope')}\"\n"  # a finding of the checks, on line 2
    fed = FedServer()
    server, send = fed.server, fed.send
    published: list[int | None] = []
    monkeypatch.setattr(
        server, "text_document_publish_diagnostics", lambda p: published.append(p.version)
    )
    quick: list[list[Any]] = []  # what each edit's publish found
    quick_problems = diagnostics.Diagnostics.quick_problems

    def recorded(self: diagnostics.Diagnostics, *args: Any) -> Any:
        found = quick_problems(self, *args)
        quick.append(found)
        return found

    monkeypatch.setattr(diagnostics.Diagnostics, "quick_problems", recorded)
    scheduler = server.scheduler

    def edit(version: int, value: str) -> None:
        span = {"start": {"line": 0, "character": 3}, "end": {"line": 0, "character": 4}}
        change = {"range": span, "text": value}
        send(
            "textDocument/didChange",
            {
                "textDocument": {"uri": node.as_uri(), "version": version},
                "contentChanges": [change],
            },
        )

    async def published_version(version: int) -> None:
        for _ in range(500):
            if version in published:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(published)

    file_problems = diagnostics.Diagnostics.file_problems

    def cut_short(self: diagnostics.Diagnostics, *args: Any, **kwargs: Any) -> Any:
        found = file_problems(self, *args, **kwargs)
        self.changes += 1  # an edit came in: the run gives up at its next pause
        return found

    async def session() -> None:
        fed.open(tmp_path, node, text)
        await published_version(1)
        await asyncio.sleep(0.1)
        while scheduler._checking or scheduler._full_pending:
            await asyncio.sleep(0.01)
        monkeypatch.setattr(diagnostics_scheduler, "REBUILD_DELAY_S", 3600.0)
        edit(2, "5")
        await published_version(2)
        # the background run, cut short after the file's checks
        with monkeypatch.context() as m:
            m.setattr(diagnostics.Diagnostics, "file_problems", cut_short)
            snapshot = server.snapshot()
            paths = list(server.uris)
            assert scheduler.full_checks(snapshot, server.diagnostics.changes, paths) == {}
        edit(3, "6")
        await published_version(3)

    asyncio.run(session())
    fed.stop()
    before, after = quick[-2], quick[-1]
    assert "reference-undefined-key" in [p.code for p in after], after
    # the findings away from the edited line are those of the last publish, moved as they were
    assert [p for p in after if p.where.span.start.line] == [
        p for p in before if p.where.span.start.line
    ]
    assert all(
        a is b
        for a, b in zip(
            [p for p in after if p.where.span.start.line],
            [p for p in before if p.where.span.start.line],
            strict=True,
        )
    ), (before, after)
