"""A key's value for every facts profile: its answers follow each edit, and the profile
checks of a big file run for every profile only where they cannot block typing."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.features import diagnostics
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.features.spread import Spread, ValueGroup, spread, spread_lines
from hiera_ls.project.workspace import Workspace

HIERA = (
    "version: 5\ndefaults: {datadir: data, data_hash: yaml_data}\nhierarchy:\n"
    "  - name: Role\n    path: 'roles/%{facts.role}.yaml'\n"
    "  - name: Common\n    path: common.yaml\n"
)


def _repo(tmp_path: Path, common: str = "port: 80\nmotd: 'as %{::role}'\n") -> Path:
    (tmp_path / "data" / "roles").mkdir(parents=True)
    (tmp_path / "hiera.yaml").write_text(HIERA)
    (tmp_path / "data" / "common.yaml").write_text(common)
    (tmp_path / "data" / "roles" / "web.yaml").write_text("port: 8080\n")
    facts = tmp_path / ".hiera-ls" / "facts"
    facts.mkdir(parents=True)
    (facts / "web01.yaml").write_text("clientcert: web01\nrole: web\n")
    (facts / "web02.yaml").write_text("clientcert: web02\nrole: web\n")
    (facts / "bare.yaml").write_text("clientcert: bare\n")
    return tmp_path


def _groups(workspace: Workspace, key: str) -> dict[object, tuple[str, ...]]:
    snapshot = workspace.snapshot()
    found = spread(snapshot, snapshot.environments[0], key)
    out: dict[object, tuple[str, ...]] = {g.value: g.profiles for g in found.values}
    out.update({("fails", f.error): f.profiles for f in found.failures})
    return out


def test_answers_follow_a_data_edit_and_a_facts_edit(tmp_path: Path) -> None:
    root = _repo(tmp_path)
    workspace = Workspace([str(root)])
    workspace.select_profile("web01")
    assert _groups(workspace, "port") == {8080: ("web01", "web02"), 80: ("bare",)}
    workspace.open_buffer(str(root / "data" / "roles" / "web.yaml"), "port: 8081\n")
    assert _groups(workspace, "port") == {8081: ("web01", "web02"), 80: ("bare",)}
    # one profile's facts change: its answer changes, the others' come from the cache
    before = workspace.snapshot().data_memo.copy()
    facts = str(root / ".hiera-ls" / "facts" / "web02.yaml")
    workspace.open_buffer(facts, "clientcert: web02\nrole: db\n")
    assert workspace.snapshot().data_memo == before
    assert _groups(workspace, "port") == {8081: ("web01",), 80: ("bare", "web02")}


def test_hover_section_names_profiles_and_the_error_once(tmp_path: Path) -> None:
    workspace = Workspace([str(_repo(tmp_path))])
    workspace.select_profile("web01")
    snapshot = workspace.snapshot()
    lines = spread_lines(spread(snapshot, snapshot.environments[0], "motd"), "web01")
    assert lines == [
        "**Across 3 facts profiles:** 2 different answers",
        "",
        '- `"as web"` — 2 of 3: web01, web02 (this profile)',
        "- fails — 1 of 3: bare: Undefined variable '::role'; ",
    ]


def test_a_big_file_gets_the_other_profiles_lookups_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path)
    common = str(root / "data" / "common.yaml")
    workspace = Workspace([str(root)])
    workspace.select_profile("web01")
    snapshot = workspace.snapshot()
    monkeypatch.setattr(diagnostics, "FOREGROUND_LOOKUPS", 4)  # 2 keys x 3 profiles: "big"
    checks = Diagnostics()
    assert checks.profiles_deferred(snapshot, common)
    # the server's thread: the active profile only (it does not fail)
    assert checks.file_problems(snapshot, common) == []
    # the background checks (they take a pause callback): every profile
    found = checks.file_problems(snapshot, common, pause=lambda: None)
    assert [p.message for p in found] == [
        "[bare] Looking up 'motd' fails: Undefined variable '::role'; "
    ]


def test_hashes_that_would_read_alike_are_shown_by_what_differs() -> None:
    shared = {f"option{i}": "a fairly long value" for i in range(4)}
    found = Spread(
        "settings",
        3,
        (
            ValueGroup({**shared, "port": 80}, ("web01", "web02")),
            ValueGroup({**shared, "port": 81}, ("db01",)),
        ),
        (),
        (),
    )
    assert spread_lines(found, None)[2:] == [
        '- `{"port"=>80}` (and the entries all share) — 2 of 3: web01, web02',
        '- `{"port"=>81}` (and the entries all share) — 1 of 3: db01',
    ]
