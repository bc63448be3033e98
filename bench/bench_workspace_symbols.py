"""Latency of workspace/symbol (every data key of the repository) over LSP.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_workspace_symbols.py [--nodes 2000] [--lines 10000] [--requests 40]

The repository is bench_lsp's (bench/gen_repo.py: 2,000+ data files, data/common.yaml grown
to --lines lines). The server is started, one file opened, and the first query is timed on
its own (it may build the key index of files the background checks have not reached yet);
then, once no message has come for --quiet seconds, each query of QUERIES is sent
--requests times, one after the other (exact key, prefix, substring, subsequence, one
letter: the capped answer of 500 symbols, no match); p50 and p95 are printed per query.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import HIERA_LS, build_repo
from bench_outline import RawClient, pct

QUERIES = ("profile::base::domain", "profile::base", "domain", "pbdm", "a", "zzzzqx")


async def measure(command: list[str], root: Path, big: Path, requests: int, quiet_s: float) -> None:
    proc = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        limit=64 * 1024 * 1024,
    )
    client = RawClient(proc)
    uri = root.as_uri()
    await client.request(
        "initialize",
        {
            "processId": None,
            "rootUri": uri,
            "capabilities": {"workspace": {"configuration": False, "symbol": {}}},
            "workspaceFolders": [{"uri": uri, "name": root.name}],
        },
    )
    client.notify("initialized", {})
    text = big.read_text(encoding="utf-8")
    client.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": big.as_uri(), "languageId": "yaml", "version": 1, "text": text}},
    )
    started = time.perf_counter()
    first = await client.request("workspace/symbol", {"query": "domain"})
    print(
        f"first query (cold index): {(time.perf_counter() - started) * 1000:.0f} ms, "
        f"{len(first or [])} symbols"
    )
    await client.quiet(quiet_s)
    for query in QUERIES:
        times: list[float] = []
        count = 0
        for _ in range(requests):
            started = time.perf_counter()
            answer = await client.request("workspace/symbol", {"query": query})
            times.append(time.perf_counter() - started)
            count = len(answer or [])
        print(
            f"{query!r:26} {count:4} symbols   p50 {statistics.median(times) * 1000:7.1f} ms   "
            f"p95 {pct(times, 95) * 1000:7.1f} ms   (n={len(times)})"
        )
    await client.request("shutdown", {})
    client.notify("exit", {})
    await proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--quiet", type=float, default=3.0)
    parser.add_argument("--hiera-ls", default=str(HIERA_LS))
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-bench-symbols-"))
    try:
        repo = build_repo(work, args.nodes, args.lines)
        print(f"repo: {repo.data_files} data files")
        command = [args.hiera_ls, "serve"]
        asyncio.run(measure(command, repo.root, repo.big, args.requests, args.quiet))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
