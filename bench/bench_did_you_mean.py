"""``hiera-ls check`` on a file with thousands of undefined references: "did you mean" cost.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_did_you_mean.py [--refs 5000] [--keys 5000] [--runs 3] [--server DIR]

Writes an environment whose common.yaml defines ``--keys`` keys and whose refs.yaml holds
``--refs`` interpolations of misspelt ones (each an undefined reference with a suggestion),
then times ``hiera-ls check --format json`` on it, median of ``--runs``, in a subprocess.
``--server DIR`` runs another checkout's ``server`` directory (the commit to compare with).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
HIERA = "version: 5\nhierarchy:\n  - name: all\n    paths: [common.yaml, refs.yaml]\n"
WORDS = ["profile", "base", "ssh", "ntp", "apache", "vhost", "mysql", "server", "port", "users"]


def write(root: Path, keys: int, refs: int) -> None:
    rng = random.Random(24)
    names = sorted(
        {
            f"{rng.choice(WORDS)}{rng.randint(0, 99)}_{rng.choice(WORDS)}_{rng.choice(WORDS)}"
            for _ in range(keys * 2)
        }
    )[:keys]
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HIERA)
    (root / "data" / "common.yaml").write_text("".join(f"{k}: 1\n" for k in names))
    lines = []
    for i in range(refs):
        key = list(rng.choice(names))
        at = rng.randrange(len(key))
        key[at] = "x" if key[at] != "x" else "y"
        lines.append(f"r{i}: \"%{{lookup('{''.join(key)}')}}\"\n")
    (root / "data" / "refs.yaml").write_text("".join(lines))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--refs", type=int, default=5_000)
    parser.add_argument("--keys", type=int, default=5_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--server", type=Path, default=HERE / "server")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hiera-ls-dym-") as tmp:
        root = Path(tmp)
        write(root, args.keys, args.refs)
        env = {**os.environ, "PYTHONPATH": str(args.server)}
        argv = [sys.executable, "-m", "hiera_ls", "check", "--format", "json", str(root)]
        walls, cpus = [], []
        for _ in range(args.runs):
            before = os.times()
            start = time.perf_counter()
            done = subprocess.run(argv, env=env, capture_output=True, check=False)
            walls.append(time.perf_counter() - start)
            after = os.times()
            cpus.append(
                after.children_user
                + after.children_system
                - before.children_user
                - before.children_system
            )
            if done.returncode not in (0, 1):
                sys.exit(done.stderr.decode(errors="replace"))
        suggested = done.stdout.count(b"Did you mean")
        print(
            f"{args.refs} undefined references, {args.keys} keys ({suggested} suggestions): "
            f"median {statistics.median(walls):.2f} s wall, {statistics.median(cpus):.2f} s CPU "
            f"over {args.runs} runs ({args.server})"
        )


if __name__ == "__main__":
    main()
