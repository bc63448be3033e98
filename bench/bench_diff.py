"""`hiera-ls diff` on the benchmark repository, against a process-per-lookup loop.

    python bench/bench_diff.py [--nodes 2000] [--profiles 100] [--loop-sample 20]
                               [--puppet-sample 3]

The repository is bench/gen_repo.py's (``--nodes 2000``: 2,000+ data files) in a git
repository, with ``--profiles`` facts profiles (roles, datacenters and OS releases drawn
from a seed) under .hiera-ls/facts, and a change in the working tree (values of common.yaml
and of a role, and a merge strategy in lookup_options).  Printed:

- ``hiera-ls diff`` as a user runs it (a fresh process, HEAD against the working tree, every
  key and profile, JSON to /dev/null): wall time;
- how the time grows with profiles (all keys) and with keys (all profiles), in-process;
- the time to write out one revision (git ls-tree + cat-file, the files Hiera reads);
- a process-per-lookup loop: ``hiera-ls lookup KEY --node N --facts F`` and ``puppet
  lookup`` for a sample of (key, profile) pairs, each extrapolated to every key and profile
  at both revisions, and the ratio to ``hiera-ls diff``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_repo import generate

from hiera_ls.report.diff import run_diff
from hiera_ls.report.git_tree import commit_of, repository_at, write_tree

HIERA_LS = [sys.executable, "-m", "hiera_ls"]  # the checkout on PYTHONPATH, as a user runs it


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=b", "-c", "user.email=b@example.com", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    ).stdout


def add_profiles(env: Path, count: int, seed: int = 3) -> list[tuple[str, Path]]:
    rng = random.Random(seed)
    where = env / ".hiera-ls" / "facts"
    where.mkdir(parents=True)
    out = []
    for i in range(count):
        node = f"node{i * 7 % 2000:04d}.example.com"
        major = rng.choice(["11", "12"])
        facts = {
            "clientcert": node,
            "role": f"role{rng.randrange(30)}",
            "datacenter": rng.choice(["dc1", "dc2", "dc3"]),
            "os": {"family": "Debian", "release": {"major": major}},
        }
        path = where / f"{node}.json"
        path.write_text(json.dumps(facts))
        out.append((node, path))
    return out


def plant_change(env: Path, seed: int = 5) -> None:
    """Change 20 values of common.yaml, 5 of a role, and one merge strategy."""
    rng = random.Random(seed)
    for rel, count in (("data/common.yaml", 20), ("data/roles/role3.yaml", 5)):
        path = env / rel
        lines = path.read_text().splitlines()
        for n in rng.sample(range(len(lines)), count):
            key, _, _ = lines[n].partition(": ")
            if key != '"lookup_options"':
                lines[n] = f"{key}: {json.dumps({'changed': n})}"
        path.write_text("\n".join(lines) + "\n")
    common = env / "data" / "common.yaml"
    common.write_text(common.read_text().replace('{"merge": "deep"}', '{"merge": "hash"}', 1))


def timed(fn: object, *args: object, **kwargs: object) -> tuple[float, object]:
    started = time.perf_counter()
    result = fn(*args, **kwargs)  # type: ignore[operator]
    return time.perf_counter() - started, result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--nodes", type=int, default=2000)
    ap.add_argument("--profiles", type=int, default=100)
    ap.add_argument("--loop-sample", type=int, default=20)
    ap.add_argument("--puppet-sample", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        info = generate(tmp / "envs", nodes=args.nodes)
        env = Path(str(info["env"]))
        profiles = add_profiles(env, args.profiles)
        git(env, "init", "-q")
        git(env, "add", "-A")
        git(env, "commit", "-qm", "base")
        plant_change(env)
        files = sum(1 for _ in env.rglob("*.yaml"))
        print(f"repository: {files} YAML files, {len(profiles)} facts profiles")

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        run = subprocess.run(
            [*HIERA_LS, "diff", "--format", "json", "--output", os.devnull],
            cwd=env,
            capture_output=True,
            text=True,
            check=False,
        )
        cli = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cli_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        if run.returncode != 1:
            raise SystemExit(f"hiera-ls diff: exit {run.returncode}: {run.stderr}")

        cwd = os.getcwd()
        os.chdir(env)
        try:
            full_t, full = timed(run_diff, ".")
            keys = sorted({c.key for c in full.changes})  # type: ignore[attr-defined]
            n_keys = full.keys  # type: ignore[attr-defined]
            print(
                f"hiera-ls diff (fresh process, {n_keys} keys x {len(profiles)} profiles, "
                f"both sides: {2 * n_keys * len(profiles)} lookups): {cli:.2f} s "
                f"(CPU {cli_cpu:.2f} s); "
                f"in-process {full_t:.2f} s; {len(keys)} keys change"
            )
            repo = repository_at(str(env))
            commit = commit_of(repo, "HEAD")
            with tempfile.TemporaryDirectory() as out:
                extract, _ = timed(write_tree, repo, commit, out)
            print(f"writing out one revision (ls-tree + cat-file): {extract * 1e3:.0f} ms")
            names = [n for n, _ in profiles]
            print("growth with profiles (all keys):")
            for count in sorted({max(1, len(names) // 10), len(names) // 4, len(names) // 2}):
                t, _ = timed(run_diff, ".", profiles=names[:count])
                print(f"  {count:4d} profiles: {t:.2f} s")
            print(f"  {len(names):4d} profiles: {full_t:.2f} s")
            all_keys = list(info["keys"])  # type: ignore[call-overload]
            print(f"growth with keys ({len(names)} profiles):")
            for frac in (0.1, 0.25, 0.5):
                chosen = all_keys[: max(1, int(len(all_keys) * frac))]
                t, _ = timed(run_diff, ".", keys=chosen)
                print(f"  {len(chosen):4d} keys: {t:.2f} s")
            print(f"  {n_keys:4d} keys: {full_t:.2f} s")
        finally:
            os.chdir(cwd)

        rng = random.Random(11)
        pairs = [(rng.choice(all_keys), rng.choice(profiles)) for _ in range(args.loop_sample)]
        loop = []
        for key, (node, facts) in pairs:
            t0 = time.perf_counter()
            subprocess.run(
                [*HIERA_LS, "lookup", key, "--node", node, "--facts", str(facts)],
                cwd=env,
                capture_output=True,
                check=False,
            )
            loop.append(time.perf_counter() - t0)
        per = statistics.mean(loop)
        lookups = 2 * n_keys * len(profiles)
        print(
            f"process per lookup, `hiera-ls lookup`: {per:.3f} s a call ({len(loop)} calls); "
            f"x {lookups} lookups = {per * lookups:.0f} s "
            f"({per * lookups / cli:.0f}x `hiera-ls diff`)"
        )
        if shutil.which("puppet") and args.puppet_sample > 0:
            times = []
            for key, (node, facts) in pairs[: args.puppet_sample]:
                t0 = time.perf_counter()
                subprocess.run(
                    ["puppet", "lookup", key, "--node", node, "--facts", str(facts),
                     "--environmentpath", str(env.parent), "--environment", "production"],
                    cwd=env,
                    capture_output=True,
                    check=False,
                )  # fmt: skip
                times.append(time.perf_counter() - t0)
            per = statistics.mean(times)
            print(
                f"process per lookup, `puppet lookup`: {per:.2f} s a call ({len(times)} calls); "
                f"x {lookups} lookups = {per * lookups / 3600:.1f} h "
                f"({per * lookups / cli:.0f}x `hiera-ls diff`)"
            )
        print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
