"""A second, independent client: headless Neovim's built-in LSP client drives hiera-ls.

Neovim converts the server's UTF-16 ranges to byte columns itself, so a diagnostic after
an emoji lands on the right byte only if the server counted UTF-16 units correctly.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.conftest import CONTROL_REPO, copy_repo

pytestmark = pytest.mark.editor

NVIM = shutil.which("nvim")
DRIVER = Path(__file__).with_name("nvim") / "drive.lua"
README_DRIVER = Path(__file__).with_name("nvim") / "readme_user.lua"
BANNER = "profile::motd::banner: \"Hé 🚀 %{looKup('profile::base::domain')}\"\n"


@pytest.mark.skipif(
    NVIM is None and os.environ.get("CI") != "true", reason="Neovim is not installed"
)
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
        env=env,
        check=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in result, result.get("error")
    assert result["got_diagnostics"] is True
    assert result["offset_encoding"] == "utf-16"

    by_code = {d["user_data"]["lsp"]["code"]: d for d in result["diagnostics"]}
    # the token, once: the lookup of the key holding it fails because of it, which the
    # token's diagnostic says (not another one beside it)
    assert set(by_code) == {"interpolation-unknown-method"}
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


def readme_init_lua() -> str:
    """The README's Neovim init.lua, verbatim."""
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    match = re.search(r"```lua\n(-- ~/\.config/nvim/init\.lua\n.*?)```", readme, re.S)
    assert match is not None, "README's Neovim section has no init.lua block"
    return match.group(1)


@pytest.mark.skipif(
    NVIM is None and os.environ.get("CI") != "true", reason="Neovim is not installed"
)
def test_the_readme_neovim_setup_as_a_new_user(tmp_path: Path) -> None:
    """The README's init.lua and `hiera-ls` on PATH: one server for the repository's files."""
    assert NVIM is not None, "CI=true but nvim is not installed"
    config = tmp_path / "config" / "nvim"
    config.mkdir(parents=True)
    (config / "init.lua").write_text(readme_init_lua(), encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "hiera-ls"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m hiera_ls "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    repo = copy_repo(CONTROL_REPO, tmp_path)
    node = repo / "data" / "nodes" / "web01.example.com.yaml"
    node.write_text(node.read_text(encoding="utf-8") + BANNER, encoding="utf-8")
    lines = node.read_text(encoding="utf-8").splitlines()
    site = repo / "manifests" / "site.pp"
    site.write_text(
        site.read_text(encoding="utf-8").replace(
            "node default {\n", "node default {\n  $domain = hiera('profile::base::domain')\n"
        ),
        encoding="utf-8",
    )
    out = tmp_path / "nvim-readme.json"
    env = dict(
        os.environ,
        PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
        HIERA_OUT=str(out),
        HIERA_FILE=str(node),
        HIERA_SECOND=str(repo / "site-modules" / "profile" / "data" / "common.yaml"),
        HIERA_MANIFEST=str(site),
        HIERA_HOVER_LINE=str(
            next(i for i, line in enumerate(lines) if line.startswith("profile::ssh::port"))
        ),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_STATE_HOME=str(tmp_path / "state"),
    )
    subprocess.run(
        [NVIM, "--headless", "-n", "-c", f"luafile {README_DRIVER}"],
        env=env,
        check=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        cwd=tmp_path,
    )
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in result, result.get("error")
    assert result["filetype"] == "yaml" and result["got_diagnostics"] is True, result
    assert set(result["codes"]) == {"interpolation-unknown-method"}
    assert result["root_dir"] == str(repo)
    # the manifest's hiera() call: the hint, from the same server
    assert result["manifest_filetype"] == "puppet" and result["manifest_diagnostics"], result
    assert result["manifest_codes"] == ["hiera-function"], result
    assert result["hover"].startswith("**`profile::ssh::port`** for `web01.example.com`")
    # the module's data file joins the running server instead of starting another
    assert result["second_attached"] is True and result["servers"] == 1
