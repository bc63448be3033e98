"""The pulled profile directory: node files named by certname, replaced whole or not at all,
and read back lazily as the fleet's profiles."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from hiera_ls.fleet import store
from hiera_ls.fleet.nodes import BrokenNode, NodeProfile, node_profile
from hiera_ls.fleet.store import write_profiles
from hiera_ls.project.facts import load_facts, node_scope
from hiera_ls.project.fleet_profiles import FleetProfiles, certname_of, file_name
from hiera_ls.project.targets import PUPPET7, PUPPET8
from tests.fleet.fake_puppetdb import good_row


@pytest.mark.parametrize(
    "certname",
    [
        "web01.example.com",
        "UPPER.example.com",
        "with space",
        ".hidden",
        "..",
        "a%2Fb",
        "ünï.example.com",
        "a:b*c?.example",
    ],
)
def test_every_certname_gets_a_file_that_names_it_back(certname: str) -> None:
    name = file_name(certname)
    assert "/" not in name and not name.startswith(".")
    assert certname_of(name) == certname


def test_a_profile_is_puppetdb_shaped_one_fact_a_line_and_gives_puppet_its_trusted() -> None:
    row = good_row("web01.example.com", networking={"ip": "10.0.0.1"})
    profile = node_profile(row)
    assert isinstance(profile, NodeProfile)
    text = profile.text.decode()
    assert text.splitlines() == [
        "{",
        '  "certname": "web01.example.com",',
        '  "environment": "production",',
        '  "values": {',
        '    "role": "web",',
        '    "os": {"family": "Debian"},',
        '    "networking": {"ip": "10.0.0.1"},',
        '    "trusted": {"authenticated": "remote", "certname": "web01.example.com", '
        '"domain": "example.com", "extensions": {}, "hostname": "web01"}',
        "  }",
        "}",
    ]
    values = json.loads(text)["values"]
    scope = node_scope(values, None, "production")
    assert scope.variables["trusted"] == row["trusted"]


def nodes(*names: str, version: int = 1) -> Iterator[NodeProfile | BrokenNode]:
    for name in names:
        yield NodeProfile(name, f'{{"values": {{"v": {version}}}}}\n'.encode())


def test_an_unchanged_node_keeps_its_file_and_a_failure_keeps_everything(tmp_path: Path) -> None:
    out = tmp_path / "puppetdb"
    first = write_profiles(str(out), nodes("a", "b", "c"))
    assert (first.new, first.changed, first.unchanged) == (("a", "b", "c"), (), 0)
    before = {p.name: p.stat() for p in out.iterdir()}

    def failing() -> Iterator[NodeProfile | BrokenNode]:
        yield from nodes("a", "b", version=2)
        raise OSError("the disk is full")

    with pytest.raises(OSError, match="the disk is full"):
        write_profiles(str(out), failing())
    assert {p.name: p.read_text() for p in out.iterdir()} == {
        n: '{"values": {"v": 1}}\n' for n in ("a.json", "b.json", "c.json")
    }
    assert os.listdir(tmp_path) == ["puppetdb"]

    second = write_profiles(str(out), [*nodes("a", "c"), *nodes("b", version=2)])
    assert (second.new, second.changed, second.unchanged) == ((), ("b",), 2)
    after = {p.name: p.stat() for p in out.iterdir()}
    for name in ("a.json", "c.json"):
        assert (after[name].st_ino, after[name].st_mtime_ns) == (
            before[name].st_ino,
            before[name].st_mtime_ns,
        )
    assert after["b.json"].st_ino != before["b.json"].st_ino


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "two renames"])
def test_the_directory_is_swapped_whole_with_or_without_an_atomic_exchange(
    exchange: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not exchange:
        monkeypatch.setattr(store, "_exchange", lambda a, b: False)
    out = tmp_path / "puppetdb"
    write_profiles(str(out), nodes("a", "b"))
    summary = write_profiles(str(out), nodes("b", "c"), prune=True)
    assert (summary.new, summary.removed) == (("c",), ("a",))
    assert sorted(os.listdir(out)) == ["b.json", "c.json"]
    assert os.listdir(tmp_path) == ["puppetdb"]


def test_a_swap_cut_between_its_two_renames_is_finished_by_the_next_pull(tmp_path: Path) -> None:
    out = tmp_path / "puppetdb"
    write_profiles(str(out), nodes("a"))
    os.rename(out, str(out) + ".previous")  # the old directory set aside, the new one lost
    summary = write_profiles(str(out), nodes("a"))
    assert (summary.unchanged, summary.touched) == (1, False)
    assert os.listdir(tmp_path) == ["puppetdb"]


def test_fleet_profiles_are_listed_by_name_and_read_only_when_asked(tmp_path: Path) -> None:
    out = tmp_path / "puppetdb"
    rows = [good_row(f"web{i:02d}.example.com") for i in range(5)]
    profiles = [node_profile(r) for r in rows]
    write_profiles(str(out), [p for p in profiles if isinstance(p, NodeProfile)])
    (out / "notes.txt").write_text("not a node")
    fleet = FleetProfiles(str(out), "http://puppetdb:8080", keep=2)
    assert list(fleet.names()) == [f"web{i:02d}.example.com" for i in range(5)]
    assert len(fleet) == 5 and "web03.example.com" in fleet
    assert fleet._loaded == {}  # listing read no profile
    entry = fleet.entry("web03.example.com")
    assert entry is not None and entry.profile.error is None
    assert entry.profile.facts["role"] == "web"
    path = out / "web03.example.com.json"
    full = load_facts(str(path), path.read_text())  # read with every fact's position
    assert (entry.profile.facts, entry.profile.name) == (full.facts, full.name)
    assert fleet.entry("web03.example.com") is entry  # kept: the same entry, not re-read
    for name in ("web00.example.com", "web01.example.com", "web02.example.com"):
        fleet.entry(name)
    assert list(fleet._loaded) == ["web01.example.com", "web02.example.com"]  # the last two
    assert fleet.entry("nobody") is None


def test_a_puppet_7_nodes_legacy_facts_are_read_as_the_target_reads_them(tmp_path: Path) -> None:
    """PuppetDB keeps what a Puppet 7 agent sent: a Puppet 8 target reads it without the
    legacy facts, as it reads a profile file (project/facts.py: as_target_reads)."""
    out = tmp_path / "puppetdb"
    row = good_row("old01.example.com", osfamily="Debian")
    write_profiles(str(out), [p for p in [node_profile(row)] if isinstance(p, NodeProfile)])
    fleet = FleetProfiles(str(out), "http://puppetdb:8080")
    modern = fleet.entry("old01.example.com", target=PUPPET8)
    assert modern is not None and "osfamily" not in modern.profile.facts
    assert modern.profile.left_out == ("osfamily",)
    old = fleet.entry("old01.example.com", target=PUPPET7)
    assert old is not None and old.profile.facts["osfamily"] == "Debian"
    assert fleet.entry("old01.example.com", target=PUPPET7) is old
