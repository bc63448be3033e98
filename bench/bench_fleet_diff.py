"""`hiera-ls diff` over a fleet: 10,000 facts profiles with a few dozen distinct hierarchies.

    python bench/bench_fleet_diff.py [--profiles 10000] [--roles 8] [--node-files 0]
                                     [--alone 200] [--jobs 1,2] [--runs 1]
                                     [--base SERVER_DIR]

The repository is bench/gen_repo.py's with ``--node-files`` node files, in a git repository;
``--profiles`` facts profiles (as ``hiera-ls facts pull`` writes them) draw a role (of
``--roles``, 8), a datacenter (3) and an OS release (2) from a seed, so the fleet has 48
distinct hierarchies, plus one per node with its own file.  The change in the working tree is
bench_diff.py's (values of common.yaml and of a role, one merge strategy).  Printed:

- ``hiera-ls diff --format markdown`` as a user runs it (a fresh process), with each
  ``--jobs`` value given, interleaved, medians of ``--runs``: wall and CPU time (the
  workers' included), peak RSS and PSS summed over the process and its workers, the
  report's size, and whether the reports of every ``--jobs`` are the same; ``--base DIR``:
  also another checkout's ``server`` directory (the baseline, ``--jobs 1``), its runs
  interleaved with these, its report compared too;
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
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_diff import git, plant_change
from gen_repo import generate

from hiera_ls.report.diff import run_diff

HIERA_LS = [sys.executable, "-m", "hiera_ls"]


@dataclass(frozen=True, slots=True)
class Measured:
    wall: float  # seconds
    cpu: float  # seconds, user + system, of the process and every worker it waited for
    rss: float  # MiB: the most the process and its workers held at once (summed)
    pss: float  # MiB: the same, pages shared by the forks counted once in all
    load: float  # the 1-minute load average when the run started
    returncode: int
    out: str
    err: str


def run_measured(argv: list[str], cwd: Path, environ: dict[str, str] | None = None) -> Measured:
    """``argv`` run in ``cwd``, its memory and its workers' sampled every 20 ms."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        process = subprocess.Popen(argv, cwd=cwd, env=environ, stdout=out, stderr=err, text=True)
        rss = pss = 0.0
        while process.poll() is None:
            pids = [process.pid, *_children(process.pid)]
            rss = max(rss, sum(_memory(pid, "/status", "VmRSS:") for pid in pids))
            pss = max(pss, sum(_memory(pid, "/smaps_rollup", "Pss:") for pid in pids))
            time.sleep(0.02)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        out.seek(0)
        err.seek(0)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        return Measured(wall, cpu, rss, pss, load, process.returncode, out.read(), err.read())


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(child) for child in text.split()]


def _memory(pid: int, file: str, field: str) -> float:
    """A field in kB of /proc/PID/FILE, in MiB (0 when the process is gone)."""
    try:
        for line in Path(f"/proc/{pid}{file}").read_text().splitlines():
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    except (OSError, ValueError):
        pass
    return 0.0


def median(runs: list[Measured], what: str) -> float:
    return float(statistics.median(getattr(m, what) for m in runs))


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
    ap.add_argument("--jobs", default="1,2", help="the --jobs values to time (default: 1,2)")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--base", help="a baseline checkout's server directory (run with --jobs 1)")
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

        # (name, --jobs, the environment: None for this checkout)
        sides: list[tuple[str, int, dict[str, str] | None]] = [
            (f"--jobs {j}", int(j), None) for j in args.jobs.split(",") if j
        ]
        if args.base:
            base = str(Path(args.base).resolve())
            sides.append(("base --jobs 1", 1, {**os.environ, "PYTHONPATH": base}))
        timed: dict[str, list[Measured]] = {name: [] for name, _, _ in sides}
        for _ in range(args.runs):
            for name, j, environ in sides:  # interleaved: the machine's load hits each alike
                argv = [*HIERA_LS, "diff", "--format", "markdown", "--jobs", str(j)]
                measured = run_measured(argv, env, environ)
                if measured.returncode != 1:
                    raise SystemExit(f"hiera-ls diff: exit {measured.returncode}: {measured.err}")
                timed[name].append(measured)
        for name, _, _ in sides:
            runs = timed[name]
            out = runs[-1].out
            summary = next(line for line in out.splitlines() if " keys change " in line)
            print(
                f"hiera-ls diff --format markdown {name}: {median(runs, 'wall'):.1f} s wall, "
                f"{median(runs, 'cpu'):.1f} s CPU, peak RSS {median(runs, 'rss'):.0f} MiB "
                f"(PSS {median(runs, 'pss'):.0f} MiB) over its processes, medians of "
                f"{len(runs)} (walls {', '.join(f'{m.wall:.1f}' for m in runs)}; loads "
                f"{', '.join(f'{m.load:.1f}' for m in runs)}), report {len(out):,} characters "
                f"({summary})"
            )
        same = len({timed[name][-1].out for name, _, _ in sides}) == 1
        print(f"reports of {', '.join(timed)}: {'identical' if same else 'DIFFER'}")

        if args.alone > 0:  # --alone 0: no such row
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
