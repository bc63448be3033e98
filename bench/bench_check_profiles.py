"""`hiera-ls check` with many facts profiles: what the profiles' differences cost.

    python bench/bench_check_profiles.py [--nodes 300] [--profiles 1,20] [--fleet 0]
                                         [--runs 3] [--base SERVER_DIR] [--short]

The repository is bench/gen_repo.py's (``--nodes`` node files); ``--profiles`` lists the
profile counts to time (gen_repo's facts_profiles: each profile a node with its own node
file, so no two share a class); ``--fleet N`` adds a run over N more profiles as
`hiera-ls facts pull` writes them (bench_fleet_diff.py's: 48 distinct hierarchies, no node
file).  Each `hiera-ls check --format json` is a fresh process: wall and CPU time (user +
system), medians of ``--runs``.  ``--base DIR``: also time another checkout's ``server``
directory (the baseline), each of its runs interleaved with ours, and say whether the two
reports are the same.  ``--short``: one run of 1 and 5 profiles and a fleet of 200 on 60
nodes (CI's log).
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_fleet_diff import add_fleet
from gen_repo import facts_profiles, generate


def check_once(
    env: Path, server: str | None, output: Path, more: Sequence[str] = ()
) -> tuple[float, float]:
    """Wall and CPU seconds of one `hiera-ls check` (``server``: the checkout to run;
    ``more``: more arguments)."""
    environ = dict(os.environ)
    if server is not None:
        environ["PYTHONPATH"] = server
    argv = [sys.executable, "-m", "hiera_ls", "check", "--format", "json", "--output", str(output)]
    argv += more
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run = subprocess.run(argv, cwd=env, env=environ, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode not in (0, 1):
        raise SystemExit(f"hiera-ls check failed: {run.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def repository(root: Path, nodes: int, profiles: int, fleet: int) -> Path:
    env = Path(str(generate(root, nodes=nodes)["env"]))
    facts_profiles(env, profiles)
    if fleet:
        add_fleet(env, fleet, 0, 8)
    return env


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--profiles", default="1,20")
    parser.add_argument("--fleet", type=int, default=0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--base", help="a baseline checkout's server directory")
    parser.add_argument("--short", action="store_true")
    args = parser.parse_args()
    if args.short:
        args.nodes, args.profiles, args.fleet, args.runs = 60, "1,5", 200, 1
    cases = [(int(n), 0) for n in args.profiles.split(",") if n]
    if args.fleet:
        cases.append((0, args.fleet))
    sides: list[tuple[str, str | None]] = [("this", None)]
    if args.base:
        sides.append(("base", str(Path(args.base).resolve())))
    with tempfile.TemporaryDirectory() as tmp:
        for profiles, fleet in cases:
            env = repository(Path(tmp) / f"r{profiles}-{fleet}", args.nodes, profiles, fleet)
            walls: dict[str, list[float]] = {name: [] for name, _ in sides}
            cpus: dict[str, list[float]] = {name: [] for name, _ in sides}
            for _ in range(args.runs):
                for name, server in sides:  # interleaved: the machine's load hits both alike
                    wall, cpu = check_once(env, server, Path(tmp) / f"{name}.json")
                    walls[name].append(wall)
                    cpus[name].append(cpu)
            what = f"{profiles} profiles" if not fleet else f"a fleet of {fleet:,} profiles"
            for name, _ in sides:
                report = json.loads((Path(tmp) / f"{name}.json").read_text())
                print(
                    f"{name}: check, {args.nodes} nodes, {what}: median "
                    f"{statistics.median(walls[name]):.2f} s wall, "
                    f"{statistics.median(cpus[name]):.2f} s CPU over {args.runs} runs "
                    f"(walls {', '.join(f'{w:.2f}' for w in walls[name])}; "
                    f"{len(report.get('findings', report))} findings)"
                )
            if args.base:
                same = filecmp.cmp(Path(tmp) / "this.json", Path(tmp) / "base.json", False)
                print(f"  reports {'identical' if same else 'DIFFER'}")
            print(f"  load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
