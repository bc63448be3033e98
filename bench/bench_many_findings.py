"""``hiera-ls check`` and ``check --fix`` on one file with very many findings: linear or not.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_many_findings.py [--sizes 2500,5000,10000,20000] [--runs 3]
                                        [--server DIR]

Two files per size N: N values ``yes`` (N ``yaml11-boolean`` notes, each message masked for
the report) and N copies of one key (N-1 ``yaml-duplicate-key`` warnings, one fix for all of
them). For each, the median over ``--runs`` of a ``check --format json`` and of a ``check
--fix`` on a fresh copy, in a subprocess (start-up included: compare the growth between
sizes, not the absolute numbers). ``--server DIR`` runs another checkout's ``server``
directory instead (``git archive main | tar -x -C /tmp/main``: the peer to compare with).
A run over ``--timeout`` seconds is reported as such, not waited for.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
HIERA = "version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n"


def _files(n: int) -> dict[str, str]:
    return {
        "booleans": "".join(f"k{i}: yes\n" for i in range(n)),
        "duplicates": "".join(f"k: {i}\n" for i in range(n)),
    }


def _run(root: Path, argv: list[str], server: Path, timeout: float) -> float | None:
    env = {**os.environ, "PYTHONPATH": str(server)}
    started = time.perf_counter()
    try:
        subprocess.run(
            [sys.executable, "-m", "hiera_ls", *argv],
            cwd=root,
            env=env,
            capture_output=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return None
    return time.perf_counter() - started


def _layout(base: Path, text: str) -> Path:
    if base.exists():
        shutil.rmtree(base)
    (base / "data").mkdir(parents=True)
    (base / "hiera.yaml").write_text(HIERA)
    (base / "data" / "c.yaml").write_text(text)
    return base


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--sizes", default="2500,5000,10000,20000")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--server", default=str(HERE / "server"))
    parser.add_argument("--timeout", type=float, default=300.0)
    args = parser.parse_args()
    server = Path(args.server)
    sizes = [int(s) for s in args.sizes.split(",")]
    with tempfile.TemporaryDirectory(prefix="hiera-ls-bench-") as tmp:
        for n in sizes:
            for name, text in _files(n).items():
                for label, argv in (
                    ("check", ["check", "--format", "json", "--output", os.devnull, "."]),
                    (
                        "check --fix",
                        ["check", "--fix", "--format", "json", "--output", os.devnull, "."],
                    ),
                ):
                    times = []
                    for _ in range(args.runs):
                        root = _layout(Path(tmp) / "repo", text)
                        times.append(_run(root, argv, server, args.timeout))
                    done = [t for t in times if t is not None]
                    shown = (
                        f"{statistics.median(done):7.2f} s"
                        if len(done) == len(times)
                        else f"over {args.timeout:.0f} s"
                    )
                    print(f"{name:10} N={n:>6} {label:12} {shown}", flush=True)


if __name__ == "__main__":
    main()
