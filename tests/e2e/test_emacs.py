"""A third, independent client: Emacs with eglot, configured exactly as the README says.

The init file is the README's Emacs snippet, copied out of README.md, so the test fails when
the README's configuration stops working.  Emacs runs in batch mode, but does what a user
does: visits a data file of a Git checkout, runs M-x eglot, reads Flymake's diagnostics,
the hover ElDoc shows, jumps with M-., then picks another facts profile with .dir-locals.el
and M-x eglot-signal-didChangeConfiguration, as the README describes.
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

EMACS = shutil.which("emacs")
DRIVER = Path(__file__).with_name("emacs") / "drive.el"
README = Path(__file__).resolve().parents[2] / "README.md"
EDITORS = README.parent / "docs" / "editors.md"
EXTRA = "site::motd_extra: \"Hé 🚀 %{looKup('profile::base::domain')}\"\n"
# What an interactive start does before init.el: activate the installed packages.
PROBE = """(progn (require 'package) (package-activate-all)
  (dolist (library '("eglot" "yaml-mode"))
    (princ (format "%s\\n" (if (locate-library library) "found" "missing")))))"""


def readme_emacs_section() -> str:
    text = README.read_text(encoding="utf-8")
    return text.split("### Emacs (eglot)", 1)[1].split("\n### ", 1)[0]


def editors_emacs_section() -> str:
    text = EDITORS.read_text(encoding="utf-8")
    return text.split("## Emacs (eglot)", 1)[1].split("\n## ", 1)[0]


def readme_init() -> str:
    """The README's init.el snippet, verbatim."""
    match = re.search(r"```elisp\n(;; ~/\.emacs\.d/init\.el\n.*?)```", readme_emacs_section(), re.S)
    assert match is not None, "README's Emacs section has no init.el block"
    return match.group(1)


def readme_dir_locals() -> str:
    """docs/editors.md's .dir-locals.el example (it picks db01.example.com)."""
    match = re.search(
        r"```elisp\n(;; <control repository>/\.dir-locals\.el\n.*?)```",
        editors_emacs_section(),
        re.S,
    )
    assert match is not None, "docs/editors.md's Emacs section has no .dir-locals.el block"
    return match.group(1)


def code_of(flymake_text: str) -> str:
    """The hiera-ls code in a Flymake message, which eglot writes as `hiera-ls [code]: ...`."""
    match = re.match(r"hiera-ls \[([a-z0-9-]+)\]: ", flymake_text)
    assert match is not None, flymake_text
    return match.group(1)


def missing_packages(env: dict[str, str]) -> list[str]:
    """Which of eglot and yaml-mode this Emacs cannot load (README: Emacs 28 has neither
    built in).
    """
    probe = subprocess.run(
        [str(EMACS), "--batch", "--eval", PROBE],
        env=env,
        check=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    ).stdout
    return [
        name
        for name, state in zip(("eglot", "yaml-mode"), probe.split(), strict=True)
        if state != "found"
    ]


def test_emacs_eglot_shows_diagnostics_hover_definition_and_profiles(tmp_path: Path) -> None:
    in_ci = os.environ.get("CI") == "true"
    if EMACS is None:
        assert not in_ci, "CI=true but emacs is not installed"
        pytest.skip("Emacs is not installed")
    home = tmp_path / "home"
    (home / ".emacs.d").mkdir(parents=True)
    init = home / ".emacs.d" / "init.el"
    init.write_text(readme_init(), encoding="utf-8")
    # the README's `hiera-ls` on PATH: this interpreter's server
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "hiera-ls"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m hiera_ls "$@"\n', encoding="utf-8")
    launcher.chmod(0o755)
    env = dict(
        os.environ, HOME=str(home), PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    )
    missing = missing_packages(env)
    if missing:
        assert not in_ci, f"CI=true but Emacs cannot load {missing}"
        pytest.skip(
            f"Emacs cannot load {', '.join(missing)} (apt-get install elpa-eglot elpa-yaml-mode)"
        )

    # not under version control: eglot's project root is then the file's own directory
    # (data/), and the server finds the environment above it
    repo = copy_repo(CONTROL_REPO, tmp_path)
    common = repo / "data" / "common.yaml"
    common.write_text(common.read_text(encoding="utf-8") + EXTRA, encoding="utf-8")
    lines = common.read_text(encoding="utf-8").splitlines()
    port_line = next(i for i, line in enumerate(lines) if line.startswith("profile::ssh::port:"))
    email_line = next(
        i for i, line in enumerate(lines) if line.startswith("profile::base::admin_email:")
    )
    domain_line = next(
        i for i, line in enumerate(lines) if line.startswith("profile::base::domain:")
    )
    out = tmp_path / "emacs-result.json"
    env.update(
        HIERA_INIT=str(init),
        HIERA_OUT=str(out),
        HIERA_FILE=str(common),
        HIERA_REPO=str(repo),
        HIERA_WAIT_CODES="interpolation-unknown-method",
        HIERA_HOVER_LINE=str(port_line),
        HIERA_HOVER_CHARACTER="3",
        HIERA_DEFINITION_LINE=str(email_line),
        HIERA_DEFINITION_CHARACTER=str(lines[email_line].index("profile::base::domain") + 3),
        HIERA_DIR_LOCALS=readme_dir_locals(),
        HIERA_SWITCH_PROFILE="db01.example.com",
    )
    run = subprocess.run(
        [str(EMACS), "--batch", "-l", str(DRIVER)],
        env=env,
        cwd=repo,
        timeout=300,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
    )
    assert out.exists(), f"Emacs wrote no result (exit {run.returncode}):\n{run.stderr[-3000:]}"
    result = json.loads(out.read_text(encoding="utf-8"))
    assert "error" not in result, f"{result['error']}\n{run.stderr[-3000:]}"

    # the README's eglot-server-programs entry matches the mode YAML files get
    assert result["major_mode"] == "yaml-mode"
    assert Path(result["project_root"]) == common.parent.resolve()

    # Flymake: the token, once: the lookup of the key holding it fails because of it, and
    # that is said with the token, not beside it
    by_code = {code_of(d["text"]): d for d in result["diagnostics"]}
    assert set(by_code) == {"interpolation-unknown-method"}
    token = by_code["interpolation-unknown-method"]
    assert token["type"] == "eglot-error"
    assert "method names are case-sensitive" in token["text"]
    extra_line = len(lines) - 1
    text = lines[extra_line]
    start = text.index("%{looKup")
    # Emacs counts code points: 🚀 is one character here, two UTF-16 units on the wire
    assert token["start"] == {"line": extra_line, "column": start}
    assert token["end"] == {
        "line": extra_line,
        "column": start + len("%{looKup('profile::base::domain')}"),
    }

    # ElDoc's hover, in plain text (eglot without markdown-mode asks for it): web01's
    # value comes from its node file, common.yaml's 22 is overridden
    hover = result["hover"]
    assert hover.startswith("profile::ssh::port for web01.example.com\n")
    assert "\n    2222\n" in hover and "**" not in hover and "```" not in hover
    assert "data/nodes/web01.example.com.yaml:2" in hover and "— wins" in hover
    assert "overridden: 22" in hover

    # M-. on the argument of %{lookup('profile::base::domain')} lands on the key's line
    assert result["definition"] == {"file": str(common.resolve()), "line": domain_line, "column": 0}

    # .dir-locals.el + M-x eglot-signal-didChangeConfiguration switch the profile
    assert result["profiles"][0] == "web01.example.com"
    assert result["profiles"][-1] == "db01.example.com"
    switched = result["switched_hover"]
    assert switched.startswith("profile::ssh::port for db01.example.com\n")
    assert "\n    22\n" in switched
