"""How the time of loading a file and of ``check --fix`` grows with the findings in it (not a
test: run it by hand).

    python bench/bench_findings.py [--sizes 5000,10000,20000,40000] [--repeat 3]

Each case doubles the findings; a linear cost doubles the time, a quadratic one quadruples
it. Cases: the YAML loader on repeated keys (top-level, nested, inside a mapping, and the
dates Psych refuses, which the loader reads on as repeated keys), and ``hiera-ls check --fix``
(a process, as CI runs it) on dates it quotes and on duplicate keys it removes. Before the
loader kept each key's runs of entries (source/yaml_loader.py ``_runs``) and the fixes were
checked against their neighbours only (checks/fixes.py ``_Taken``): 20,000 dates took
199 s to fix, 20,000 duplicate keys 90 s, the loader 19 s on 20,000 dates.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from hiera_ls.source.yaml_loader import load_yaml

HIERA = (
    "---\nversion: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\n"
    "hierarchy:\n  - name: common\n    path: common.yaml\n"
)

TEXTS: dict[str, Callable[[int], str]] = {
    "repeated key": lambda n: "".join(f"k: {i}\n" for i in range(n)),
    "repeated key, nested values": lambda n: "".join(
        f"k:\n  a: {i}\n  b: [1, 2]\n" for i in range(n)
    ),
    "repeated key inside a mapping": lambda n: "top:\n" + "".join(f"  k: {i}\n" for i in range(n)),
    "dates": lambda n: "".join(f"k{i}: 2021-01-{i % 28 + 1:02d}\n" for i in range(n)),
}
FIXED = ("dates", "repeated key")


def _median(run: Callable[[], None], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _load(text: str) -> Callable[[], None]:
    return lambda: load_yaml("/b/common.yaml", text) and None


def _fix(text: str) -> Callable[[], None]:
    def run() -> None:
        with tempfile.TemporaryDirectory() as root:
            os.mkdir(os.path.join(root, "data"))
            with open(os.path.join(root, "hiera.yaml"), "w") as out:
                out.write(HIERA)
            with open(os.path.join(root, "data", "common.yaml"), "w") as out:
                out.write(text)
            subprocess.run(
                [sys.executable, "-m", "hiera_ls", "check", "--fix", "."],
                cwd=root,
                capture_output=True,
                check=False,
            )

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="5000,10000,20000,40000")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'case':<42}" + "".join(f"{n:>10,}" for n in sizes) + "   (median seconds)")
    for name, make in TEXTS.items():
        row = [_median(_load(make(n)), args.repeat) for n in sizes]
        print(f"{'load: ' + name:<42}" + "".join(f"{t:>10.2f}" for t in row))
    for name in FIXED:
        row = [_median(_fix(TEXTS[name](n)), args.repeat) for n in sizes]
        print(f"{'check --fix: ' + name:<42}" + "".join(f"{t:>10.2f}" for t in row))


if __name__ == "__main__":
    main()
