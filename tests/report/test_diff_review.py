"""``hiera-ls diff`` as a reviewer reads it: a fleet's change grouped by key, then by the
facts the hierarchy reads that the nodes of each group share, sized for a pull-request
comment; and one environment against another."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.report.diff import run_diff
from hiera_ls.report.diff_formats import markdown
from hiera_ls.report.diff_result import Answer, ChangeGroup, DiffResult, KeyChange
from tests.report.diff_fixture import git, write

HIERA = """\
---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: datacenter
    path: "dc/%{facts.dc}.yaml"
  - name: os
    path: "os/%{facts.os.family}.yaml"
  - name: common
    path: common.yaml
"""


def _fleet(root: Path) -> dict[str, dict[str, object]]:
    """Twelve nodes: Debian and RedHat, in fra and ams."""
    nodes: dict[str, dict[str, object]] = {}
    for i in range(12):
        family = "RedHat" if i % 3 == 0 else "Debian"
        dc = "ams" if i >= 8 else "fra"
        nodes[f"n{i:02}.example.com"] = {"os": {"family": family}, "dc": dc, "uptime": i}
    for name, facts in nodes.items():
        write(root, f".hiera-ls/facts/{name}.json", json.dumps({"clientcert": name, **facts}))
    return nodes


@pytest.fixture
def fleet_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    write(root, "hiera.yaml", HIERA)
    write(root, "data/common.yaml", "ntp::servers: [pool]\nssh::port: 22\n")
    write(root, "data/os/Debian.yaml", "ntp::servers: [debian-pool]\n")
    _fleet(root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    monkeypatch.chdir(root)
    return root


def test_each_group_says_how_many_nodes_a_few_of_them_and_the_facts_they_share(
    fleet_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(fleet_repo, "data/os/Debian.yaml", "ntp::servers: [debian-pool-2]\n")
    write(fleet_repo, "data/dc/ams.yaml", "ssh::port: 2222\n")
    assert main(["diff", "--format", "markdown"]) == 1
    out = capsys.readouterr().out
    assert "#### `ntp::servers`: 8 of 12 profiles\n" in out
    assert (
        "| 8: n01.example.com, n02.example.com, n04.example.com and 5 more "
        "| `facts.os.family` = `Debian` "
        '| `["debian-pool"]` | `["debian-pool-2"]` |\n'
    ) in out
    # the facts the hierarchy reads, never one that splits nothing (uptime)
    assert "#### `ssh::port`: 4 of 12 profiles\n" in out
    assert (
        "| 4: n08.example.com, n09.example.com, n10.example.com and 1 more | `facts.dc` = `ams` |"
        in out
    )
    assert "uptime" not in out


def test_json_carries_what_each_group_shares(
    fleet_repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(fleet_repo, "data/dc/ams.yaml", "ssh::port: 2222\n")
    assert main(["diff", "--format", "json", "--keys", "ssh::port"]) == 1
    (change,) = json.loads(capsys.readouterr().out)["changes"]
    (group,) = change["groups"]
    assert group["shared"] == {"facts.dc": "ams"}
    assert len(group["profiles"]) == 4


def test_a_big_change_fits_a_pull_request_comment_and_says_what_it_left_out(
    fleet_repo: Path,
) -> None:
    per_node = "".join(f"key{i:03}: {i}\n" for i in range(300))
    for i in range(12):
        write(fleet_repo, f"data/nodes/n{i:02}.example.com.yaml", per_node.replace(": ", f": {i}"))
    result = run_diff(str(fleet_repo))
    assert len(result.changes) == 300
    report = markdown(result, budget=4_000)
    assert len(report) <= 4_000
    assert report.rstrip().endswith("more changed keys: `hiera-ls diff` lists them all.")
    # twelve groups of one node each: ten rows, then what is left
    assert "| …and 2 more groups (2 profiles) | | | |" in report


def test_a_change_deep_in_a_big_hash_shows_the_entries_that_differ_at_every_level() -> None:
    """Before, a changed inner hash was shown whole and cut at 60 characters: a change past
    the cut read the same on both sides."""
    shells = {"shell": "/bin/bash", "home": "/home/u", "groups": ["adm", "sudo", "www-data"]}
    users = {f"user{i}": {"uid": 1000 + i, **shells} for i in range(8)}
    after = {**users, "user5": {**users["user5"], "shell": "/bin/zsh"}}
    group = ChangeGroup(("web01",), Answer("value", users, None), Answer("value", after, None))
    change = KeyChange(".", "u", (group,))
    result = DiffResult("HEAD", "working tree", ("web01",), 1, (".",), (change,))
    row = next(line for line in markdown(result).splitlines() if "web01" in line)
    assert (
        '`{…, "user5": {…, "shell": "/bin/bash"}}` | `{…, "user5": {…, "shell": "/bin/zsh"}}`'
        in row
    )


def test_whole_report_stays_under_githubs_comment_limit() -> None:
    nodes = tuple(f"node{i:05d}.example.com" for i in range(10_000))
    value = Answer("value", {"k": "v" * 40}, None)
    groups = tuple(
        ChangeGroup(nodes[i::20], value, Answer("value", i, None), (("facts.dc", f"dc{i}"),))
        for i in range(20)
    )
    changes = tuple(KeyChange(".", f"profile::key{i:04d}", groups) for i in range(3_000))
    result = DiffResult("HEAD", "working tree", nodes, 3_000, (".",), changes)
    report = markdown(result)
    assert 50_000 < len(report) <= 65_536
    assert "more changed keys" in report


def _environments(root: Path) -> None:
    for env, port in (("production", 22), ("staging", 2222)):
        common = f"ntp::servers: [pool]\nssh::port: {port}\n"
        write(root, f"environments/{env}/hiera.yaml", HIERA)
        write(root, f"environments/{env}/data/common.yaml", common)
    write(root, "environments/staging/data/os/RedHat.yaml", "ntp::servers: [rh-pool]\n")
    for name, family in (("web01", "Debian"), ("db01", "RedHat")):
        facts = {"clientcert": name, "os": {"family": family}, "dc": "fra"}
        write(root, f".hiera-ls/facts/{name}.json", json.dumps(facts))


def test_one_environment_against_another_needs_no_git(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _environments(tmp_path)
    argv = ["diff", "-C", str(tmp_path), "--base-environment", "production"]
    code = main([*argv, "--head-environment", "staging"])
    out = capsys.readouterr().out
    assert code == 1
    assert out == (
        "ntp::servers\n"
        '  db01: ["pool"] -> ["rh-pool"]\n'
        "\n"
        "ssh::port\n"
        "  all 2 profiles: 22 -> 2222\n"
        "\n"
        "2 of 2 keys change for 2 profiles (environment production -> environment staging)\n"
    )
    # one node
    code = main([*argv, "--head-environment", "staging", "--profiles", "web01"])
    assert code == 1 and "db01" not in capsys.readouterr().out


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (
            ["--base-environment", "production"],
            "give both --base-environment and --head-environment",
        ),
        (
            ["--base-environment", "production", "--head-environment", "staging", "--base", "HEAD"],
            "--base and --head compare revisions; environments are compared on disk",
        ),
        (
            ["--base-environment", "production", "--head-environment", "qa"],
            "no environment named 'qa' (environments: production, staging)",
        ),
    ],
)
def test_environment_usage_errors_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str], message: str
) -> None:
    _environments(tmp_path)
    assert main(["diff", "-C", str(tmp_path), *extra]) == 2
    assert message in capsys.readouterr().err
