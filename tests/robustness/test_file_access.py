"""Files hiera-ls must not read, or must read as Puppet does (docs/security.md, "Files and
file access"): devices, FIFOs and sockets are never opened, files are capped in size, glob
walks are bounded, bytes that are not UTF-8 are refused as Psych refuses them, symlink loops
and a hiera.yaml that is a directory fail as Puppet fails, a broken facts profile says so,
and a level reading outside the repository is told.

Each case runs through ``hiera-ls lookup`` in a subprocess (a timeout turns a hang into a
failure) and through the language server's own code in-process (workspace, hover,
diagnostics), under an alarm for the same reason.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import FrameType

import pytest

from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.features.hover import hover
from hiera_ls.features.profiles import list_profiles
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Snapshot, Workspace
from hiera_ls.source import files as files_module
from hiera_ls.source import ruby_glob
from hiera_ls.source.files import MAX_FILE_BYTES, FileAccess, read_disk, walk_files
from hiera_ls.source.spans import Position, Severity
from tests.hang_guard import HUNG_S

SERVER = str(Path(__file__).resolve().parents[2] / "server")
PATH_LEVELS = (
    "version: 5\nhierarchy:\n  - name: x\n    path: x.yaml\n"
    "  - name: common\n    path: common.yaml\n"
)
FACTS = "clientcert: web01\nos:\n  family: Debian\n"


@pytest.fixture(autouse=True)
def no_hang() -> Iterator[None]:
    """An in-process read that blocks fails the test instead of hanging the suite."""

    def fail(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError("blocked reading a file")

    previous = signal.signal(signal.SIGALRM, fail)
    signal.alarm(int(HUNG_S))
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def env(tmp_path: Path, hiera: str = PATH_LEVELS, files: dict[str, str] | None = None) -> Path:
    root = tmp_path / "production"
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text(hiera)
    (root / "data" / "common.yaml").write_text("a: from common\nb: other\n")
    for rel, text in (files or {}).items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    (tmp_path / "facts.yaml").write_text(FACTS)
    return root


def cli(root: Path, *args: str, timeout: float = 20) -> subprocess.CompletedProcess[str]:
    """``hiera-ls lookup`` in the environment, stdin an open pipe nobody writes to."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "hiera_ls",
            "lookup",
            "--facts",
            str(root.parent / "facts.yaml"),
            *args,
        ],
        cwd=root,
        env={**os.environ, "PYTHONPATH": SERVER},
        stdin=subprocess.PIPE,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def snapshot(root: Path, buffers: dict[str, str] | None = None) -> Snapshot:
    ws = Workspace([str(root)], Settings(facts_profile="web01", facts_paths=("../facts.yaml",)))
    for path, text in (buffers or {}).items():
        ws.open_buffer(path, text)
    return ws.snapshot()


def hover_text(snap: Snapshot, path: Path, line: int = 0) -> str:
    shown = hover(snap, str(path), Position(line, 0))
    assert shown is not None
    return shown.markdown


def file_problems(snap: Snapshot, path: Path) -> list[tuple[str, str, int, int]]:
    return [
        (p.code, p.message, p.where.span.start.line, p.where.span.start.column)
        for p in Diagnostics().file_problems(snap, str(path))
    ]


# ------------------------------------------------------------- devices, FIFOs, size


@pytest.mark.slow
def test_a_symlink_to_dev_stdin_is_never_read(tmp_path: Path) -> None:
    root = env(tmp_path)
    os.symlink("/dev/stdin", root / "data" / "x.yaml")
    out = cli(root, "a")  # before: blocked on the open pipe until the timeout
    assert out.returncode == 1
    assert f"hiera-ls does not read {root}/data/x.yaml (a symlink to /" in out.stderr
    assert "hiera-ls reads regular files only" in out.stderr
    assert cli(root, "b").returncode == 1  # every lookup reading the level fails


@pytest.mark.slow
def test_a_fifo_is_never_opened_cli_and_server(tmp_path: Path) -> None:
    root = env(tmp_path)
    fifo = root / "data" / "x.yaml"
    os.mkfifo(fifo)
    out = cli(root, "a")
    assert out.returncode == 1
    assert out.stderr == (
        f"Error: hiera-ls does not read {fifo}: it is a FIFO (named pipe), "
        "and hiera-ls reads regular files only\n"
    )
    snap = snapshot(root)
    shown = hover_text(snap, root / "data" / "common.yaml")
    assert "**hiera-ls stops this lookup at a limit:** hiera-ls does not read" in shown
    assert [p[0] for p in file_problems(snap, fifo)] == ["file-not-regular"]
    # An open editor buffer still wins over whatever is on disk.
    buffered = snapshot(root, {str(fifo): "a: from the buffer\n"})
    assert "from the buffer" in hover_text(buffered, root / "data" / "common.yaml")


@pytest.mark.slow
def test_a_symlink_to_dev_zero_is_refused_in_little_time_and_memory(tmp_path: Path) -> None:
    root = env(tmp_path)
    os.symlink("/dev/zero", root / "data" / "x.yaml")
    # VmHWM is this process's own peak: ru_maxrss keeps the peak of the process that
    # exec'd it (pytest's, hundreds of MB late in a whole run, through vfork)
    probe = (
        "import re, sys; from hiera_ls.cli import main; rc = main(sys.argv[1:]); "
        "status = open('/proc/self/status').read(); "
        r"print(re.search(r'VmHWM:\s*(\d+)', status).group(1), file=sys.stderr); "
        "sys.exit(rc)"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe, "lookup", "--facts", str(tmp_path / "facts.yaml"), "a"],
        cwd=root,
        env={**os.environ, "PYTHONPATH": SERVER},
        capture_output=True,
        text=True,
        timeout=20,
    )
    message, peak_kb = out.stderr.splitlines()
    assert "(a symlink to /dev/zero): it is a character device" in message
    assert int(peak_kb) < 200_000  # before: 3.7 GB in 5 s


def test_files_above_the_size_cap_are_not_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert MAX_FILE_BYTES == 256 * 2**20  # far above the 47.5 MB file Puppet reads
    big = tmp_path / "big.yaml"
    big.write_text("a: " + "x" * 100 + "\n")
    monkeypatch.setattr(files_module, "MAX_FILE_BYTES", 50)
    found = read_disk(str(big))
    assert found is not None and found.text == "" and found.problem is not None
    assert found.problem.code == "file-too-large"
    assert found.problem.message == (
        f"hiera-ls does not read {big}: it holds 104 bytes, more than the 50 bytes "
        "(4.76837e-05 MiB) it reads from one file"
    )


# ------------------------------------------------------------------- glob walks


@pytest.mark.slow
def test_a_glob_over_the_whole_machine_stops_with_a_message(tmp_path: Path) -> None:
    hiera = 'version: 5\nhierarchy:\n  - name: all\n    datadir: /\n    glob: "**/*"\n'
    root = env(tmp_path, hiera)
    out = cli(root, "a", timeout=30)  # before: 31 s, then /dev/autofs; Puppet: 7.3 s
    assert out.returncode == 1
    # the entries bound, or the time bound on a loaded machine
    assert out.stderr.startswith(
        (
            f"Error: The glob /**/* lists more than {ruby_glob.MAX_GLOB_ENTRIES} directory entries",
            f"Error: The glob /**/* walked for more than {ruby_glob.MAX_GLOB_SECONDS:g} seconds",
        )
    )
    assert out.stderr.rstrip().endswith("hiera-ls stops there")


def test_glob_walks_are_bounded_in_entries_and_depth(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for n in range(30):
        (tmp_path / f"f{n:02}.yaml").write_text("")
    deep = tmp_path / "/".join("d" * 12)
    deep.mkdir(parents=True)
    files = FileAccess()
    assert len(files.glob(f"{tmp_path}/**/*.yaml")) == 30
    monkeypatch.setattr(ruby_glob, "MAX_GLOB_ENTRIES", 20)
    with pytest.raises(ruby_glob.GlobTooLarge, match="lists more than 20 directory entries"):
        files.glob(f"{tmp_path}/*.yaml")
    monkeypatch.setattr(ruby_glob, "MAX_GLOB_ENTRIES", 1000)
    monkeypatch.setattr(ruby_glob, "MAX_GLOB_DEPTH", str(tmp_path).count("/") + 5)
    with pytest.raises(ruby_glob.GlobTooLarge, match=r"goes more than \d+ directories deep"):
        files.glob(f"{tmp_path}/**/x.yaml")


def test_workspace_walks_are_bounded_and_do_not_recurse(tmp_path: Path) -> None:
    deep = tmp_path / "/".join(["d"] * 150)  # os.walk recursed: a deep tree broke the stack
    deep.mkdir(parents=True)
    (deep / "x.yaml").write_text("")
    (tmp_path / "a.yaml").write_text("")
    assert list(walk_files(str(tmp_path))) == [str(tmp_path / "a.yaml")]  # 100 levels at most
    assert list(walk_files(str(tmp_path), max_entries=0)) == []


# --------------------------------------------------------------------- encodings


@pytest.mark.slow
def test_invalid_utf8_is_refused_as_psych_refuses_it(tmp_path: Path) -> None:
    root = env(tmp_path)
    bad = root / "data" / "x.yaml"
    bad.write_bytes(b'x: 1\nmotd: "Gr\xfc\xdfe"\n')
    out = cli(root, "a")  # before: read with U+FFFD, and 'a' came from common.yaml
    assert out.returncode == 1
    assert out.stderr == (  # Puppet 7.23's words, line 1 column 1 included
        f"Error: Unable to parse ({bad}): invalid leading UTF-8 octet at line 1 column 1\n"
    )
    snap = snapshot(root)
    assert file_problems(snap, bad) == [
        (
            "file-invalid-utf8",
            "invalid leading UTF-8 octet (line 2, column 10): Puppet refuses the whole file: "
            f"Unable to parse ({bad}): invalid leading UTF-8 octet at line 1 column 1",
            1,
            9,
        )
    ]
    assert "invalid leading UTF-8 octet" in hover_text(snap, root / "data" / "common.yaml")


@pytest.mark.slow
def test_a_hiera_yaml_with_invalid_utf8_fails_its_layer_as_puppet_does(tmp_path: Path) -> None:
    root = env(tmp_path)
    config = root / "hiera.yaml"
    config.write_bytes(b"---\nversion: 5\n# caf\xe9\n" + PATH_LEVELS.encode()[11:])
    out = cli(root, "a")  # before: read with U+FFFD, and 'a' came from common.yaml
    assert out.stderr == (  # Puppet 7.23's words
        f"Error: ({config}): invalid trailing UTF-8 octet at line 1 column 1\n"
    )
    assert [p[:4:2] for p in file_problems(snapshot(root), config)] == [("file-invalid-utf8", 2)]


@pytest.mark.slow
def test_a_json_file_with_invalid_utf8_is_read_as_ruby_json_reads_it(tmp_path: Path) -> None:
    hiera = "version: 5\nhierarchy:\n  - name: j\n    data_hash: json_data\n    path: x.json\n"
    root = env(tmp_path, hiera)
    (root / "data" / "x.json").write_bytes(b'{"a": "h\xffllo"}')
    out = cli(root, "a")  # Puppet: "h\xFFllo"
    assert (out.returncode, out.stdout) == (0, "--- h\ufffdllo\n")


# -------------------------------------------------------- symlink loops, directories


@pytest.mark.slow
def test_a_symlink_loop_is_skipped_by_a_path_level_and_fails_a_glob(tmp_path: Path) -> None:
    root = env(tmp_path)
    os.symlink("y.yaml", root / "data" / "x.yaml")
    os.symlink("x.yaml", root / "data" / "y.yaml")
    out = cli(root, "a")  # Puppet: "Path not found", then common.yaml
    assert (out.returncode, out.stdout) == (0, "--- from common\n")
    snap = snapshot(root)
    assert file_problems(snap, root / "data" / "x.yaml") == [
        (
            "file-unreadable",
            f"Too many levels of symbolic links @ rb_file_s_stat - {root}/data/x.yaml",
            0,
            0,
        )
    ]
    (root / "hiera.yaml").write_text('version: 5\nhierarchy:\n  - name: g\n    glob: "*.yaml"\n')
    out = cli(root, "a")  # Puppet 7.23, word for word
    assert out.stderr == (
        f"Error: Too many levels of symbolic links @ rb_file_s_stat - {root}/data/x.yaml\n"
    )


@pytest.mark.slow
def test_a_hiera_yaml_that_is_a_directory_fails_as_puppet_fails(tmp_path: Path) -> None:
    root = env(tmp_path)
    (root / "hiera.yaml").unlink()
    (root / "hiera.yaml").mkdir()
    out = cli(root, "a")  # before: silently no data
    assert out.stderr == f"Error: Is a directory @ io_fread - {root}/hiera.yaml\n"
    snap = snapshot(root)
    assert any(f"Is a directory @ io_fread - {root}/hiera.yaml" in m for m in snap.messages)


# ------------------------------------------------------------------ facts profiles


@pytest.mark.slow
@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "- a\n- b\n",
            "Incorrectly formatted data in {f} given via the --facts flag "
            "(only accepts yaml and json files)",
        ),
        ("--- !ruby/object:Foo\na: 1\n", "({f}): Tried to load unspecified class: Foo"),
    ],
)
def test_a_broken_facts_profile_says_so(tmp_path: Path, text: str, message: str) -> None:
    root = env(tmp_path)
    facts = tmp_path / "facts.yaml"
    facts.write_text(text)
    out = cli(root, "a")
    assert (out.returncode, out.stderr) == (1, f"Error: {message.format(f=facts)}\n")
    ws = Workspace([str(root)], Settings(facts_profile="facts", facts_paths=(str(facts),)))
    snap = ws.snapshot()
    [item] = list_profiles(snap)
    assert item.error is not None
    shown = hover_text(snap, root / "data" / "common.yaml")  # before: a factless node, unsaid
    assert "**The facts profile `facts` holds no usable facts:**" in shown


# ----------------------------------------------------------- outside the repository


@pytest.mark.slow
def test_levels_reading_outside_the_repository_are_told(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "secrets.yaml").write_text("a: from elsewhere\n")
    hiera = (
        "version: 5\nhierarchy:\n"
        f"  - name: abs\n    path: {elsewhere}/secrets.yaml\n"
        "  - name: up\n    path: ../../elsewhere/secrets.yaml\n"
        "  - name: link\n    path: link.yaml\n"
        "  - name: common\n    path: common.yaml\n"
    )
    root = env(tmp_path, hiera)
    os.symlink(elsewhere / "secrets.yaml", root / "data" / "link.yaml")
    out = cli(root, "a")  # read as Puppet reads it
    assert out.stdout == "--- from elsewhere\n"
    snap = snapshot(root)
    told = [(p[0], p[1]) for p in file_problems(snap, root / "hiera.yaml")]
    # 'up' names the very file 'abs' names: it can never win (the symlink is another path)
    same = [m.split(":")[0] for code, m in told if code == "profile-level-same-file"]
    assert same == [
        "Hierarchy level 'up' reads only files that level 'abs' above it reads too, for the "
        "only facts profile"
    ]
    told = [(code, m) for code, m in told if code != "profile-level-same-file"]
    assert [(code, message.split(":")[0]) for code, message in told] == [
        (
            "hiera-reads-outside-workspace",
            f"Hierarchy level 'abs' reads files outside the environment directory {root}",
        ),
        (
            "hiera-reads-outside-workspace",
            f"Hierarchy level 'up' reads files outside the environment directory {root}",
        ),
        (
            "hiera-reads-outside-workspace",
            f"Hierarchy level 'link' reads {root}/data/link.yaml, a symlink to "
            f"{elsewhere}/secrets.yaml, outside the environment directory {root}",
        ),
    ]
    severities = {p.severity for p in Diagnostics().file_problems(snap, str(root / "hiera.yaml"))}
    assert severities == {Severity.INFORMATION}
