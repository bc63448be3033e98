"""The packaged extension in a real VS Code shows the "Hiera: Key" side view (code-server in
headless Chromium, as tests/vscode/test_vscode_e2e.py runs it).

The example control repository with the facts profile web01.example.com: the cursor on
``profile::ssh::port`` in data/common.yaml, the view opened from the palette lists the three
profiles with their values (web01 gets 2222 from its node file, the others 22) and web01's
hierarchy (each level's file, ✓/✗ it exists, ● it holds the key). The view follows the cursor
to ``ntp::servers`` (whose module's levels join the list), follows a profile picked from the
status bar and an unsaved edit, and says what to do where there is no key. Screenshots and
the report are kept in tests/vscode/results-sideview/ (or $HIERA_LS_VSCODE_RESULTS/sideview).
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

DRIVER = Path(__file__).with_name("drive_sideview.mjs")
FILE = "data/common.yaml"
KEY = "profile::ssh::port"
NEXT_KEY = "ntp::servers"
BEFORE = "web01.example.com"
AFTER = "db01.example.com"


@pytest.fixture(scope="module")
def sideview_session(
    workbench: Workbench, vsix: Path, server_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("vscode-sideview")
    workspace = tmp / "control-repo"
    shutil.copytree(FIXTURE, workspace)
    settings = {
        **QUIET_SETTINGS,
        "hiera.factsProfile": BEFORE,
        "editor.inlayHints.enabled": "off",
    }
    machine = {"hiera.server.path": str(server_path)}
    with code_server(workbench, vsix, tmp, workspace, settings, machine) as url:
        yield {"url": url, "workspace": workspace}


@pytest.fixture(scope="module")
def sideview_report(workbench: Workbench, sideview_session: dict[str, Any]) -> dict[str, Any]:
    results = results_dir("sideview")
    config = {
        "url": sideview_session["url"],
        "results": str(results),
        "playwright": str(workbench.playwright),
        "chromium": str(workbench.chromium),
        "steps": {
            "file": FILE,
            "line": _line_of(FIXTURE / FILE, f"{KEY}:"),
            "nextLine": _line_of(FIXTURE / FILE, f"{NEXT_KEY}:"),
            "nextKey": NEXT_KEY,
            "emptyLine": 1,  # ---
            "profileBefore": BEFORE,
            "profileAfter": AFTER,
            "typed": "0",  # profile::ssh::port: 22 -> 220, unsaved
            "editedValue": "220",
        },
    }
    return run_driver(workbench, DRIVER, config, results)


def _step(report: dict[str, Any], name: str) -> dict[str, Any]:
    step: dict[str, Any] | None = report["steps"].get(name)
    assert step is not None, f"step {name} did not run: {report['steps']}"
    assert step["ok"], f"step {name} failed: {step.get('error')} ({step.get('failureShot')})"
    return step


def _rows(step: dict[str, Any]) -> dict[str, str]:
    return {row["label"]: row["description"] for row in step["rows"]}


def test_the_view_lists_every_profiles_value_and_the_active_profiles_levels(
    sideview_report: dict[str, Any],
) -> None:
    step = _step(sideview_report, "view")
    assert KEY in step["header"]
    rows = _rows(step)
    assert rows["Profiles (3)"] == ""
    assert rows[AFTER] == "22"
    assert rows[BEFORE] == "2222 (active)"
    assert rows["debian11.example.com"] == "22"
    assert rows[f"Hierarchy ({BEFORE})"] == "production"
    assert rows["Per-node data"] == f"data/nodes/{BEFORE}.yaml ✓ ● = 2222"
    assert rows["Per-role data"] == "data/roles/web.yaml ✓ ○"
    assert rows["Common data"] == "data/common.yaml ✓ ● = 22"
    labels = [row["label"] for row in step["rows"]]
    assert labels.index("Profiles (3)") < labels.index(f"Hierarchy ({BEFORE})")


def test_the_view_follows_the_cursor_to_another_key(sideview_report: dict[str, Any]) -> None:
    step = _step(sideview_report, "follow")
    assert NEXT_KEY in step["header"] and KEY not in step["header"]
    rows = _rows(step)
    assert (
        rows["Per-datacenter data"] == 'data/datacenter/ams1.yaml ✓ ● = ["ntp1.ams1.example.com"]'
    )
    assert any(label.endswith("(module ntp)") for label in rows)


def test_the_view_follows_the_profile_picked_in_the_status_bar(
    sideview_report: dict[str, Any],
) -> None:
    rows = _rows(_step(sideview_report, "profile"))
    assert f"Hierarchy ({AFTER})" in rows and f"Hierarchy ({BEFORE})" not in rows
    assert rows[AFTER].endswith("(active)")
    assert not rows[BEFORE].endswith("(active)")
    assert rows["Per-node data"].startswith(f"data/nodes/{AFTER}.yaml ✓")


def test_the_view_follows_an_unsaved_edit(sideview_report: dict[str, Any]) -> None:
    rows = _rows(_step(sideview_report, "edit"))
    assert rows[AFTER] == "220 (active)"  # db01, active since the profile step
    assert rows[BEFORE] == "2222"  # its node file wins
    assert rows["Common data"] == "data/common.yaml ✓ ● = 220"


def test_the_view_says_what_to_do_where_there_is_no_key(sideview_report: dict[str, Any]) -> None:
    step = _step(sideview_report, "empty")
    assert step["message"].startswith("Place the cursor on a key")
    assert step["rows"] == []
