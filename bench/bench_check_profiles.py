"""`hiera-ls check` with many facts profiles: what the profiles' differences cost.

    python bench/bench_check_profiles.py [--nodes 300] [--profiles 1,20] [--fleet 0]
                                         [--runs 3] [--jobs 1,2] [--base SERVER_DIR [--base-jobs N]]
                                         [--short]

The repository is bench/gen_repo.py's (``--nodes`` node files); ``--profiles`` lists the
profile counts to time (gen_repo's facts_profiles: each profile a node with its own node
file, so no two share a class); ``--fleet N`` adds a run over N more profiles as
`hiera-ls facts pull` writes them (bench_fleet_diff.py's: 48 distinct hierarchies, no node
file).  Each `hiera-ls check --format json` is a fresh process, once per ``--jobs`` value
(its workers included): wall and CPU time (user + system), peak RSS and PSS summed over the
process and its workers, medians of ``--runs``, the runs interleaved, and whether the
reports of every ``--jobs`` are the same.  ``--base DIR``: also time another checkout's
``server`` directory (the baseline, run with its default), each of its runs interleaved
with ours, and say whether the reports are the same.  ``--short``: one run of 1 and 5
profiles and a fleet of 200 on 60 nodes (CI's log).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_fleet_diff import Measured, add_fleet, median, run_measured
from gen_repo import facts_profiles, generate


def check_once(
    env: Path, server: str | None, output: Path, more: Sequence[str] = ()
) -> tuple[float, float]:
    """Wall and CPU seconds of one `hiera-ls check` (``server``: the checkout to run;
    ``more``: more arguments)."""
    run = check_measured(env, server, output, more)
    return run.wall, run.cpu


def check_measured(
    env: Path, server: str | None, output: Path, more: Sequence[str] = ()
) -> Measured:
    """One `hiera-ls check`, its workers' CPU and memory included."""
    environ = dict(os.environ)
    if server is not None:
        environ["PYTHONPATH"] = server
    argv = [sys.executable, "-m", "hiera_ls", "check", "--format", "json", "--output", str(output)]
    output.unlink(missing_ok=True)
    run = run_measured([*argv, *more], env, environ)
    if run.returncode not in (0, 1) or not output.exists():  # a crash exits 1 too
        raise SystemExit(f"hiera-ls check failed: {run.err}")
    return run


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
    parser.add_argument("--jobs", default="1,2", help="the --jobs values to time (default: 1,2)")
    parser.add_argument("--base", help="a baseline checkout's server directory")
    parser.add_argument(
        "--base-jobs", type=int, help="the base's --jobs (default: none, for a base without it)"
    )
    parser.add_argument("--short", action="store_true")
    args = parser.parse_args()
    if args.short:
        args.nodes, args.profiles, args.fleet, args.runs = 60, "1,5", 200, 1
    cases = [(int(n), 0) for n in args.profiles.split(",") if n]
    if args.fleet:
        cases.append((0, args.fleet))
    sides: list[tuple[str, str | None, int | None]] = [
        (f"this --jobs {j}", None, int(j)) for j in args.jobs.split(",") if j
    ]
    if args.base:
        sides.append(("base", str(Path(args.base).resolve()), args.base_jobs))
    with tempfile.TemporaryDirectory() as tmp:
        for profiles, fleet in cases:
            env = repository(Path(tmp) / f"r{profiles}-{fleet}", args.nodes, profiles, fleet)
            what = f"{profiles} profiles" if not fleet else f"a fleet of {fleet:,} profiles"
            runs: dict[str, list[Measured]] = {name: [] for name, _, _ in sides}
            for _ in range(args.runs):
                for name, server, jobs in sides:  # interleaved: the load hits each alike
                    output = Path(tmp) / f"{name}.json"
                    more = ["--jobs", str(jobs)] if jobs is not None else []
                    runs[name].append(check_measured(env, server, output, more))
            for name, _, _ in sides:
                report = json.loads((Path(tmp) / f"{name}.json").read_text())
                got = runs[name]
                print(
                    f"{name}: check, {args.nodes} nodes, {what}: median "
                    f"{median(got, 'wall'):.2f} s wall, {median(got, 'cpu'):.2f} s CPU, "
                    f"peak RSS {median(got, 'rss'):.0f} MiB "
                    f"(PSS {median(got, 'pss'):.0f} MiB) over {args.runs} runs "
                    f"(walls {', '.join(f'{m.wall:.2f}' for m in got)}; loads "
                    f"{', '.join(f'{m.load:.1f}' for m in got)}; "
                    f"{len(report.get('findings', report))} findings)"
                )
            reports = {(Path(tmp) / f"{name}.json").read_bytes() for name, _, _ in sides}
            print(f"  reports {'identical' if len(reports) == 1 else 'DIFFER'}")
            print(f"  load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
