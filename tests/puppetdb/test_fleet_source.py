"""A real PuppetDB as the live source of ``check`` and ``diff``: the fleet's nodes are checked
and compared beside the repository's profiles, over HTTP and TLS."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hiera_ls.cli import main
from tests.puppetdb.conftest import base_fleet
from tests.puppetdb.service import PuppetDB

EXAMPLE = Path(__file__).parents[2] / "examples" / "control-repo"
BASE_ONLY = 'certname ~ "\\\\.example\\\\.com$"'


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    for args in (
        ["init", "-q"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base"],
    ):
        subprocess.run(["git", *args], cwd=root, check=True)
    monkeypatch.chdir(root)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return root


def test_diff_names_every_fleet_node_a_data_change_reaches(
    puppetdb: PuppetDB, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    roles = repo / "data" / "roles" / "db.yaml"
    roles.write_text(roles.read_text().replace("max_connections: 200", "max_connections: 500"))
    query = f'inventory[certname] {{ facts.role = "db" and {BASE_ONLY} }}'
    code = main(
        [
            "diff",
            "--puppetdb",
            puppetdb.http_url,
            "--query",
            query,
            "--format",
            "json",
            "--keys",
            "profile::postgresql::max_connections",
        ]
    )
    out, err = capsys.readouterr()
    db_nodes = sorted(n.certname for n in base_fleet() if n.role == "db")
    assert code == 1
    assert f"{len(db_nodes)} nodes as facts profiles" in err
    (change,) = json.loads(out)["changes"]
    (group,) = change["groups"]
    assert sorted(group["profiles"]) == sorted(["db01.example.com", *db_nodes])
    assert (group["before"], group["after"]) == (
        {"found": True, "value": 200},
        {"found": True, "value": 500},
    )


def test_check_over_tls_checks_with_the_fleets_nodes(
    puppetdb: PuppetDB, repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert puppetdb.ca is not None and puppetdb.client is not None
    query = f'inventory[certname] {{ facts.role = "lb" and {BASE_ONLY} }}'
    code = main(
        [
            "check",
            "--puppetdb",
            puppetdb.https_url,
            "--query",
            query,
            "--cacert",
            puppetdb.ca.ca,
            "--cert",
            puppetdb.client.cert,
            "--key",
            puppetdb.client.key,
        ]
    )
    out, err = capsys.readouterr()
    lb_nodes = [n for n in base_fleet() if n.role == "lb"]
    assert code == 0, out
    said = err.splitlines()
    assert said[0] == (
        f"hiera-ls check: PuppetDB {puppetdb.https_url}: {len(lb_nodes)} nodes as facts "
        f"profiles ({len(lb_nodes)} new, 0 changed)"
    )
    # and the target's one note: the example's facts came from a Facter with legacy facts
    assert [line.split(":")[1] for line in said[1:]] == [" note"]
    assert out == f"All checks passed (20 files, {3 + len(lb_nodes)} facts profiles).\n"
