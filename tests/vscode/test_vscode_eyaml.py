"""The packaged extension in a real VS Code encrypts an eyaml value (code-server in headless
Chromium, as tests/vscode/test_vscode_e2e.py runs it).

A repository with an eyaml level and keys made at test time; the cursor on a plain value;
the quick-fix menu offers "Encrypt value", and "Hiera: Encrypt Value with eyaml" replaces the
value with eyaml's block form, which the level's private key decrypts. Screenshots and the
report are kept in tests/vscode/results-eyaml/ (or $HIERA_LS_VSCODE_RESULTS/eyaml).
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

from hiera_ls.source.eyaml_crypto import KeyPair, decrypt_value, load_certificate, load_private_key
from hiera_ls.source.yaml_loader import load_yaml
from tests.eyaml.support import PRIVATE, PUBLIC, write_repo
from tests.vscode.test_vscode_e2e import (  # the same toolchain, .vsix and server
    START_LIMIT_S,
    _free_port,
    server_path,
    vsix,
    workbench,
)
from tests.vscode.toolchain import Workbench

__all__ = ["server_path", "vsix", "workbench"]  # fixtures used by name

DRIVER = Path(__file__).with_name("drive_eyaml.mjs")
FILE = "data/secrets.eyaml"
PLAIN = "to be encrypted in VS Code"
TITLE = "Encrypt value with eyaml (public key of level 'Secrets')"


def _results() -> Path:
    override = os.environ.get("HIERA_LS_VSCODE_RESULTS")
    results = Path(override) / "eyaml" if override else Path(__file__).with_name("results-eyaml")
    if results.exists():
        shutil.rmtree(results)
    results.mkdir(parents=True)
    return results


@pytest.fixture(scope="module")
def eyaml_session(
    workbench: Workbench, vsix: Path, server_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("vscode-eyaml")
    workspace = write_repo(
        tmp / "repo",
        {FILE: f"---\nplain_value: {PLAIN}\n", "data/common.yaml": "---\ncommon: 1\n"},
    )
    user_data = tmp / "user-data"
    (user_data / "User").mkdir(parents=True)
    (user_data / "Machine").mkdir(parents=True)
    settings = {
        "security.workspace.trust.enabled": False,
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
def eyaml_report(workbench: Workbench, eyaml_session: dict[str, Any]) -> dict[str, Any]:
    results = _results()
    config = {
        "url": eyaml_session["url"],
        "results": str(results),
        "playwright": str(workbench.playwright),
        "chromium": str(workbench.chromium),
        "steps": {
            "file": FILE,
            "path": str(eyaml_session["workspace"] / FILE),
            "line": 2,
            "column": 16,
            "title": TITLE,
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


def _step(report: dict[str, Any], name: str) -> dict[str, Any]:
    step: dict[str, Any] | None = report["steps"].get(name)
    assert step is not None, f"step {name} did not run: {report['steps']}"
    assert step["ok"], f"step {name} failed: {step.get('error')} ({step.get('failureShot')})"
    return step


def test_the_quick_fix_menu_offers_encrypt_on_a_plain_value(eyaml_report: dict[str, Any]) -> None:
    items = _step(eyaml_report, "quickFixMenu")["items"]
    assert any(TITLE in item for item in items), items


def test_encrypt_value_writes_eyamls_block_form_that_the_key_decrypts(
    eyaml_report: dict[str, Any], eyaml_session: dict[str, Any]
) -> None:
    step = _step(eyaml_report, "encrypt")
    assert "ENC[PKCS7," in step["text"] and PLAIN not in step["text"]
    workspace: Path = eyaml_session["workspace"]
    saved = (workspace / FILE).read_text(encoding="utf-8")
    assert saved.startswith("---\nplain_value: >\n  ENC[PKCS7,")
    value = load_yaml(FILE, saved).value
    assert isinstance(value, dict)
    keys = KeyPair(
        load_certificate((workspace / "keys" / PUBLIC).read_bytes()),
        load_private_key((workspace / "keys" / PRIVATE).read_bytes()),
    )
    assert decrypt_value(value["plain_value"], [keys]).strip() == PLAIN
