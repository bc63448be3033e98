"""Diagnostics for one file: full checks, and the quick answer right after an edit."""

from __future__ import annotations

from pathlib import Path

import pytest

import hiera_ls.features.diagnostics as diagnostics
from hiera_ls.checks import registry
from hiera_ls.features.carried_findings import move_with_lines
from hiera_ls.features.diagnostics import Diagnostics, project_paths
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from hiera_ls.puppet.message import Text
from hiera_ls.source.spans import FileSpan, Problem, Severity, Span

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
HIERA = "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"


def p(line: int, col: int = 0) -> Problem:
    return Problem(
        "x",
        Text.of(f"at {line}"),
        Severity.WARNING,
        FileSpan("/f", Span.of(line, col, line, col + 1)),
    )


def test_problems_move_with_the_lines_around_an_edit() -> None:
    old = "a\nb\nc\nd\ne\n"
    new = "a\nb\nX\nY\nc\nd\ne\n"  # two lines inserted after b
    moved = move_with_lines(old, new, [p(0), p(1), p(2), p(4, 3)])
    assert [(m.where.span.start.line, m.where.span.start.column) for m in moved] == [
        (0, 0),
        (1, 0),
        (4, 0),
        (6, 3),
    ]
    edited = "a\nB\nc\nd\ne\n"
    assert [m.message for m in move_with_lines(old, edited, [p(0), p(1), p(2)])] == ["at 0", "at 2"]


def test_clean_fixture_has_no_problems_and_broken_one_has_them() -> None:
    clean = Workspace(
        [str(FIXTURES.parent.parent / "examples" / "control-repo")],
        Settings(facts_profile="web01.example.com"),
    ).snapshot()
    d = Diagnostics()
    found = {path: d.file_problems(clean, path) for path in project_paths(clean)}
    assert len(found) >= 20 and all(problems == [] for problems in found.values())
    broken = Workspace([str(FIXTURES / "broken-repo")]).snapshot()
    common = str(FIXTURES / "broken-repo/data/common.yaml")
    assert [x.code for x in d.file_problems(broken, common)] == [
        "reference-undefined-key",
        "interpolation-unknown-method",
        "yaml11-boolean",
        "yaml-duplicate-key",
    ]


def test_quick_answer_for_an_expensive_file_keeps_check_problems_outside_the_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA)
    text = "a: '%{lookup(\"nope\")}'\nb: 1\nc: yes\n"
    (tmp_path / "data/common.yaml").write_text(text)
    ws = Workspace([str(tmp_path)])
    path = str(tmp_path / "data/common.yaml")
    d = Diagnostics()
    full = d.file_problems(ws.snapshot(), path)
    assert [x.code for x in full] == ["reference-undefined-key", "yaml11-boolean"]
    monkeypatch.setattr(diagnostics, "FAST_BUDGET_S", 0.0)  # every file counts as expensive
    ws.update_buffer(path, "a: '%{lookup(\"nope\")}'\nb: 2\nnew: 1\nc: yes\n")
    quick = d.quick_problems(ws.snapshot(), path)
    # the check's finding on line 0 is kept; the loader's finding is fresh (moved down a line)
    assert [(x.code, x.where.span.start.line) for x in quick] == [
        ("reference-undefined-key", 0),
        ("yaml11-boolean", 3),
    ]
    ws.update_buffer(path, "a: '%{lookup(\"b\")}'\nb: 2\nnew: 1\nc: yes\n")
    quick = d.quick_problems(ws.snapshot(), path)
    assert [x.code for x in quick] == ["yaml11-boolean"]  # the edited line's check result waits
    assert [x.code for x in d.file_problems(ws.snapshot(), path)] == ["yaml11-boolean"]


def test_rebuilt_index_sees_edits_of_other_files_and_keeps_what_did_not_change(
    tmp_path: Path,
) -> None:
    (tmp_path / "data").mkdir()
    levels = "  - name: First\n    path: first.yaml\n  - name: Common\n    path: common.yaml\n"
    (tmp_path / "hiera.yaml").write_text("version: 5\nhierarchy:\n" + levels)
    (tmp_path / "data/first.yaml").write_text("x: 1\n")
    (tmp_path / "data/common.yaml").write_text("y: '%{lookup(\"x\")}'\n")
    first = str(tmp_path / "data/first.yaml")
    common = str(tmp_path / "data/common.yaml")
    ws = Workspace([str(tmp_path)])
    d = Diagnostics()
    assert d.file_problems(ws.snapshot(), common) == []

    def after_edit(path: str, text: str) -> list[str]:
        ws.update_buffer(path, text)
        d.data_changed()
        snapshot = ws.snapshot()
        d.rebuild_stale(snapshot, d.changes)
        return [x.code for x in d.file_problems(snapshot, common)]

    # common.yaml is unchanged: only first.yaml is read again, and the cycle it closes shows
    assert after_edit(first, "x: '%{lookup(\"y\")}'\n") == ["reference-cycle"]
    assert after_edit(first, "w: 1\n") == ["reference-undefined-key"]
    assert after_edit(common, "y: 2\n") == []


def test_open_files_are_checked_again_only_when_something_they_read_changed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opening N files costs N checks, not N per open: the background checks after each open
    recheck only files whose text, data or profile changed since their last result."""
    (tmp_path / "data/nodes").mkdir(parents=True)
    (tmp_path / "hiera.yaml").write_text(HIERA)
    (tmp_path / "data/common.yaml").write_text("a: 1\n")
    paths = []
    for i in range(12):
        path = tmp_path / f"data/nodes/n{i}.yaml"
        path.write_text(f"a: {i}\nb: '%{{lookup(\"a\")}}'\n")
        paths.append(str(path))
    calls: list[str] = []
    real = registry.check_data_file

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(args[1].path)  # type: ignore[attr-defined]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    # (features/diagnostics.py imports the checks when it first runs them, from the registry)
    monkeypatch.setattr(registry, "check_data_file", counted)
    ws = Workspace([str(tmp_path)])
    d = Diagnostics()
    for n, path in enumerate(paths, 1):  # what the server does on each didOpen of a saved file
        ws.open_buffer(path, Path(path).read_text())
        snapshot = ws.snapshot()
        d.rebuild_stale(snapshot, d.changes)
        for open_path in paths[:n]:
            d.file_problems(snapshot, open_path)
    assert sorted(calls) == sorted(paths)
    calls.clear()
    ws.update_buffer(paths[0], "a: 0\n")  # an edit: every open file may read the edited one
    d.data_changed()
    snapshot = ws.snapshot()
    d.rebuild_stale(snapshot, d.changes)
    for path in paths:
        d.file_problems(snapshot, path)
    assert sorted(calls) == sorted(paths)
