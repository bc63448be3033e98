"""A second, independent client: headless Neovim's built-in LSP client drives hiera-ls.

Neovim converts the server's UTF-16 ranges to byte columns itself, so a diagnostic after
an emoji lands on the right byte only if the server counted UTF-16 units correctly.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import CONTROL_REPO, copy_repo

NVIM = shutil.which("nvim")
DRIVER = Path(__file__).with_name("nvim") / "drive.lua"
BANNER = "profile::motd::banner: \"Hé 🚀 %{looKup('profile::base::domain')}\"\n"


@pytest.mark.skipif(NVIM is None and os.environ.get("CI") != "true", reason="Neovim is not installed")
def test_neovim_shows_diagnostics_and_hover(tmp_path: Path) -> None:
    assert NVIM is not None, "CI=true but nvim is not installed"
    repo = copy_repo(CONTROL_REPO, tmp_path)
    node = repo / "data" / "nodes" / "web01.example.com.yaml"
    node.write_text(node.read_text(encoding="utf-8") + BANNER, encoding="utf-8")
    lines = node.read_text(encoding="utf-8").splitlines()
    port_line = next(i for i, line in enumerate(lines) if line.startswith("profile::ssh::port"))
    out = tmp_path / "nvim-result.json"
    env = dict(
        os.environ,
        HIERA_OUT=str(out),
        HIERA_FILE=str(node),
        HIERA_ROOT=str(repo),
        HIERA_PYTHON=sys.executable,
        HIERA_PROFILE="web01.example.com",
        HIERA_HOVER_LINE=str(port_line),
        HIERA_HOVER_CHARACTER="3",
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_STATE_HOME=str(tmp_path / "state"),
    )
    subprocess.run(
        [NVIM, "--headless", "--clean", "-n", "-u", "NONE", "-c", f"luafile {DRIVER}"],
        env=env, check=True, timeout=180, stdin=subprocess.DEVNULL, capture_output=True,
    )
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in result, result.get("error")
    assert result["got_diagnostics"] is True
    assert result["offset_encoding"] == "utf-16"

    by_code = {d["user_data"]["lsp"]["code"]: d for d in result["diagnostics"]}
    # the token itself, and (with web01's profile) the lookup of the key that holds it
    assert set(by_code) == {"interpolation-unknown-method", "lookup-fails-for-profile"}
    diagnostic = by_code["interpolation-unknown-method"]
    assert diagnostic["severity"] == 1  # vim.diagnostic.severity.ERROR
    banner_line = len(lines) - 1
    text = lines[banner_line]
    token = "%{looKup('profile::base::domain')}"
    assert diagnostic["lnum"] == banner_line
    # Neovim stores byte columns: é is 2 bytes, 🚀 is 4
    assert diagnostic["col"] == len(text[: text.index(token)].encode("utf-8"))
    assert diagnostic["end_col"] == diagnostic["col"] + len(token)

    hover = result["hover"]["contents"]
    assert hover["kind"] == "markdown"
    assert hover["value"].startswith("**`profile::ssh::port`** for `web01.example.com`")
    assert "```yaml\n2222\n```" in hover["value"]
    assert "— **wins**" in hover["value"]
