"""Latency of the outline, folding ranges, selection ranges and quick fixes on a big file,
against yaml-language-server (which answers the first three too).

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_outline.py [--nodes 2000] [--lines 10000] [--requests 40]
                                  [--yls PATH/TO/bin/yaml-language-server | --no-yls]

The repository is bench_lsp's (bench/gen_repo.py, data/common.yaml grown to --lines lines).
Each server is started, the big file opened and its first diagnostics awaited, then each
request is sent --requests times, one after the other; p50 and p95 are printed. Code
actions are asked at every 25th line with a yaml11-boolean diagnostic on it (the first
with a key that would be one): the cost of reading the buffer and computing fixes, which
includes scanning the file for its scalars.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from lsprotocol import types

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import (
    DEFAULT_YLS,
    HIERA_LS,
    Repo,
    build_repo,
    initialize_and_open,
    make_session,
    start_server,
)

WAIT_LIMIT_S = 120.0


async def timed(times: int, request: Callable[[int], Awaitable[Any]]) -> list[float]:
    out: list[float] = []
    for i in range(times):
        t = time.perf_counter()
        await asyncio.wait_for(request(i), WAIT_LIMIT_S)
        out.append(time.perf_counter() - t)
    return out


async def measure(
    name: str, command: list[str], repo: Repo, text: str, requests: int, log: Path
) -> dict[str, list[float]]:
    session = make_session({})
    client = session.client
    await start_server(client, command, log)
    uri = repo.big.as_uri()
    doc = types.TextDocumentIdentifier(uri=uri)
    mark = await initialize_and_open(session, repo, {}, {}, uri, text)
    await session.wait_publish(uri, mark, None)
    lines = text.splitlines()
    results: dict[str, list[float]] = {}
    results["documentSymbol"] = await timed(
        requests,
        lambda i: client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=doc)
        ),
    )
    results["foldingRange"] = await timed(
        requests,
        lambda i: client.text_document_folding_range_async(
            types.FoldingRangeParams(text_document=doc)
        ),
    )
    step = max(1, len(lines) // max(1, requests))
    results["selectionRange"] = await timed(
        requests,
        lambda i: client.text_document_selection_range_async(
            types.SelectionRangeParams(
                text_document=doc,
                positions=[types.Position(line=(i * step) % len(lines), character=3)],
            )
        ),
    )

    def action(i: int) -> Awaitable[Any]:
        line = (i * step) % len(lines)
        width = len(lines[line])
        where = types.Range(
            start=types.Position(line=line, character=max(0, width - 2)),
            end=types.Position(line=line, character=width),
        )
        diagnostic = types.Diagnostic(
            range=where, message="x", code="yaml11-boolean", source="hiera-ls"
        )
        return client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=doc,
                range=where,
                context=types.CodeActionContext(diagnostics=[diagnostic]),
            )
        )

    if name == "hiera-ls":
        results["codeAction"] = await timed(requests, action)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return results


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def report(name: str, results: dict[str, list[float]]) -> None:
    for request, values in results.items():
        print(
            f"{name:22} {request:16} p50 {statistics.median(values) * 1000:7.1f} ms   "
            f"p95 {pct(values, 95) * 1000:7.1f} ms   (n={len(values)})"
        )


async def main_async(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-bench-outline-"))
    try:
        repo = build_repo(work, args.nodes, args.lines)
        text = repo.big.read_text(encoding="utf-8")
        print(f"repo: {repo.data_files} data files, {repo.big.name} {len(text.splitlines())} lines")
        h = await measure(
            "hiera-ls",
            [str(args.hiera_ls), "serve"],
            repo,
            text,
            args.requests,
            work / "hiera-ls.stderr",
        )
        report("hiera-ls", h)
        yls = Path(args.yls).expanduser()
        if not args.no_yls and yls.exists():
            y = await measure(
                "yaml-language-server",
                ["node", str(yls), "--stdio"],
                repo,
                text,
                args.requests,
                work / "yls.stderr",
            )
            report("yaml-language-server", y)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--hiera-ls", default=str(HIERA_LS))
    parser.add_argument("--yls", default=str(DEFAULT_YLS))
    parser.add_argument("--no-yls", action="store_true")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
