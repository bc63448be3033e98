"""Latency of the hover spread (a key's value for every facts profile), in process.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_spread.py [--nodes 2000] [--profiles 100] [--keys 60]
                                 [--fleet 10000] [--roles 8] [--sample 200] [--short]

It generates the benchmark repository (bench/gen_repo.py: --nodes node files plus roles,
datacenters, OS and module data) with --profiles facts profiles under .hiera-ls/facts, then
times ``features.hover.hover`` on root keys of data/common.yaml for the first profile, and
the spread alone (``features.spread.spread``), in four situations:

1. cold: the first hover of the run (every profile's session starts: hierarchies and
   lookup_options are read once per profile);
2. new key: a key not hovered before (sessions warm, one lookup per profile);
3. same key again: every profile's answer comes from the cache;
4. after a data edit (a node file's buffer changes: every cached answer is dropped) and
   after a facts edit (one profile's file changes: only its answers are dropped).

p50 and p95 over --keys hovers are printed for 2 and 3; 1 and 4 are single timings.
On a machine busy with other work, ``--cpu`` times the thread's CPU instead of the wall
clock (what the hover itself costs, without the waits for a core).

Then the fleet (``--fleet``, 10,000 nodes; 0 leaves it out): PuppetDB's nodes as ``hiera-ls
facts pull`` writes them, facts shaped and sized like real ``facter -j`` output
(tests/puppetdb/fleet.py), drawing a role of ``--roles`` (8), a datacenter (3) and an OS
release (2): 48 distinct hierarchies. Printed, wall and CPU time each: grouping the fleet
(what the server's worker does when the fleet is loaded), the hover over the whole fleet
after it (p50, p95), the one-lookup-per-node cost it replaces (a sample of ``--sample``
nodes, per node, times the fleet), keeping the groups over a value edit, and the RSS
before the fleet, after grouping it and at the end (with the peak).

``--short`` (CI's run): 300 node files, 20 profiles, 10 keys, a fleet of 1,000.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from gen_repo import facts_profiles, generate

from hiera_ls.features.hover import hover
from hiera_ls.features.profile_classes import FleetGrouping, claim_fleet, group_fleet
from hiera_ls.features.spread import profile_lookup, spread
from hiera_ls.project.fleet_profiles import FleetProfiles, file_name
from hiera_ls.project.workspace import EnvironmentView, Snapshot, Workspace
from hiera_ls.source.spans import Position
from tests.puppetdb.fleet import node

CLOCK = time.perf_counter


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def _pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _key_lines(path: str) -> list[tuple[int, str]]:
    out: list[tuple[int, str]] = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f):
            if line.startswith('"profile::') and ":" in line:
                out.append((i, line.split('"')[1]))
    return out


def _hover(snapshot: Snapshot, path: str, line: int) -> float:
    started = CLOCK()
    result = hover(snapshot, path, Position(line, 2))
    took = CLOCK() - started
    if result is None or "facts profiles" not in result.markdown:
        raise SystemExit(f"no spread in the hover at line {line + 1}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--profiles", type=int, default=100)
    parser.add_argument("--keys", type=int, default=60)
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time the thread's CPU, not the wall clock (a machine shared with other work)",
    )
    parser.add_argument("--fleet", type=int, default=10_000, help="PuppetDB nodes (0: none)")
    parser.add_argument("--roles", type=int, default=8)
    parser.add_argument("--sample", type=int, default=200, help="nodes looked up one by one")
    parser.add_argument("--short", action="store_true", help="CI's quick run")
    args = parser.parse_args()
    if args.short:
        args.nodes, args.profiles, args.keys, args.fleet, args.sample = 300, 20, 10, 1000, 50
    global CLOCK
    CLOCK = time.thread_time if args.cpu else time.perf_counter
    print("clock:", "thread CPU time" if args.cpu else "wall clock")
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        info = generate(root, nodes=args.nodes)
        env = str(info["env"])
        names = facts_profiles(Path(env), args.profiles)
        common = os.path.join(env, "data", "common.yaml")
        keys = _key_lines(common)[: args.keys * 2]
        workspace = Workspace([env])
        workspace.select_profile(names[0])
        snapshot = workspace.snapshot()
        files = sum(1 for _ in snapshot.data_files)
        print(f"{files} data files, {len(snapshot.profiles)} facts profiles, {len(keys)} keys")
        for path in snapshot.data_files:  # parse every file once, as the server's index does
            snapshot.data_file(path)

        cold = _hover(snapshot, common, keys[0][0])
        fresh = [_hover(snapshot, common, line) for line, _ in keys[1 : args.keys]]
        again = [_hover(snapshot, common, line) for line, _ in keys[1 : args.keys]]
        spread_only: list[float] = []
        for _, key in keys[args.keys : args.keys * 2]:
            view = snapshot.environment_for(common)
            assert view is not None
            started = CLOCK()
            spread(snapshot, view, key)
            spread_only.append(CLOCK() - started)

        node_file = os.path.join(env, "data", "nodes", "node0001.example.com.yaml")
        with open(node_file, encoding="utf-8") as f:
            workspace.open_buffer(node_file, f.read() + '"bench::edited": 1\n')
        after_data = _hover(workspace.snapshot(), common, keys[1][0])
        facts_file = os.path.join(env, ".hiera-ls", "facts", f"{names[1]}.json")
        with open(facts_file, encoding="utf-8") as f:
            workspace.open_buffer(facts_file, f.read().replace("dc", "dc", 1) + "\n")
        after_facts = _hover(workspace.snapshot(), common, keys[1][0])

        print(f"hover, cold (every profile's session starts): {_ms(cold)}")
        for label, samples in (
            ("hover, a key not hovered before", fresh),
            ("hover, the same key again", again),
            ("spread alone, a key not hovered before", spread_only),
        ):
            print(
                f"{label}: p50 {_ms(statistics.median(samples))}, "
                f"p95 {_ms(_pct(samples, 0.95))} (n={len(samples)})"
            )
        print(f"hover after a data edit (every answer dropped): {_ms(after_data)}")
        print(f"hover after a facts edit (one profile's answers dropped): {_ms(after_facts)}")
        if args.fleet:
            workspace.close_buffer(node_file)
            workspace.close_buffer(facts_file)
            _fleet(workspace, root, common, keys, args)


def _rss_mb() -> float:
    with open("/proc/self/status", encoding="ascii") as f:
        line = next(line for line in f if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _timed(fn: object, *a: object) -> tuple[object, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    result = fn(*a)  # type: ignore[operator]
    return result, time.perf_counter() - wall, time.process_time() - cpu


def _write_fleet(where: Path, count: int, roles: int) -> int:
    """``count`` nodes as facts pull writes them; the bytes written."""
    where.mkdir()
    rng = random.Random(5)
    size = 0
    for i in range(count):
        values = dict(node(i).values)
        values["role"] = f"role{rng.randrange(roles)}"
        values["datacenter"] = rng.choice(("dc1", "dc2", "dc3"))
        os_facts = dict(values["os"])  # type: ignore[arg-type]
        os_facts["family"] = "Debian"  # (gen_repo's data is for Debian)
        os_facts["release"] = {"major": rng.choice(("11", "12")), "full": "12.5"}
        values["os"] = os_facts
        certname = f"host{i:05d}.example.com"
        values["trusted"] = {**values["trusted"], "certname": certname}  # type: ignore[dict-item]
        text = json.dumps({"certname": certname, "values": values})
        (where / file_name(certname)).write_text(text)
        size += len(text)
    return size


def _fleet(
    workspace: Workspace, root: Path, common: str, keys: list[tuple[int, str]], args: object
) -> None:
    count, roles, sample, n = args.fleet, args.roles, args.sample, args.keys  # type: ignore[attr-defined]
    size = _write_fleet(root / "pulled", count, roles)
    rss_before = _rss_mb()
    workspace.set_fleet(FleetProfiles(str(root / "pulled"), "https://puppetdb.example.com:8081"))
    snapshot = workspace.snapshot()
    view = snapshot.environments[0]
    assert claim_fleet(snapshot, view)
    made, wall, cpu = _timed(group_fleet, snapshot, view)
    assert isinstance(made, FleetGrouping)
    rss_grouped = _rss_mb()
    print(
        f"\nfleet: {count} PuppetDB nodes ({size / count / 1024:.1f} KB of facts each), "
        f"{len(made.classes.names)} groups"
    )
    print(f"grouping the fleet: {wall:.2f} s wall, {cpu:.2f} s CPU")
    fresh = [_hover(snapshot, common, line) for line, _ in keys[1:n]]
    again = [_hover(snapshot, common, line) for line, _ in keys[1:n]]
    for label, samples in (
        ("hover over the fleet, a key not hovered before", fresh),
        ("hover over the fleet, the same key again", again),
    ):
        print(
            f"{label}: p50 {_ms(statistics.median(samples))}, "
            f"p95 {_ms(_pct(samples, 0.95))} (n={len(samples)})"
        )
    per_node = _per_node(snapshot, view, keys[:n], sample)  # the keys hovered above
    print(
        f"one lookup per node instead (the spread before groups): {per_node * 1000:.3f} ms "
        f"CPU per node and key ({sample} nodes), {per_node * count * 1000:.0f} ms per hover "
        f"over {count} nodes"
    )
    with open(common, encoding="utf-8") as f:
        workspace.open_buffer(common, f.read() + '"bench::edited": 1\n')
    edited = workspace.snapshot()
    claim_fleet(edited, edited.environments[0])
    kept, wall, cpu = _timed(group_fleet, edited, edited.environments[0], None, made)
    assert isinstance(kept, FleetGrouping) and kept.classes is made.classes
    print(f"groups kept over a value edit: {wall * 1000:.1f} ms wall, {cpu * 1000:.1f} ms CPU")
    print(f"hover after it: {_ms(_hover(edited, common, keys[1][0]))}")
    print(
        f"RSS: {rss_before:.0f} MB before the fleet, {rss_grouped:.0f} MB grouped, "
        f"{_rss_mb():.0f} MB at the end (peak {_peak_mb():.0f} MB)"
    )


def _per_node(
    snapshot: Snapshot, view: EnvironmentView, keys: list[tuple[int, str]], sample: int
) -> float:
    """CPU per node and key of a lookup per node (sessions warm, as in a server)."""
    entries = [snapshot.profile_named(name) for name in snapshot.fleet_names()[:sample]]
    nodes = [e for e in entries if e is not None]
    for entry in nodes:  # each node's session starts
        profile_lookup(snapshot, view, entry, keys[0][1])
    started = time.process_time()
    for _, key in keys[1:]:
        for entry in nodes:
            profile_lookup(snapshot, view, entry, key)
    return (time.process_time() - started) / (len(nodes) * max(1, len(keys) - 1))


if __name__ == "__main__":
    main()
