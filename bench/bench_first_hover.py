"""The first hover after start-up, on a repository with much Puppet code (cold code index).

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_first_hover.py [--root /work/real/wikimedia+operations-puppet]
        [--file hieradata/common/profile/base.yaml] [--line 0] [--runs 3]
        [--hiera-config rake_modules/hiera.yaml]

Starts `hiera-ls serve` over stdio, sends initialize and initialized, opens the file and
hovers at once over the key on ``--line`` (0-based; a class parameter's key), then hovers
again every ``--poll`` seconds until the answer names the class parameter. Reports, per
run: the first hover's latency (from the request), whether it held the class parameter,
and the time from initialized until a hover first did (the background build of the code
index).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types
from pygls.lsp.client import LanguageClient

HIERA_LS = Path(sys.executable).parent / "hiera-ls"
WAIT_LIMIT_S = 120.0  # a safety net against a hung server, never a speed assertion
MARK = "Class parameter"


def make_client() -> LanguageClient:
    client = LanguageClient("bench-first-hover", "1")

    @client.feature(types.WINDOW_LOG_MESSAGE)  # type: ignore[untyped-decorator]
    def log_message(params: types.LogMessageParams) -> None:
        return None

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)  # type: ignore[untyped-decorator]
    def register(params: types.RegistrationParams) -> None:
        return None

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # type: ignore[untyped-decorator]
    def published(params: types.PublishDiagnosticsParams) -> None:
        return None

    @client.feature("hiera/activeFactsProfile")  # type: ignore[untyped-decorator]
    def active_profile(params: object) -> None:
        return None

    return client


def hover_text(result: types.Hover | None) -> str:
    if result is None:
        return ""
    contents = result.contents
    return contents.value if isinstance(contents, types.MarkupContent) else str(contents)


async def one_run(
    root: Path, path: Path, line: int, hiera_config: str, poll: float
) -> tuple[float, bool, float]:
    client = make_client()
    await client.start_io(str(HIERA_LS), "serve")
    try:
        await client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(),
                initialization_options=(
                    {"hiera": {"hieraConfig": str(root / hiera_config)}} if hiera_config else None
                ),
                root_uri=root.as_uri(),
                workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            )
        )
        client.initialized(types.InitializedParams())
        started = time.perf_counter()
        text = path.read_text(encoding="utf-8")
        client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=path.as_uri(), language_id="yaml", version=1, text=text
                )
            )
        )
        params = types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=path.as_uri()),
            position=types.Position(line=line, character=2),
        )
        asked = time.perf_counter()
        first = hover_text(await asyncio.wait_for(client.text_document_hover_async(params), 120))
        first_s = time.perf_counter() - asked
        with_code = MARK in first
        while MARK not in first and time.perf_counter() - started < WAIT_LIMIT_S:
            await asyncio.sleep(poll)
            first = hover_text(await client.text_document_hover_async(params))
        ready_s = time.perf_counter() - started
        await client.shutdown_async(None)
        client.exit(None)
        return first_s, with_code, ready_s
    finally:
        await client.stop()


async def main_async(args: argparse.Namespace) -> None:
    root = Path(args.root).resolve()
    path = root / args.file
    firsts: list[float] = []
    for run in range(args.runs):
        first_s, with_code, ready_s = await one_run(
            root, path, args.line, args.hiera_config, args.poll
        )
        firsts.append(first_s)
        print(
            f"run {run + 1}: first hover {first_s * 1000:.0f} ms "
            f"({'with' if with_code else 'without'} the class parameter); "
            f"class parameter shown {ready_s:.2f} s after initialized"
        )
    print(f"first hover median {statistics.median(firsts) * 1000:.0f} ms over {args.runs} runs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default="/work/real/wikimedia+operations-puppet")
    parser.add_argument("--file", default="hieradata/common/profile/base.yaml")
    parser.add_argument("--line", type=int, default=0)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--poll", type=float, default=0.1, help="seconds between hovers")
    parser.add_argument(
        "--hiera-config",
        default="rake_modules/hiera.yaml",
        help="the hiera.hieraConfig setting, relative to --root (Wikimedia's global hiera.yaml)",
    )
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
