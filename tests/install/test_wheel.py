"""The wheel and the sdist: metadata PyPI accepts, the files hiera-ls reads at run time, and
the wheel working in a bare environment (no development tools, no checkout on the path)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path
from typing import IO

from hiera_ls import __version__
from tests.install.conftest import ROOT, shell, user_env


def test_the_metadata_passes_twine_check_strict(wheel: Path, sdist: Path, home: Path) -> None:
    out = shell(f"python3 -m twine check --strict {wheel} {sdist}", home, _with_dev_python(home))
    assert out.count("PASSED") == 2, out


def test_the_wheel_names_the_project_as_pypi_shows_it(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        meta = archive.read(f"hiera_ls-{__version__}.dist-info/METADATA").decode()
    fields = Parser().parsestr(meta)
    assert fields["Name"] == "hiera-ls" and fields["Version"] == __version__
    assert fields["License-Expression"] == "Apache-2.0"
    assert fields["Requires-Python"] == ">=3.11"
    urls = dict(u.split(", ", 1) for u in fields.get_all("Project-URL"))
    assert urls["Homepage"] == "https://github.com/hiera-ls/hiera-ls"
    assert all(u.startswith("https://github.com/hiera-ls/hiera-ls") for u in urls.values())
    assert "Topic :: Software Development :: Quality Assurance" in fields.get_all("Classifier")
    assert "puppet" in fields["Keywords"].split(",")
    assert fields["Description-Content-Type"] == "text/markdown"


def test_the_wheel_carries_what_hiera_ls_reads_at_run_time(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        license_text = archive.read(f"hiera_ls-{__version__}.dist-info/licenses/LICENSE")
    assert {
        "hiera_ls/schemas/hiera.v5.schema.json",
        "hiera_ls/schemas/hiera-ls.schema.json",
        "hiera_ls/docs/diagnostics.md",
        "hiera_ls/py.typed",
        "hiera_ls/__main__.py",
    } <= names
    assert license_text == (ROOT / "LICENSE").read_bytes()
    assert b"Apache License" in license_text and b"Version 2.0, January 2004" in license_text
    assert not [n for n in names if n.startswith(("tests/", "bench/", "client-vscode/"))]


def test_the_sdist_holds_the_sources_and_documents_and_no_test_leftovers(sdist: Path) -> None:
    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert {"LICENSE", "README.md", "CONTRIBUTING.md", "CHANGELOG.md", "pyproject.toml"} <= names
    assert {
        "docs/diagnostics.md",
        "schemas/hiera.v5.schema.json",
        "server/hiera_ls/cli/__init__.py",
    } <= names
    assert "examples/control-repo/hiera.yaml" in names
    assert not [n for n in names if n.startswith((".hypothesis", "tests/", "client-vscode/"))]
    assert not [n for n in names if "__pycache__" in n]


# the target's one note (stderr): the example's facts came from a Facter with legacy facts
LEGACY_NOTE = "hiera-ls check: note: Puppet 8 agents do not send Facter's legacy facts"


def test_the_wheel_works_in_a_bare_environment(wheel: Path, tmp_path: Path, home: Path) -> None:
    """Installed with pip alone into a new venv, run from outside the checkout: the version,
    a check of the shipped example (its rules read the schemas), a SARIF report (its rule help
    is docs/diagnostics.md, read from the wheel) and a server answering ``initialize``."""
    env = user_env(home)
    venv = tmp_path / "venv"
    shell(f"python3 -m venv {venv} && {venv}/bin/python -m pip install -q {wheel}", home, env)
    exe = venv / "bin" / "hiera-ls"
    where = shell(
        f"{venv}/bin/python -c 'import hiera_ls, sys; print(hiera_ls.__file__)'", home, env
    )
    assert where.strip().startswith(str(venv)), where
    assert shell(f"{exe} --version", home, env) == f"hiera-ls {__version__}\n"
    shown = shell(f"{venv}/bin/python -m pip list --format json", home, env)
    installed = {p["name"].lower() for p in json.loads(shown)}
    assert not installed & {"pytest", "mypy", "ruff", "hypothesis"}  # no development tools
    repo = shutil.copytree(ROOT / "examples" / "control-repo", tmp_path / "control-repo")
    said = shell(f"{exe} check", repo, env).splitlines()
    assert said[0] == "All checks passed (20 files, 3 facts profiles)."
    assert [line[: len(LEGACY_NOTE)] for line in said[1:]] == [LEGACY_NOTE]
    (repo / "data" / "common.yaml").write_text("broken: [unclosed\n", encoding="utf-8")
    sarif = subprocess.run(
        [exe, "check", "--format", "sarif"], cwd=repo, env=env, capture_output=True, text=True
    )
    assert sarif.returncode == 1, sarif.stderr
    rules = {r["id"]: r for r in json.loads(sarif.stdout)["runs"][0]["tool"]["driver"]["rules"]}
    documented = (ROOT / "docs" / "diagnostics.md").read_text(encoding="utf-8")
    help_text = rules["yaml-syntax"]["help"]["text"]
    assert len(help_text) > 40 and help_text in documented  # its section of diagnostics.md
    assert _initialize(exe, repo, env)["serverInfo"] == {"name": "hiera-ls", "version": __version__}


def _initialize(exe: Path, root: Path, env: dict[str, str]) -> dict[str, object]:
    """The ``initialize`` result of ``hiera-ls serve`` over stdio, read before the client
    says anything more (as an editor does); then shutdown and exit, and the server ends."""
    server = subprocess.Popen(
        [exe, "serve"], cwd=root, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        _send(server.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                             "params": {"processId": None, "rootUri": root.as_uri(),
                                        "capabilities": {}}})  # fmt: skip
        while (answer := _receive(server.stdout)).get("id") != 1:
            pass
        _send(server.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        _send(server.stdin, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        while _receive(server.stdout).get("id") != 2:
            pass
        _send(server.stdin, {"jsonrpc": "2.0", "method": "exit"})
        assert server.wait(timeout=60) == 0
    finally:
        server.kill()
    result = answer["result"]
    assert isinstance(result, dict)
    return result


def _send(stream: IO[bytes], message: dict[str, object]) -> None:
    body = json.dumps(message).encode()
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def _receive(stream: IO[bytes]) -> dict[str, object]:
    length = 0
    while (line := stream.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    message = json.loads(stream.read(length))
    assert isinstance(message, dict)
    return message


def _with_dev_python(home: Path) -> dict[str, str]:
    """The user's environment, with this checkout's development Python as ``python3``."""
    import sys

    env = user_env(home)
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    return env
