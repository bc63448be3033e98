"""PuppetDB as a live source of profiles for ``hiera-ls check`` and ``hiera-ls diff``: the
nodes it answers are checked and compared beside the repository's profiles, pulled into the
user's cache (never the repository), and a PuppetDB that fails stops the run (exit 2)."""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from hiera_ls.cli import main
from tests.fleet.fake_puppetdb import FakePuppetDB, good_row, serving
from tests.puppetdb.service import free_port

EXAMPLE = Path(__file__).parents[2] / "examples" / "control-repo"
NODES = [good_row("pdb-db01.example.com", role="db"), good_row("pdb-web01.example.com")]


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    monkeypatch.chdir(root)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return root


@pytest.fixture
def fake() -> Iterator[FakePuppetDB]:
    with serving(FakePuppetDB(list(NODES))) as server:
        yield server


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_checks_with_puppetdbs_nodes_beside_the_repositorys_profiles(
    repo: Path, fake: FakePuppetDB, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, err = run(capsys, "check", "--puppetdb", fake.url)
    said = err.splitlines()
    assert said[0] == (
        f"hiera-ls check: PuppetDB {fake.url}: 2 nodes as facts profiles (2 new, 0 changed)"
    )
    # and the target's one note: the example's facts came from a Facter with legacy facts
    assert [line.split(":")[1] for line in said[1:]] == [" note"]
    assert out.endswith("5 facts profiles).\n")  # the repository's 3 and PuppetDB's 2
    assert code in (0, 1)
    cache = tmp_path / "cache" / "hiera-ls" / "puppetdb"
    (pulled,) = cache.iterdir()
    assert sorted(os.listdir(pulled)) == ["pdb-db01.example.com.json", "pdb-web01.example.com.json"]
    assert oct(pulled.stat().st_mode & 0o777) == "0o700"  # the fleet's facts: the user's only
    assert not (repo / ".hiera-ls" / "facts" / "puppetdb").exists()

    code, out, err = run(
        capsys, "check", "--puppetdb", fake.url, "--profiles", "pdb-db01.example.com"
    )
    assert out.endswith("1 facts profile).\n")
    assert "(0 new, 0 changed)" in err  # the second run read only what changed: nothing


def test_diff_compares_puppetdbs_nodes_too(
    repo: Path, fake: FakePuppetDB, capsys: pytest.CaptureFixture[str]
) -> None:
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base"],
    ):
        subprocess.run(["git", *args], cwd=repo, check=True)
    roles = repo / "data" / "roles" / "db.yaml"
    roles.write_text(roles.read_text().replace("max_connections: 200", "max_connections: 500"))
    code, out, err = run(
        capsys, "diff", "--puppetdb", fake.url, "--keys", "profile::postgresql::max_connections"
    )
    assert code == 1
    assert "2 nodes as facts profiles" in err
    assert out.splitlines()[:2] == [
        "profile::postgresql::max_connections",
        "  db01.example.com, pdb-db01.example.com: 200 -> 500",
    ]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (
            ["check", "--cert", "c.pem", "--token", "t"],
            "hiera-ls check: error: --cert, --token need --puppetdb",
        ),
        (["diff", "--query", "nodes {}"], "hiera-ls diff: error: --query needs --puppetdb"),
        (
            ["check", "--puppetdb"],
            "hiera-ls check: error: --puppetdb without a URL uses the "
            "repository's; .hiera-ls.yaml names none (puppetdb: url:)",
        ),
    ],
)
def test_puppetdb_flags_that_cannot_be_used_are_usage_errors(
    repo: Path, argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, *argv)
    assert (code, out) == (2, "")
    assert err.startswith(said)


def test_a_puppetdb_that_is_down_stops_check_with_the_url_and_the_cause(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    code, out, err = run(capsys, "check", "--puppetdb", url)
    assert (code, out) == (2, "")
    assert err == (
        f"hiera-ls check: error: {url}/pdb/query/v4/inventory: cannot connect to "
        f"{url[7:]}: connection refused (is PuppetDB running there?)\n"
    )
