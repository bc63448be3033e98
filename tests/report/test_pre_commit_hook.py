"""The pre-commit hook, through pre-commit itself.

``pre-commit try-repo`` installs this checkout into a fresh virtualenv as pre-commit users
get it (pip needs the package index the first time; the environment is kept in
``~/.cache/hiera-ls/pre-commit`` for later runs of the same commit), then runs the hook in
a git repository of its own.  Without pre-commit, or when the environment cannot be
installed (no network), the run is skipped; the manifest is checked by pre-commit's own
reader either way.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.install  # pre-commit builds its own environment with pip

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "control-repo"
pre_commit = pytest.importorskip("pre_commit")


def test_the_manifest_is_what_pre_commit_reads() -> None:
    from pre_commit.clientlib import load_manifest

    (hook,) = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))
    assert hook["id"] == "hiera-ls-check"
    assert hook["entry"] == "hiera-ls check"
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is False


def _git(cwd: Path, *argv: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=t@example.com", "-c", "user.name=t", *argv],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def _try_repo(repo: Path) -> subprocess.CompletedProcess[str]:
    home = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "hiera-ls"
    env = {**os.environ, "PRE_COMMIT_HOME": str(home / "pre-commit")}
    env.pop("GITHUB_ACTIONS", None)
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "try-repo",
            str(ROOT),
            "hiera-ls-check",
            "--all-files",
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )


def test_the_hook_passes_a_clean_repository_and_fails_a_broken_one(tmp_path: Path) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE, repo)
    _git(repo, "init", "-q")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-qm", "control repository")
    clean = _try_repo(repo)
    if (
        "Installing environment" in clean.stdout
        and clean.returncode != 0
        and "Passed" not in (clean.stdout)
    ):
        pytest.skip(f"the hook's environment could not be installed: {clean.stdout[-300:]}")
    assert clean.returncode == 0, clean.stdout + clean.stderr
    assert "hiera-ls check" in clean.stdout and "Passed" in clean.stdout
    common = repo / "data" / "common.yaml"
    common.write_text(common.read_text() + "broken: [unclosed\n")
    _git(repo, "add", "-A")
    broken = _try_repo(repo)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "Failed" in broken.stdout
    assert "data/common.yaml:" in broken.stdout and "yaml-syntax" in broken.stdout
