"""Latency of the hover spread (a key's value for every facts profile), in process.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_spread.py [--nodes 2000] [--profiles 100] [--keys 60]

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
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))

from gen_repo import facts_profiles, generate

from hiera_ls.features.hover import hover
from hiera_ls.features.spread import spread
from hiera_ls.project.workspace import Snapshot, Workspace
from hiera_ls.source.spans import Position

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
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
