"""Latency of the outline, folding ranges, selection ranges and quick fixes on a big file,
against yaml-language-server (which answers the first three too).

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_outline.py [--nodes 2000] [--lines 10000] [--requests 40]
                                  [--yls PATH/TO/bin/yaml-language-server | --no-yls]
                                  [--before PATH/TO/other/hiera-ls]

The repository is bench_lsp's (bench/gen_repo.py, data/common.yaml grown to --lines lines).
Each server is started, the big file opened, and once no message has come for --quiet
seconds (3; the background checks of the repository may go on silently: 30 waits them out),
each request is sent --requests times, one after the other; then --requests times an edit
of one value followed at once by documentSymbol ("symbols@edit": the answer for a new
text); p50 and p95 are printed, and the server's mean CPU time per request (all its
threads; on a shared machine the wall times include waiting for a core). The client here
reads raw JSON-RPC, and an answer over 64 KiB only up to its id: Python's json.loads of a
3 MB outline can take longer than the server took to answer (and a pygls client seconds
more), which is the client's time, not the server's; an editor parses it in its own way.
Code actions are asked for a yaml11-boolean diagnostic at every (lines / requests)-th line:
reading the buffer and computing the fixes, which includes scanning the file's tokens.
Note that yaml-language-server stops its outline at 5,000 symbols (its
``yaml/resultLimitReached`` notification), so it answers with half of the file.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import DEFAULT_YLS, HIERA_LS, Repo, build_repo, cpu_seconds

WAIT_LIMIT_S = 300.0


BIG_ANSWER = 64 * 1024  # bytes: an answer this big is read, not parsed (see the docstring)
_ID = re.compile(rb'"id":\s*(\d+)\s*[,}]')


def _answer_id(body: bytes) -> dict[str, Any]:
    """The id of a big answer, from where a JSON-RPC writer puts it (first or last)."""
    for part in (body[:200], body[-200:]):
        found = _ID.search(part)
        if found is not None and b'"result"' in body[:200] + body[-200:]:
            return {"jsonrpc": "2.0", "id": int(found.group(1)), "result": None}
    parsed: dict[str, Any] = json.loads(body)
    return parsed


class RawClient:
    """JSON-RPC over a subprocess's stdio, without turning answers into objects."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.next_id = 0

    def send(self, message: dict[str, Any]) -> None:
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    async def read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        length = 0
        while True:
            line = await self.proc.stdout.readline()
            if not line:
                raise EOFError("the server closed its output")
            if line in (b"\r\n", b"\n"):
                break
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        body = await self.proc.stdout.readexactly(length)
        if length > BIG_ANSWER:
            return _answer_id(body)
        message: dict[str, Any] = json.loads(body)
        return message

    async def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        wanted = self.next_id
        self.send({"jsonrpc": "2.0", "id": wanted, "method": method, "params": params})
        while True:
            message = await asyncio.wait_for(self.read(), WAIT_LIMIT_S)
            if message.get("id") == wanted and "method" not in message:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                return message.get("result")
            if "method" in message and "id" in message:  # a request from the server
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})

    def notify(self, method: str, params: dict[str, Any]) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def open(self, uri: str, text: str) -> None:
        self.notify(
            "textDocument/didOpen",
            {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}},
        )

    async def quiet(self, seconds: float) -> None:
        """Answer the server's requests until it has sent nothing for ``seconds``."""
        while True:
            try:
                message = await asyncio.wait_for(self.read(), seconds)
            except TimeoutError:
                return
            if "method" in message and "id" in message:
                self.send({"jsonrpc": "2.0", "id": message["id"], "result": None})


async def start_raw(
    command: Sequence[str],
    root: Path,
    options: dict[str, Any] | None = None,
    capabilities: dict[str, Any] | None = None,
) -> RawClient:
    """A language server started on ``root`` and initialized, answers kept as JSON
    (``capabilities``: this bench's client capabilities unless given)."""
    proc = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        limit=64 * 1024 * 1024,
    )
    client = RawClient(proc)
    params: dict[str, Any] = {
        "processId": None,
        "rootUri": root.as_uri(),
        "capabilities": CAPABILITIES if capabilities is None else capabilities,
        "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
    }
    if options is not None:
        params["initializationOptions"] = options
    await client.request("initialize", params)
    client.notify("initialized", {})
    return client


CAPABILITIES = {
    "textDocument": {
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
        "foldingRange": {"lineFoldingOnly": True},
        "selectionRange": {},
        "codeAction": {},
        "publishDiagnostics": {"versionSupport": True},
    },
    "workspace": {"configuration": False},
}


async def measure(
    command: list[str],
    repo: Repo,
    text: str,
    requests: int,
    code_actions: bool,
    quiet_s: float,
) -> dict[str, list[float]]:
    client = await start_raw(command, repo.root)
    uri = repo.big.as_uri()
    client.open(uri, text)
    await client.quiet(quiet_s)
    doc = {"uri": uri}
    lines = text.splitlines()
    step = max(1, len(lines) // max(1, requests))
    asks: dict[str, Any] = {
        "textDocument/documentSymbol": lambda i: {"textDocument": doc},
        "textDocument/foldingRange": lambda i: {"textDocument": doc},
        "textDocument/selectionRange": lambda i: {
            "textDocument": doc,
            "positions": [{"line": (i * step) % len(lines), "character": 3}],
        },
    }
    if code_actions:

        def action(i: int) -> dict[str, Any]:
            line = (i * step) % len(lines)
            width = len(lines[line])
            where = {
                "start": {"line": line, "character": max(0, width - 2)},
                "end": {"line": line, "character": width},
            }
            diagnostic = {"range": where, "message": "x", "code": "yaml11-boolean"}
            return {
                "textDocument": doc,
                "range": where,
                "context": {"diagnostics": [diagnostic]},
            }

        asks["textDocument/codeAction"] = action
    results: dict[str, list[float]] = {}
    pid = client.proc.pid
    for method, params in asks.items():
        name = method.split("/")[1]
        times = results.setdefault(name, [])
        cpu = cpu_seconds(pid)
        for i in range(requests):
            started = time.perf_counter()
            await client.request(method, params(i))
            times.append(time.perf_counter() - started)
        results[CPU + name] = [(cpu_seconds(pid) - cpu) / requests]
    # An edit, then the outline at once (what an editor asks after each keystroke): nothing
    # of the previous answer can be reused. The edit changes one value near the middle.
    target = min(
        (n for n, line in enumerate(lines) if line.startswith("profile::app") and "port" in line),
        key=lambda n: abs(n - len(lines) // 2),
    )
    width = len(lines[target])
    colon = lines[target].index(": ") + 2
    after_edit = results.setdefault("symbols@edit", [])
    cpu = cpu_seconds(pid)
    for i in range(requests):
        client.notify(
            "textDocument/didChange",
            {
                "textDocument": {"uri": uri, "version": i + 2},
                "contentChanges": [
                    {
                        "range": {
                            "start": {"line": target, "character": colon},
                            "end": {"line": target, "character": width},
                        },
                        "text": str(10_000 + i),
                    }
                ],
            },
        )
        width = colon + len(str(10_000 + i))
        started = time.perf_counter()
        await client.request("textDocument/documentSymbol", {"textDocument": doc})
        after_edit.append(time.perf_counter() - started)
    results[CPU + "symbols@edit"] = [(cpu_seconds(pid) - cpu) / requests]
    await client.request("shutdown", {})
    client.notify("exit", {})
    await client.proc.wait()
    return results


CPU = "cpu:"  # a result holding the server's CPU time per request (all its threads)


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1)))]


def report(name: str, results: dict[str, list[float]]) -> None:
    for request, values in results.items():
        if request.startswith(CPU):
            continue
        cpu = results.get(CPU + request)
        print(
            f"{name:22} {request:16} p50 {statistics.median(values) * 1000:7.1f} ms   "
            f"p95 {pct(values, 95) * 1000:7.1f} ms   (n={len(values)})"
            + (f"   server CPU {cpu[0] * 1000:6.1f} ms/request" if cpu else "")
        )


async def main_async(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-bench-outline-"))
    try:
        repo = build_repo(work, args.nodes, args.lines)
        text = repo.big.read_text(encoding="utf-8")
        print(f"repo: {repo.data_files} data files, {repo.big.name} {len(text.splitlines())} lines")
        h = await measure(
            [str(args.hiera_ls), "serve"], repo, text, args.requests, True, args.quiet
        )
        report("hiera-ls", h)
        if args.before:
            b = await measure(
                [str(args.before), "serve"], repo, text, args.requests, True, args.quiet
            )
            report("hiera-ls (before)", b)
        yls = Path(args.yls).expanduser()
        if not args.no_yls and yls.exists():
            y = await measure(
                ["node", str(yls), "--stdio"], repo, text, args.requests, False, args.quiet
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
    parser.add_argument(
        "--before", help="another hiera-ls executable, measured the same way (a before/after)"
    )
    parser.add_argument("--no-yls", action="store_true")
    parser.add_argument("--quiet", type=float, default=3.0, help="seconds without a message")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
