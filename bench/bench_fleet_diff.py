"""`hiera-ls diff` over a fleet: 10,000 facts profiles with a few dozen distinct hierarchies.

    python bench/bench_fleet_diff.py [--profiles 10000] [--roles 8] [--node-files 0]
                                     [--alone 200]

The repository is bench/gen_repo.py's with ``--node-files`` node files, in a git repository;
``--profiles`` facts profiles (as ``hiera-ls facts pull`` writes them) draw a role (of
``--roles``, 8), a datacenter (3) and an OS release (2) from a seed, so the fleet has 48
distinct hierarchies, plus one per node with its own file.  The change in the working tree is
bench_diff.py's (values of common.yaml and of a role, one merge strategy).  Printed:

- ``hiera-ls diff --format markdown`` as a user runs it (a fresh process): wall and CPU
  time, peak RSS, the report's size;
- the cost per node when no two nodes share a lookup (``--alone`` profiles that each have
  their own node file, in-process), extrapolated to the fleet: what every node costs when
  each one is looked up on its own.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_diff import git, plant_change
from gen_repo import generate

from hiera_ls.report.diff import run_diff

HIERA_LS = [sys.executable, "-m", "hiera_ls"]


def add_fleet(env: Path, count: int, node_files: int, roles: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    where = env / ".hiera-ls" / "facts" / "puppetdb"
    where.mkdir(parents=True)
    for i in range(count):
        # the first node_files nodes have their own data file (gen_repo's node0000...)
        node = f"node{i:04d}.example.com" if i < node_files else f"host{i:05d}.example.com"
        facts = {
            "clientcert": node,
            "role": f"role{rng.randrange(roles)}",
            "datacenter": rng.choice(["dc1", "dc2", "dc3"]),
            "os": {"family": "Debian", "release": {"major": rng.choice(["11", "12"])}},
            "uptime_seconds": rng.randrange(10**6),
        }
        (where / f"{node}.json").write_text(json.dumps(facts))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--profiles", type=int, default=10_000)
    ap.add_argument("--node-files", type=int, default=0)
    ap.add_argument("--roles", type=int, default=8)
    ap.add_argument("--alone", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        info = generate(tmp / "envs", nodes=max(args.node_files, args.alone))
        env = Path(str(info["env"]))
        add_fleet(env, args.profiles, args.node_files, args.roles)
        git(env, "init", "-q")
        git(env, "add", "-A")
        git(env, "commit", "-qm", "base")
        plant_change(env)
        print(f"fleet: {args.profiles:,} profiles, {args.node_files} with their own node file")

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        run = subprocess.run(
            [*HIERA_LS, "diff", "--format", "markdown"],
            cwd=env,
            capture_output=True,
            text=True,
            check=False,
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if run.returncode != 1:
            raise SystemExit(f"hiera-ls diff: exit {run.returncode}: {run.stderr}")
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        rss = after.ru_maxrss / 1024
        summary = next(line for line in run.stdout.splitlines() if " keys change " in line)
        print(
            f"hiera-ls diff --format markdown: {wall:.1f} s wall, {cpu:.1f} s CPU, "
            f"peak RSS {rss:.0f} MiB, report {len(run.stdout):,} characters ({summary})"
        )

        # every node alone: nodes with their own file never share a class
        alone = [f"node{i:04d}.example.com" for i in range(args.alone)]
        fleet = env / ".hiera-ls" / "facts" / "puppetdb"
        for name in alone[args.node_files :]:
            facts = json.loads(next(fleet.glob("host*.json")).read_text())
            (fleet / f"{name}.json").write_text(json.dumps({**facts, "clientcert": name}))
        cwd = os.getcwd()
        os.chdir(env)
        try:
            t0 = time.process_time()
            run_diff(".", profiles=alone)
            per = (time.process_time() - t0) / len(alone)
        finally:
            os.chdir(cwd)
        print(
            f"per node when each node is looked up alone: {per * 1e3:.0f} ms CPU "
            f"({len(alone)} nodes); x {args.profiles:,} nodes = {per * args.profiles:.0f} s"
        )
        print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
