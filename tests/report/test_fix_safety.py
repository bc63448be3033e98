"""``hiera-ls check --fix`` on a repository and a disk that do not cooperate: nothing is lost.

Each case was seen to lose data or write where it was not asked before the fix writer was
made atomic (docs/security.md, "check --fix writes").
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.report import fix as fix_module

HIERA = (
    "---\nversion: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\n"
    "hierarchy:\n  - name: common\n    path: common.yaml\n"
    "  - name: other\n    path: other.yaml\n"
    "  - name: json\n    data_hash: json_data\n    path: extra.json\n"
)
DUPLICATE = "dup: 1\ndup: 2\n"  # a safe fix removes the first line


def _repo(root: Path, common: str = DUPLICATE) -> Path:
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HIERA)
    (root / "data" / "common.yaml").write_text(common)
    return root


def _check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["check", "--fix", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _left_behind(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


def _hiera_ls(*argv: str, cwd: Path, **kwargs: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "hiera_ls", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        **kwargs,  # type: ignore[call-overload]
    )


@pytest.mark.slow
def test_a_write_that_fails_midway_leaves_the_file_whole(tmp_path: Path) -> None:
    """A file-size limit (as a full disk or a quota) stops the write after 4 KiB: before, the
    file was cut there (`k1433: "`) and the command ended with a traceback."""
    body = "".join(f'k{i}: "value {i}"\n' for i in range(2000))
    root = _repo(tmp_path / "repo", DUPLICATE + body)
    common = root / "data" / "common.yaml"
    before = common.read_bytes()

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    done = _hiera_ls("check", "--fix", ".", cwd=root, preexec_fn=limit)
    assert common.read_bytes() == before
    assert "Traceback" not in done.stderr
    assert f"Not fixed: {os.path.join('data', 'common.yaml')}: cannot write" in done.stderr
    assert done.returncode == 2
    assert _left_behind(root / "data") == []  # the temporary file is gone


def test_the_fixed_file_keeps_its_mode(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path / "repo")
    common = root / "data" / "common.yaml"
    common.chmod(0o640)
    monkeypatch.chdir(root)
    code, _, err = _check(capsys)
    assert common.read_text() == "dup: 2\n"
    assert err.splitlines()[0] == "Fixed 1 problem in 1 file."  # then: no profile, what did not run
    assert common.stat().st_mode & 0o7777 == 0o640
    assert code == 0


def test_an_edit_saved_during_the_run_is_not_overwritten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user saves the file while the fixes are computed: before, the saved line was lost
    and the command said the file was fixed."""
    root = _repo(tmp_path / "repo")
    common = root / "data" / "common.yaml"
    real = fix_module.fixed_text

    def saving_meanwhile(path: str, text: str, problems: object) -> object:
        with common.open("a") as out:
            out.write("added: meanwhile\n")
        return real(path, text, problems)  # type: ignore[arg-type]

    monkeypatch.setattr(fix_module, "fixed_text", saving_meanwhile)
    monkeypatch.chdir(root)
    _, _, err = _check(capsys)
    assert common.read_text() == DUPLICATE + "added: meanwhile\n"
    assert (
        f"Not fixed: {os.path.join('data', 'common.yaml')}: it changed on disk while hiera-ls "
        "was fixing it" in err
    )
    assert "Fixed" not in err


def test_a_json_file_with_bytes_that_are_not_utf8_is_left_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Windows-1252 bytes are read as U+FFFD (as Ruby's JSON parser takes them); writing the
    text back changed every such byte while the report said all checks passed."""
    root = _repo(tmp_path / "repo", "a: 1\n")
    extra = root / "data" / "extra.json"
    raw = b'{"dup": 1, "dup": 2, "name": "caf\xe9"}\n'
    extra.write_bytes(raw)
    monkeypatch.chdir(root)
    _, _, err = _check(capsys)
    assert extra.read_bytes() == raw
    assert (
        f"Not fixed: {os.path.join('data', 'extra.json')}: it holds bytes that are not UTF-8, "
        "which a fix could not keep as they are" in err
    )


def test_a_json_file_in_utf8_keeps_every_byte_outside_the_fix(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path / "repo", "a: 1\n")
    extra = root / "data" / "extra.json"
    extra.write_bytes(b'{"dup": 1,\r\n  "dup": 2, "name": "caf\xc3\xa9 \\u00e9"}\r\n')
    monkeypatch.chdir(root)
    _, _, err = _check(capsys)
    assert err.splitlines()[0] == "Fixed 1 problem in 1 file."  # then: no profile, what did not run
    assert extra.read_bytes() == b'{"dup": 2, "name": "caf\xc3\xa9 \\u00e9"}\r\n'


def test_only_files_under_the_given_path_are_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The global layer (``--hiera-config``) reads a data file outside the path given: before,
    `--fix PATH` rewrote it."""
    root = _repo(tmp_path / "repo")
    outside = tmp_path / "global"
    (outside / "data").mkdir(parents=True)
    (outside / "hiera.yaml").write_text(
        "---\nversion: 5\nhierarchy:\n  - name: g\n    path: g.yaml\n"
    )
    (outside / "data" / "g.yaml").write_text(DUPLICATE)
    monkeypatch.chdir(root)
    _, _, err = _check(capsys, "--hiera-config", str(outside / "hiera.yaml"), ".")
    assert (outside / "data" / "g.yaml").read_text() == DUPLICATE
    assert (root / "data" / "common.yaml").read_text() == "dup: 2\n"
    assert f"Not fixed: {outside / 'data' / 'g.yaml'}: it is not under the path given" in err


def test_a_symlinked_data_file_is_not_written_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _repo(tmp_path / "repo", "a: 1\n")
    target = tmp_path / "elsewhere.yaml"
    target.write_text(DUPLICATE)
    (root / "data" / "other.yaml").symlink_to(target)
    linked_dir = tmp_path / "linked"
    linked_dir.mkdir()
    (linked_dir / "extra.json").write_text('{"dup": 1, "dup": 2}\n')
    monkeypatch.chdir(root)
    (root / "data" / "sub").symlink_to(linked_dir)
    (root / "hiera.yaml").write_text(HIERA.replace("path: extra.json", "path: sub/extra.json"))
    _, _, err = _check(capsys)
    assert target.read_text() == DUPLICATE
    assert (linked_dir / "extra.json").read_text() == '{"dup": 1, "dup": 2}\n'
    assert (root / "data" / "other.yaml").is_symlink()
    assert f"Not fixed: {os.path.join('data', 'other.yaml')}: it is a symlink" in err
    assert (
        f"Not fixed: {os.path.join('data', 'sub', 'extra.json')}: data{os.sep}sub is a symlink"
        in err
    )


def _unprivileged() -> list[str]:
    """A command prefix that takes root's right to write read-only files away (root keeps
    it otherwise); nothing for another user."""
    if os.geteuid() != 0:
        return []
    if shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv (util-linux) to drop CAP_DAC_OVERRIDE")
    return ["setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"]


@pytest.mark.slow
def test_a_file_that_cannot_be_written_is_named_and_the_others_are_fixed(
    tmp_path: Path,
) -> None:
    """Before: a traceback, exit 1, the other files already rewritten, and no report."""
    root = _repo(tmp_path / "repo")
    other = root / "data" / "other.yaml"
    other.write_text(DUPLICATE)
    (root / "data" / "common.yaml").chmod(0o444)
    done = subprocess.run(
        [*_unprivileged(), sys.executable, "-m", "hiera_ls", "check", "--fix", "."],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    assert (root / "data" / "common.yaml").read_text() == DUPLICATE
    assert other.read_text() == "dup: 2\n"
    assert "Fixed 1 problem in 1 file." in done.stderr
    assert (
        f"Not fixed: {os.path.join('data', 'common.yaml')}: cannot write it: Permission denied"
        in done.stderr
    )
    assert "All checks passed" not in done.stdout and "dup" in done.stdout
    assert done.returncode == 2
