"""A file's stamp: what tells a reader its content may have changed."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.source.files import FileAccess


def test_a_stamp_changes_with_the_file_unless_the_run_holds_its_stamps(tmp_path: Path) -> None:
    path = tmp_path / "common.yaml"
    path.write_text("a: 1\n")
    fresh, held = FileAccess(), FileAccess()
    held.hold_stamps()
    before = fresh.stamp(str(path))
    assert held.stamp(str(path)) == before
    missing = str(tmp_path / "missing.yaml")
    assert held.stamp(missing) is None
    path.write_text("a: 1\nb: 2\n")
    (tmp_path / "missing.yaml").write_text("c: 3\n")
    assert fresh.stamp(str(path)) != before  # the editor's snapshots see every change
    assert held.stamp(str(path)) == before  # `check` reads the disk as the run began
    assert held.stamp(missing) is None
    assert fresh.stamp(missing) is not None
