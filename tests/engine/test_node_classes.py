"""Nodes that share one lookup must get what their own lookups give: a fleet of random
nodes, data that interpolates facts, the certname and ``scope()``, node files for a few,
compared class by class against a session per node."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.engine.lookup import LookupSession
from hiera_ls.engine.node_classes import hierarchy_reads, interpolated_variables, values_of
from hiera_ls.project.facts import node_scope
from hiera_ls.project.workspace import Workspace
from hiera_ls.report.diff import run_diff
from hiera_ls.report.diff_result import same_as

HIERA = """\
---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: role and os
    path: "roles/%{facts.role}/%{facts.os.family}.yaml"
  - name: role
    path: "roles/%{::role}.yaml"
  - name: common
    path: common.yaml
"""


def _write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def _env(root: Path, rng: random.Random, nodes: list[str]) -> None:
    _write(root, "hiera.yaml", HIERA)
    common = {
        "lookup_options": {"app::settings": {"merge": "deep"}},
        "app::settings": {"dc": "%{facts.dc}", "port": rng.choice([80, 8080])},
        "app::motd": "welcome to %{trusted.certname}",
        "app::zone": "%{scope('dc')}-%{facts.os.family}",
        "app::alias": "%{alias('app::settings')}",
        "app::nested": "%{lookup('app::zone')}/x",
        "app::plain": rng.choice(["a", "b"]),
    }
    _write(root, "data/common.yaml", json.dumps(common))
    for role in ("web", "db"):
        _write(
            root, f"data/roles/{role}.yaml", json.dumps({"app::plain": f"{role}-{rng.random()}"})
        )
        for family in ("Debian", "RedHat"):
            settings = {"app::settings": {"tier": f"{role}/{family}-{rng.randint(0, 1)}"}}
            _write(root, f"data/roles/{role}/{family}.yaml", json.dumps(settings))
    for name in rng.sample(nodes, 3):
        _write(root, f"data/nodes/{name}.yaml", json.dumps({"app::plain": name}))


# one seed in the quick loop, the others with the slow tests
SEEDS = [0, *(pytest.param(s, marks=pytest.mark.slow) for s in range(1, 4))]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_class_gets_what_each_of_its_nodes_gets_alone(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    nodes = [f"n{i}.example.com" for i in range(30)]
    for side in ("base", "head"):
        _env(tmp_path / "environments" / side, rng, nodes)
    for name in nodes:
        facts = {
            "clientcert": name,
            "role": rng.choice(["web", "db"]),
            "os": {"family": rng.choice(["Debian", "RedHat"])},
            "dc": rng.choice(["fra", "ams"]),
            "uptime": rng.random(),
        }
        _write(tmp_path, f".hiera-ls/facts/{name}.json", json.dumps(facts))
    keys = ("app::settings", "app::motd", "app::zone", "app::alias", "app::nested", "app::plain")
    expected = _each_node_alone(tmp_path, nodes, keys)
    assert _reported(tmp_path) == expected
    assert expected  # the random data changes something


def _reported(root: Path) -> dict[tuple[str, str], tuple[object, object]]:
    """(key, node) -> (before, after) as ``diff`` between the two environments says."""
    result = run_diff(str(root), environments=("base", "head"))
    return {
        (change.key, name): (group.before.same_as, group.after.same_as)
        for change in result.changes
        for group in change.groups
        for name in group.profiles
    }


def _each_node_alone(
    root: Path, nodes: list[str], keys: tuple[str, ...]
) -> dict[tuple[str, str], tuple[object, object]]:
    """What changes, asked of a session per node and environment: the oracle."""
    snap = Workspace([str(root)]).snapshot()
    views = {view.env.name: view for view in snap.environments}
    expected = {}
    for name in nodes:
        entry = snap.profile_named(name)
        assert entry is not None
        answers = []
        for side in ("base", "head"):
            env = views[side].env
            scope = node_scope(entry.profile.facts, name, env.name, True)
            session = LookupSession(env, scope, snap.files, snap.cache)
            answers.append({k: same_as(session.lookup(k).value) for k in keys})
        for key in keys:
            if answers[0][key] != answers[1][key]:
                expected[(key, name)] = (answers[0][key], answers[1][key])
    return expected


def test_nodes_without_a_node_file_share_a_class_until_the_data_reads_what_splits_them(
    tmp_path: Path,
) -> None:
    _write(tmp_path, "hiera.yaml", HIERA)
    _write(tmp_path, "data/common.yaml", "a: '%{facts.dc}'\n")
    _write(tmp_path, "data/nodes/n3.yaml", "a: mine\n")
    snap = Workspace([str(tmp_path)]).snapshot()
    env = snap.environments[0].env
    variables = sorted(interpolated_variables(["%{facts.dc}"]))

    def sig(name: str, dc: str, role: str = "web") -> object:
        facts = {"clientcert": name, "dc": dc, "role": role, "os": {"family": "Debian"}}
        session = LookupSession(env, node_scope(facts, name, env.name), snap.files, snap.cache)
        return (hierarchy_reads(session), values_of(session.scope, variables))

    assert sig("n1", "fra") == sig("n2", "fra")  # neither has a node file
    assert sig("n1", "fra") != sig("n2", "ams")  # the data reads the datacenter
    assert sig("n1", "fra") != sig("n3", "fra")  # n3's own file
    assert sig("n1", "fra", "web") == sig("n2", "fra", "db")  # no roles/db.yaml here


def test_the_variables_interpolations_read() -> None:
    texts = [
        "%{facts.os.family}-%{::role}",
        "%{scope('dc')} %{scope(\"trusted.certname\")}",
        "%{lookup('k')} %{alias('x')} %{literal('%')} %{hiera('y')}",
        "%{ facts.spaced }",
    ]
    assert interpolated_variables(texts) == [  # each once, in the order written
        "facts.os.family",
        "role",
        "dc",
        "trusted.certname",
        "facts.spaced",
    ]


MODULE_HIERA = """\
---
version: 5
hierarchy:
  - name: module nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: module common
    path: common.yaml
"""


def _env_with_module(root: Path, rng: random.Random, nodes: list[str]) -> None:
    """Common data that interpolates the certname in one key only, a module whose hierarchy
    names a file per node, keys that look up others across the two."""
    _write(root, "hiera.yaml", HIERA)
    common = {
        "lookup_options": {"app::merged": {"merge": "unique"}},
        "site::motd": "welcome to %{facts.networking.hostname}",
        "site::plain": rng.choice(["a", "b"]),
        "site::from_module": "%{lookup('app::dc_name')}!",
        "site::hiera": "%{hiera('site::motd')}",
        "app::merged": ["common"],
    }
    _write(root, "data/common.yaml", json.dumps(common))
    for role in ("web", "db"):
        _write(
            root, f"data/roles/{role}.yaml", json.dumps({"site::plain": f"{role}{rng.random()}"})
        )
    module = root / "modules" / "app"
    _write(module, "hiera.yaml", MODULE_HIERA)
    data = {
        "app::dc_name": rng.choice(["%{facts.dc}-dc", "dc-%{::role}"]),
        "app::merged": ["module-%{facts.dc}"],
        "app::plain": rng.choice(["x", "y"]),
    }
    _write(module, "data/common.yaml", json.dumps(data))
    for name in rng.sample(nodes, 2):
        _write(module, f"data/nodes/{name}.yaml", json.dumps({"app::plain": name}))


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_classes_split_per_key_give_what_each_node_gets_alone(tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    nodes = [f"n{i}.example.com" for i in range(24)]
    for side in ("base", "head"):
        _env_with_module(tmp_path / "environments" / side, rng, nodes)
    for name in nodes:
        facts = {
            "clientcert": name,
            "networking": {"hostname": name.split(".")[0]},
            "role": rng.choice(["web", "db"]),
            "os": {"family": "Debian"},
            "dc": rng.choice(["fra", "ams"]),
        }
        _write(tmp_path, f".hiera-ls/facts/{name}.json", json.dumps(facts))
    keys = ("site::motd", "site::plain", "site::from_module", "site::hiera", "app::merged")
    keys += ("app::dc_name", "app::plain")
    expected = _each_node_alone(tmp_path, nodes, keys)
    assert _reported(tmp_path) == expected
    assert expected  # the random data changes something


EXPAND_HIERA = """\
---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: expanded
    lookup_key: site::expand_path
    path: expanded
  - name: common
    path: common.yaml
"""


def test_a_level_that_reads_a_file_per_key_under_a_directory_splits_by_what_those_files_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """expand_path (Wikimedia's wmflib::expand_path) names a directory: ``app::motd`` is read
    from expanded/app.yaml. Before, its interpolations were not seen: every node got the
    first node's datacenter."""
    _write(tmp_path, ".hiera-ls.yaml", "backends:\n  site::expand_path: expand_path\n")
    for side, greeting in (("base", "hi"), ("head", "hello")):
        root = tmp_path / "environments" / side
        _write(root, "hiera.yaml", EXPAND_HIERA)
        _write(root, "data/common.yaml", "app::plain: 1\n")
        _write(root, "data/expanded/app.yaml", f"app::motd: '{greeting} %{{facts.dc}}'\n")
    for i, dc in enumerate(("fra", "ams", "fra", "nyc")):
        facts = {"clientcert": f"n{i}", "dc": dc}
        _write(tmp_path, f".hiera-ls/facts/n{i}.json", json.dumps(facts))
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "--base-environment", "base", "--head-environment", "head"]) == 1
    assert capsys.readouterr().out.splitlines()[:4] == [
        "app::motd",
        '  n0, n2: "hi fra" -> "hello fra"',
        '  n1: "hi ams" -> "hello ams"',
        '  n3: "hi nyc" -> "hello nyc"',
    ]


def test_nodes_with_their_own_node_files_share_a_key_none_of_those_files_defines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each node reads its own node file (a class each), but a key only common.yaml defines
    is looked up once per side, not once per node, and every node gets the same answer."""
    nodes = [f"n{i}.example.com" for i in range(6)]
    for side, value in (("base", "old"), ("head", "new")):
        root = tmp_path / "environments" / side
        _write(root, "hiera.yaml", HIERA)
        _write(root, "data/common.yaml", json.dumps({"app::plain": value, "app::own": 0}))
        for name in nodes:
            _write(root, f"data/nodes/{name}.yaml", json.dumps({"app::own": name}))
    for name in nodes:
        facts = {"clientcert": name, "role": "web", "os": {"family": "Debian"}}
        _write(tmp_path, f".hiera-ls/facts/{name}.json", json.dumps(facts))
    asked: list[str] = []
    lookup = LookupSession.lookup

    def counted(self: LookupSession, names: object, *args: object, **kwargs: object) -> object:
        asked.append(str(names))
        return lookup(self, names, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(LookupSession, "lookup", counted)
    result = run_diff(str(tmp_path), environments=("base", "head"))
    changes = {change.key: change.groups for change in result.changes}
    assert [(g.profiles, g.before.same_as, g.after.same_as) for g in changes["app::plain"]] == [
        (tuple(nodes), same_as("old"), same_as("new"))
    ]
    assert asked.count("app::plain") == 2  # one lookup a side
    assert asked.count("app::own") == 2 * len(nodes)  # each node file defines it
