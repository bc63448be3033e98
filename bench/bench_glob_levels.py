"""Many glob levels over a datadir of thousands of files: ``hiera-ls lookup`` against
``puppet lookup`` in the same run (not a test: run it by hand).

    python bench/bench_glob_levels.py [--levels 500] [--dirs 50] [--files 100] [--repeat 3]

The hierarchy has ``--levels`` levels ``glob: "**/*N*.yaml"``; the datadir ``--dirs``
directories of ``--files`` files. Each process looks up one key (every level is walked).
Printed: the median wall and CPU time of each, and the ratio. Before each component was
matched by the step simulation in Python and every level listed the datadir again, 500
levels over 5,000 files took 55.8 s where Puppet 7.23 took 5.6 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time


def _environment(root: str, levels: int, dirs: int, files: int) -> None:
    env = os.path.join(root, "production")
    lines = ["version: 5", "defaults:", "  datadir: data", "  data_hash: yaml_data", "hierarchy:"]
    for i in range(levels):
        lines += [f"  - name: g{i}", f"    glob: '**/*{i}*.yaml'"]
    os.makedirs(env)
    with open(os.path.join(env, "hiera.yaml"), "w") as out:
        out.write("\n".join(lines) + "\n")
    for d in range(dirs):
        os.makedirs(os.path.join(env, "data", f"d{d}"))
        for f in range(files):
            with open(os.path.join(env, "data", f"d{d}", f"f{f}.yaml"), "w") as out:
                out.write(f"k{d}_{f}: 1\n")
    with open(os.path.join(root, "facts.yaml"), "w") as out:
        out.write("hostname: n1\ndomain: example.com\nfqdn: n1.example.com\nclientcert: n1\n")


def _timed(command: list[str], repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        if done.returncode != 0:
            raise SystemExit(f"{command[0]}: exit {done.returncode}: {done.stderr}")
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", type=int, default=500)
    parser.add_argument("--dirs", type=int, default=50)
    parser.add_argument("--files", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        _environment(root, args.levels, args.dirs, args.files)
        common = ["--environmentpath", root, "--environment", "production"]
        common += ["--facts", os.path.join(root, "facts.yaml"), "--node", "n1", "k1_1"]
        ours = _timed([sys.executable, "-m", "hiera_ls", "lookup", *common], args.repeat)
        print(
            f"{args.levels} glob levels over {args.dirs * args.files:,} files, median of "
            f"{args.repeat}:"
        )
        print(f"  hiera-ls lookup: {ours[0]:.1f} s wall, {ours[1]:.1f} s CPU")
        if shutil.which("puppet"):
            theirs = _timed(["puppet", "lookup", *common], args.repeat)
            print(f"  puppet lookup:   {theirs[0]:.1f} s wall, {theirs[1]:.1f} s CPU")
            print(f"  ratio (CPU): {ours[1] / theirs[1]:.2f}")


if __name__ == "__main__":
    main()
