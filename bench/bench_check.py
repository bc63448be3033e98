"""`hiera-ls check` on a real repository, against yaml-language-server on the same files.

    python bench/bench_check.py REPOSITORY [--hiera-config FILE] [--runs 3] [--yls PATH]

hiera-ls: the wall time of `hiera-ls check` (a fresh process: start-up, environment, every
data file parsed, the cross-file index, every single-file, cross-file and profile check,
the report written), median of --runs.  yaml-language-server (the peer, started with
bench_lsp's helpers and {"yaml": {"validate": true}}): from the first didOpen of the same
data files to the last file's publishDiagnostics, median of --runs fresh servers.  For
Wikimedia's operations/puppet, give `--hiera-config rake_modules/hiera.yaml` (its data is
read by the global layer only).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types

sys.path.insert(0, str(Path(__file__).resolve().parent))

import contextlib

from bench_lsp import (
    DEFAULT_YLS,
    HIERA_LS,
    WAIT_LIMIT_S,
    capabilities,
    make_session,
    start_server,
)


def check_once(repo: Path, hiera_config: str | None) -> tuple[float, float, int]:
    """Wall time, CPU time (user + system: what the machine's load does not inflate), exit."""
    argv = [str(HIERA_LS), "check", "--format", "json", "--output", os.devnull]
    if hiera_config:
        argv += ["--hiera-config", hiera_config]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run = subprocess.run(argv, cwd=repo, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if run.returncode not in (0, 1):
        raise SystemExit(f"hiera-ls check failed: {run.stderr}")
    return elapsed, cpu, run.returncode


def data_files(repo: Path, hiera_config: str | None) -> list[str]:
    """The data files `hiera-ls check` reads (its own listing)."""
    from hiera_ls.project.settings import Settings
    from hiera_ls.project.workspace import Workspace

    config = str(repo / hiera_config) if hiera_config else None
    return list(Workspace([str(repo)], Settings(hiera_config=config)).snapshot().data_files)


async def yls_once(repo: Path, yls: Path, paths: list[str], log: Path) -> float:
    session = make_session({"yaml": {"validate": True}})
    client = session.client
    await start_server(client, ["node", str(yls), "--stdio"], log)
    await asyncio.wait_for(
        client.initialize_async(
            types.InitializeParams(
                capabilities=capabilities(),
                root_uri=repo.as_uri(),
                workspace_folders=[types.WorkspaceFolder(uri=repo.as_uri(), name=repo.name)],
            )
        ),
        WAIT_LIMIT_S,
    )
    client.initialized(types.InitializedParams())
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"yaml": {"validate": True}})
    )
    texts = [(Path(p).as_uri(), Path(p).read_text(errors="replace")) for p in paths]
    wanted = {uri for uri, _ in texts}
    started = time.perf_counter()
    for uri, text in texts:
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="yaml", version=1, text=text
                )
            )
        )
    deadline = started + WAIT_LIMIT_S
    while {p.uri for p in session.published} < wanted and time.perf_counter() < deadline:
        session.event.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(session.event.wait(), 1.0)
    elapsed = max((p.at for p in session.published if p.uri in wanted), default=started) - started
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("repository")
    parser.add_argument("--hiera-config")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--yls", default=str(DEFAULT_YLS))
    args = parser.parse_args()
    repo = Path(args.repository).resolve()
    check_times = []
    cpu_times = []
    status = 0
    for _ in range(args.runs):
        elapsed, cpu, status = check_once(repo, args.hiera_config)
        check_times.append(elapsed)
        cpu_times.append(cpu)
    paths = [p for p in data_files(repo, args.hiera_config) if p.endswith((".yaml", ".yml"))]
    check_median = statistics.median(check_times)
    print(f"repository: {repo} ({len(paths)} YAML data files)")
    print(
        f"hiera-ls check:        median {check_median:.2f} s over {args.runs} runs "
        f"(exit status {status}; runs: {', '.join(f'{t:.2f}' for t in check_times)}; "
        f"CPU median {statistics.median(cpu_times):.2f} s)"
    )
    print(f"load average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    yls = Path(args.yls).expanduser()
    if not yls.exists():
        print(f"yaml-language-server: not found at {yls}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "yls.stderr"
        yls_times = [asyncio.run(yls_once(repo, yls, paths, log)) for _ in range(args.runs)]
    yls_median = statistics.median(yls_times)
    print(
        f"yaml-language-server:  median {yls_median:.2f} s over {args.runs} runs "
        f"(runs: {', '.join(f'{t:.2f}' for t in yls_times)})"
    )
    print(f"ratio hiera-ls / yaml-language-server: {check_median / yls_median:.2f}")


if __name__ == "__main__":
    main()
