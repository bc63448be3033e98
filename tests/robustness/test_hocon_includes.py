"""A HOCON data file's ``include`` never reaches the network, a device, a FIFO or a file outside
the workspace (docs/security.md, "HOCON includes").

Before, pyhocon followed every include itself: opening the file in the server or running
``hiera-ls lookup`` made an HTTP request (a server that never answers hung both),
``include file("/dev/zero")`` read gigabytes, a FIFO or ``/dev/stdin`` blocked, and a file
anywhere on the disk became data. Each case runs through ``hiera-ls lookup`` in a subprocess
(a timeout turns a hang into a failure) and through the server's diagnostics in-process.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from tests.robustness.test_file_access import cli, no_hang

__all__ = ["no_hang"]  # the fixture, used here too

pytestmark = pytest.mark.slow  # a hiera-ls process per case

HOCON_LEVELS = (
    "version: 5\nhierarchy:\n  - name: hocon\n    data_hash: hocon_data\n    path: common.conf\n"
)


@pytest.fixture
def silent_server() -> Iterator[socket.socket]:
    """A TCP server that accepts nothing and answers nothing: a request to it would hang."""
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        server.setblocking(False)
        yield server


def _connections(server: socket.socket) -> int:
    count = 0
    while True:
        try:
            conn, _ = server.accept()
        except BlockingIOError:
            return count
        conn.close()
        count += 1


def _env(tmp_path: Path, conf: str) -> Path:
    root = tmp_path / "production"
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HOCON_LEVELS)
    (root / "data" / "common.conf").write_text(conf.replace("{root}", str(root)))
    (tmp_path / "facts.yaml").write_text("clientcert: web01\n")
    return root


def _problems(root: Path) -> list[tuple[str, str, int, int]]:
    snapshot = Workspace([str(root)], Settings()).snapshot()
    path = str(root / "data" / "common.conf")
    return [
        (p.code, p.message, p.where.span.start.line, p.where.span.start.column)
        for p in Diagnostics().file_problems(snapshot, path)
    ]


@pytest.mark.parametrize(
    "directive",
    ['include url("http://127.0.0.1:{port}/x.conf")', 'include "http://127.0.0.1:{port}/"'],
)
def test_an_include_of_a_url_never_reaches_the_network(
    tmp_path: Path, silent_server: socket.socket, directive: str
) -> None:
    port = silent_server.getsockname()[1]
    root = _env(tmp_path, "a = 1\n" + directive.format(port=port) + "\n")
    out = cli(root, "a")  # before: blocked on the silent server until the timeout
    assert out.returncode == 1
    conf = root / "data" / "common.conf"
    assert f"{conf}:2:1: include " in out.stderr
    assert "Puppet's hocon library cannot include a URL" in out.stderr
    assert "hiera-ls never reads the network" in out.stderr
    problems = _problems(root)
    assert [(c, line, col) for c, _, line, col in problems] == [("hocon-include", 1, 0)]
    assert _connections(silent_server) == 0


def test_an_included_device_fifo_or_stdin_is_never_opened(tmp_path: Path) -> None:
    root = _env(tmp_path, "a = 1\n")
    data = root / "data"
    os.symlink("/dev/zero", data / "zero.conf")
    os.symlink("/dev/stdin", data / "stdin.conf")
    os.mkfifo(data / "fifo.conf")
    for name, kind in (
        ("zero.conf", "lies outside the workspace"),
        ("stdin.conf", "lies outside the workspace"),
        ("fifo.conf", "it is a FIFO (named pipe), and hiera-ls reads regular files only"),
    ):
        (data / "common.conf").write_text(f'a = 1\ninclude file("{data / name}")\n')
        out = cli(root, "a")  # before: 3.8 GB of /dev/zero, or blocked for ever
        assert out.returncode == 1, name
        assert f"{data / 'common.conf'}:2:1: " in out.stderr and kind in out.stderr, out.stderr
        assert [c for c, *_ in _problems(root)] == ["hocon-include"]


def test_an_included_file_outside_the_workspace_is_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret.conf"
    secret.write_text("token = s3cr3t\n")
    root = _env(tmp_path, f'include file("{secret}")\na = 1\n')
    out = cli(root, "a")
    assert out.returncode == 1
    assert f"hiera-ls does not read {secret}, which this include names: it lies outside" in (
        out.stderr
    )
    (root / "data" / "link.conf").symlink_to(secret)  # a symlink in the workspace, out of it
    (root / "data" / "common.conf").write_text(f'include file("{root}/data/link.conf")\na = 1\n')
    out = cli(root, "a")
    assert f"(really {secret})" in out.stderr and "s3cr3t" not in out.stdout + out.stderr
    assert all("s3cr3t" not in message for _, message, *_ in _problems(root))


def test_an_included_file_inside_the_workspace_is_read(tmp_path: Path) -> None:
    root = _env(tmp_path, 'a { include file("{root}/data/inc.conf") }\n')
    (root / "data" / "inc.conf").write_text("b = 2\n")
    out = cli(root, "a", "--render-as", "json")
    assert (out.returncode, out.stdout.strip()) == (0, '{"b":2}')
    assert _problems(root) == []


def test_an_include_cycle_stops(tmp_path: Path) -> None:
    root = _env(tmp_path, 'include file("{root}/data/loop.conf")\na = 1\n')
    (root / "data" / "loop.conf").write_text(f'include file("{root}/data/loop.conf")\n')
    out = cli(root, "a")
    assert out.returncode == 1
    assert "include statements nested more than 50 times" in out.stderr
