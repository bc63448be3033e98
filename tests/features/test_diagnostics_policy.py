"""Diagnostics.file_problems and quick_problems apply the repository's .hiera-ls.yaml and the
file's suppression comments: every caller (the server, `hiera-ls check`) gets one answer."""

from __future__ import annotations

from pathlib import Path

import pytest

import hiera_ls.features.diagnostics as diagnostics
from hiera_ls.features.diagnostics import Diagnostics, project_paths
from hiera_ls.project.workspace import FileKind, Workspace
from hiera_ls.source.spans import Severity

HIERA = """\
version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - {name: nodes, path: "nodes/%{trusted.certname}.yaml"}
  - {name: common, path: common.yaml}
"""
COMMON = "a: yes\nb: 0644\nc: '%{lookup(\"nope\")}'\n"


def repo(tmp_path: Path, config: str | None = None) -> tuple[Workspace, str]:
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA)
    (tmp_path / "data/common.yaml").write_text(COMMON)
    if config is not None:
        (tmp_path / ".hiera-ls.yaml").write_text(config)
    return Workspace([str(tmp_path)]), str(tmp_path / "data/common.yaml")


def codes(problems: list) -> list[tuple[str, int]]:
    return [(p.code, p.where.span.start.line) for p in problems]


def test_without_a_configuration_nothing_changes(tmp_path: Path) -> None:
    ws, path = repo(tmp_path)
    assert codes(Diagnostics().file_problems(ws.snapshot(), path)) == [
        ("yaml11-boolean", 0),
        ("yaml11-octal", 1),
        ("reference-undefined-key", 2),
    ]


def test_the_configuration_applies_to_full_and_quick_results(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws, path = repo(tmp_path, "ignore: [yaml11-octal]\nseverity: {reference-*: error}\n")
    d = Diagnostics()
    full = d.file_problems(ws.snapshot(), path)
    assert codes(full) == [("yaml11-boolean", 0), ("reference-undefined-key", 2)]
    assert full[1].severity is Severity.ERROR
    monkeypatch.setattr(diagnostics, "FAST_BUDGET_S", 0.0)  # quick results, not full checks
    ws.update_buffer(path, "z: 1\n" + COMMON)
    quick = d.quick_problems(ws.snapshot(), path)
    assert codes(quick) == [("yaml11-boolean", 1), ("reference-undefined-key", 3)]
    assert quick[1].severity is Severity.ERROR


def test_editing_the_configuration_changes_the_answer_for_unchanged_files(tmp_path: Path) -> None:
    ws, path = repo(tmp_path, "ignore: [yaml11-*]\n")
    d = Diagnostics()
    assert codes(d.file_problems(ws.snapshot(), path)) == [("reference-undefined-key", 2)]
    config = str(tmp_path / ".hiera-ls.yaml")
    ws.open_buffer(config, "ignore: [reference-*]\n")
    assert codes(d.quick_problems(ws.snapshot(), path)) == [
        ("yaml11-boolean", 0),
        ("yaml11-octal", 1),
    ]
    ws.close_buffer(config)
    (tmp_path / ".hiera-ls.yaml").unlink()
    ws.disk_changed(config, created_or_deleted=True)
    assert len(d.file_problems(ws.snapshot(), path)) == 3


def test_the_configuration_file_gets_its_own_problems(tmp_path: Path) -> None:
    ws, _ = repo(tmp_path, "ignore: [yaml11-*]\nignroe: x\n")
    config = str(tmp_path / ".hiera-ls.yaml")
    snap = ws.snapshot()
    assert snap.kind_of(config) is FileKind.REPO_CONFIG
    assert codes(Diagnostics().file_problems(snap, config)) == [("config-unknown-setting", 1)]
    assert config in project_paths(snap)  # what a whole-repository check goes through


def test_suppressions_and_unused_ones(tmp_path: Path) -> None:
    ws, path = repo(tmp_path)
    ws.open_buffer(
        path,
        "a: yes  # hiera-ls: disable-line=yaml11-boolean\n"
        "# hiera-ls: disable-line=yaml11-octal\n"
        "b: 0644\n"
        "c: '%{lookup(\"nope\")}'  # hiera-ls: disable-line=reference-undefined-key\n"
        "d: 1  # hiera-ls: disable-line=yaml11-binary\n"
        "e: 1  # hiera-ls: disable-line=lookup-fails-for-profile\n",
    )
    found = codes(Diagnostics().file_problems(ws.snapshot(), path))
    # no facts profile is active: the profile check did not run, so that one is not "unused"
    assert found == [("suppression-unused", 4)]


def test_facts_paths_of_the_configuration_add_profiles(tmp_path: Path) -> None:
    ws, _ = repo(tmp_path, "facts: [ci/facts]\n")
    (tmp_path / "ci/facts").mkdir(parents=True)
    (tmp_path / "ci/facts/web01.example.com.yaml").write_text("networking: {fqdn: web01}\n")
    ws.disk_changed(str(tmp_path / "ci/facts/web01.example.com.yaml"), created_or_deleted=True)
    assert [e.name for e in ws.snapshot().profiles] == ["web01.example.com"]
