"""Measure edit -> publishDiagnostics latency of `hiera-ls serve` on a 10,000-line data file.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/measure_edit_latency.py [--profile web01.example.com] [--edits 60]
        [--data FILE --target PREFIX]

It copies the control repository fixture, grows data/common.yaml to 10,000 lines of
realistic keys (nested hashes, arrays, interpolations), starts the server over stdio,
opens the file, then changes one value per edit (an incremental change, as editors send
them) and times until the server publishes diagnostics for that version. With ``--data``,
data/common.yaml is that file instead (a real one: Wikimedia's modules/admin/data/data.yaml,
7,310 lines), and the value edited is that of the first line starting with ``--target``
(``"    uid:"``).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from lsprotocol import types
from pygls.lsp.client import LanguageClient

FIXTURE = Path(__file__).resolve().parent.parent / "examples" / "control-repo"

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_repo import grow  # noqa: E402


@dataclass(slots=True)
class Timings:
    """One server's edits: wall until the publish's bytes were read (what an editor waits
    for), wall until the bench's Python client had decoded it, and the server's CPU."""

    arrived: list[float] = field(default_factory=list)
    handled: list[float] = field(default_factory=list)
    cpu_s: float = 0.0  # the whole server process over the edits (and their pauses' checks)
    main_cpu_s: float = 0.0  # its main thread alone (the one that publishes an edit)
    edit_cpu: list[float] = field(default_factory=list)  # main thread, send to publish
    diagnostics: int = 0  # in the last publish


async def run(
    profile: str | None,
    edits: int,
    size: int,
    server: list[str],
    data: Path | None = None,
    prefix: str = "profile::app5::port:",
    env: dict[str, str] | None = None,
    versioned: bool = True,
    pause_s: float = 0.5,
) -> Timings:
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-latency-"))
    try:
        repo = work / "control-repo"
        shutil.copytree(FIXTURE, repo)
        common = repo / "data" / "common.yaml"
        if data is None:
            grow(common, size)
        else:
            shutil.copyfile(data, common)
        text = common.read_text(encoding="utf-8")
        lines = text.splitlines()
        target = next(n for n, line in enumerate(lines) if line.startswith(prefix))
        column = lines[target].index(": ") + 2  # the value's first character
        written = lines[target][column:]
        client = LanguageClient("latency", "1")
        out = Timings()

        @client.feature(types.WINDOW_LOG_MESSAGE)
        def log_message(params: types.LogMessageParams) -> None:
            if params.type == types.MessageType.Error:
                print(params.message, file=sys.stderr)

        @client.feature("hiera/activeFactsProfile")
        def active_profile(params: object) -> None:
            return None

        # version -> the future its publish resolves (None: the next publish, for a server
        # that publishes without a version), and when that publish's bytes were read
        waiting: dict[int | None, asyncio.Future[None]] = {}
        arrived: dict[int | None, float] = {}

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            fut = waiting.pop(params.version if versioned else None, None)
            if fut is not None and not fut.done():
                out.diagnostics = len(params.diagnostics)
                fut.set_result(None)

        @client.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(params: types.ConfigurationParams) -> list[object]:
            return [None for _ in params.items]

        await client.start_io(*server, env=env)
        assert client._server is not None and client._server.stdout is not None
        time_arrivals(client._server.stdout, arrived, versioned)
        initialize = client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(
                    text_document=types.TextDocumentClientCapabilities(
                        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                            version_support=True
                        )
                    )
                ),
                root_uri=repo.as_uri(),
                initialization_options={"hiera": {"factsProfile": profile}} if profile else {},
            )
        )
        try:
            await asyncio.wait_for(initialize, PUBLISH_TIMEOUT_S)
        except TimeoutError:
            sys.exit(f"{server}: no answer to initialize within {PUBLISH_TIMEOUT_S:.0f} s")
        client.initialized(types.InitializedParams())
        uri = common.as_uri()
        loop = asyncio.get_running_loop()
        first: asyncio.Future[None] = loop.create_future()
        waiting[1 if versioned else None] = first
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="yaml", version=1, text=text
                )
            )
        )
        await published_within(first, 1)
        await asyncio.sleep(2.0)  # the start-up checks (unversioned servers publish again)
        pid = client._server.pid if client._server is not None else None
        cpu_before, main_before = cpu_s(pid), cpu_s(pid, pid)
        for n in range(edits):
            version = n + 2
            fut = loop.create_future()
            key = version if versioned else None
            waiting[key] = fut
            arrived.pop(key, None)
            value = str(9000 + n)
            main_at = cpu_s(pid, pid)
            start = time.perf_counter()
            end = column + len(written)
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[
                        types.TextDocumentContentChangePartial(
                            range=types.Range(
                                start=types.Position(line=target, character=column),
                                end=types.Position(line=target, character=end),
                            ),
                            text=value,
                        )
                    ],
                )
            )
            await published_within(fut, version)
            out.edit_cpu.append(cpu_s(pid, pid) - main_at)
            out.handled.append(time.perf_counter() - start)
            out.arrived.append(arrived.get(key, time.perf_counter()) - start)
            written = value
            if n % 10 == 9:
                await asyncio.sleep(pause_s)  # a pause in typing: the full checks run in it
        out.cpu_s = cpu_s(pid) - cpu_before
        out.main_cpu_s = cpu_s(pid, pid) - main_before
        await asyncio.wait_for(client.shutdown_async(None), PUBLISH_TIMEOUT_S)
        client.exit(None)
        try:
            # (a run once waited here for ever after the server had gone)
            await asyncio.wait_for(client.stop(), STOP_TIMEOUT_S)
        except TimeoutError:
            print(f"note: the client did not stop within {STOP_TIMEOUT_S:.0f} s", file=sys.stderr)
        return out
    finally:
        shutil.rmtree(work, ignore_errors=True)


PUBLISH_TIMEOUT_S = 60.0
STOP_TIMEOUT_S = 10.0


async def published_within(fut: asyncio.Future[None], version: int) -> None:
    """Wait for a version's publish; a server that never sends it is a failure to report,
    not a bench that waits for ever."""
    try:
        await asyncio.wait_for(fut, PUBLISH_TIMEOUT_S)
    except TimeoutError:
        raise SystemExit(
            f"no diagnostics published for version {version} within {PUBLISH_TIMEOUT_S:.0f} s"
        ) from None


_PUBLISH = re.compile(rb'"method":\s*"textDocument/publishDiagnostics"')
_VERSION = re.compile(rb'"version":\s*(\d+)')


def time_arrivals(
    reader: asyncio.StreamReader, arrived: dict[int | None, float], versioned: bool
) -> None:
    """Note when each publish's body has been read, before the client decodes it (pygls'
    client turns every diagnostic into a typed object, milliseconds an editor does not
    spend)."""
    read = reader.readexactly

    async def timed(n: int) -> bytes:
        body = await read(n)
        if _PUBLISH.search(body):
            version = _VERSION.search(body) if versioned else None
            arrived.setdefault(int(version.group(1)) if version else None, time.perf_counter())
        return body

    reader.readexactly = timed  # type: ignore[method-assign]


def cpu_s(pid: int | None, thread: int | None = None) -> float:
    """User and system time of the process (or one of its threads) so far (Linux), 0 when
    it cannot be read."""
    where = f"/proc/{pid}/task/{thread}/stat" if thread is not None else f"/proc/{pid}/stat"
    try:
        fields = Path(where).read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    s = sorted(values)
    return s[max(0, min(len(s) - 1, round(p / 100 * len(s)) - 1))]


def _line(name: str, t: Timings, edits: int) -> str:
    return (
        f"{name}: arrived p50 {statistics.median(t.arrived) * 1000:.1f} ms, p95 "
        f"{_pct(t.arrived, 95) * 1000:.1f} ms; decoded by the client p50 "
        f"{statistics.median(t.handled) * 1000:.1f} ms, p95 {_pct(t.handled, 95) * 1000:.1f} ms; "
        f"server CPU {t.cpu_s / max(1, edits) * 1000:.1f} ms an edit (main thread "
        f"{t.main_cpu_s / max(1, edits) * 1000:.1f}); {t.diagnostics} diagnostics; load "
        f"{os.getloadavg()[0]:.2f}{_after_pause(t)}"
    )


def _after_pause(t: Timings) -> str:
    """The first edit after each pause (the open's included) beside the others: wall until
    the publish arrived and the main thread's CPU (clock ticks: 10 ms steps, hence medians)."""
    if not t.edit_cpu:
        return ""
    first = [n for n in range(len(t.arrived)) if n % 10 == 0]
    rest = [n for n in range(len(t.arrived)) if n % 10]
    if not rest:
        return ""

    def ms(values: list[float]) -> str:
        return f"{statistics.mean(values) * 1000:.1f}"

    return (
        f"; first edit after a pause: arrived median "
        f"{statistics.median(t.arrived[n] for n in first) * 1000:.1f} ms, main thread CPU mean "
        f"{ms([t.edit_cpu[n] for n in first])} ms; the others: arrived median "
        f"{statistics.median(t.arrived[n] for n in rest) * 1000:.1f} ms, main thread CPU mean "
        f"{ms([t.edit_cpu[n] for n in rest])} ms"
    )


def serve_profiled(out: str) -> None:
    """``hiera-ls serve`` with cProfile on its main thread from the first edit (what the
    edits cost, not the start), the data written as the server ends (it ends with
    ``os._exit``, which skips ``atexit``: ``python -m cProfile`` wrote nothing)."""
    import cProfile

    from hiera_ls.lsp import diagnostics_scheduler, transport

    profiler = cProfile.Profile()
    edited = diagnostics_scheduler.DiagnosticsScheduler.edited
    started: list[bool] = []

    def edited_profiled(
        self: diagnostics_scheduler.DiagnosticsScheduler, path: str, changed: bool = True
    ) -> None:
        if changed and not started:
            started.append(True)
            profiler.enable()
        edited(self, path, changed)

    end = transport._end_process

    def end_profiled(code: int) -> NoReturn:
        profiler.disable()
        profiler.dump_stats(out)
        end(code)

    diagnostics_scheduler.DiagnosticsScheduler.edited = edited_profiled  # type: ignore[method-assign]
    transport._end_process = end_profiled
    from hiera_ls.cli import main as hiera_ls_main

    sys.argv = ["hiera-ls", "serve"]
    raise SystemExit(hiera_ls_main())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default=None)
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument(
        "--cprofile",
        help="write the cProfile data of the server's main thread from the first edit on to "
        "this file (read it with python -m pstats)",
    )
    parser.add_argument("--serve-profiled", help=argparse.SUPPRESS)  # the server of --cprofile
    parser.add_argument("--data", type=Path, help="a real data file to edit (see above)")
    parser.add_argument("--target", default="profile::app5::port:", help="the edited line")
    parser.add_argument(
        "--base",
        type=Path,
        help="another checkout or its server directory: its server runs too, interleaved",
    )
    parser.add_argument("--rounds", type=int, default=1, help="runs of each server")
    parser.add_argument(
        "--pause",
        type=float,
        default=0.5,
        help="seconds of each pause in typing (every 10 edits); 3 lets the cross-file run end",
    )
    parser.add_argument(
        "--yls", type=Path, help="yaml-language-server's bin/yaml-language-server (the peer)"
    )
    args = parser.parse_args()
    if args.serve_profiled:
        serve_profiled(args.serve_profiled)
    server = [sys.executable, "-m", "hiera_ls", "serve"]
    if args.cprofile:
        server = [sys.executable, __file__, "--serve-profiled", str(Path(args.cprofile).resolve())]
    here = Path(__file__).resolve().parent.parent / "server"
    servers: list[tuple[str, list[str], dict[str, str] | None, bool]] = [
        ("hiera-ls", server, {**os.environ, "PYTHONPATH": str(here)}, True)
    ]
    if args.base is not None:
        # a checkout or its server directory (the other benches take the latter); never a
        # path whose package is missing, where the installed hiera-ls would answer unseen
        base = next(
            (d for d in (args.base / "server", args.base) if (d / "hiera_ls").is_dir()), None
        )
        if base is None:
            sys.exit(f"--base {args.base}: no hiera_ls package in it or in its server directory")
        env = {**os.environ, "PYTHONPATH": str(base.resolve())}
        servers.append((f"base {args.base}", server, env, True))
    if args.yls is not None:
        servers.append(("yaml-language-server", ["node", str(args.yls), "--stdio"], None, False))
    runs: dict[str, list[Timings]] = {name: [] for name, *_ in servers}
    for r in range(args.rounds):
        for name, command, env, versioned in servers:
            t = asyncio.run(
                run(
                    args.profile,
                    args.edits,
                    args.lines,
                    command,
                    args.data,
                    args.target,
                    env,
                    versioned,
                    args.pause,
                )
            )
            runs[name].append(t)
            print(f"round {r + 1} {_line(name, t, args.edits)}", flush=True)
    for name, results in runs.items():
        if len(results) > 1:
            print(
                f"median of {len(results)}: {name}: arrived p95 "
                f"{statistics.median(_pct(t.arrived, 95) for t in results) * 1000:.1f} ms, "
                f"p50 {statistics.median(statistics.median(t.arrived) for t in results) * 1000:.1f}"
                f" ms; decoded p95 "
                f"{statistics.median(_pct(t.handled, 95) for t in results) * 1000:.1f} ms; main "
                "thread CPU "
                f"{statistics.median(t.main_cpu_s for t in results) / args.edits * 1000:.1f} ms an "
                f"edit, process "
                f"{statistics.median(t.cpu_s for t in results) / args.edits * 1000:.1f} ms"
            )
    times = sorted(runs["hiera-ls"][0].handled)
    p95 = _pct(times, 95)
    print(
        f"{len(times)} edits of {args.data or f'a {args.lines}-line file'}, "
        f"profile={args.profile}: p50 "
        f"{statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, max "
        f"{times[-1] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
