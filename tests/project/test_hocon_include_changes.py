"""A HOCON data file holds what its includes hold: an edit of an included file (on disk or in
an editor buffer) changes the including file's data at once, as Puppet reads it at the next
lookup. Before, the including file kept its first reading until it changed itself."""

from __future__ import annotations

import time
from pathlib import Path

from hiera_ls.project.workspace import Workspace

HIERA = (
    "version: 5\nhierarchy:\n  - name: hocon\n    data_hash: hocon_data\n    path: common.conf\n"
)


def _repo(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA)
    common = tmp_path / "data" / "common.conf"
    common.write_text('a = 1\ninclude file("' + str(tmp_path / "data" / "extra.conf") + '")\n')
    extra = tmp_path / "data" / "extra.conf"
    extra.write_text("b = 2\n")
    return common, extra


def _data(ws: Workspace, path: Path) -> object:
    found = ws.snapshot().data_file(str(path))
    assert found is not None
    return found.data


def test_an_included_file_changed_on_disk_changes_the_including_file(tmp_path: Path) -> None:
    common, extra = _repo(tmp_path)
    ws = Workspace([str(tmp_path)])
    assert _data(ws, common) == {"a": 1, "b": 2}
    time.sleep(0.01)  # another mtime
    extra.write_text("b = 3\nc = 4\n")
    ws.disk_changed(str(extra), False)
    assert _data(ws, common) == {"a": 1, "b": 3, "c": 4}


def test_an_included_file_edited_in_a_buffer_changes_the_including_file(tmp_path: Path) -> None:
    common, extra = _repo(tmp_path)
    ws = Workspace([str(tmp_path)])
    assert _data(ws, common) == {"a": 1, "b": 2}
    ws.open_buffer(str(extra), "b = 2\n")
    ws.update_buffer(str(extra), "b = 5\n")
    assert _data(ws, common) == {"a": 1, "b": 5}
    ws.close_buffer(str(extra))
    assert _data(ws, common) == {"a": 1, "b": 2}


def test_an_included_file_created_later_is_read(tmp_path: Path) -> None:
    common, extra = _repo(tmp_path)
    extra.unlink()
    ws = Workspace([str(tmp_path)])
    assert _data(ws, common) == {"a": 1}  # as Puppet: a missing file includes nothing
    extra.write_text("b = 7\n")
    ws.disk_changed(str(extra), True)
    assert _data(ws, common) == {"a": 1, "b": 7}
