"""Opening every data file of a repository at once: hiera-ls against yaml-language-server.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_open_all.py [ROOT] [--under hieradata] [--hiera-config FILE]
                                   [--runs 3] [--no-yls]

Both servers are started on ROOT (default: Wikimedia's operations-puppet clone), then every
``*.yaml``/``*.yml`` file under ``ROOT/UNDER`` is sent as one ``didOpen`` after another,
without waiting, as an editor restoring a session or a "open all" extension does. Reported,
per server, from the first didOpen:

- ``all first``: every file has had its first publishDiagnostics;
- ``settled``: the last publish before the server went quiet for ``--quiet`` seconds (the
  background cross-file checks included; the quiet time itself is not counted);
- the time at which the 10%, 50% and 100% marks of first publishes came, which shows whether
  each file costs the same (linear) or more as files accumulate (quadratic).

Medians over ``--runs`` runs per server, servers alternating, and the ratio hiera-ls /
yaml-language-server of the medians. Compare ratios taken in one run, not absolute times
across runs (the machine is shared).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import os
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import DEFAULT_YLS, HIERA_LS, WAIT_LIMIT_S, Session, make_session, start_server

DEFAULT_ROOT = Path("/work/real/wikimedia+operations-puppet")


@dataclass(slots=True)
class Run:
    name: str
    files: int = 0
    all_first_s: float = math.nan
    settled_s: float = math.nan
    marks: dict[int, float] = field(default_factory=dict)  # percent -> seconds
    publishes: int = 0
    diagnostics: int = 0
    errors: int = 0


def data_files(root: Path, under: str) -> list[Path]:
    base = root / under
    return sorted(p for p in base.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


async def initialize(session: Session, root: Path, init_options: dict[str, Any]) -> None:
    client = session.client
    await asyncio.wait_for(
        client.initialize_async(
            types.InitializeParams(
                capabilities=types.ClientCapabilities(
                    text_document=types.TextDocumentClientCapabilities(
                        publish_diagnostics=types.PublishDiagnosticsClientCapabilities(
                            version_support=True
                        )
                    ),
                    workspace=types.WorkspaceClientCapabilities(configuration=False),
                ),
                root_uri=root.as_uri(),
                workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
                initialization_options=init_options,
            )
        ),
        WAIT_LIMIT_S,
    )
    client.initialized(types.InitializedParams())


async def measure(
    name: str,
    command: list[str],
    root: Path,
    paths: list[Path],
    settings: dict[str, Any],
    quiet_s: float,
    stderr_log: Path,
) -> Run:
    run = Run(name, files=len(paths))
    session = make_session(settings)
    client = session.client
    texts = [(p.as_uri(), p.read_text(encoding="utf-8", errors="replace")) for p in paths]
    proc = await start_server(client, command, stderr_log)
    try:
        await initialize(session, root, settings)
        client.workspace_did_change_configuration(
            types.DidChangeConfigurationParams(settings=settings)
        )
        await asyncio.sleep(1.0)  # start-up work that does not depend on open files
        mark = session.mark()
        start = time.perf_counter()
        for uri, text in texts:
            client.text_document_did_open(
                types.DidOpenTextDocumentParams(
                    text_document=types.TextDocumentItem(
                        uri=uri, language_id="yaml", version=1, text=text
                    )
                )
            )
        wanted = {uri for uri, _ in texts}
        seen: set[str] = set()
        checked = mark
        deadline = start + 30 * WAIT_LIMIT_S
        marks = {10: len(wanted) // 10, 50: len(wanted) // 2, 100: len(wanted)}
        while len(seen) < len(wanted) and time.perf_counter() < deadline:
            for p in session.published[checked:]:
                if p.uri in wanted and p.uri not in seen:
                    seen.add(p.uri)
                    for pct, count in marks.items():
                        if len(seen) == count:
                            run.marks[pct] = p.at - start
            checked = len(session.published)
            if len(seen) == len(wanted):
                break
            session.event.clear()
            with_timeout = max(0.01, deadline - time.perf_counter())
            try:
                await asyncio.wait_for(session.event.wait(), with_timeout)
            except TimeoutError:
                break
        run.all_first_s = run.marks.get(100, math.nan)
        await session.settle(quiet_s, limit_s=30 * WAIT_LIMIT_S)
        after = session.published[mark:]
        run.settled_s = max((p.at for p in after), default=start) - start
        run.publishes = len(after)
        last: dict[str, int] = {}
        for p in after:
            last[p.uri] = p.count
        run.diagnostics = sum(last.values())
        run.errors = len(session.errors)
        await asyncio.wait_for(client.shutdown_async(None), WAIT_LIMIT_S)
        client.exit(None)
    finally:
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            proc.kill()
        await client.stop()  # type: ignore[no-untyped-call]
    return run


def median(values: list[float]) -> float:
    values = [v for v in values if not math.isnan(v)]
    return statistics.median(values) if values else math.nan


def fmt(v: float) -> str:
    return "-" if math.isnan(v) else f"{v:.2f}"


def report(runs: dict[str, list[Run]]) -> None:
    rows = [
        ("10% first publishes (s)", lambda r: r.marks.get(10, math.nan)),
        ("50% first publishes (s)", lambda r: r.marks.get(50, math.nan)),
        ("all first publishes (s)", lambda r: r.all_first_s),
        ("settled, background checks included (s)", lambda r: r.settled_s),
    ]
    names = list(runs)
    w = max(len(label) for label, _ in rows)
    print(f"{'median of ' + str(len(runs[names[0]])) + ' runs':<{w}}", end="")
    for n in names:
        print(f"  {n:>12}", end="")
    print("  ratio h/y" if len(names) == 2 else "")
    for label, get in rows:
        values = [median([get(r) for r in runs[n]]) for n in names]
        print(f"{label:<{w}}", end="")
        for v in values:
            print(f"  {fmt(v):>12}", end="")
        if len(values) == 2 and values[1] and not math.isnan(values[0] + values[1]):
            print(f"  {values[0] / values[1]:>9.2f}")
        else:
            print()
    for n in names:
        r = runs[n][-1]
        print(
            f"{n}: {r.files} files, {r.publishes} publishes, {r.diagnostics} diagnostics at the "
            f"end, errors logged {r.errors}; every run's all/settled: "
            + ", ".join(f"{fmt(x.all_first_s)}/{fmt(x.settled_s)}" for x in runs[n])
        )


async def main_async(args: argparse.Namespace) -> None:
    root = Path(args.root).resolve()
    paths = data_files(root, args.under)
    if args.limit:
        paths = paths[: args.limit]
    print(f"{root}: {len(paths)} files under {args.under}/")
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-bench-open-"))
    hiera_settings: dict[str, Any] = {}
    if args.hiera_config:
        hiera_settings["hieraConfig"] = args.hiera_config
    servers: list[tuple[str, list[str], dict[str, Any]]] = [
        ("hiera-ls", [str(args.hiera_ls), "serve"], {"hiera": hiera_settings})
    ]
    yls = Path(args.yls).expanduser()
    if not args.no_yls:
        if yls.exists():
            servers.append(
                (
                    "yaml-ls",
                    ["node", str(yls), "--stdio"],
                    {"yaml": {"validate": True, "schemaStore": {"enable": False}}},
                )
            )
        else:
            print(f"yaml-language-server not found at {yls}", file=sys.stderr)
    runs: dict[str, list[Run]] = {name: [] for name, _, _ in servers}
    for n in range(args.runs):
        for name, command, settings in servers:
            run = await measure(
                name, command, root, paths, settings, args.quiet, work / f"{name}.stderr"
            )
            print(
                f"run {n + 1} {name}: all first {fmt(run.all_first_s)} s, settled "
                f"{fmt(run.settled_s)} s",
                flush=True,
            )
            runs[name].append(run)
    report(runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("root", nargs="?", default=str(DEFAULT_ROOT))
    parser.add_argument("--under", default="hieradata")
    parser.add_argument(
        "--hiera-config",
        default="rake_modules/hiera.yaml",
        help="hiera-ls' hiera.hieraConfig setting (Wikimedia's global hiera.yaml; '' for none)",
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--limit", type=int, default=0, help="open only the first N files")
    parser.add_argument("--quiet", type=float, default=3.0, help="seconds without a publish")
    parser.add_argument("--hiera-ls", default=str(HIERA_LS))
    parser.add_argument("--yls", default=str(DEFAULT_YLS))
    parser.add_argument("--no-yls", action="store_true")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    print(f"load before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    asyncio.run(main_async(args))
    print(f"load after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
