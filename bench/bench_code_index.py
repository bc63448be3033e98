"""Indexing a repository's Puppet code: cold, and after one .pp file changed.

    python bench/bench_code_index.py REPOSITORY [--runs 3]

Cold: a fresh Workspace's first ``Snapshot.code_index()`` (listing every code file on the
modulepath and the environment's manifests, reading and parsing each .pp, .epp, .erb and
Ruby function file): wall and CPU time, median of --runs, and files per second. Change: one
.pp file's buffer edited (its text with a comment appended), then the next snapshot's
``code_index()``: only that file is read again; median of --runs edits. Counts of what was
found are printed (never a data value).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from hiera_ls.project.workspace import Workspace
from hiera_ls.source.manifest_model import DefinitionKind


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("repository", type=Path)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = str(args.repository.resolve())

    walls: list[float] = []
    cpus: list[float] = []
    index = None
    for _ in range(args.runs):
        ws = Workspace([root])
        snap = ws.snapshot()
        started, cpu0 = time.perf_counter(), time.process_time()
        index = snap.code_index()
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu0)
    assert index is not None
    n = len(index.files)
    wall = statistics.median(walls)
    kinds = {k: 0 for k in DefinitionKind}
    params = 0
    for d in index.definitions():
        kinds[d.kind] += 1
        params += len(d.params)
    lookups = sum(len(f.lookups) for f in index.files.values())
    problems = sum(len(f.problems) for f in index.files.values())
    suffixes: dict[str, int] = {}
    for path in index.files:
        ext = os.path.splitext(path)[1]
        suffixes[ext] = suffixes.get(ext, 0) + 1
    print(f"code files: {n} ({', '.join(f'{k} {v}' for k, v in sorted(suffixes.items()))})")
    print(
        "found: "
        + ", ".join(f"{k.value} {v}" for k, v in kinds.items())
        + f", parameters {params}, lookups {lookups}, files with problems {problems}"
    )
    print(
        f"cold index: wall median {wall:.2f} s (runs {', '.join(f'{w:.2f}' for w in walls)}), "
        f"cpu median {statistics.median(cpus):.2f} s, {n / wall:.0f} files/s"
    )

    ws = Workspace([root])
    ws.snapshot().code_index()
    target = next(p for p in sorted(index.files) if p.endswith(".pp"))
    text = Path(target).read_text(encoding="utf-8", errors="replace")
    changes: list[float] = []
    for i in range(max(args.runs, 5)):
        ws.update_buffer(target, f"{text}\n# edit {i}\n")
        snap = ws.snapshot()
        started = time.perf_counter()
        snap.code_index()
        changes.append(time.perf_counter() - started)
    print(
        f"one .pp change: median {statistics.median(changes) * 1000:.1f} ms "
        f"(max {max(changes) * 1000:.1f} ms over {len(changes)} edits)"
    )


if __name__ == "__main__":
    main()
