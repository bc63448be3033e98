"""Server start -> first publishDiagnostics, alone, for one or more servers taking turns.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_lsp_start.py [--runs 7] [--nodes 2000] [--lines 10000]
                                    [--server NAME=PYTHONPATH ...] [--floor]

The repository and the client are bench_lsp.py's (2,000+ data files, the 10,000-line
data/common.yaml opened right after initialize). Each ``--server`` is a name and the
``server/`` directory the server's package is imported from (two checkouts, say main and a
branch); without one, this checkout's. The servers start in turn, run after run (the first
one first in odd runs, last in even ones), so each pair of runs shares the machine's load;
each run reports the wall time from process start to the first publish for the opened file
and the server's CPU time (all its threads) at that publish. The load average is printed
before and after. ``--floor`` adds, each run, what no server can go below: a Python process
that imports pygls' server (lsprotocol's types: most of it) as the server does (the cycle
collector paused) and exits, its wall and CPU time; and a bare pygls server, which answers
initialize and publishes no diagnostics for the opened file, timed as the servers are.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import (
    Repo,
    build_repo,
    cpu_seconds,
    initialize_and_open,
    make_session,
    start_server,
)

SERVER_DIR = Path(__file__).resolve().parent.parent / "server"


def hiera_ls(server_dir: Path) -> list[str]:
    """``hiera-ls serve`` with its package imported from ``server_dir``."""
    return ["env", f"PYTHONPATH={server_dir}", sys.executable, "-m", "hiera_ls", "serve"]


async def first_publish(
    command: list[str], repo: Repo, text: str, stderr_log: Path
) -> tuple[float, float]:
    """(wall s, server CPU s) from process start to the first publish for the opened file."""
    settings = {"hiera": {"factsProfile": repo.node}}
    session = make_session(settings)
    start = time.perf_counter()
    proc = await start_server(session.client, command, stderr_log)
    try:
        uri = repo.big.as_uri()
        mark = await initialize_and_open(session, repo, settings, settings, uri, text)
        first = await session.wait_publish(uri, mark, None)
        return first.at - start, cpu_seconds(proc.pid)
    finally:
        proc.kill()
        await proc.wait()
        await session.client.stop()  # type: ignore[no-untyped-call]


# the process's own CPU time, printed once the import is done (its exit, which frees every
# module, is no part of a server's start)
FLOOR = (
    "import gc, time; gc.disable(); import pygls.lsp.server; print(time.process_time(), flush=True)"
)
FLOOR_NAME = "floor"
# the least a pygls server does for this client: answer initialize, publish nothing found for
# the file opened (its messages built and read by pygls and lsprotocol as hiera-ls' are)
BARE = """
import gc
gc.disable()
from lsprotocol import types
from pygls.lsp.server import LanguageServer
server = LanguageServer("bare", "1", text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def opened(ls, params):
    item = params.text_document
    found = types.PublishDiagnosticsParams(uri=item.uri, version=item.version, diagnostics=[])
    ls.text_document_publish_diagnostics(found)
server.start_io()
"""
BARE_NAME = "bare pygls server"


def floor() -> tuple[float, float]:
    """(wall s, CPU s) of a Python process importing pygls' server, and nothing else, until
    the import is done."""
    start = time.perf_counter()
    with subprocess.Popen([sys.executable, "-c", FLOOR], stdout=subprocess.PIPE) as proc:
        assert proc.stdout is not None
        cpu = float(proc.stdout.readline())
        wall = time.perf_counter() - start
    return wall, cpu


def load() -> str:
    return " ".join(f"{n:.2f}" for n in os.getloadavg())


async def main_async(args: argparse.Namespace) -> None:
    servers = [tuple(s.split("=", 1)) for s in args.server] or [("this", str(SERVER_DIR))]
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-bench-start-"))
    try:
        repo = build_repo(work, args.nodes, args.lines)
        text = repo.big.read_text(encoding="utf-8")
        print(f"repo: {repo.data_files} data files; {args.runs} runs each, in turn")
        print(f"load before: {load()}")
        times: dict[str, list[tuple[float, float]]] = {name: [] for name, _ in servers}
        if args.floor:
            times[FLOOR_NAME] = []
            times[BARE_NAME] = []
        for run in range(args.runs):
            for name, server_dir in servers if run % 2 == 0 else servers[::-1]:  # (either first)
                command = hiera_ls(Path(server_dir))
                wall, cpu = await first_publish(command, repo, text, work / "stderr")
                times[name].append((wall, cpu))
                print(f"run {run + 1} {name}: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU")
            if args.floor:
                wall, cpu = floor()
                times[FLOOR_NAME].append((wall, cpu))
                print(f"run {run + 1} floor: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU")
                bare = [sys.executable, "-c", BARE]
                wall, cpu = await first_publish(bare, repo, text, work / "stderr")
                times[BARE_NAME].append((wall, cpu))
                print(f"run {run + 1} bare: {wall * 1000:.0f} ms wall, {cpu * 1000:.0f} ms CPU")
        print(f"load after: {load()}")
        for name, got in times.items():
            walls = [w * 1000 for w, _ in got]
            cpus = [c * 1000 for _, c in got]
            wall, cpu = statistics.median(walls), statistics.median(cpus)
            what = "python + pygls import" if name == FLOOR_NAME else "start -> first diagnostics"
            print(
                f"{name}: {what} median {wall:.0f} ms wall "
                f"(min {min(walls):.0f}), {cpu:.0f} ms CPU (min {min(cpus):.0f})"
            )
        first_name, first_got = servers[0][0], times[servers[0][0]]
        for name, got in list(times.items())[1 : len(servers)]:  # each pair: the same load
            pairs = list(zip(first_got, got, strict=True))
            cpu = statistics.median((a[1] - b[1]) * 1000 for a, b in pairs)
            wall = statistics.median((a[0] - b[0]) * 1000 for a, b in pairs)
            print(f"{first_name} - {name}, paired medians: {wall:.0f} ms wall, {cpu:.0f} ms CPU")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--server", action="append", default=[], metavar="NAME=SERVER_DIR")
    parser.add_argument("--floor", action="store_true", help="time pygls' import alone too")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
