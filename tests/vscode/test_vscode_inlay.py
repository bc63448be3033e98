"""The packaged extension in a real VS Code draws hiera-ls' inlay hints (code-server in
headless Chromium, as tests/vscode/test_vscode_e2e.py runs it).

The example control repository with the facts profile web01.example.com: in
data/common.yaml, ``profile::ssh::port: 22`` is overridden by the node's own file, and the
editor's line shows ``= 2222 from data/nodes/web01.example.com.ya…`` after it (VS Code
cuts a hint after 43 characters; the whole text is in its tooltip). Screenshots
and the report are kept in tests/vscode/results-inlay/ (or $HIERA_LS_VSCODE_RESULTS/inlay).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.vscode.test_vscode_e2e import (  # the same toolchain, .vsix and server
    FIXTURE,
    _line_of,
    server_path,
    vsix,
    workbench,
)
from tests.vscode.toolchain import (
    QUIET_SETTINGS,
    Workbench,
    code_server,
    results_dir,
    run_driver,
)

__all__ = ["server_path", "vsix", "workbench"]  # fixtures used by name

DRIVER = Path(__file__).with_name("drive_inlay.mjs")
FILE = "data/common.yaml"
LINE_TEXT = "profile::ssh::port: 22"
HINT = "= 2222 from data/nodes/web01"  # VS Code cuts hints after 43 characters


@pytest.fixture(scope="module")
def inlay_session(
    workbench: Workbench, vsix: Path, server_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("vscode-inlay")
    workspace = tmp / "control-repo"
    shutil.copytree(FIXTURE, workspace)
    settings = {
        **QUIET_SETTINGS,
        "hiera.factsProfile": "web01.example.com",
    }
    machine = {"hiera.server.path": str(server_path)}
    with code_server(workbench, vsix, tmp, workspace, settings, machine) as url:
        yield {"url": url, "workspace": workspace}


@pytest.fixture(scope="module")
def inlay_report(workbench: Workbench, inlay_session: dict[str, Any]) -> dict[str, Any]:
    results = results_dir("inlay")
    config = {
        "url": inlay_session["url"],
        "results": str(results),
        "playwright": str(workbench.playwright),
        "chromium": str(workbench.chromium),
        "steps": {
            "file": FILE,
            "line": _line_of(FIXTURE / FILE, LINE_TEXT),
            "column": 1,
            "hint": HINT,
        },
    }
    return run_driver(workbench, DRIVER, config, results)


def test_an_overridden_key_shows_the_value_the_node_gets_and_its_file(
    inlay_report: dict[str, Any],
) -> None:
    for name in ("open", "hint"):
        step = inlay_report["steps"].get(name)
        assert step is not None, f"step {name} did not run: {inlay_report['steps']}"
        assert step["ok"], f"step {name} failed: {step.get('error')} ({step.get('failureShot')})"
    text = inlay_report["steps"]["hint"]["text"]
    assert text.startswith(LINE_TEXT) and HINT in text, text
