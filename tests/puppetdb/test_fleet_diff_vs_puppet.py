"""A fleet ``diff`` from a real PuppetDB, its node sets checked against ``puppet lookup``.

The change moves ``profile::ssh::port`` for the nodes of one datacenter and for Debian 12
nodes elsewhere; ``hiera-ls diff --puppetdb`` groups the fleet's nodes (one lookup per class
of nodes that must get the same answer), and ``puppet lookup`` at both revisions, for two
nodes of each group and two nodes of no group, must give the values the report says.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from hiera_ls.cli import main
from tests.oracle.engines import PuppetEngine, node_facts
from tests.puppetdb.conftest import base_fleet
from tests.puppetdb.service import PuppetDB
from tests.puppetdb.test_fleet_source import BASE_ONLY, repo  # noqa: F401 (a fixture)

KEY = "profile::ssh::port"


def _puppet_lookup(engine: PuppetEngine, envs: Path, empty: Path, node: str, facts: Path) -> object:
    run = subprocess.run(
        engine.command([
            "puppet", "lookup", "--environmentpath", str(envs), "--environment", "production",
            "--node", node, "--facts", str(facts), "--hiera_config", str(empty / "hiera.yaml"),
            "--basemodulepath", str(empty), "--render-as", "json", KEY,
        ]),
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@pytest.mark.puppet
@pytest.mark.puppetdb
def test_each_group_of_a_fleet_diff_is_what_puppet_lookup_gives_its_nodes(
    puppetdb: PuppetDB,
    repo: Path,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    puppet_engine: PuppetEngine,
) -> None:
    base = tmp_path / "base" / "production"
    base.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", "HEAD"], cwd=repo, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(base)], input=archive.stdout, check=True)
    for rel, text in (
        ("data/datacenter/fra2.yaml", f"{KEY}: 2202\n"),
        ("data/os/Debian/12.yaml", f"{KEY}: 2201\n"),
    ):
        path = repo / rel
        path.write_text(path.read_text() + text)
    head = tmp_path / "head" / "production"
    shutil.copytree(repo, head, ignore=shutil.ignore_patterns(".git"))
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "hiera.yaml").write_text("---\nversion: 5\nhierarchy: []\n")

    query = f"inventory[certname] {{ {BASE_ONLY} }}"
    argv = ["diff", "--puppetdb", puppetdb.http_url, "--query", query, "--keys", KEY]
    argv += ["--target", puppet_engine.target.name]
    assert main([*argv, "--format", "json"]) == 1
    (change,) = json.loads(capsys.readouterr().out)["changes"]
    groups = change["groups"]
    assert {g["after"]["value"] for g in groups} == {2201, 2202}

    nodes = {n.certname: n for n in base_fleet()}
    changed = {name for g in groups for name in g["profiles"]}
    fleet_changed = [name for name in nodes if name in changed]
    assert 0 < len(fleet_changed) < len(nodes)
    sample = [(name, g) for g in groups for name in [p for p in g["profiles"] if p in nodes][:2]]
    sample += [(name, None) for name in [n for n in nodes if n not in changed][:2]]
    for name, group in sample:
        facts = tmp_path / f"{name}.json"
        values = {k: v for k, v in nodes[name].values.items() if k != "trusted"}
        values = node_facts(values, puppet_engine.target)  # what a node of the target sends
        facts.write_text(json.dumps(values))
        before = _puppet_lookup(puppet_engine, base.parent, empty, name, facts)
        after = _puppet_lookup(puppet_engine, head.parent, empty, name, facts)
        if group is None:
            assert before == after, name
        else:
            assert (before, after) == (group["before"]["value"], group["after"]["value"]), name

    # the report a reviewer reads says which nodes, by the facts that split them
    assert main([*argv, "--format", "markdown"]) == 1
    report = capsys.readouterr().out
    assert '`facts.datacenters` = `["fra2"]`' in report
    assert "`facts.os.release.major` = `12`" in report
