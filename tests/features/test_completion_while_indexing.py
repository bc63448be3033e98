"""Key completion while the server's start-up checks index the environment: it lists the
keys of the files indexed so far and says the list is incomplete (the client asks again as
typing goes on), rather than reading every other file on the server's thread too."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.features.completion import complete
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Position

HIERA = """\
version: 5
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: common
    path: common.yaml
"""
TYPED = "x: \"%{lookup('profile::"


def test_lookup_completion_lists_the_indexed_files_while_indexing(tmp_path: Path) -> None:
    (tmp_path / "hiera.yaml").write_text(HIERA)
    (tmp_path / "data" / "nodes").mkdir(parents=True)
    (tmp_path / "data" / "common.yaml").write_text("profile::common::key: 1\n")
    for n in range(3):
        (tmp_path / "data" / "nodes" / f"n{n}.yaml").write_text(f"profile::node{n}::key: 1\n")
    node = str(tmp_path / "data" / "nodes" / "n0.yaml")
    ws = Workspace([str(tmp_path)])
    ws.open_buffer(node, f"profile::node0::key: 1\n{TYPED}')}}\"\n")
    at = Position(1, len(TYPED))
    snapshot = ws.snapshot()
    partial = complete(snapshot, node, at, indexed_only=True)
    labels = {i.label for i in partial.items}
    assert "profile::node0::key" in labels and "profile::common::key" not in labels  # its own
    assert partial.incomplete
    assert not snapshot.key_index.peek(str(tmp_path / "data" / "common.yaml"))  # not read
    whole = complete(snapshot, node, at)  # the index's turn: every file
    assert {i.label for i in whole.items} >= {
        "profile::common::key",
        "profile::node0::key",
        "profile::node1::key",
        "profile::node2::key",
    }
    assert not whole.incomplete
    again = complete(snapshot, node, at, indexed_only=True)  # indexed now: all of them
    assert {i.label for i in again.items} == {i.label for i in whole.items}
    assert not again.incomplete
