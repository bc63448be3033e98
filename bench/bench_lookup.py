"""Per-lookup cost of hiera-ls against Puppet's engine, and cold start of `hiera-ls lookup`.

Run: python bench/bench_lookup.py [--nodes 1000] [--rounds 3] [--cold-runs 7] [--hyera PATH]
Both engines run in one warm process over the same generated environment (1,000+ data
files); each reads and parses files once (warm-up), then every key is timed separately.
Reported: medians and p95 per lookup, their ratio, and cold-start medians of the CLIs
(hiera-ls, hyera, puppet lookup), wall and CPU time (the process's, user and system: on a
shared machine the wall time also waits for a core), on the generated environment and on
the shipped example (examples/control-repo, the size of the issue's target), the runs of
the CLIs interleaved. Numbers vary with machine load: compare ratios taken in the same run,
not absolute times across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from gen_repo import generate

from hiera_ls.engine.lookup import LookupSession
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.facts import node_scope
from hiera_ls.source.files import FileAccess


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, round(p / 100 * (len(s) - 1)))]


def bench_hiera_ls(repo: dict[str, object], rounds: int) -> list[float]:
    files = FileAccess()
    facts = json.loads(Path(str(repo["facts"])).read_text())
    env = environment_at(
        str(repo["env"]), "production", None, files, module_dirs=ModuleDirs.MODULEPATH
    )
    session = LookupSession(env, node_scope(facts, str(repo["node"]), "production"), files)
    keys = list(repo["keys"])  # type: ignore[call-overload]
    for k in keys:
        session.lookup(k)
    times = []
    for _ in range(rounds):
        for k in keys:
            t0 = time.perf_counter()
            session.lookup(k)
            times.append(time.perf_counter() - t0)
    return times


def bench_puppet(repo: dict[str, object], rounds: int, tmp: Path) -> list[float] | None:
    if shutil.which("ruby") is None or shutil.which("puppet") is None:
        return None
    keys_path = tmp / "keys.json"
    keys_path.write_text(json.dumps(repo["keys"]))
    envpath = str(Path(str(repo["env"])).parent)
    out = subprocess.run(
        [
            "ruby",
            str(Path(__file__).with_name("puppet_bench.rb")),
            envpath,
            "production",
            str(repo["node"]),
            str(repo["facts"]),
            str(keys_path),
            str(rounds),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return list(json.loads(out.stdout.strip().splitlines()[-1])["per_lookup_s"])


def _timed(cmd: list[str], cwd: str) -> tuple[float, float, str | None]:
    """Wall and CPU seconds of one run of ``cmd`` (its own rusage, children included), and
    why it failed (its exit status and last line of stderr) where it did: a peer that stops
    at once with an error would otherwise look fast."""
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped above
        failure = None
        if proc.returncode != 0:
            err.seek(0)
            lines = err.read().decode(errors="replace").strip().splitlines()
            failure = f"exit {proc.returncode}: {lines[-1] if lines else 'no message'}"
    return wall, usage.ru_utime + usage.ru_stime, failure


def cold_starts(
    commands: dict[str, list[str]], cwd: str, runs: dict[str, int]
) -> dict[str, tuple[float, float] | str | None]:
    """Median wall and CPU seconds of each command, run in turn (``runs`` times each); None
    for one not installed, why it failed for one that failed (it runs no more)."""
    present = {
        name: cmd
        for name, cmd in commands.items()
        if shutil.which(cmd[0]) is not None or os.path.exists(cmd[0])
    }
    walls: dict[str, list[float]] = {name: [] for name in present}
    cpus: dict[str, list[float]] = {name: [] for name in present}
    failed: dict[str, str] = {}
    for i in range(max(runs.values(), default=0)):
        for name, cmd in present.items():
            if i < runs[name] and name not in failed:
                wall, cpu, failure = _timed(cmd, cwd)
                if failure is not None:
                    failed[name] = failure
                walls[name].append(wall)
                cpus[name].append(cpu)
    return {
        name: failed.get(name) or (statistics.median(walls[name]), statistics.median(cpus[name]))
        if name in present
        else None
        for name in commands
    }


def print_cold(results: dict[str, tuple[float, float] | str | None], where: str = "") -> None:
    for name, t in results.items():
        if t is None:
            shown = "not installed"
        elif isinstance(t, str):
            shown = f"failed ({t})"
        else:
            shown = f"median {t[0]:.3f} s (CPU {t[1]:.3f} s)"
        print(f"cold start {name}{where}: {shown}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--nodes", type=int, default=1000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cold-runs", type=int, default=7)
    ap.add_argument(
        "--hyera",
        default=os.environ.get("HYERA")
        or shutil.which("hyera")
        or str(Path(sys.executable).with_name("hyera")),
        help="the peer's command (default: $HYERA, else hyera on PATH or beside this Python)",
    )
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        repo = generate(tmp / "envs", nodes=args.nodes)
        nfiles = sum(1 for _ in Path(str(repo["env"])).rglob("*.yaml"))
        print(f"environment: {nfiles} YAML files, {len(repo['keys'])} keys, node {repo['node']}")  # type: ignore[arg-type]
        ours = bench_hiera_ls(repo, args.rounds)
        print(
            f"hiera-ls per lookup: median {statistics.median(ours) * 1e3:.3f} ms, p95 "
            f"{pct(ours, 95) * 1e3:.3f} ms ({len(ours)} lookups)"
        )
        theirs = bench_puppet(repo, args.rounds, tmp)
        if theirs:
            print(
                f"Puppet   per lookup: median {statistics.median(theirs) * 1e3:.3f} ms, p95 "
                f"{pct(theirs, 95) * 1e3:.3f} ms ({len(theirs)} lookups)"
            )
            print(
                "ratio Puppet/hiera-ls (median): "
                f"{statistics.median(theirs) / statistics.median(ours):.2f}x"
            )
        # An installed package has its bytecode compiled; an editable checkout on a machine
        # with PYTHONDONTWRITEBYTECODE would otherwise compile every module on every start.
        import compileall

        import hiera_ls

        compileall.compile_dir(str(Path(hiera_ls.__file__).parent), quiet=1)
        key = "profile::p3::setting1"
        hl = str(Path(sys.executable).with_name("hiera-ls"))
        env_dir = str(repo["env"])
        facts = str(repo["facts"])
        node = str(repo["node"])
        commands = {
            "hiera-ls lookup": [hl, "lookup", key, "--node", node, "--facts", facts],
            "hyera": [
                args.hyera,
                key,
                "--node",
                node,
                "--facts",
                facts,
                "--hiera_config",
                os.path.join(env_dir, "hiera.yaml"),
            ],
            "puppet lookup": [
                "puppet",
                "lookup",
                key,
                "--node",
                node,
                "--facts",
                facts,
                "--environmentpath",
                str(Path(env_dir).parent),
                "--environment",
                "production",
            ],
        }
        runs = dict.fromkeys(commands, args.cold_runs)
        runs["puppet lookup"] = max(1, (args.cold_runs + 1) // 2)  # Puppet starts in seconds
        print_cold(cold_starts(commands, env_dir, runs))
        # the shipped example, the target: hiera-ls and hyera only
        example = Path(__file__).resolve().parents[1] / "examples" / "control-repo"
        facts_file = ".hiera-ls/facts/db01.json"
        example_key = "profile::base::users"  # a deep merge with a knockout prefix
        node_args = ["--node", "db01.example.com", "--facts", facts_file]
        on_example = {
            "hiera-ls lookup": [hl, "lookup", example_key, *node_args],
            "hyera": [args.hyera, example_key, *node_args, "--hiera_config", "hiera.yaml"],
        }
        if example.is_dir():
            shown = cold_starts(on_example, str(example), dict.fromkeys(on_example, args.cold_runs))
            print_cold(shown, " (examples/control-repo)")


if __name__ == "__main__":
    main()
