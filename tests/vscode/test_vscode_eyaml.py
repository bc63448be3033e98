"""The packaged extension in a real VS Code encrypts an eyaml value (code-server in headless
Chromium, as tests/vscode/test_vscode_e2e.py runs it).

A repository with an eyaml level and keys made at test time; the cursor on a plain value;
the quick-fix menu offers "Encrypt value", and "Hiera: Encrypt Value with eyaml" replaces the
value with eyaml's block form, which the level's private key decrypts. Screenshots and the
report are kept in tests/vscode/results-eyaml/ (or $HIERA_LS_VSCODE_RESULTS/eyaml).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hiera_ls.source.eyaml_crypto import KeyPair, decrypt_value, load_certificate, load_private_key
from hiera_ls.source.yaml_loader import load_yaml
from tests.eyaml.support import PRIVATE, PUBLIC, write_repo
from tests.vscode.test_vscode_e2e import (  # the same toolchain, .vsix and server
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

DRIVER = Path(__file__).with_name("drive_eyaml.mjs")
FILE = "data/secrets.eyaml"
PLAIN = "to be encrypted in VS Code"
TITLE = "Encrypt value with eyaml (public key of level 'Secrets')"


@pytest.fixture(scope="module")
def eyaml_session(
    workbench: Workbench, vsix: Path, server_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("vscode-eyaml")
    workspace = write_repo(
        tmp / "repo",
        {FILE: f"---\nplain_value: {PLAIN}\n", "data/common.yaml": "---\ncommon: 1\n"},
    )
    settings = {
        **QUIET_SETTINGS,
    }
    machine = {"hiera.server.path": str(server_path)}
    with code_server(workbench, vsix, tmp, workspace, settings, machine) as url:
        yield {"url": url, "workspace": workspace}


@pytest.fixture(scope="module")
def eyaml_report(workbench: Workbench, eyaml_session: dict[str, Any]) -> dict[str, Any]:
    results = results_dir("eyaml")
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
    return run_driver(workbench, DRIVER, config, results)


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
