"""Soak: `hiera-ls serve` under scripted editing and hovering for a long time.

Not a test: run it by hand (or in the background) and read the curve.

    python bench/soak.py [--minutes 30] [--nodes 2000] [--lines 10000] [--seed 1]

It builds the benchmark repository of bench/bench_lsp.py (bench/gen_repo.py, 2,000+ data
files, data/common.yaml grown to 10,000 lines, a facts profile), starts the server over
stdio and, until the time is up, repeats a script an editor user could produce: change a
value and hover the edited key, insert a new key that interpolates a lookup and later
delete it, hover keys spread over the file, and now and then open, hover and close a node
file. Edits are sent as changed ranges, as editors send them. Every 10 s it samples the
server's RSS (VmRSS from /proc), and at the end it prints the memory curve, its trend (a
least-squares slope over the second half of the run, after start-up and the background
index), and latency percentiles. A request unanswered within 120 s counts as a timeout and
the run goes on; a dead server ends the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import math
import random
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_lsp import (
    HIERA_LS,
    WAIT_LIMIT_S,
    Repo,
    Session,
    build_repo,
    initialize_and_open,
    make_session,
    pct,
    peak_rss_kib,
    start_server,
)

SAMPLE_EVERY_S = 10.0


@dataclass(slots=True)
class Soak:
    """What the run saw: RSS samples and latencies (seconds)."""

    rss: list[tuple[float, int]] = field(default_factory=list)  # (seconds since start, KiB)
    edits: list[float] = field(default_factory=list)
    hovers: list[float] = field(default_factory=list)
    hovers_after_edit: list[float] = field(default_factory=list)
    other_file_hovers: list[float] = field(default_factory=list)
    timeouts: int = 0
    cycles: int = 0
    hover_answers: int = 0
    server_died: str = ""


class Document:
    """The client's copy of the open big file, kept in step with the incremental edits."""

    def __init__(self, uri: str, text: str) -> None:
        self.uri = uri
        self.lines = text.splitlines()
        self.version = 1

    def top_level_keys(self) -> list[int]:
        return [
            n
            for n, line in enumerate(self.lines)
            if line and not line[0].isspace() and not line.startswith("#") and ": " in line
        ]

    def replace_value(self, line: int, value: str) -> types.TextDocumentContentChangePartial:
        old = self.lines[line]
        start = old.index(": ") + 2
        self.lines[line] = old[:start] + value
        return types.TextDocumentContentChangePartial(
            range=types.Range(
                start=types.Position(line=line, character=start),
                end=types.Position(line=line, character=len(old)),
            ),
            text=value,
        )

    def insert_line(self, line: int, text: str) -> types.TextDocumentContentChangePartial:
        self.lines.insert(line, text)
        at = types.Position(line=line, character=0)
        return types.TextDocumentContentChangePartial(
            range=types.Range(start=at, end=at), text=text + "\n"
        )

    def delete_line(self, line: int) -> types.TextDocumentContentChangePartial:
        del self.lines[line]
        return types.TextDocumentContentChangePartial(
            range=types.Range(
                start=types.Position(line=line, character=0),
                end=types.Position(line=line + 1, character=0),
            ),
            text="",
        )


async def wait_version(session: Session, uri: str, after: int, version: int) -> float:
    """When the first publish for ``uri`` at ``version`` or later arrived (a server that
    coalesces edits may skip a version)."""
    deadline = time.perf_counter() + WAIT_LIMIT_S
    seen = after
    while True:
        for p in session.published[seen:]:
            if p.uri == uri and p.version is not None and p.version >= version:
                return p.at
        seen = len(session.published)
        session.event.clear()
        await asyncio.wait_for(session.event.wait(), max(0.01, deadline - time.perf_counter()))


async def sample_rss(pid: int, soak: Soak, start: float, stop: asyncio.Event) -> None:
    while not stop.is_set():
        _, rss = peak_rss_kib(pid)
        at = time.perf_counter() - start
        if rss:
            soak.rss.append((at, rss))
            print(f"rss t={at:7.0f}s {rss / 1024:8.1f} MiB", flush=True)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), SAMPLE_EVERY_S)


async def edit(
    session: Session, doc: Document, change: types.TextDocumentContentChangePartial
) -> float:
    doc.version += 1
    mark = session.mark()
    start = time.perf_counter()
    session.client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=doc.uri, version=doc.version),
            content_changes=[change],
        )
    )
    return await wait_version(session, doc.uri, mark, doc.version) - start


async def hover(session: Session, uri: str, line: int, character: int) -> tuple[float, bool]:
    start = time.perf_counter()
    answer = await asyncio.wait_for(
        session.client.text_document_hover_async(
            types.HoverParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                position=types.Position(line=line, character=character),
            )
        ),
        WAIT_LIMIT_S,
    )
    return time.perf_counter() - start, answer is not None


async def one_cycle(
    session: Session, doc: Document, repo: Repo, rng: random.Random, soak: Soak, n: int
) -> None:
    """One round of the script; each step is what a user does in a few seconds of work."""
    keys = doc.top_level_keys()
    target = rng.choice(keys)
    soak.edits.append(
        await edit(session, doc, doc.replace_value(target, str(rng.randint(0, 99999))))
    )
    took, hit = await hover(session, doc.uri, target, 3)
    soak.hovers_after_edit.append(took)
    soak.hover_answers += hit
    inserted = [i for i, line in enumerate(doc.lines) if line.startswith("soak::")]
    if inserted:  # remove the key the previous cycle added
        soak.edits.append(await edit(session, doc, doc.delete_line(inserted[0])))
    else:
        at = rng.choice(keys)
        text = f"soak::key{n}: \"%{{lookup('profile::base::domain')}}-{n}\""
        soak.edits.append(await edit(session, doc, doc.insert_line(at, text)))
        took, hit = await hover(session, doc.uri, at, 3)
        soak.hovers_after_edit.append(took)
        soak.hover_answers += hit
    for line in rng.sample(keys, 3):
        took, hit = await hover(session, doc.uri, line, 3)
        soak.hovers.append(took)
        soak.hover_answers += hit
    if n % 10 == 0:  # glance at a node's file
        node_files = sorted((repo.root / "data" / "nodes").glob("*.yaml"))
        path = rng.choice(node_files)
        uri = path.as_uri()
        text = path.read_text(encoding="utf-8")
        session.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri, language_id="yaml", version=1, text=text
                )
            )
        )
        took, hit = await hover(session, uri, 0, 3)
        soak.other_file_hovers.append(took)
        soak.hover_answers += hit
        session.client.text_document_did_close(
            types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
    await asyncio.sleep(rng.uniform(0.05, 0.3))  # typing pace


async def run(args: argparse.Namespace, repo: Repo, work: Path) -> Soak:
    soak = Soak()
    settings = {"hiera": {"factsProfile": repo.node}}
    session = make_session(settings)
    client = session.client
    text = repo.big.read_text(encoding="utf-8")
    doc = Document(repo.big.as_uri(), text)
    rng = random.Random(args.seed)
    stderr_log = work / "hiera-ls.stderr"
    start = time.perf_counter()
    proc = await start_server(client, [str(args.hiera_ls), "serve"], stderr_log)
    stop = asyncio.Event()
    sampler: asyncio.Task[None] | None = None
    try:
        mark = await initialize_and_open(session, repo, settings, settings, doc.uri, text)
        await wait_version(session, doc.uri, mark, 1)
        # the curve starts once the server is up and the big file checked
        sampler = asyncio.create_task(sample_rss(proc.pid, soak, start, stop))
        end = start + args.minutes * 60
        while time.perf_counter() < end:
            if proc.returncode is not None:
                soak.server_died = f"server exited with {proc.returncode}"
                break
            try:
                await one_cycle(session, doc, repo, rng, soak, soak.cycles)
            except TimeoutError:
                soak.timeouts += 1
            soak.cycles += 1
            if soak.cycles % 100 == 0:
                print(
                    f"cycle {soak.cycles} t={time.perf_counter() - start:.0f}s "
                    f"edits p50 {pct(soak.edits, 50) * 1000:.1f} ms "
                    f"hovers p50 {pct(soak.hovers, 50) * 1000:.1f} ms timeouts {soak.timeouts}",
                    flush=True,
                )
        if not soak.server_died:
            await asyncio.wait_for(client.shutdown_async(None), WAIT_LIMIT_S)
            client.exit(None)
    finally:
        stop.set()
        if sampler is not None:
            await sampler
        try:
            await asyncio.wait_for(proc.wait(), 10)
        except TimeoutError:
            proc.kill()
        await client.stop()  # type: ignore[no-untyped-call]
    if session.errors:
        print(f"server errors logged: {len(session.errors)}; first: {session.errors[0][:300]}")
    return soak


def slope_mib_per_10min(points: list[tuple[float, int]]) -> float:
    """Least-squares slope of RSS over time."""
    if len(points) < 2:
        return math.nan
    xs = [t for t, _ in points]
    ys = [kib / 1024 for _, kib in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    den = sum((x - mx) ** 2 for x in xs)
    if den == 0:
        return math.nan
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / den * 600


def report(soak: Soak) -> None:
    print("\nmemory curve (time s, RSS MiB), one sample per minute:")
    last_minute = -1
    for t, kib in soak.rss:
        if int(t // 60) != last_minute:
            last_minute = int(t // 60)
            print(f"  {t:7.0f}  {kib / 1024:8.1f}")
    if soak.rss:
        rss = [kib for _, kib in soak.rss]
        half = soak.rss[len(soak.rss) // 2 :]
        print(
            f"RSS start {rss[0] / 1024:.1f} MiB, max {max(rss) / 1024:.1f} MiB, "
            f"end {rss[-1] / 1024:.1f} MiB; trend over the second half "
            f"{slope_mib_per_10min(half):+.2f} MiB per 10 min ({len(rss)} samples)"
        )
    print(f"\ncycles {soak.cycles}; timeouts {soak.timeouts}; hovers answered {soak.hover_answers}")
    if soak.server_died:
        print(f"SERVER DIED: {soak.server_died}")
    print(f"{'latency (ms)':<28} {'n':>6} {'p50':>8} {'p95':>8} {'p99':>8} {'max':>8}")
    for name, values in (
        ("edit -> diagnostics", soak.edits),
        ("hover right after an edit", soak.hovers_after_edit),
        ("hover", soak.hovers),
        ("hover in another file", soak.other_file_hovers),
    ):
        cells = [pct(values, p) * 1000 for p in (50, 95, 99)] + [
            max(values, default=math.nan) * 1000
        ]
        print(f"{name:<28} {len(values):>6} " + " ".join(f"{c:8.1f}" for c in cells))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--lines", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hiera-ls", default=str(HIERA_LS))
    parser.add_argument("--keep", action="store_true", help="keep the repository and server log")
    args = parser.parse_args()
    logging.basicConfig(level=logging.ERROR)
    work = Path(tempfile.mkdtemp(prefix="hiera-ls-soak-"))
    try:
        t = time.perf_counter()
        repo = build_repo(work, args.nodes, args.lines)
        print(
            f"repo: {repo.data_files} data files (generated in {time.perf_counter() - t:.1f} s); "
            f"soak for {args.minutes:g} min",
            flush=True,
        )
        report(asyncio.run(run(args, repo, work)))
        if args.keep:
            print(f"kept {work}")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
