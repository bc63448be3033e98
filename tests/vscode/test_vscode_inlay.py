"""The packaged extension in a real VS Code draws hiera-ls' inlay hints (code-server in
headless Chromium, as tests/vscode/test_vscode_e2e.py runs it).

The example control repository with the facts profile web01.example.com: in
data/common.yaml, ``profile::ssh::port: 22`` is overridden by the node's own file, and the
editor's line shows ``= 2222 from data/nodes/web01.example.com.ya…`` after it (VS Code
cuts a hint after 43 characters; the whole text is in its tooltip). Screenshots
and the report are kept in tests/vscode/results-inlay/ (or $HIERA_LS_VSCODE_RESULTS/inlay).
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.vscode.test_vscode_e2e import (  # the same toolchain, .vsix and server
    FIXTURE,
    START_LIMIT_S,
    _free_port,
    _line_of,
    server_path,
    vsix,
    workbench,
)
from tests.vscode.toolchain import Workbench

__all__ = ["server_path", "vsix", "workbench"]  # fixtures used by name

DRIVER = Path(__file__).with_name("drive_inlay.mjs")
FILE = "data/common.yaml"
LINE_TEXT = "profile::ssh::port: 22"
HINT = "= 2222 from data/nodes/web01"  # VS Code cuts hints after 43 characters


def _results() -> Path:
    override = os.environ.get("HIERA_LS_VSCODE_RESULTS")
    results = Path(override) / "inlay" if override else Path(__file__).with_name("results-inlay")
    if results.exists():
        shutil.rmtree(results)
    results.mkdir(parents=True)
    return results


@pytest.fixture(scope="module")
def inlay_session(
    workbench: Workbench, vsix: Path, server_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("vscode-inlay")
    workspace = tmp / "control-repo"
    shutil.copytree(FIXTURE, workspace)
    user_data = tmp / "user-data"
    (user_data / "User").mkdir(parents=True)
    (user_data / "Machine").mkdir(parents=True)
    settings = {
        "security.workspace.trust.enabled": False,
        "hiera.factsProfile": "web01.example.com",
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "chat.disableAIFeatures": True,
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
        "update.mode": "none",
        "telemetry.telemetryLevel": "off",
        "editor.minimap.enabled": False,
        "workbench.reduceMotion": "on",
    }
    (user_data / "User" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
    (user_data / "Machine" / "settings.json").write_text(
        json.dumps({"hiera.server.path": str(server_path)}), encoding="utf-8"
    )
    extensions = tmp / "extensions"
    xdg = tmp / "xdg"
    env = workbench.env(XDG_CONFIG_HOME=str(xdg / "config"), XDG_DATA_HOME=str(xdg / "data"))
    install = subprocess.run(
        [str(workbench.node), str(workbench.code_server), "--user-data-dir", str(user_data),
         "--extensions-dir", str(extensions), "--install-extension", str(vsix)],
        env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert install.returncode == 0, install.stdout + install.stderr
    port = _free_port()
    log = (tmp / "code-server.log").open("w", encoding="utf-8")
    proc = subprocess.Popen(
        [str(workbench.node), str(workbench.code_server), "--auth", "none",
         "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry", "--disable-update-check",
         "--disable-workspace-trust", "--user-data-dir", str(user_data),
         "--extensions-dir", str(extensions), str(workspace)],
        env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + START_LIMIT_S
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5) as a:
                    if a.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            assert proc.poll() is None, (tmp / "code-server.log").read_text()
            assert time.monotonic() < deadline, "code-server did not answer on loopback"
            time.sleep(0.5)
        yield {"url": f"http://127.0.0.1:{port}/?folder={workspace}", "workspace": workspace}
    finally:
        if proc.poll() is None:  # the process group started here, and only it
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
        log.close()


@pytest.fixture(scope="module")
def inlay_report(workbench: Workbench, inlay_session: dict[str, Any]) -> dict[str, Any]:
    results = _results()
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
    path = results / "config.json"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    run = subprocess.run(
        [str(workbench.node), str(DRIVER), str(path)],
        env=workbench.env(), capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    (results / "driver.log").write_text(run.stdout + run.stderr, encoding="utf-8")
    assert run.returncode == 0, run.stdout + run.stderr
    data: dict[str, Any] = json.loads((results / "report.json").read_text(encoding="utf-8"))
    return data


def test_an_overridden_key_shows_the_value_the_node_gets_and_its_file(
    inlay_report: dict[str, Any],
) -> None:
    for name in ("open", "hint"):
        step = inlay_report["steps"].get(name)
        assert step is not None, f"step {name} did not run: {inlay_report['steps']}"
        assert step["ok"], f"step {name} failed: {step.get('error')} ({step.get('failureShot')})"
    text = inlay_report["steps"]["hint"]["text"]
    assert text.startswith(LINE_TEXT) and HINT in text, text
