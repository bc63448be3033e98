"""The hover spread and the key view over PuppetDB's nodes: one lookup per class of nodes,
each class's answer given to all its members, must say what a lookup per node says (the
per-profile lookup the spread made before is the oracle), on random fleets; the fleet's
groups are made off the request path and kept over an edit that changes only values."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from hiera_ls.engine.lookup import LookupOutcome
from hiera_ls.features.key_view import view_of
from hiera_ls.features.profile_classes import (
    FleetGrouping,
    FleetPending,
    claim_fleet,
    fleet_grouping,
    group_fleet,
)
from hiera_ls.features.spread import (
    MAX_ANSWERS,
    identity,
    profile_lookup,
    spread,
    spread_lines,
)
from hiera_ls.project.fleet_profiles import FleetProfiles, file_name
from hiera_ls.project.workspace import Snapshot, Workspace
from hiera_ls.source.manifest_model import MergeValue
from tests.engine.test_node_classes import _env, _write

SOURCE = "https://puppetdb.example.com:8081"
KEYS = ("app::settings", "app::motd", "app::zone", "app::alias", "app::nested", "app::plain")
MERGES: tuple[MergeValue | None, ...] = (None, "deep")
SEEDS = [0, *(pytest.param(s, marks=pytest.mark.slow) for s in range(1, 6))]  # quick: one


def _facts(rng: random.Random, name: str) -> dict[str, object]:
    return {
        "clientcert": name,
        "role": rng.choice(["web", "db", "cache"]),
        "os": {"family": rng.choice(["Debian", "RedHat"])},
        "dc": rng.choice(["fra", "ams", "lhr"]),
        "uptime": rng.random(),
    }


def _fleet(root: Path, rng: random.Random, names: list[str]) -> Path:
    where = root / "pulled"
    where.mkdir()
    for name in names:
        (where / file_name(name)).write_text(json.dumps(_facts(rng, name)))
    return where


def _repo(tmp_path: Path, seed: int, nodes: int = 150) -> tuple[Workspace, Path]:
    rng = random.Random(seed)
    names = [f"n{i}.example.com" for i in range(nodes)]
    env = tmp_path / "env"
    _env(env, rng, names)  # three of them get their own node file
    common = env / "data" / "common.yaml"
    data = json.loads(common.read_text())
    data["app::motd"] = "welcome to %{facts.dc}"
    common.write_text(json.dumps(data))
    # the certname splits only the nodes whose hierarchy reads this file
    _write(env, "data/roles/cache.yaml", json.dumps({"app::motd": "%{trusted.certname}"}))
    for i in range(4):  # the workspace's own profiles
        _write(env, f".hiera-ls/facts/local{i}.json", json.dumps(_facts(rng, f"local{i}")))
    workspace = Workspace([str(env)])
    workspace.set_fleet(FleetProfiles(str(_fleet(tmp_path, rng, names)), SOURCE))
    return workspace, env


def _answer(outcome: LookupOutcome) -> object:
    if outcome.error is not None:
        return ("fails", outcome.error)
    if not outcome.found:
        return ("not found",)
    return ("value", identity(outcome.value))


def _oracle(snapshot: Snapshot, key: str, merge: MergeValue | None) -> dict[object, set[str]]:
    """One lookup per node, as the spread did before classes."""
    view = snapshot.environments[0]
    out: dict[object, set[str]] = {}
    for name in [e.name for e in snapshot.profiles] + snapshot.fleet_names():
        entry = snapshot.profile_named(name)
        assert entry is not None
        outcome = profile_lookup(snapshot, view, entry, key, merge=merge)
        out.setdefault(_answer(outcome), set()).add(name)
    return out


def _grouped(snapshot: Snapshot, key: str, merge: MergeValue | None) -> dict[object, set[str]]:
    found = spread(snapshot, snapshot.environments[0], key, merge)
    out: dict[object, set[str]] = {
        ("value", identity(g.value)): set(g.profiles) for g in found.values
    }
    if found.missing:
        out[("not found",)] = set(found.missing)
    out.update({("fails", f.error): set(f.profiles) for f in found.failures})
    assert sum(map(len, out.values())) == found.total  # each node once
    return out


def _grouped_now(workspace: Workspace) -> Snapshot:
    snapshot = workspace.snapshot()
    view = snapshot.environments[0]
    assert claim_fleet(snapshot, view)
    group_fleet(snapshot, view)
    return snapshot


@pytest.mark.parametrize("seed", SEEDS)
def test_the_spread_over_a_fleet_is_what_a_lookup_per_node_gives(tmp_path: Path, seed: int) -> None:
    workspace, _ = _repo(tmp_path, seed)
    snapshot = _grouped_now(workspace)
    grouping = fleet_grouping(snapshot, snapshot.environments[0])
    assert isinstance(grouping, FleetGrouping) and grouping.nodes == 150
    assert len(grouping.classes.names) < 100  # nodes share lookups
    for key in KEYS:
        for merge in MERGES:
            assert _grouped(snapshot, key, merge) == _oracle(snapshot, key, merge), (key, merge)


@pytest.mark.slow  # the spread's test above runs the same classes in the quick loop
@pytest.mark.parametrize("seed", range(3))
def test_the_key_view_over_a_fleet_is_what_a_lookup_per_node_gives(
    tmp_path: Path, seed: int
) -> None:
    workspace, _ = _repo(tmp_path, seed)
    workspace.select_profile("n7.example.com")  # a fleet node is the active profile
    snapshot = _grouped_now(workspace)
    view = snapshot.environments[0]
    for key in KEYS:
        shown = view_of(snapshot, view, key)
        oracle = _oracle(snapshot, key, None)
        of = {name: answer for answer, names in oracle.items() for name in names}
        for p in shown.profiles:  # the workspace's profiles, one by one
            assert _answer_of(p.found, p.error) == _kind(of[p.name]), (key, p.name)
        fleet = shown.fleet
        assert fleet is not None and fleet.grouped and fleet.source == SOURCE
        assert fleet.nodes == 150 and sum(g.nodes for g in fleet.groups) == 150
        local = {p.name for p in shown.profiles}
        expected = sorted(len(names - local) for names in oracle.values() if names - local)
        assert sorted(g.nodes for g in fleet.groups) == expected, key
        for g in fleet.groups:  # the examples share their group's answer
            assert len(g.examples) <= 3 and len({of[name] for name in g.examples}) == 1
            assert g.active == ("n7.example.com" in _members(oracle, of[g.examples[0]]))


def _answer_of(found: bool, error: str | None) -> str:
    return "fails" if error is not None else "value" if found else "not found"


def _kind(answer: object) -> str:
    assert isinstance(answer, tuple)
    return str(answer[0])


def _members(oracle: dict[object, set[str]], answer: object) -> set[str]:
    return oracle[answer]


def test_until_the_fleet_is_grouped_the_hover_says_so_and_answers_the_workspace(
    tmp_path: Path,
) -> None:
    workspace, _ = _repo(tmp_path, 0)
    snapshot = workspace.snapshot()
    view = snapshot.environments[0]
    found = spread(snapshot, view, "app::plain")
    assert isinstance(found.fleet, FleetPending) and found.total == 4  # the workspace only
    lines = spread_lines(found, "local0")
    assert lines[-1] == (
        f"_PuppetDB's 150 nodes ({SOURCE}) are being grouped by what their hierarchies "
        "read; hover again in a moment for their answers._"
    )
    assert lines[0].startswith("**Across 4 facts profiles:**")
    assert view_of(snapshot, view, "app::plain").fleet == _pending_view()


def _pending_view() -> object:
    from hiera_ls.features.key_view import FleetValues

    return FleetValues(SOURCE, 150, False, [])


def test_the_hover_over_a_fleet_names_a_few_nodes_per_answer_and_the_source_once(
    tmp_path: Path,
) -> None:
    workspace, _ = _repo(tmp_path, 1)
    snapshot = _grouped_now(workspace)
    found = spread(snapshot, snapshot.environments[0], "app::settings", "deep")
    lines = spread_lines(found, "local0")
    groups = len(found.values) + bool(found.missing) + len(found.failures)
    header = f"**Across 4 facts profiles and 150 PuppetDB nodes:** {groups} different answers"
    assert lines[0] == header
    answers = [line for line in lines if line.startswith("- ")]
    assert groups > MAX_ANSWERS + 1  # (the data gives this fleet many answers)
    shown, more = answers[:-1], answers[-1]
    assert len(shown) <= MAX_ANSWERS + 1  # the most common, and the active profile's
    assert any("local0" in line and "(this profile)" in line for line in shown)
    counted = sum(int(line.split(" — ")[-1].split(" of ")[0]) for line in answers)
    assert counted == 154 and f"- {groups - len(shown)} more answers — " in more
    for line in shown:  # counts and at most three names each
        assert " of 154: " in line and line.count(".example.com") <= 3
    assert sum(SOURCE in line for line in lines) == 1


def test_a_value_edit_keeps_the_fleets_groups_and_an_interpolation_edit_regroups(
    tmp_path: Path,
) -> None:
    workspace, env = _repo(tmp_path, 2)
    first = _grouped_now(workspace)
    view = first.environments[0]
    before = fleet_grouping(first, view)
    assert isinstance(before, FleetGrouping)
    common = env / "data" / "common.yaml"
    data = json.loads(common.read_text())
    data["app::plain"] = "changed"
    workspace.open_buffer(str(common), json.dumps(data))
    second = workspace.snapshot()
    assert isinstance(fleet_grouping(second, second.environments[0]), FleetPending)  # new data
    assert claim_fleet(second, second.environments[0])
    kept = group_fleet(second, second.environments[0], previous=before)
    assert kept is not None and kept.classes is before.classes  # no node read again
    assert _grouped(second, "app::plain", None) == _oracle(second, "app::plain", None)
    assert {"changed"} <= {str(v[1][1]) for v in _grouped(second, "app::plain", None)}

    # another file, untouched by the first edit, now interpolates the certname
    web = env / "data" / "roles" / "web.yaml"
    workspace.open_buffer(str(web), json.dumps({"app::plain": "%{trusted.certname}"}))
    third = workspace.snapshot()
    assert claim_fleet(third, third.environments[0])
    regrouped = group_fleet(third, third.environments[0], previous=kept)
    assert regrouped is not None and regrouped.classes is not before.classes
    web_nodes = {n for n in third.fleet_names() if _role(third, n) == "web"}
    assert len(regrouped.classes.names) >= len(web_nodes) > 10  # each web node its own
    for key in ("app::plain", "app::settings"):
        assert _grouped(third, key, None) == _oracle(third, key, None)
    # a hover names the most common answers, the active profile's, and how many more
    lines = spread_lines(spread(third, third.environments[0], "app::plain"), "local0")
    answers = [line for line in lines if line.startswith("- ")]
    assert len(answers) <= MAX_ANSWERS + 2
    assert answers[-1].endswith("of 154 (the key view lists every answer)")


def _role(snapshot: Snapshot, name: str) -> object:
    entry = snapshot.profile_named(name)
    assert entry is not None
    return entry.profile.facts.get("role")


@pytest.mark.slow  # the quick loop keeps the fleet spread's oracle test
def test_grouping_a_fleet_keeps_one_node_per_group_not_every_nodes_facts(tmp_path: Path) -> None:
    workspace, _ = _repo(tmp_path, 3, nodes=600)
    snapshot = _grouped_now(workspace)
    grouping = fleet_grouping(snapshot, snapshot.environments[0])
    assert isinstance(grouping, FleetGrouping)
    assert len(grouping.classes.scopes) == len(grouping.classes.names) < 300
    assert sum(map(len, grouping.classes.names)) == 600
    fleet = snapshot.fleet
    assert fleet is not None and len(fleet._loaded) <= 256  # the reader's bounded cache
    assert not claim_fleet(snapshot, snapshot.environments[0])  # made once per data


def test_a_fleet_of_more_groups_than_a_hover_looks_up_is_said_not_looked_up(
    tmp_path: Path,
) -> None:
    workspace, env = _repo(tmp_path, 4)
    common = env / "data" / "common.yaml"
    data = json.loads(common.read_text())
    data["app::motd"] = "%{trusted.certname}"  # every node a group of its own
    common.write_text(json.dumps(data))
    snapshot = workspace.snapshot()
    view = snapshot.environments[0]
    assert claim_fleet(snapshot, view)
    made = group_fleet(snapshot, view, limit=20)
    assert made is not None and made.too_many == 20 and made.nodes == 150
    assert made.classes.scopes == () and made.classes.names == ()  # no node kept
    found = spread(snapshot, view, "app::plain")
    assert found.total == 4  # the workspace's profiles only
    lines = spread_lines(found, "local0")
    assert lines[-1] == (
        f"_PuppetDB's 150 nodes ({SOURCE}) are not looked up here: they fall into more "
        "than 20 groups that may get different answers (the data interpolates "
        "`trusted.certname` (data/common.yaml, data/roles/cache.yaml), which differs from "
        "node to node); `hiera-ls diff --puppetdb` answers for every node_"
    )
    shown = view_of(snapshot, view, "app::plain").fleet
    assert shown is not None and shown.groups == [] and shown.note is not None
    assert shown.note.startswith("PuppetDB's 150 nodes (https://puppetdb.example.com:8081)")


@pytest.mark.slow  # the quick loop keeps the fleet spread's oracle test
def test_a_fleet_node_that_becomes_a_workspace_profile_is_counted_once(tmp_path: Path) -> None:
    workspace, env = _repo(tmp_path, 5)
    first = _grouped_now(workspace)
    assert spread(first, first.environments[0], "app::plain").total == 154
    facts = {"clientcert": "n3.example.com", "role": "web", "dc": "fra"}
    _write(env, ".hiera-ls/facts/n3.example.com.json", json.dumps(facts))
    workspace.disk_changed(str(env / ".hiera-ls/facts/n3.example.com.json"), True)
    second = workspace.snapshot()
    view = second.environments[0]
    assert isinstance(fleet_grouping(second, view), FleetPending)  # made without it
    assert claim_fleet(second, view)
    group_fleet(second, view)
    found = spread(second, view, "app::plain")
    assert found.total == 154 and len(second.profiles) == 5
    assert _grouped(second, "app::plain", None) == _oracle(second, "app::plain", None)
