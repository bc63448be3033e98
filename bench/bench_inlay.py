"""Latency of inlay hints for a visible range of the big file, for the active facts profile.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_inlay.py [--nodes 2000] [--lines 10000] [--window 60] [--views 40]
                                [--edits 20]

The repository is bench_lsp's (bench/gen_repo.py, 2,000+ data files, data/common.yaml grown
to --lines lines, a facts profile selected). Once the start-up checks are over, three kinds
of request for --window lines of data/common.yaml, one after the other:

- first view: --views windows spread over the file, each asked for the first time (every
  token and key in it is looked up);
- again: the same windows asked again (the editor scrolls back; answers kept for the
  snapshot);
- after an edit: a value near the middle is changed, and once its diagnostics are
  published, the window around it is asked for (the snapshot is new: nothing is kept).

p50 and p95 of each are printed. No peer: no other Hiera or YAML server offers inlay hints.
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

from lsprotocol import types

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import (
    HIERA_LS,
    WAIT_LIMIT_S,
    build_repo,
    initialize_and_open,
    make_session,
    pct,
    start_server,
)


async def ask(client, uri: str, first: int, window: int) -> tuple[float, int]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    answer = await asyncio.wait_for(
        client.text_document_inlay_hint_async(
            types.InlayHintParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=types.Range(
                    start=types.Position(line=first, character=0),
                    end=types.Position(line=first + window, character=0),
                ),
            )
        ),
        WAIT_LIMIT_S,
    )
    return time.perf_counter() - start, len(answer or [])


async def main_async(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-bench-inlay-"))
    try:
        repo = build_repo(work, args.nodes, args.lines)
        text = repo.big.read_text(encoding="utf-8")
        lines = text.splitlines()
        print(f"repo: {repo.data_files} data files, {repo.big.name} {len(lines)} lines")
        settings = {"hiera": {"factsProfile": repo.node}}
        session = make_session(settings)
        client = session.client
        uri = repo.big.as_uri()
        proc = await start_server(client, [str(args.hiera_ls), "serve"], work / "stderr")
        results: dict[str, list[float]] = {"first view": [], "again": [], "after an edit": []}
        hints = 0
        try:
            mark = await initialize_and_open(session, repo, settings, settings, uri, text)
            await session.wait_publish(uri, mark, None)
            await session.settle(args.quiet)
            step = max(1, (len(lines) - args.window) // max(1, args.views))
            starts = [i * step for i in range(args.views)]
            for first in starts:
                took, count = await ask(client, uri, first, args.window)
                results["first view"].append(took)
                hints += count
            for first in starts:
                results["again"].append((await ask(client, uri, first, args.window))[0])
            targets = [
                n
                for n, line in enumerate(lines)
                if line.startswith("profile::app") and "port" in line
            ]
            middle = targets[len(targets) // 2 :][: args.edits]
            for n, target in enumerate(middle):
                prefix = lines[target][: lines[target].index(": ") + 2]
                version = n + 2
                change = types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=target, character=len(prefix)),
                        end=types.Position(line=target, character=len(lines[target])),
                    ),
                    text=str(9000 + n),
                )
                lines[target] = prefix + str(9000 + n)
                mark = session.mark()
                client.text_document_did_change(
                    types.DidChangeTextDocumentParams(
                        text_document=types.VersionedTextDocumentIdentifier(
                            uri=uri, version=version
                        ),
                        content_changes=[change],
                    )
                )
                await session.wait_publish(uri, mark, version)
                first = max(0, target - args.window // 2)
                results["after an edit"].append((await ask(client, uri, first, args.window))[0])
            await asyncio.wait_for(client.shutdown_async(None), WAIT_LIMIT_S)
            client.exit(None)
        finally:
            try:
                await asyncio.wait_for(proc.wait(), 10)
            except TimeoutError:
                proc.kill()
            await client.stop()  # type: ignore[no-untyped-call]
        print(f"{hints} hints in {args.views} windows of {args.window} lines")
        for name, values in results.items():
            print(
                f"inlay hints {name:14} p50 {statistics.median(values) * 1000:7.1f} ms   "
                f"p95 {pct(values, 95) * 1000:7.1f} ms   (n={len(values)})"
            )
        if session.errors:
            print(f"server errors: {len(session.errors)}", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--window", type=int, default=60)
    parser.add_argument("--views", type=int, default=40)
    parser.add_argument("--edits", type=int, default=20)
    parser.add_argument("--quiet", type=float, default=3.0, help="seconds without a publish")
    parser.add_argument("--hiera-ls", default=str(HIERA_LS))
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
