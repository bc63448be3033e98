"""The VS Code client's own unit tests (node's test runner), run with the rest of the suite.

They cover the logic that does not need VS Code: which command starts the server, the
settings sent as initializationOptions, the facts profile picker's rows, the status bar
text, the explain tab, and the manifest (every server setting and command contributed).
"""

from __future__ import annotations

import re
import shutil
import subprocess

from tests.vscode.toolchain import CLIENT, client_deps_installed, npm, skip_or_fail


def test_client_unit_tests_pass() -> None:
    npm_path = npm()
    if shutil.which("node") is None or npm_path is None:
        skip_or_fail("node and npm are not installed")
    if not client_deps_installed():
        skip_or_fail("client-vscode/node_modules is missing")
    assert npm_path is not None
    run = subprocess.run(
        [npm_path, "test"], cwd=CLIENT, capture_output=True, text=True, timeout=600, check=False
    )
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    passed = re.search(r"^\S* ?pass (\d+)$", run.stdout, re.MULTILINE)
    failed = re.search(r"^\S* ?fail (\d+)$", run.stdout, re.MULTILINE)
    assert passed is not None and failed is not None, output
    assert int(failed.group(1)) == 0, output
    assert int(passed.group(1)) >= 30, output  # the suite ran, not an empty glob
