"""A real PuppetDB's nodes in the hover spread: the session's 300 generated nodes (facts
shaped like real ``facter -j`` output), pulled as ``facts pull`` writes them, grouped, and
every key of the control repository's data answered per group as each node's own lookup
answers it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.features.profile_classes import FleetGrouping, claim_fleet, group_fleet
from hiera_ls.features.spread import identity, profile_lookup, spread, spread_lines
from hiera_ls.project.fleet_profiles import FleetProfiles
from hiera_ls.project.workspace import Workspace
from tests.puppetdb.conftest import FLEET_SIZE
from tests.puppetdb.service import PuppetDB

EXAMPLE = Path(__file__).parents[2] / "examples" / "control-repo"
KEYS = (
    "profile::ssh::settings",
    "profile::ssh::port",
    "profile::base::packages",
    "ntp::servers",
    "profile::base::admin_email",
    "classes",
)


def test_the_spread_over_a_real_puppetdbs_nodes_is_what_each_node_gets(
    puppetdb: PuppetDB, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE, repo)
    pulled = tmp_path / "pulled"
    assert main(["facts", "pull", "--puppetdb", puppetdb.http_url, "--output", str(pulled)]) == 0
    capsys.readouterr()
    workspace = Workspace([str(repo)])
    workspace.set_fleet(FleetProfiles(str(pulled), puppetdb.http_url))
    snapshot = workspace.snapshot()
    view = snapshot.environments[0]
    assert claim_fleet(snapshot, view)
    grouping = group_fleet(snapshot, view)
    assert isinstance(grouping, FleetGrouping) and grouping.nodes >= FLEET_SIZE
    # (common.yaml interpolates facts.networking.hostname: each node is a group of its own)
    assert sum(map(len, grouping.classes.names)) == grouping.nodes
    for key in KEYS:
        found = spread(snapshot, view, key)
        got = {("v", identity(g.value)): set(g.profiles) for g in found.values}
        got.update({("e", f.error): set(f.profiles) for f in found.failures})
        if found.missing:
            got[("missing",)] = set(found.missing)
        expected: dict[object, set[str]] = {}
        for name in [e.name for e in snapshot.profiles] + snapshot.fleet_names():
            entry = snapshot.profile_named(name)
            assert entry is not None
            outcome = profile_lookup(snapshot, view, entry, key)
            answer = (
                ("e", outcome.error)
                if outcome.error is not None
                else ("v", identity(outcome.value))
                if outcome.found
                else ("missing",)
            )
            expected.setdefault(answer, set()).add(name)
        assert got == expected, key
        lines = spread_lines(found, None)
        assert sum(puppetdb.http_url in line for line in lines) == 1
