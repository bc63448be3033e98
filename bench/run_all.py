"""Every bench once, one after another, with a table of their headline figures.

    python bench/run_all.py --short [--puppetdb] [--only NAME,...]

CI runs ``--short`` after the tests (.ci/run): each bench on a small input (a generated
repository of ~100 node files, a few requests), a few seconds each, so a regression shows in
the log of the run that made it, and a bench that no longer runs fails the run. A figure is
never judged: a slow bench passes; a bench that exits non-zero, or whose headline figure is
missing from its output (the bench changed and this table did not), fails. Full-size runs
(minutes to hours) are each bench's own command, by hand: bench/README.md.

Printed: each bench's own output, then one row per figure: the bench, the figure, its value
and unit, the peer's figure in the same run where the bench has one (hyera for lookups,
yaml-language-server for the LSP benches, Puppet where installed) or why there is none, the
bench's wall and CPU time (its processes and their children) and the load average (1 min)
when it started. Short figures are for noticing a change from one run to the next on the
same machine, not for comparing with the full-size figures of bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_repo import generate

HERE = Path(__file__).resolve().parent
SAFETY_NET_S = 600.0  # one bench that runs this long has hung: never a speed verdict
PEER_ABSENT = "peer not installed"
YLS = "yaml-language-server"


@dataclass(frozen=True, slots=True)
class Figure:
    """A headline figure read from a bench's output: ``pattern``'s group ``value``, and where
    the bench prints the peer's figure beside it, group ``peer``."""

    label: str
    pattern: str
    unit: str
    peer_name: str = ""  # the peer this figure is compared with ("" = none)


@dataclass(frozen=True, slots=True)
class Bench:
    script: str
    short: Callable[[Path], list[str]]  # the short arguments, given the generated repository
    figures: tuple[Figure, ...]
    needs: Callable[[], str | None] = lambda: None  # why it cannot run here (None: it can)
    puppetdb: bool = False  # starts a PuppetDB (half a minute): only with --puppetdb


@dataclass(slots=True)
class Row:
    bench: str
    figure: str
    value: str
    unit: str
    peer: str
    wall_s: float
    cpu_s: float
    load: float


@dataclass(slots=True)
class Outcome:
    rows: list[Row] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def yls_path() -> Path:
    return (
        Path.home()
        / ".cache"
        / "hiera-ls"
        / "yls"
        / "node_modules"
        / "yaml-language-server"
        / "bin"
        / "yaml-language-server"
    )


def has_yls() -> bool:
    return yls_path().exists() and shutil.which("node") is not None


def has_hyera() -> bool:
    """Where bench_lookup.py looks for it."""
    return bool(
        os.environ.get("HYERA")
        or shutil.which("hyera")
        or Path(sys.executable).with_name("hyera").exists()
    )


def has_puppet() -> bool:
    return shutil.which("puppet") is not None


PEERS: dict[str, Callable[[], bool]] = {
    "yaml-language-server": has_yls,
    "hyera": has_hyera,
    "Puppet": has_puppet,
    "curl": lambda: shutil.which("curl") is not None,
}


def needs_puppetdb() -> str | None:
    if shutil.which("puppetdb") is None and not Path("/usr/share/puppetdb").exists():
        return "PuppetDB not installed (.ci/puppetdb-setup.sh)"
    return None


def needs_wikimedia() -> str | None:
    clone = os.environ.get("WIKIMEDIA_PUPPET")
    if not clone or not (Path(clone) / "hieradata" / "hosts").is_dir():
        return "no clone of Wikimedia's operations/puppet ($WIKIMEDIA_PUPPET)"
    return None


NUM = r"(?P<value>[0-9][0-9.,]*)"
PEER = r"(?P<peer>[0-9][0-9.,]*|-)"


def ms_row(label: str, row: str) -> Figure:
    """A p95 from the ``NAME  p50 X ms  p95 Y ms`` rows several LSP benches print."""
    return Figure(label, rf"{row}\s+p50\s+[0-9.]+ ms\s+p95\s+{NUM} ms", "ms")


LSP_REPO = ["--nodes", "100", "--lines", "1000"]  # bench_lsp's repository, small
BENCHES: dict[str, Bench] = {
    "bench_lsp": Bench(
        "bench_lsp.py",
        lambda repo: [*LSP_REPO, "--edits", "10", "--hovers", "30", "--rss-quiet", "2"],
        (
            Figure(
                "start -> first diagnostics",
                rf"start -> first diagnostics \(ms\)\s+{NUM}\s+{PEER}",
                "ms",
                YLS,
            ),
            Figure(
                "start -> start-up checks published",
                rf"start -> start-up checks published \(ms\)\s+{NUM}\s+{PEER}",
                "ms",
                YLS,
            ),
            Figure(
                "edit -> diagnostics p95",
                rf"edit -> diagnostics p95 \(ms\)\s+{NUM}\s+{PEER}",
                "ms",
                YLS,
            ),
            Figure(
                "edit -> publish read p95",
                rf"edit -> publish read by the client p95 \(ms\)\s+{NUM}\s+{PEER}",
                "ms",
                YLS,
            ),
            Figure(
                "edit, server main-thread CPU",
                rf"server CPU per edit, main thread \(ms\)\s+{NUM}\s+{PEER}",
                "ms",
                YLS,
            ),
            Figure("hover p95", rf"hover p95 \(ms\)\s+{NUM}", "ms"),
            Figure("hover, server CPU, mean", rf"CPU per hover, mean \(ms\)\s+{NUM}", "ms"),
            Figure("peak RSS", rf"peak RSS VmHWM \(MiB\)\s+{NUM}\s+{PEER}", "MiB", YLS),
        ),
    ),
    "bench_open_all": Bench(
        "bench_open_all.py",
        lambda repo: [str(repo), "--under", "data", "--runs", "1", "--limit", "50", "--quiet", "1"],
        (
            Figure(
                "50 files opened: all first publishes",
                rf"all first publishes \(s\)\s+{NUM}\s+{PEER}",
                "s",
                YLS,
            ),
        ),
    ),
    "bench_check": Bench(
        "bench_check.py",
        lambda repo: [str(repo), "--runs", "1"],
        (
            Figure(
                "hiera-ls check",
                rf"hiera-ls check:\s+median {NUM} s(?s:.*?)yaml-language-server:\s+"
                rf"(?:median {PEER} s|not found)",
                "s",
                YLS,
            ),
        ),
    ),
    "bench_check_profiles": Bench(
        "bench_check_profiles.py",
        lambda repo: ["--short"],  # its own: 60 node files, 1 and 5 profiles, a fleet of 200
        tuple(
            Figure(
                f"check, {what}, --jobs {jobs}",
                rf"this --jobs {jobs}: check, 60 nodes, {what}: median {NUM} s wall",
                "s",
            )
            for what in ("1 profiles", "5 profiles", "a fleet of 200 profiles")
            for jobs in (1, 2)
        ),
    ),
    "bench_check_wikimedia": Bench(
        "bench_check_wikimedia.py",
        lambda repo: ["--short"],  # 1 and 2 profiles, one run; needs a clone of the repository
        tuple(
            Figure(
                f"check, Wikimedia, {n} profiles",
                rf"this: check, Wikimedia, {n} profiles: "
                rf"median {NUM} s wall",
                "s",
            )
            for n in (1, 2)
        ),
        needs=needs_wikimedia,
    ),
    "bench_outline": Bench(
        "bench_outline.py",
        lambda repo: [*LSP_REPO, "--requests", "5", "--quiet", "0.5"],
        (
            Figure(
                "documentSymbol p95",
                rf"hiera-ls\s+documentSymbol\s+p50\s+[0-9.]+ ms\s+p95\s+{NUM} ms"
                rf"(?s:.*?)(?:yaml-language-server\s+documentSymbol\s+p50\s+[0-9.]+ ms\s+"
                rf"p95\s+{PEER} ms|$)",
                "ms",
                YLS,
            ),
            ms_row("symbols after an edit p95", r"hiera-ls\s+symbols@edit"),
        ),
    ),
    "bench_code_actions": Bench(
        "bench_code_actions.py",
        lambda repo: [*LSP_REPO, "--requests", "5", "--quiet", "0.5"],
        (ms_row("code actions, cursor p95", r"cursor"), ms_row("after an edit p95", r"after edit")),
    ),
    "bench_completion": Bench(
        "bench_completion.py",
        lambda repo: [*LSP_REPO, "--requests", "5", "--quiet", "0.5"],
        (
            ms_row("lookup() completion while typing p95", r"lookup-typing"),
            ms_row("semantic tokens, whole file p95", r"tokens-full"),
        ),
    ),
    "bench_inlay": Bench(
        "bench_inlay.py",
        lambda repo: [*LSP_REPO, "--views", "5", "--edits", "3", "--quiet", "0.5"],
        (ms_row("inlay hints, first view p95", r"inlay hints first view"),),
    ),
    "bench_workspace_symbols": Bench(
        "bench_workspace_symbols.py",
        lambda repo: [*LSP_REPO, "--requests", "3", "--quiet", "0.5"],
        (
            Figure("first query (cold index)", rf"first query \(cold index\): {NUM} ms", "ms"),
            ms_row("prefix query p95", r"'profile::base'\s+\d+ symbols"),
        ),
    ),
    "bench_first_hover": Bench(
        "bench_first_hover.py",
        lambda repo: [
            *("--root", str(repo), "--file", "data/common.yaml", "--line", "0"),
            *("--hiera-config", "", "--runs", "1"),
        ],
        (Figure("first hover after start", rf"first hover median {NUM} ms", "ms"),),
    ),
    "measure_edit_latency": Bench(
        "measure_edit_latency.py",
        lambda repo: ["--edits", "5", "--lines", "1000"],
        (
            Figure(
                "edit -> publish read p95", rf"hiera-ls: arrived p50 [0-9.]+ ms, p95 {NUM}", "ms"
            ),
            Figure("edit -> diagnostics p95", rf", profile=\S+: p50 [0-9.]+ ms, p95 {NUM}", "ms"),
            Figure("edit, server main-thread CPU", rf"an edit \(main thread {NUM}\)", "ms"),
        ),
    ),
    "soak": Bench(
        "soak.py",
        lambda repo: ["--minutes", "0.25", *LSP_REPO],
        (
            Figure("RSS at the end", rf"end {NUM} MiB", "MiB"),
            Figure("hover p95", rf"\nhover\s+\d+\s+[0-9.]+\s+{NUM}", "ms"),
        ),
    ),
    "bench_lookup": Bench(
        "bench_lookup.py",
        lambda repo: ["--nodes", "100", "--rounds", "1", "--cold-runs", "1"],
        (
            Figure(
                "lookup, warm, median",
                rf"hiera-ls per lookup: median {NUM} ms(?s:.*?)(?:Puppet\s+per lookup: median "
                rf"{PEER} ms|$)",
                "ms",
                "Puppet",
            ),
            Figure(
                "cold `hiera-ls lookup`",
                rf"cold start hiera-ls lookup: median {NUM} s(?s:.*?)cold start hyera: "
                rf"(?:median {PEER} s|not installed|(?P<failed>failed))",
                "s",
                "hyera",
            ),
            Figure(
                "cold `hiera-ls lookup`, the example",
                rf"cold start hiera-ls lookup \(examples/control-repo\): median {NUM} s"
                rf"(?s:.*?)cold start hyera \(examples/control-repo\): "
                rf"(?:median {PEER} s|not installed|(?P<failed>failed))",
                "s",
                "hyera",
            ),
        ),
    ),
    "bench_glob_levels": Bench(
        "bench_glob_levels.py",
        lambda repo: [*("--levels", "20", "--dirs", "5", "--files", "10", "--repeat", "1")],
        (
            Figure(
                "lookup over 20 glob levels",
                rf"hiera-ls lookup: {NUM} s wall(?s:.*?)(?:puppet lookup:\s+{PEER} s wall|$)",
                "s",
                "Puppet",
            ),
        ),
    ),
    "bench_loader": Bench(
        "bench_loader.py",
        lambda repo: ["--lines", "1000", "--repeat", "3"],
        (
            Figure(
                "load a 1,000-line file",
                rf"load_yaml_data \(default backend\)\s+median\s+{NUM} ms",
                "ms",
            ),
        ),
    ),
    "bench_findings": Bench(
        "bench_findings.py",
        lambda repo: ["--sizes", "500,1000", "--repeat", "1"],
        (Figure("check --fix, 1,000 dates", rf"check --fix: dates\s+[0-9.]+\s+{NUM}", "s"),),
    ),
    "bench_many_findings": Bench(
        "bench_many_findings.py",
        lambda repo: ["--sizes", "500,1000", "--runs", "1"],
        (Figure("check, 1,000 booleans", rf"N=\s+1000 check\s+{NUM} s", "s"),),
    ),
    "bench_did_you_mean": Bench(
        "bench_did_you_mean.py",
        lambda repo: ["--refs", "200", "--keys", "200", "--runs", "1"],
        (Figure("check, 200 misspelt references", rf"median {NUM} s wall", "s"),),
    ),
    "bench_code_index": Bench(
        "bench_code_index.py",
        lambda repo: [str(repo), "--runs", "1"],
        (Figure("cold code index", rf"cold index: wall median {NUM} s", "s"),),
    ),
    "bench_spread": Bench(
        "bench_spread.py",
        lambda repo: ["--short"],  # its own: 300 node files, 20 profiles, a fleet of 1,000
        (
            Figure(
                "hover, new key, 20 profiles, p95",
                rf"not hovered before: p50 [0-9.]+ ms, p95 {NUM} ms",
                "ms",
            ),
            Figure(
                "hover over a fleet of 1,000, new key, p95",
                rf"hover over the fleet, a key not hovered before: p50 [0-9.]+ ms, p95 {NUM} ms",
                "ms",
            ),
        ),
    ),
    "bench_lsp_start": Bench(
        "bench_lsp_start.py",
        lambda repo: [*LSP_REPO, "--runs", "3"],
        (
            Figure(
                "start -> first diagnostics, median",
                rf"start -> first diagnostics median {NUM} ms wall",
                "ms",
            ),
            Figure(
                "start -> first diagnostics, server CPU",
                rf"start -> first diagnostics median [0-9]+ ms wall \(min [0-9]+\), {NUM} ms CPU",
                "ms",
            ),
        ),
    ),
    "bench_key_view": Bench(
        "bench_key_view.py",
        lambda repo: ["--nodes", "100", "--profiles", "10", "--keys", "10"],
        (
            Figure(
                "key view, new key, p95", rf"not shown before: p50 [0-9.]+ ms, p95 {NUM} ms", "ms"
            ),
        ),
    ),
    "bench_diff": Bench(
        "bench_diff.py",
        lambda repo: [
            *("--nodes", "50", "--profiles", "2", "--loop-sample", "1", "--puppet-sample", "1")
        ],
        (Figure("hiera-ls diff, 2 profiles", rf"both sides: \d+ lookups\): {NUM} s", "s"),),
    ),
    "bench_fleet_diff": Bench(
        "bench_fleet_diff.py",
        lambda repo: [*("--profiles", "100", "--roles", "2", "--alone", "5")],
        tuple(
            Figure(f"diff over 100 nodes, --jobs {j}", rf"markdown --jobs {j}: {NUM} s wall", "s")
            for j in (1, 2)
        ),
    ),
    "bench_facts_pull": Bench(
        "bench_facts_pull.py",
        lambda repo: ["--nodes", "50", "--changed", "5", "--runs", "1"],
        (
            Figure(
                "facts pull, 50 nodes, HTTP",
                rf"first pull over HTTP: \d+ nodes, median {NUM} s(?s:.*?)curl of the whole "
                rf"inventory in one request: median {PEER} s",
                "s",
                "curl",
            ),
        ),
        needs=needs_puppetdb,
        puppetdb=True,
    ),
    "fuzz": Bench(
        "fuzz.py",
        lambda repo: ["--inputs", "100", "--chunk", "50"],
        (Figure("inputs, none crashed", rf"== {NUM} inputs", "inputs"),),
    ),
}


def run_one(name: str, bench: Bench, repo: Path, outcome: Outcome) -> None:
    why_not = bench.needs()
    load = os.getloadavg()[0]
    if why_not is not None:
        print(f"\n--- {name}: not run: {why_not}", flush=True)
        outcome.rows.append(Row(name, "-", "not run", "", why_not, 0.0, 0.0, load))
        return
    command = [sys.executable, str(HERE / bench.script), *bench.short(repo)]
    print(f"\n--- {name}: {' '.join(command[1:])} (load {load:.2f})", flush=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    try:
        done = subprocess.run(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=SAFETY_NET_S,
            check=False,
        )
        output, status = done.stdout, done.returncode
    except subprocess.TimeoutExpired as hung:
        output = hung.stdout if isinstance(hung.stdout, str) else ""
        status = None
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    for line in output.splitlines():
        print(f"    {line}")
    if status is None:
        outcome.failures.append(f"{name}: still running after {SAFETY_NET_S:.0f} s (hung?)")
        return
    if status != 0:
        outcome.failures.append(f"{name}: exited with status {status}")
        return
    for figure in bench.figures:
        found = re.search(figure.pattern, output)
        if found is None:
            outcome.failures.append(f"{name}: no '{figure.label}' in its output")
            continue
        groups = found.groupdict()
        peer = ""
        if figure.peer_name:
            got = groups.get("peer")
            if not PEERS[figure.peer_name]():
                peer = f"{figure.peer_name}: {PEER_ABSENT}"
            elif groups.get("failed"):
                peer = f"{figure.peer_name}: failed (its output says why)"
            elif got and got != "-":
                peer = f"{figure.peer_name}: {got}"
            else:
                peer = f"{figure.peer_name}: -"
        outcome.rows.append(
            Row(name, figure.label, groups["value"], figure.unit, peer, wall, cpu, load)
        )


def table(rows: list[Row]) -> str:
    head = ("bench", "figure", "value", "unit", "peer, same run", "wall s", "CPU s", "load")
    cells = [
        (
            r.bench,
            r.figure,
            r.value,
            r.unit,
            r.peer,
            f"{r.wall_s:.1f}",
            f"{r.cpu_s:.1f}",
            f"{r.load:.2f}",
        )
        for r in rows
    ]
    widths = [max(len(c[i]) for c in [head, *cells]) for i in range(len(head))]
    lines = ["  ".join(h.ljust(w) for h, w in zip(head, widths, strict=True))]
    lines += ["  ".join(c.ljust(w) for c, w in zip(cell, widths, strict=True)) for cell in cells]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument(
        "--short", action="store_true", required=True, help="small inputs: seconds per bench"
    )
    parser.add_argument("--only", default="", help="comma-separated bench names")
    parser.add_argument(
        "--puppetdb", action="store_true", help="the benches that start a PuppetDB too"
    )
    args = parser.parse_args()
    chosen = [n for n in args.only.split(",") if n] or [
        name for name, bench in BENCHES.items() if args.puppetdb or not bench.puppetdb
    ]
    unknown = [n for n in chosen if n not in BENCHES]
    if unknown:
        parser.error(f"no bench named {', '.join(unknown)}; there are {', '.join(BENCHES)}")
    outcome = Outcome()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="hiera-ls-run-all-") as tmp:
        repo = Path(str(generate(Path(tmp), nodes=100)["env"]))
        for name in chosen:
            run_one(name, BENCHES[name], repo, outcome)
    print(
        f"\n== benches, short runs, {os.cpu_count()} cores, "
        f"{time.perf_counter() - started:.0f} s in all; load now "
        + " ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    print(table(outcome.rows))
    for failure in outcome.failures:
        print(f"FAILED {failure}")
    return 1 if outcome.failures else 0


if __name__ == "__main__":
    sys.exit(main())
