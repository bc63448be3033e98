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
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

FIXTURE = Path(__file__).resolve().parent.parent / "examples" / "control-repo"

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_repo import grow  # noqa: E402


async def run(
    profile: str | None,
    edits: int,
    size: int,
    server: list[str],
    data: Path | None = None,
    prefix: str = "profile::app5::port:",
) -> list[float]:
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

        @client.feature(types.WINDOW_LOG_MESSAGE)
        def log_message(params: types.LogMessageParams) -> None:
            if params.type == types.MessageType.Error:
                print(params.message, file=sys.stderr)

        @client.feature("hiera/activeFactsProfile")
        def active_profile(params: object) -> None:
            return None

        waiting: dict[int, asyncio.Future[None]] = {}

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def published(params: types.PublishDiagnosticsParams) -> None:
            fut = waiting.pop(params.version or -1, None)
            if fut is not None and not fut.done():
                fut.set_result(None)

        @client.feature(types.WORKSPACE_CONFIGURATION)
        def configuration(params: types.ConfigurationParams) -> list[object]:
            return [None for _ in params.items]

        await client.start_io(*server)
        await client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                root_uri=repo.as_uri(),
                initialization_options={"hiera": {"factsProfile": profile}} if profile else {},
            )
        )
        client.initialized(types.InitializedParams())
        uri = common.as_uri()
        loop = asyncio.get_running_loop()
        first: asyncio.Future[None] = loop.create_future()
        waiting[1] = first
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="yaml", version=1, text=text
                )
            )
        )
        await first
        pid = client._server.pid if client._server is not None else None
        cpu_before = _cpu_s(pid)
        times: list[float] = []
        for n in range(edits):
            version = n + 2
            fut = loop.create_future()
            waiting[version] = fut
            value = str(9000 + n)
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
            await fut
            times.append(time.perf_counter() - start)
            written = value
            if n % 10 == 9:
                await asyncio.sleep(0.5)  # a pause in typing: the full checks run in it
        cpu = _cpu_s(pid) - cpu_before
        print(
            f"server CPU over the edits and their pauses' background checks: {cpu:.2f} s "
            f"({cpu / max(1, edits) * 1000:.1f} ms an edit)"
        )
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        return times
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _cpu_s(pid: int | None) -> float:
    """User and system time of the process so far (Linux), 0 when it cannot be read."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--profile", default=None)
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--cprofile", help="write the server's cProfile data to this file")
    parser.add_argument("--data", type=Path, help="a real data file to edit (see above)")
    parser.add_argument("--target", default="profile::app5::port:", help="the edited line")
    args = parser.parse_args()
    server = [sys.executable, "-m", "hiera_ls", "serve"]
    if args.cprofile:
        server = [sys.executable, "-m", "cProfile", "-o", args.cprofile, "-m", "hiera_ls", "serve"]
    times = sorted(
        asyncio.run(run(args.profile, args.edits, args.lines, server, args.data, args.target))
    )
    p95 = times[min(len(times) - 1, round(0.95 * len(times)) - 1)]
    print(
        f"{len(times)} edits of {args.data or f'a {args.lines}-line file'}, "
        f"profile={args.profile}: p50 "
        f"{statistics.median(times) * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms, max "
        f"{times[-1] * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
