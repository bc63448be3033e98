"""`hiera-ls facts pull` against a real PuppetDB 7.12.1 with a fleet of generated nodes.

    python bench/bench_facts_pull.py [--nodes 10000] [--changed 50] [--runs 3]

Starts PuppetDB on a scratch PostgreSQL (tests/puppetdb/service.py; run
.ci/puppetdb-setup.sh first), loads ``--nodes`` nodes through the command API (facts sized
like real ``facter -j`` output: tests/puppetdb/fleet.py), then prints, each as a user runs
it (a fresh ``hiera-ls`` process):

- the first pull into an empty directory, over HTTP and over TLS with a client certificate:
  wall time (median of ``--runs``), peak RSS, bytes written;
- beside it, the floor: ``curl`` fetching the same inventory in one request to a file;
- a re-pull with nothing changed, and one after ``--changed`` nodes changed in PuppetDB:
  wall time and which files were rewritten (by inode and modification time);
- the message and exit status of each failure a real PuppetDB can produce.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.puppetdb.fleet import changed, fleet  # noqa: E402
from tests.puppetdb.service import PuppetDB, free_port, running_puppetdb  # noqa: E402
from tests.puppetdb.tls import make_ca  # noqa: E402

HIERA_LS = [sys.executable, "-m", "hiera_ls"]


def timed(command: list[str]) -> tuple[float, int, subprocess.CompletedProcess[str]]:
    """Wall seconds, peak RSS (KiB, from GNU time) and the finished process."""
    started = time.monotonic()
    done = subprocess.run(
        ["/usr/bin/time", "-f", "%M", *command], capture_output=True, text=True, check=False
    )
    wall = time.monotonic() - started
    lines = [
        line
        for line in done.stderr.strip().splitlines()
        if not line.startswith("Command exited with non-zero status")
    ]
    rss = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    done.stderr = "\n".join(lines[:-1]) + ("\n" if len(lines) > 1 else "")
    return wall, rss, done


def stamps(directory: Path) -> dict[str, tuple[int, int]]:
    return {p.name: (p.stat().st_ino, p.stat().st_mtime_ns) for p in directory.iterdir()}


def size_of(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.iterdir())


def pull(
    pdb: PuppetDB, out: Path, *extra: str
) -> tuple[float, int, subprocess.CompletedProcess[str]]:
    return timed([*HIERA_LS, "facts", "pull", "--output", str(out), *extra])


def first_pulls(pdb: PuppetDB, work: Path, runs: int, tls: list[str]) -> None:
    for label, url, extra in (
        ("HTTP", pdb.http_url, []),
        ("TLS, client certificate", pdb.https_url, tls),
    ):
        walls, rsss = [], []
        for run in range(runs):
            out = work / f"first-{label[:3]}-{run}"
            wall, rss, done = pull(pdb, out, "--puppetdb", url, *extra)
            assert done.returncode == 0, done.stderr
            walls.append(wall)
            rsss.append(rss)
        files = len(os.listdir(out))
        print(
            f"first pull over {label}: {files} nodes, median {statistics.median(walls):.1f} s "
            f"(runs: {', '.join(f'{w:.1f}' for w in walls)}), peak RSS "
            f"{max(rsss) / 1024:.0f} MiB, {size_of(out) / 1e6:.0f} MB written"
        )
        print(f"    stdout: {done.stdout.splitlines()[0]}")
    curl_walls = []
    for _ in range(runs):
        target = work / "curl.json"
        wall, _, done = timed(
            [
                "curl",
                "-sS",
                "--compressed",
                "-o",
                str(target),
                f"{pdb.http_url}/pdb/query/v4/inventory",
            ]
        )
        assert done.returncode == 0, done.stderr
        curl_walls.append(wall)
    print(
        f"peer, curl of the whole inventory in one request: median "
        f"{statistics.median(curl_walls):.1f} s, {target.stat().st_size / 1e6:.0f} MB of JSON"
    )


def repulls(pdb: PuppetDB, work: Path, nodes: int, changed_count: int) -> None:
    out = work / "repull"
    _, _, done = pull(pdb, out, "--puppetdb", pdb.http_url)
    assert done.returncode == 0, done.stderr
    before = stamps(out)
    wall, rss, done = pull(pdb, out, "--puppetdb", pdb.http_url)
    assert stamps(out) == before
    print(
        f"re-pull, nothing changed: {wall:.1f} s, peak RSS {rss / 1024:.0f} MiB; "
        f"{done.stdout.splitlines()[-1]}"
    )
    step = max(1, nodes // changed_count)
    updated = [changed(n) for n in fleet(nodes)][::step][:changed_count]
    started = time.monotonic()
    pdb.replace_facts((n.certname, n.values) for n in updated)
    print(f"changed {len(updated)} nodes in PuppetDB ({time.monotonic() - started:.1f} s)")
    wall, rss, done = pull(pdb, out, "--puppetdb", pdb.http_url)
    after = stamps(out)
    rewritten = sorted(name for name in after if after[name] != before.get(name))
    expected = sorted(f"{n.certname}.json" for n in updated)
    print(
        f"re-pull after the change: {wall:.1f} s, peak RSS {rss / 1024:.0f} MiB; "
        f"{done.stdout.splitlines()[0]}"
    )
    print(
        f"    files rewritten: {len(rewritten)} (the changed nodes exactly: "
        f"{rewritten == expected}); files kept with their inode and mtime: "
        f"{sum(1 for k in after if after[k] == before.get(k))}"
    )


def faults(pdb: PuppetDB, work: Path) -> None:
    assert pdb.ca is not None and pdb.client is not None and pdb.stranger is not None
    http_port = pdb.http_url.rsplit(":", 1)[1]
    tls_port = pdb.https_url.rsplit(":", 1)[1]
    other = make_ca(str(work / "other-ca"), "another CA")
    client = ["--cert", pdb.client.cert, "--key", pdb.client.key]
    cases = {
        "no client certificate": ["--puppetdb", pdb.https_url, "--cacert", pdb.ca.ca],
        "PuppetDB's certificate from another CA": [
            "--puppetdb",
            pdb.https_url,
            "--cacert",
            other.ca,
            *client,
        ],
        "a client certificate not on the allowlist": [
            "--puppetdb",
            pdb.https_url,
            "--cacert",
            pdb.ca.ca,
            "--cert",
            pdb.stranger.cert,
            "--key",
            pdb.stranger.key,
        ],
        "https:// to the HTTP port": ["--puppetdb", f"https://127.0.0.1:{http_port}"],
        "http:// to the TLS port": ["--puppetdb", f"http://127.0.0.1:{tls_port}"],
        "PuppetDB down": ["--puppetdb", f"http://127.0.0.1:{free_port()}"],
        "a PQL syntax error": [
            "--puppetdb",
            pdb.http_url,
            "--query",
            "inventory[certname] { facts.os.family = }",
        ],
        "a time limit PuppetDB cannot meet": ["--puppetdb", pdb.http_url, "--timeout", "0.05"],
    }
    for case, args in cases.items():
        out = work / "faults"
        wall, _, done = pull(pdb, out, *args)
        print(f"{case}: exit {done.returncode} in {wall:.1f} s")
        for line in done.stderr.splitlines():
            print(f"    {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=10_000)
    parser.add_argument("--changed", type=int, default=50)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="hiera-ls-bench-pull-") as tmp:
        work = Path(tmp)
        started = time.monotonic()
        with running_puppetdb(heap="1g", quick_start=False) as pdb:
            print(f"PuppetDB answered after {pdb.started_in:.1f} s")
            loading = time.monotonic()
            pdb.replace_facts((n.certname, n.values) for n in fleet(args.nodes))
            took = time.monotonic() - loading
            print(
                f"loaded {pdb.inventory_count()} nodes through replace_facts in {took:.0f} s "
                f"({args.nodes / took:.0f} nodes/s)"
            )
            assert pdb.ca is not None and pdb.client is not None
            tls = ["--cacert", pdb.ca.ca, "--cert", pdb.client.cert, "--key", pdb.client.key]
            first_pulls(pdb, work, args.runs, tls)
            repulls(pdb, work, args.nodes, args.changed)
            faults(pdb, work)
        print(f"(the whole bench: {time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    main()
