"""``hiera-ls check`` on a repository bigger than a limit: a listing cut short is an error that
names the limit and how to raise it, never a silent pass (docs/security.md, "Bounded").

Before: with 50,000 node files check examined 20,002 and missed an error in the rest; with
200,001 files in one directory it skipped the erroneous ``web01.yaml``, exited 0 and printed a
false hint. The limits are scaled down here with ``--max-files`` (the same code paths).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.cli import main

HIERA = (
    "---\nversion: 5\ndefaults:\n  datadir: data\nhierarchy:\n"
    "  - name: nodes\n    path: 'nodes/%{trusted.certname}.yaml'\n"
    "  - name: common\n    path: common.yaml\n"
)


def _repo(root: Path, nodes: int) -> Path:
    (root / "data" / "nodes").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HIERA)
    (root / "data" / "common.yaml").write_text("a: 1\n")
    for i in range(nodes):
        (root / "data" / "nodes" / f"n{i:03}.yaml").write_text("a: 2\n")
    (root / "data" / "nodes" / "zz-last.yaml").write_text("a: [unclosed\n")  # an error
    return root


def test_a_listing_cut_short_is_an_error_naming_the_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _repo(tmp_path / "repo", 30)
    monkeypatch.chdir(root)
    code = main(["check", "--max-files", "10"])
    out = capsys.readouterr().out
    assert code == 1
    limit = [line for line in out.splitlines() if " walk-limit " in line]
    assert len(limit) == 1, out
    assert "the files beyond were not checked" in limit[0]
    assert "Raise the limit (now 10 files) with --max-files" in limit[0]
    code = main(["check", "--max-files", "100"])
    out = capsys.readouterr().out
    assert "walk-limit" not in out and "zz-last.yaml" in out and code == 1


def test_a_directory_with_more_names_than_a_walk_looks_at_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """One walk looks at ten times the files listed: 150 names with --max-files 10."""
    root = _repo(tmp_path / "repo", 150)
    monkeypatch.chdir(root)
    assert main(["check", "--max-files", "10"]) == 1
    out = capsys.readouterr().out
    assert "holds more names than the 100 one walk looks at" in out


def test_facts_paths_that_hold_a_disk_are_cut_and_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The user's own --facts-path may name a huge directory: it is listed up to the limit
    (``facts: ["/"]`` walked the whole disk for over 10 minutes)."""
    root = _repo(tmp_path / "repo", 1)
    many = tmp_path / "facts"
    many.mkdir()
    for i in range(30):
        (many / f"f{i}.yaml").write_text(f"clientcert: f{i}\n")
    monkeypatch.chdir(root)
    main(["check", "--max-files", "10", "--facts-path", str(many), "--select", "walk-limit"])
    out = capsys.readouterr().out
    assert "more than 10 facts files lie there" in out
