"""A cold code index read in the background: hover and completion answer at once without
the code while much is left to read, wait when the build is nearly done, and show the class
parameter once it is built (project/code_index.py CodeIndexes.claim and ready)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from hiera_ls.features.completion import complete
from hiera_ls.features.hover import READING_CODE, hover
from hiera_ls.project import code_index
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Position

HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
COMMON = "profile::web::port: 8080\n"
WEB = "class profile::web (Integer $port = 80) {}\n"
PARAMETER = "**Class parameter** `$port` of `profile::web`"


class GatedFiles:
    """The workspace's files, but reading a manifest waits for ``gate``: a build that is
    listed and under way, held there as long as the test wants."""

    def __init__(self, files: Any, gate: threading.Event) -> None:
        self._files = files
        self._gate = gate

    def __getattr__(self, name: str) -> Any:
        return getattr(self._files, name)

    def read(self, path: str) -> Any:
        if path.endswith(".pp"):
            self._gate.wait(30)  # a safety net against a hung test, never a speed bound
        return self._files.read(path)


def write_repo(root: Path, fillers: int) -> Path:
    (root / "data").mkdir()
    (root / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    common = root / "data" / "common.yaml"
    common.write_text(COMMON, encoding="utf-8")
    manifests = root / "modules" / "profile" / "manifests"
    manifests.mkdir(parents=True)
    (manifests / "web.pp").write_text(WEB, encoding="utf-8")
    for i in range(fillers):
        (manifests / f"f{i}.pp").write_text(f"class profile::f{i} {{}}\n", encoding="utf-8")
    return common


def test_a_far_from_done_build_leaves_the_code_out_until_it_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(code_index, "NEARLY_BUILT_FILES", 2)
    common = str(write_repo(tmp_path, fillers=5))
    workspace = Workspace([str(tmp_path)], Settings())
    snap = workspace.snapshot()
    (view,) = snap.claim_code_indexes()
    assert snap.claim_code_indexes() == ()  # claimed once
    gate = threading.Event()
    builder = threading.Thread(
        target=snap.code.index, args=(view.env, GatedFiles(snap.files, gate))
    )
    builder.start()
    try:
        shown = hover(snap, common, Position(0, 2))
        assert shown is not None and "8080" in shown.markdown
        assert READING_CODE in shown.markdown and PARAMETER not in shown.markdown
        workspace.open_buffer(common, COMMON + "profile::web::po")
        typing = workspace.snapshot()  # a data edit keeps the code indexes
        typed = complete(typing, common, Position(1, 16))
        assert typed.items == [] and typed.incomplete  # the client asks again
    finally:
        gate.set()
        builder.join(30)
    shown = hover(snap, common, Position(0, 2))
    assert shown is not None and PARAMETER in shown.markdown
    assert READING_CODE not in shown.markdown
    assert "profile::web::port" in [
        i.label for i in complete(typing, common, Position(1, 16)).items
    ]


def test_a_nearly_done_build_is_waited_for(tmp_path: Path) -> None:
    common = str(write_repo(tmp_path, fillers=5))  # 6 files: within NEARLY_BUILT_FILES
    snap = Workspace([str(tmp_path)], Settings()).snapshot()
    (view,) = snap.claim_code_indexes()
    gate = threading.Event()
    builder = threading.Thread(
        target=snap.code.index, args=(view.env, GatedFiles(snap.files, gate))
    )
    builder.start()
    threading.Timer(0.05, gate.set).start()  # lets the build go on while the hover waits
    shown = hover(snap, common, Position(0, 2))
    builder.join(30)
    assert shown is not None and PARAMETER in shown.markdown


def test_without_a_background_build_the_request_builds_it(tmp_path: Path) -> None:
    common = str(write_repo(tmp_path, fillers=0))  # hiera-ls check, or no server
    snap = Workspace([str(tmp_path)], Settings()).snapshot()
    shown = hover(snap, common, Position(0, 2))
    assert shown is not None and PARAMETER in shown.markdown
