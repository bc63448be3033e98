"""Editor-facing latency and memory of `hiera-ls serve`, against yaml-language-server.

Not a test (no timed assertions in tests): run it by hand and read the numbers.

    python bench/bench_lsp.py [--nodes 2000] [--lines 10000] [--edits 60] [--hovers 120]
                              [--sync incremental|full]
                              [--yls PATH/TO/bin/yaml-language-server | --no-yls]

It generates a control repository (bench/gen_repo.py, 2,000+ data files), grows
data/common.yaml to 10,000 lines, adds a facts profile under .hiera-ls/facts/ so hovers
preview merged values, then drives each server over stdio and reports:

1. process start -> first publishDiagnostics for the big file (didOpen sent right after
   initialize), and -> the last publish of the start-up checks (the server idle: under 5%
   of a core for 2 s), with the diagnostics it holds;
2. edit -> publishDiagnostics: didChange edits that change one value (the changed range,
   as editors send it, or with --sync full the whole text), timed until the publish for
   that version has been read by the client and until its Python client has decoded it
   (thousands of diagnostics made typed objects: milliseconds no editor spends), with the
   server's CPU per edit (its main thread, and all its threads: the background checks in
   the pauses); yaml-language-server publishes without a version: the first publish after
   the edit counts, which is sound because edits are sequential;
3. hover latency on keys of the big file once typing stopped (with the server's CPU time
   per hover, all its threads: on a shared machine the wall time includes waiting for a
   core), and on the edited key right after each edit's publish (hiera-ls only: without a
   schema yaml-language-server has nothing to show);
4. peak RSS (VmHWM of the server process, read once its RSS has stayed put for 10 s
   (``--rss-quiet``), so the background index of the whole repository is included).

yaml-language-server is the peer (`npm install --prefix ~/.cache/hiera-ls/yls
yaml-language-server`); it is configured with {"yaml": {"validate": true}} and its schema
store disabled, so nothing leaves the machine.  Note that it debounces validation by
200 ms (yamlSettings.validationDelayMs, not a setting), which is part of what an editor
sees.  Compare ratios taken in one run, not absolute times across runs.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import math
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.lsp.client import LanguageClient

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_repo import generate, grow
from measure_edit_latency import cpu_s, time_arrivals

WAIT_LIMIT_S = 120.0  # a safety net against a hung server, never a speed assertion
DEFAULT_YLS = (
    Path.home()
    / ".cache"
    / "hiera-ls"
    / "yls"
    / "node_modules"
    / "yaml-language-server"
    / "bin"
    / "yaml-language-server"
)
HIERA_LS = Path(sys.executable).parent / "hiera-ls"


# ---------------------------------------------------------------------------- repository


def grow_with_domain(common: Path, lines_wanted: int) -> None:
    """The big file: what its lookup() interpolations read, then generated keys."""
    with common.open("a", encoding="utf-8") as fh:
        fh.write("profile::base::domain: example.com\n")
    grow(common, lines_wanted)


@dataclass(frozen=True, slots=True)
class Repo:
    root: Path  # the workspace folder (one environment, hiera.yaml at its root)
    big: Path
    node: str
    data_files: int


def build_repo(work: Path, nodes: int, lines: int) -> Repo:
    info = generate(work, nodes=nodes)
    env = Path(str(info["env"]))
    big = env / "data" / "common.yaml"
    grow_with_domain(big, lines)
    facts_dir = env / ".hiera-ls" / "facts"
    facts_dir.mkdir(parents=True, exist_ok=True)
    node = str(info["node"])
    shutil.copy(Path(str(info["facts"])), facts_dir / f"{node}.json")
    data_files = sum(
        1 for p in env.rglob("*.yaml") if p.name != "hiera.yaml" and ".hiera-ls" not in p.parts
    )
    return Repo(env, big, node, data_files)


# ---------------------------------------------------------------------------- client


@dataclass(slots=True)
class Published:
    uri: str
    version: int | None
    count: int
    at: float
    sample: tuple[str, ...] = ()


@dataclass(slots=True)
class Session:
    client: LanguageClient
    published: list[Published] = field(default_factory=list)
    event: asyncio.Event = field(default_factory=asyncio.Event)
    errors: list[str] = field(default_factory=list)

    def mark(self) -> int:
        return len(self.published)

    async def wait_publish(self, uri: str, after: int, version: int | None) -> Published:
        """The first publish for ``uri`` after index ``after`` (at ``version`` when given)."""
        deadline = time.perf_counter() + WAIT_LIMIT_S
        seen = after
        while True:
            for p in self.published[seen:]:
                if p.uri == uri and (version is None or p.version == version):
                    return p
            seen = len(self.published)
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), max(0.01, deadline - time.perf_counter()))

    async def settle(self, quiet_s: float, limit_s: float = 60.0) -> None:
        """Wait until no publish has arrived for ``quiet_s`` (background checks finished)."""
        end = time.perf_counter() + limit_s
        while time.perf_counter() < end:
            n = len(self.published)
            await asyncio.sleep(quiet_s)
            if len(self.published) == n:
                return


def make_session(settings: dict[str, Any]) -> Session:
    client = LanguageClient("bench-lsp", "1")
    session = Session(client)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)  # type: ignore[untyped-decorator]
    def published(params: types.PublishDiagnosticsParams) -> None:
        session.published.append(
            Published(
                params.uri,
                params.version,
                len(params.diagnostics),
                time.perf_counter(),
                tuple(f"{d.range.start.line + 1}: {d.message}" for d in params.diagnostics[:3]),
            )
        )
        session.event.set()

    @client.feature(types.WINDOW_LOG_MESSAGE)  # type: ignore[untyped-decorator]
    def log_message(params: types.LogMessageParams) -> None:
        if params.type == types.MessageType.Error:
            session.errors.append(params.message)

    @client.feature(types.WORKSPACE_CONFIGURATION)  # type: ignore[untyped-decorator]
    def configuration(params: types.ConfigurationParams) -> list[object]:
        return [settings.get(item.section or "") for item in params.items]

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)  # type: ignore[untyped-decorator]
    def register(params: types.RegistrationParams) -> None:
        return None

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)  # type: ignore[untyped-decorator]
    def progress(params: types.WorkDoneProgressCreateParams) -> None:
        return None

    @client.feature("hiera/activeFactsProfile")  # type: ignore[untyped-decorator]
    def active_profile(params: object) -> None:
        return None

    return session


def capabilities() -> types.ClientCapabilities:
    return types.ClientCapabilities(
        text_document=types.TextDocumentClientCapabilities(
            synchronization=types.TextDocumentSyncClientCapabilities(did_save=False),
            publish_diagnostics=types.PublishDiagnosticsClientCapabilities(version_support=True),
            hover=types.HoverClientCapabilities(
                content_format=[types.MarkupKind.Markdown, types.MarkupKind.PlainText]
            ),
        ),
        workspace=types.WorkspaceClientCapabilities(
            configuration=False,
            did_change_configuration=types.DidChangeConfigurationClientCapabilities(),
        ),
    )


def peak_rss_kib(pid: int) -> tuple[int, int]:
    """(VmHWM, VmRSS) in KiB; (0, 0) where /proc is not there."""
    out = {"VmHWM": 0, "VmRSS": 0}
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as fh:
            for line in fh:
                name, _, rest = line.partition(":")
                if name in out:
                    out[name] = int(rest.split()[0])
    except OSError:
        pass
    return out["VmHWM"], out["VmRSS"]


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used so far, user and system, from /proc (0 elsewhere).

    The machine may be shared: a request's wall time then includes waiting for a core,
    while its CPU time does not (in steps of the kernel's clock tick, so read as a mean
    over a series of requests)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def idle(pid: int, quiet_s: float = 2.0, limit_s: float = WAIT_LIMIT_S) -> None:
    """Returns once the process has used under 5% of a core for ``quiet_s``."""
    end = time.perf_counter() + limit_s
    while time.perf_counter() < end:
        before = cpu_seconds(pid)
        await asyncio.sleep(quiet_s)
        if cpu_seconds(pid) - before < 0.05 * quiet_s:
            return


async def settled_peak_rss_kib(
    pid: int, quiet_s: float = 10.0, limit_s: float = 180.0
) -> tuple[int, int]:
    """(VmHWM, VmRSS) once the server's background work is over: its RSS has not moved by
    more than 512 KiB for ``quiet_s``.  Read earlier, the peak would miss the cross-file
    index the server builds after start-up, which is most of its memory."""
    start = time.perf_counter()
    last, since = -1, start
    while time.perf_counter() - start < limit_s:
        _, rss = peak_rss_kib(pid)
        now = time.perf_counter()
        if abs(rss - last) > 512:
            last, since = rss, now
        elif now - since >= quiet_s:
            break
        await asyncio.sleep(0.2)
    return peak_rss_kib(pid)


# ---------------------------------------------------------------------------- measurement


@dataclass(slots=True)
class Result:
    name: str
    first_diag_s: float = math.nan
    first_cpu_s: float = math.nan  # the server's CPU time (all its threads) at that publish
    complete_diag_s: float = math.nan  # the last publish of the start-up checks
    edits: list[float] = field(default_factory=list)
    # each edit's publish read by the client, before its Python decoding of the diagnostics
    edits_arrived: list[float] = field(default_factory=list)
    edit_cpu_s: float = math.nan  # the server's CPU per edit (with the pauses' checks)
    edit_main_cpu_s: float = math.nan  # its main thread's alone
    hovers: list[float] = field(default_factory=list)
    hovers_after_edit: list[float] = field(
        default_factory=list
    )  # each right after an edit's publish
    hover_hits: int = 0
    hover_cpu_s: float = math.nan  # the server's CPU time over the hovers, per hover
    hover_sample: str = ""
    hwm_kib: int = 0
    rss_kib: int = 0
    open_diagnostics: int = 0
    open_sample: tuple[str, ...] = ()
    versioned: bool = True
    stray_publishes: int = 0
    errors: list[str] = field(default_factory=list)


def edited_text(lines: list[str], target: int, prefix: str, value: str) -> str:
    copy = list(lines)
    copy[target] = prefix + value
    return "\n".join(copy) + "\n"


def hover_positions(lines: list[str], count: int) -> list[types.Position]:
    """Top-level keys spread over the whole file (the merged keys at its top included)."""
    keys = [
        n
        for n, line in enumerate(lines)
        if line and not line[0].isspace() and not line.startswith("#")
    ]
    if len(keys) <= count:
        chosen = keys
    else:
        step = len(keys) / count
        chosen = [keys[int(i * step)] for i in range(count)]
    out = []
    for n in chosen:
        line = lines[n]
        col = 1 if line.startswith('"') else 0
        out.append(types.Position(line=n, character=col + 3))
    return out


async def start_server(
    client: LanguageClient, command: Sequence[str], stderr_log: Path
) -> asyncio.subprocess.Process:
    """Starts the server; exec keeps its PID (for /proc) and sends its stderr to a file, not
    a pipe nobody reads."""
    await client.start_io("/bin/sh", "-c", 'exec "$@" 2>>"$0"', str(stderr_log), *command)
    proc = client._server  # pygls keeps the subprocess here
    assert proc is not None
    return proc


async def initialize_and_open(
    session: Session,
    repo: Repo,
    init_options: dict[str, Any],
    settings: dict[str, Any],
    uri: str,
    text: str,
) -> int:
    """initialize, initialized, the settings, then didOpen of ``uri``; the publish mark
    taken just before the didOpen."""
    client = session.client
    await asyncio.wait_for(
        client.initialize_async(
            types.InitializeParams(
                capabilities=capabilities(),
                root_uri=repo.root.as_uri(),
                workspace_folders=[
                    types.WorkspaceFolder(uri=repo.root.as_uri(), name=repo.root.name)
                ],
                initialization_options=init_options,
            )
        ),
        WAIT_LIMIT_S,
    )
    client.initialized(types.InitializedParams())
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings=settings))
    mark = session.mark()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="yaml", version=1, text=text)
        )
    )
    return mark


async def measure(
    name: str,
    command: list[str],
    repo: Repo,
    text: str,
    settings: dict[str, Any],
    init_options: dict[str, Any],
    edits: int,
    hovers: int,
    stderr_log: Path,
    incremental: bool,
    rss_quiet_s: float = 10.0,
) -> Result:
    result = Result(name)
    session = make_session(settings)
    client = session.client
    lines = text.splitlines()
    target = min(
        (
            n
            for n, line in enumerate(lines)
            if line.startswith("profile::app") and "::port: " in line
        ),
        key=lambda n: abs(n - len(lines) // 2),
    )
    prefix = lines[target][: lines[target].index(": ") + 2]
    uri = repo.big.as_uri()
    loop_start = time.perf_counter()
    proc = await start_server(client, command, stderr_log)
    arrived: dict[int | None, float] = {}
    assert proc.stdout is not None
    try:
        mark = await initialize_and_open(session, repo, init_options, settings, uri, text)
        first = await session.wait_publish(uri, mark, None)
        result.first_cpu_s = cpu_seconds(proc.pid)
        result.first_diag_s = first.at - loop_start
        result.versioned = first.version is not None
        time_arrivals(proc.stdout, arrived, result.versioned)
        # start-up checks of the whole workspace, revalidation after settings: over once the
        # server stops using the processor (a big environment's index takes seconds without
        # a publish, so a pause in publishes does not say it is done)
        await session.settle(1.0)
        await idle(proc.pid)
        settled = [p for p in session.published if p.uri == uri][-1]
        result.open_diagnostics, result.open_sample = settled.count, settled.sample
        result.complete_diag_s = settled.at - loop_start

        line_now = lines[target]
        cpu_before, main_before = cpu_s(proc.pid), cpu_s(proc.pid, proc.pid)
        for n in range(edits):
            version = n + 2
            value = str(9000 + n)
            change: types.TextDocumentContentChangeEvent
            if incremental:  # what editors send: the changed range only
                change = types.TextDocumentContentChangePartial(
                    range=types.Range(
                        start=types.Position(line=target, character=len(prefix)),
                        end=types.Position(line=target, character=len(line_now)),
                    ),
                    text=value,
                )
            else:
                change = types.TextDocumentContentChangeWholeDocument(
                    text=edited_text(lines, target, prefix, value)
                )
            line_now = prefix + value
            mark = session.mark()
            key = version if result.versioned else None
            arrived.pop(key, None)
            start = time.perf_counter()
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[change],
                )
            )
            got = await session.wait_publish(uri, mark, version if result.versioned else None)
            result.edits.append(got.at - start)
            result.edits_arrived.append(arrived.get(key, got.at) - start)
            if hovers:  # the user looks at what typing changed: hover the edited key at once
                start = time.perf_counter()
                await asyncio.wait_for(
                    client.text_document_hover_async(
                        types.HoverParams(
                            text_document=types.TextDocumentIdentifier(uri=uri),
                            position=types.Position(line=target, character=3),
                        )
                    ),
                    WAIT_LIMIT_S,
                )
                result.hovers_after_edit.append(time.perf_counter() - start)
            if n % 10 == 9:
                await asyncio.sleep(0.5)  # a pause in typing: background checks run in it
        if edits:
            result.edit_cpu_s = (cpu_s(proc.pid) - cpu_before) / edits
            result.edit_main_cpu_s = (cpu_s(proc.pid, proc.pid) - main_before) / edits
        final_text = edited_text(lines, target, prefix, str(9000 + edits - 1))
        mark = session.mark()
        await session.settle(1.0)
        result.stray_publishes = sum(
            1 for p in session.published[mark:] if p.uri == uri and not result.versioned
        )

        final_lines = final_text.splitlines()
        cpu_before = cpu_seconds(proc.pid)
        for pos in hover_positions(final_lines, hovers) if hovers else []:
            start = time.perf_counter()
            answer = await asyncio.wait_for(
                client.text_document_hover_async(
                    types.HoverParams(
                        text_document=types.TextDocumentIdentifier(uri=uri), position=pos
                    )
                ),
                WAIT_LIMIT_S,
            )
            result.hovers.append(time.perf_counter() - start)
            if answer is not None:
                result.hover_hits += 1
                contents = answer.contents
                value = (
                    contents.value if isinstance(contents, types.MarkupContent) else str(contents)
                )
                if not result.hover_sample and final_lines[pos.line].startswith('"profile::p'):
                    result.hover_sample = value
        if result.hovers:
            result.hover_cpu_s = (cpu_seconds(proc.pid) - cpu_before) / len(result.hovers)
        result.hwm_kib, result.rss_kib = await settled_peak_rss_kib(proc.pid, rss_quiet_s)
        await asyncio.wait_for(client.shutdown_async(None), WAIT_LIMIT_S)
        client.exit(None)
    finally:
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            proc.kill()
        await client.stop()  # type: ignore[no-untyped-call]
    result.errors = session.errors
    return result


# ---------------------------------------------------------------------------- report


def pct(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    if not values:
        return math.nan
    s = sorted(values)
    return s[max(0, math.ceil(p / 100 * len(s)) - 1)]


def ms(v: float) -> str:
    return "-" if math.isnan(v) else f"{v * 1000:.1f}"


def ratio(a: float, b: float) -> str:
    return "-" if math.isnan(a) or math.isnan(b) or b == 0 else f"{a / b:.2f}"


def report(h: Result, y: Result | None) -> None:
    nan = math.nan
    rows: list[tuple[str, float, float, bool]] = [
        ("start -> first diagnostics (ms)", h.first_diag_s, y.first_diag_s if y else nan, True),
        (
            "server CPU until the first diagnostics (ms)",
            h.first_cpu_s,
            y.first_cpu_s if y else nan,
            True,
        ),
        (
            "start -> start-up checks published (ms)",
            h.complete_diag_s,
            y.complete_diag_s if y else nan,
            True,
        ),
        (
            f"edit -> diagnostics p50 (ms, n={len(h.edits)})",
            statistics.median(h.edits) if h.edits else nan,
            statistics.median(y.edits) if y and y.edits else nan,
            True,
        ),
        ("edit -> diagnostics p95 (ms)", pct(h.edits, 95), pct(y.edits, 95) if y else nan, True),
        (
            "edit -> publish read by the client p50 (ms)",
            statistics.median(h.edits_arrived) if h.edits_arrived else nan,
            statistics.median(y.edits_arrived) if y and y.edits_arrived else nan,
            True,
        ),
        (
            "edit -> publish read by the client p95 (ms)",
            pct(h.edits_arrived, 95),
            pct(y.edits_arrived, 95) if y else nan,
            True,
        ),
        (
            "server CPU per edit, main thread (ms)",
            h.edit_main_cpu_s,
            y.edit_main_cpu_s if y else nan,
            True,
        ),
        ("server CPU per edit, process (ms)", h.edit_cpu_s, y.edit_cpu_s if y else nan, True),
        (
            "edit -> diagnostics max (ms)",
            max(h.edits, default=nan),
            max(y.edits, default=nan) if y else nan,
            True,
        ),
        (
            f"hover p50 (ms, n={len(h.hovers)})",
            statistics.median(h.hovers) if h.hovers else nan,
            nan,
            True,
        ),
        ("hover p95 (ms)", pct(h.hovers, 95), nan, True),
        ("hover, server CPU per hover, mean (ms)", h.hover_cpu_s, nan, True),
        (
            f"hover right after an edit p50 (ms, n={len(h.hovers_after_edit)})",
            statistics.median(h.hovers_after_edit) if h.hovers_after_edit else nan,
            nan,
            True,
        ),
        ("hover right after an edit p95 (ms)", pct(h.hovers_after_edit, 95), nan, True),
        ("peak RSS VmHWM (MiB)", h.hwm_kib / 1024, (y.hwm_kib / 1024) if y else nan, False),
    ]
    w = max(len(r[0]) for r in rows)
    print(f"{'metric':<{w}}  {'hiera-ls':>10}  {'yaml-ls':>10}  {'ratio h/y':>9}")
    for label, a, b, is_time in rows:
        fa = ms(a) if is_time else f"{a:.1f}"
        fb = ms(b) if is_time else ("-" if math.isnan(b) else f"{b:.1f}")
        print(f"{label:<{w}}  {fa:>10}  {fb:>10}  {ratio(a, b):>9}")
    print(
        f"hiera-ls: {h.hover_hits}/{len(h.hovers)} hovers answered; {h.open_diagnostics} "
        f"diagnostics after start-up; RSS at end {h.rss_kib / 1024:.1f} MiB; server errors logged: "
        f"{len(h.errors)}"
    )
    for line in h.open_sample:
        print(f"  hiera-ls diagnostic: {line[:150]}")
    if y:
        print(
            f"yaml-ls: publishes carry a version: {y.versioned}; stray publishes after edits: "
            f"{y.stray_publishes}; {y.open_diagnostics} diagnostics after start-up; RSS at end "
            f"{y.rss_kib / 1024:.1f} MiB"
        )
    if h.hover_sample:
        print("hover sample (merged key):\n  " + "\n  ".join(h.hover_sample.splitlines()[:12]))


async def main_async(args: argparse.Namespace) -> None:
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-bench-lsp-"))
    try:
        t = time.perf_counter()
        repo = build_repo(work, args.nodes, args.lines)
        text = repo.big.read_text(encoding="utf-8")
        print(
            f"repo: {repo.data_files} data files, {repo.big.name} {len(text.splitlines())} lines, "
            f"facts profile {repo.node} (generated in {time.perf_counter() - t:.1f} s); "
            f"{args.sync} edits"
        )
        hiera_settings = {"hiera": {"factsProfile": repo.node}}
        h = await measure(
            "hiera-ls",
            [str(args.hiera_ls), "serve"],
            repo,
            text,
            hiera_settings,
            hiera_settings,
            args.edits,
            args.hovers,
            work / "hiera-ls.stderr",
            args.sync == "incremental",
            args.rss_quiet,
        )
        y: Result | None = None
        yls = Path(args.yls).expanduser()
        if not args.no_yls:
            if yls.exists():
                yaml_settings = {
                    "yaml": {
                        "validate": True,
                        "hover": True,
                        "completion": True,
                        "schemaStore": {"enable": False},
                    }
                }
                y = await measure(
                    "yaml-language-server",
                    ["node", str(yls), "--stdio"],
                    repo,
                    text,
                    yaml_settings,
                    {},
                    args.edits,
                    0,
                    work / "yls.stderr",
                    args.sync == "incremental",
                    args.rss_quiet,
                )
            else:
                print(
                    f"yaml-language-server not found at {yls}; "
                    "npm install --prefix ~/.cache/hiera-ls/yls yaml-language-server",
                    file=sys.stderr,
                )
        report(h, y)
        if args.keep:
            print(f"kept {work}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--edits", type=int, default=60)
    parser.add_argument("--hovers", type=int, default=120)
    parser.add_argument("--hiera-ls", default=str(HIERA_LS))
    parser.add_argument("--yls", default=str(DEFAULT_YLS))
    parser.add_argument("--no-yls", action="store_true")
    parser.add_argument(
        "--sync",
        choices=("incremental", "full"),
        default="incremental",
        help="send each edit as the changed range (what editors do) or as the whole text",
    )
    parser.add_argument(
        "--rss-quiet",
        type=float,
        default=10.0,
        help="seconds the server's RSS must stay put before its peak is read",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the generated repository and server logs"
    )
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    print(
        f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}"
    )
    asyncio.run(main_async(args))
    print(f"load after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")


if __name__ == "__main__":
    main()
