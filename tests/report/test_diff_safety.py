"""``hiera-ls diff`` on a repository whose ``.git`` was prepared by someone else: it runs none
of the programs the repository configures, writes only what Hiera reads, and removes its
temporary checkout however it ends (docs/security.md, "hiera-ls diff").

Before, ``core.fsmonitor``, the ``post-index-change`` hook and a smudge filter ran (each
wrote its marker file), every blob of a revision was written to /tmp, and SIGTERM left the
checkout behind.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.report import git_tree
from hiera_ls.report.git_tree import Repository, commit_of, repository_at, write_tree
from tests.hang_guard import HUNG_S
from tests.report.diff_fixture import Planted, copy_planted, git, planted_repo, write


def _marker_script(directory: Path, name: str) -> tuple[str, Path]:
    """A program that leaves ``name`` behind when anything runs it (and passes its input
    through, as a filter must)."""
    marker = directory / f"{name}.ran"
    script = directory / f"{name}.sh"
    script.write_text(f"#!/bin/sh\ntouch '{marker}'\ncat\n")
    script.chmod(0o755)
    return str(script), marker


@pytest.fixture
def rigged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, planted_template: Planted
) -> tuple[Path, str, list[Path]]:
    """The planted repository with an fsmonitor, hooks, filters and a system config that
    would each leave a marker file."""
    root = tmp_path / "repo"
    before, _ = copy_planted(planted_template, root)
    tools = tmp_path / "tools"
    tools.mkdir()
    markers = []
    monitor, marker = _marker_script(tools, "fsmonitor")
    git(root, "config", "core.fsmonitor", monitor)
    markers.append(marker)
    for hook in ("post-index-change", "post-checkout", "reference-transaction"):
        script, marker = _marker_script(tools, hook)
        hooks = root / ".git" / "hooks"
        hooks.mkdir(exist_ok=True)
        (hooks / hook).symlink_to(script)
        markers.append(marker)
    smudge, marker = _marker_script(tools, "smudge")
    clean, clean_marker = _marker_script(tools, "clean")
    git(root, "config", "filter.mark.smudge", smudge)
    git(root, "config", "filter.mark.clean", clean)
    git(root, "config", "filter.mark.required", "true")
    markers += [marker, clean_marker]
    system, marker = _marker_script(tools, "system-fsmonitor")
    (tools / "gitconfig").write_text(f"[core]\n\tfsmonitor = {system}\n\tpager = {system}\n")
    monkeypatch.setenv("GIT_CONFIG_SYSTEM", str(tools / "gitconfig"))
    markers.append(marker)
    monkeypatch.setenv("GIT_PAGER", system)
    # committed without the filter; the attributes select it for the next checkout
    write(root, ".gitattributes", "*.yaml filter=mark\n*.json filter=mark\n")
    subprocess.run(["git", "add", ".gitattributes"], cwd=root, check=True, env=_plain_git())
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "attrs"],
        cwd=root,
        check=True,
        env=_plain_git(),
    )
    for m in markers:
        m.unlink(missing_ok=True)  # set up with them running; only what diff runs counts
    monkeypatch.chdir(root)
    return root, before, markers


def _plain_git() -> dict[str, str]:
    """git for the fixture itself, without the rigged system config."""
    return {k: v for k, v in os.environ.items() if k not in ("GIT_CONFIG_SYSTEM", "GIT_PAGER")}


def test_diff_runs_no_program_the_repository_configures(
    rigged: tuple[Path, str, list[Path]], capsys: pytest.CaptureFixture[str]
) -> None:
    _, before, markers = rigged
    code = main(["diff", "--base", before, "--head", "HEAD", "--keys", "app::port"])
    out, err = capsys.readouterr()
    assert (code, err) == (1, "")
    assert "web01.example.com: 80 -> 443" in out  # the blobs as git stores them
    assert [m.name for m in markers if m.exists()] == []


def _repo_with_blobs(tmp_path: Path) -> tuple[Repository, str]:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, "hiera.yaml", "---\nversion: 5\n")
    write(root, "data/common.yaml", "a: 1\n")
    write(root, "data/big.yaml", "b: " + "x" * 5000 + "\n")
    write(root, "data/notes.txt", "small, any kind\n")
    (root / "release.tar.gz").write_bytes(os.urandom(2 * 1024 * 1024))
    (root / "data" / "link.yaml").symlink_to("common.yaml")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "blobs")
    repo = repository_at(str(root))
    return repo, commit_of(repo, "HEAD")


def test_only_what_hiera_reads_is_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A 2 MiB archive is not written; a data file over the size hiera-ls reads is written
    as an empty sparse file of its size (refused as on the working tree)."""
    repo, commit = _repo_with_blobs(tmp_path)
    monkeypatch.setattr(git_tree, "MAX_FILE_BYTES", 1000)
    dest = tmp_path / "out"
    dest.mkdir()
    write_tree(repo, commit, str(dest))
    tree = dest / "tree"
    written = sorted(str(p.relative_to(tree)) for p in tree.rglob("*") if not p.is_dir())
    assert written == [
        "data/big.yaml",
        "data/common.yaml",
        "data/link.yaml",
        "data/notes.txt",
        "hiera.yaml",
    ]
    assert (tree / "data" / "common.yaml").read_text() == "a: 1\n"
    assert os.readlink(tree / "data" / "link.yaml") == "common.yaml"
    big = (tree / "data" / "big.yaml").stat()
    assert big.st_size == 5004 and big.st_blocks == 0
    assert not list(dest.glob(".hiera-ls-diff-index"))  # no index is written either


@pytest.mark.slow
def test_sigterm_removes_the_temporary_checkout(tmp_path: Path) -> None:
    """A CI job's timeout sends SIGTERM while a revision is being read: the checkout under
    TMPDIR goes, and the process dies of the signal."""
    root = tmp_path / "repo"
    before, _ = planted_repo(root)
    real_git = subprocess.run(
        ["sh", "-c", "command -v git"], capture_output=True, text=True, check=True
    ).stdout.strip()
    shims = tmp_path / "bin"
    shims.mkdir()
    ready = tmp_path / "reading"
    (shims / "git").write_text(
        "#!/bin/sh\n"
        'case "$*" in *cat-file*|*checkout-index*) '
        f"touch '{ready}'; exec sleep {int(HUNG_S)};; esac\n"
        f'exec {real_git} "$@"\n'
    )
    (shims / "git").chmod(0o755)
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = {**os.environ, "PATH": f"{shims}:{os.environ['PATH']}", "TMPDIR": str(temp)}
    process = subprocess.Popen(
        [sys.executable, "-m", "hiera_ls", "diff", "--base", before],
        cwd=root,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + HUNG_S
    while not ready.exists() and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.05)
    assert ready.exists() and list(temp.iterdir()), "the diff never started reading"
    process.send_signal(signal.SIGTERM)
    assert process.wait(timeout=HUNG_S) == -signal.SIGTERM
    assert list(temp.iterdir()) == []
