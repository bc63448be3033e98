"""Latency of completion (and its resolve) and of semantic tokens on the 2,000-file
benchmark repository.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_completion.py [--nodes 2000] [--lines 10000] [--requests 60]

The repository is bench_lsp's (bench/gen_repo.py, data/common.yaml grown to --lines lines,
the facts profile of node0042 active). Once the server has been quiet for --quiet seconds:

- ``lookup-typing``: a keystroke in a node file (didChange) then completion inside
  ``%{lookup('``: every keystroke makes a new snapshot, so this is the cost a user sees
  while typing (the keys of every data file of the environment are gathered again);
- ``lookup-again``: completion at the same place with no edit in between;
- ``resolve``: completionItem/resolve of a key (its merged value for the profile);
- ``facts``: completion after ``%{facts.os.`` in the node file;
- ``options``: a lookup_options merge strategy in the node file;
- ``param-typing``: a keystroke then completion of a top-level key in the node file: the
  class parameters of the code index (gen_repo.py writes ~4,700 of them), the namespace typed
  so far first, those the file sets left out;
- ``param-value``: the choices of an ``Enum`` parameter's value;
- ``tokens-full`` / ``tokens-range``: semantic tokens of the big file, whole and 100 lines.

Beside p50 and p95, the server's mean CPU time per request (see bench_lsp.cpu_seconds).
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

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import HIERA_LS, build_repo, cpu_seconds
from bench_outline import pct, start_raw

CAPABILITIES = {
    "textDocument": {
        "completion": {"completionItem": {"snippetSupport": False}},
        "semanticTokens": {
            "requests": {"full": True, "range": True},
            "formats": ["relative"],
            "tokenTypes": ["operator", "function", "variable", "parameter"],
            "tokenModifiers": [],
        },
        "publishDiagnostics": {"versionSupport": True},
    },
    "workspace": {"configuration": False},
}


async def main_async(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-bench-completion-"))
    try:
        repo = build_repo(work, args.nodes, args.lines)
        big_text = repo.big.read_text(encoding="utf-8")
        node_file = repo.root / "data" / "nodes" / "node0042.example.com.yaml"
        node_text = node_file.read_text(encoding="utf-8")
        size = len(big_text.splitlines())
        print(f"repo: {repo.data_files} data files, {repo.big.name} {size} lines")
        client = await start_raw(
            [str(args.hiera_ls), "serve"],
            repo.root,
            {"hiera": {"factsProfile": repo.node}},
            CAPABILITIES,
        )
        big, node = repo.big.as_uri(), node_file.as_uri()
        for uri, text in ((big, big_text), (node, node_text)):
            client.open(uri, text)
        await client.quiet(args.quiet)
        line = len(node_text.splitlines())
        version = 1
        results: dict[str, list[float]] = {}
        first_item: list[Any] = []

        cpu: dict[str, float] = {}

        async def timed(name: str, ask: Callable[[int], Awaitable[Any]]) -> None:
            times = results.setdefault(name, [])
            before = cpu_seconds(client.proc.pid)
            for i in range(args.requests):
                started = time.perf_counter()
                await ask(i)
                times.append(time.perf_counter() - started)
            cpu[name] = (cpu_seconds(client.proc.pid) - before) / args.requests

        def complete(uri: str, line: int, character: int) -> Awaitable[Any]:
            return client.request(
                "textDocument/completion",
                {
                    "textDocument": {"uri": uri},
                    "position": {"line": line, "character": character},
                },
            )

        prefix = "x: \"%{lookup('profile::p"

        async def typing(i: int) -> None:
            nonlocal version
            version += 1
            typed = prefix + "1" * (i % 3)
            client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": node, "version": version},
                    "contentChanges": [{"text": node_text + typed + "')}\"\n"}],
                },
            )
            answer = await complete(node, line, len(typed))
            if not first_item:
                first_item.append(answer["items"][0])

        await timed("lookup-typing", typing)
        await timed("lookup-again", lambda i: complete(node, line, len(prefix)))
        await timed(
            "resolve",
            lambda i: client.request("completionItem/resolve", first_item[0]),
        )
        version += 1
        facts_line = node_text + 'y: "%{facts.os.}"\n'
        client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": node, "version": version},
                "contentChanges": [{"text": facts_line}],
            },
        )
        await timed("facts", lambda i: complete(node, line, len('y: "%{facts.os.')))
        version += 1
        options = node_text + "lookup_options:\n  profile::p3::setting1:\n    merge: \n"
        client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": node, "version": version},
                "contentChanges": [{"text": options}],
            },
        )
        await timed("options", lambda i: complete(node, line + 2, len("    merge: ")))

        async def parameter_typing(i: int) -> None:
            nonlocal version
            version += 1
            typed = "profile::p1" + "2::s"[: i % 5]
            client.notify(
                "textDocument/didChange",
                {
                    "textDocument": {"uri": node, "version": version},
                    "contentChanges": [{"text": node_text + typed + "\n"}],
                },
            )
            answer = await complete(node, line, len(typed))
            assert answer and answer["items"], "no class parameter offered"

        await timed("param-typing", parameter_typing)
        version += 1
        enum_line = "profile::p3::setting3: "
        client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": node, "version": version},
                "contentChanges": [{"text": node_text + enum_line + "\n"}],
            },
        )
        await timed("param-value", lambda i: complete(node, line, len(enum_line)))
        lines = big_text.splitlines()
        doc = {"textDocument": {"uri": big}}
        await timed(
            "tokens-full", lambda i: client.request("textDocument/semanticTokens/full", doc)
        )
        await timed(
            "tokens-range",
            lambda i: client.request(
                "textDocument/semanticTokens/range",
                {
                    **doc,
                    "range": {
                        "start": {"line": (i * 97) % len(lines), "character": 0},
                        "end": {"line": (i * 97) % len(lines) + 100, "character": 0},
                    },
                },
            ),
        )
        await client.request("shutdown", {})
        client.notify("exit", {})
        await client.proc.wait()
        for name, values in results.items():
            print(
                f"{name:14} p50 {statistics.median(values) * 1000:7.1f} ms   "
                f"p95 {pct(values, 95) * 1000:7.1f} ms   (n={len(values)})   "
                f"server CPU {cpu[name] * 1000:6.1f} ms/request"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument("--hiera-ls", default=str(HIERA_LS))
    parser.add_argument("--quiet", type=float, default=5.0, help="seconds without a message")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
