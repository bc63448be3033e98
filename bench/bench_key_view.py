"""Latency of the side view's answer (``hiera/keyView``: a key's value for every facts profile
and the active profile's hierarchy level by level), in process.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_key_view.py [--nodes 2000] [--profiles 100] [--keys 60] [--cpu]

On the benchmark repository (bench/gen_repo.py) with --profiles facts profiles, it times
``features.key_view.key_view`` at the cursor on root keys of data/common.yaml: the first
answer of the run (every profile's session starts), a key not shown before (one lookup per
profile, the hierarchy resolved once per snapshot), and the same key again (what a cursor
moving inside one key costs: every answer cached).
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

from bench_spread import _key_lines, _ms, _pct
from gen_repo import facts_profiles, generate

from hiera_ls.features.key_view import key_view
from hiera_ls.project.workspace import Snapshot, Workspace
from hiera_ls.source.spans import Position

CLOCK = time.perf_counter


def _view(snapshot: Snapshot, path: str, line: int, profiles: int) -> float:
    started = CLOCK()
    result = key_view(snapshot, path, Position(line, 2), None)
    took = CLOCK() - started
    if result is None or len(result.profiles) != profiles or not result.hierarchy:
        raise SystemExit(f"no key view at line {line + 1}")
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--profiles", type=int, default=100)
    parser.add_argument("--keys", type=int, default=60)
    parser.add_argument("--cpu", action="store_true", help="time the thread's CPU time")
    args = parser.parse_args()
    global CLOCK
    CLOCK = time.thread_time if args.cpu else time.perf_counter
    print("clock:", "thread CPU time" if args.cpu else "wall clock")
    with tempfile.TemporaryDirectory() as tmp:
        info = generate(Path(tmp), nodes=args.nodes)
        env = str(info["env"])
        names = facts_profiles(Path(env), args.profiles)
        common = os.path.join(env, "data", "common.yaml")
        keys = _key_lines(common)[: args.keys]
        workspace = Workspace([env])
        workspace.select_profile(names[0])
        snapshot = workspace.snapshot()
        count = len(snapshot.profiles)
        print(f"{len(snapshot.data_files)} data files, {count} facts profiles, {len(keys)} keys")
        for path in snapshot.data_files:  # parse every file once, as the server's index does
            snapshot.data_file(path)
        cold = _view(snapshot, common, keys[0][0], count)
        fresh = [_view(snapshot, common, line, count) for line, _ in keys[1:]]
        again = [_view(snapshot, common, line, count) for line, _ in keys[1:]]
        print(f"key view, cold (every profile's session starts): {_ms(cold)}")
        for label, samples in (("a key not shown before", fresh), ("the same key again", again)):
            print(
                f"key view, {label}: p50 {_ms(statistics.median(samples))}, "
                f"p95 {_ms(_pct(samples, 0.95))} (n={len(samples)})"
            )


if __name__ == "__main__":
    main()
