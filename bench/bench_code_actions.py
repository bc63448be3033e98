"""Latency of ``textDocument/codeAction`` for a one-line range of a big data file.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_code_actions.py [--nodes 2000] [--lines 10000] [--requests 40]
                                       [--before PATH/TO/other/hiera-ls]

The repository is bench_lsp's (bench/gen_repo.py, data/common.yaml grown to --lines lines).
The server is started, the big file opened, and once no message has come for --quiet seconds,
three series of --requests code action requests, one after the other, for one line spread
over the file (as an editor asks on every cursor move):

- cursor: the context holds a diagnostic on that line (a yaml11-boolean at its value), so
  the quick fixes ("Disable CODE on this line" among them) are computed;
- bare: no diagnostic on the line (most cursor moves);
- cursor again: the same lines again (the text has not changed);
- after edit: a value near the middle is changed, then at once a cursor request (the text
  is new: only what the edit left alone is kept);
- edit, bare: the same without a diagnostic, which is what the edit costs by itself (the
  server checks the new text meanwhile).

p50 and p95 are printed, and the server's mean CPU time per request (all its threads; on a
shared machine the wall times include waiting for a core).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import HIERA_LS, Repo, build_repo, cpu_seconds
from bench_outline import CPU, RawClient, report, start_raw


def _action(doc: dict[str, Any], lines: list[str], line: int, diagnostic: bool) -> dict[str, Any]:
    width = len(lines[line])
    where = {
        "start": {"line": line, "character": max(0, width - 2)},
        "end": {"line": line, "character": width},
    }
    found = [{"range": where, "message": "x", "code": "yaml11-boolean"}] if diagnostic else []
    return {"textDocument": doc, "range": where, "context": {"diagnostics": found}}


async def measure(
    command: list[str], repo: Repo, text: str, requests: int, quiet_s: float
) -> dict[str, list[float]]:
    client = await start_raw(command, repo.root)
    uri = repo.big.as_uri()
    client.open(uri, text)
    await client.quiet(quiet_s)
    doc = {"uri": uri}
    lines = text.splitlines()
    step = max(1, len(lines) // max(1, requests))
    results: dict[str, list[float]] = {}
    pid = client.proc.pid
    for name, diagnostic in (("cursor", True), ("cursor again", True), ("bare", False)):
        times = results.setdefault(name, [])
        cpu = cpu_seconds(pid)
        for i in range(requests):
            params = _action(doc, lines, (i * step + 7) % len(lines), diagnostic)
            started = time.perf_counter()
            await client.request("textDocument/codeAction", params)
            times.append(time.perf_counter() - started)
        results[CPU + name] = [(cpu_seconds(pid) - cpu) / requests]
    target = min(
        (n for n, line in enumerate(lines) if line.startswith("profile::app") and "port" in line),
        key=lambda n: abs(n - len(lines) // 2),
    )
    colon = lines[target].index(": ") + 2
    for name, diagnostic in (("after edit", True), ("edit, bare", False)):
        await _edits(client, doc, lines, target, colon, requests, name, diagnostic, results)
    await client.request("shutdown", {})
    client.notify("exit", {})
    await client.proc.wait()
    return results


async def _edits(
    client: RawClient,
    doc: dict[str, Any],
    lines: list[str],
    target: int,
    colon: int,
    requests: int,
    name: str,
    diagnostic: bool,
    results: dict[str, list[float]],
) -> None:
    """Edit the value of line ``target``, then ask at once for a line spread over the file."""
    uri = doc["uri"]
    pid = client.proc.pid
    step = max(1, len(lines) // max(1, requests))
    width = len(lines[target])
    first_version = 2 + len(results.get("after edit", []))
    after_edit = results.setdefault(name, [])
    cpu = cpu_seconds(pid)
    for i in range(requests):
        new = str(10_000 + i)
        client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": first_version + i},
                "contentChanges": [
                    {
                        "range": {
                            "start": {"line": target, "character": colon},
                            "end": {"line": target, "character": width},
                        },
                        "text": new,
                    }
                ],
            },
        )
        width = colon + len(new)
        lines[target] = lines[target][:colon] + new
        params = _action(doc, lines, (i * step + 11) % len(lines), diagnostic)
        started = time.perf_counter()
        await client.request("textDocument/codeAction", params)
        after_edit.append(time.perf_counter() - started)
    results[CPU + name] = [(cpu_seconds(pid) - cpu) / requests]


async def main_async(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-bench-code-actions-"))
    try:
        repo = build_repo(work, args.nodes, args.lines)
        text = repo.big.read_text(encoding="utf-8")
        print(f"repo: {repo.data_files} data files, {repo.big.name} {len(text.splitlines())} lines")
        report(
            "hiera-ls",
            await measure([str(args.hiera_ls), "serve"], repo, text, args.requests, args.quiet),
        )
        if args.before:
            before = [str(args.before), "serve"]
            report(
                "hiera-ls (before)", await measure(before, repo, text, args.requests, args.quiet)
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=40)
    parser.add_argument("--hiera-ls", default=str(HIERA_LS))
    parser.add_argument(
        "--before", help="another hiera-ls executable, measured the same way (a before/after)"
    )
    parser.add_argument("--quiet", type=float, default=3.0, help="seconds without a message")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
