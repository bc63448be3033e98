"""`hiera-ls check` on Wikimedia's operations/puppet with 1 and 100 facts profiles.

    python bench/bench_check_wikimedia.py --repo CLONE [--profiles 1,100] [--runs 3]
                                          [--base SERVER_DIR] [--short]

CLONE is a clone of Wikimedia's operations/puppet (``git clone
https://gerrit.wikimedia.org/r/operations/puppet``; the figures in bench/README.md are of
commit d3590882967); ``--repo`` defaults to ``$WIKIMEDIA_PUPPET``.  Its files are linked into
a temporary directory (never written), with the facts profiles and a ``.hiera-ls.yaml`` that
says its nodes run Puppet 7 (its hiera.yaml reads legacy facts, ``%{::fqdn}``, which Puppet 8
agents no longer send) and maps its ``wmflib::expand_path`` levels to hiera-ls'
``expand_path`` reader (as docs/commands.md tells its users); the check reads its global hiera.yaml
(``--hiera-config rake_modules/hiera.yaml``).

The profiles are real hosts: the host files of ``hieradata/hosts`` in name order, each host's
site from its number (1xxx eqiad, 2xxx codfw, ... as Wikimedia numbers them), its role from
the first node definition of ``manifests/site.pp`` that matches its fqdn (``role(a::b)``
gives ``_role`` ``a/b``, as Wikimedia's ``role()`` sets it), the facts its data interpolates
(``ipaddress``, ``networking``, ``puppet_config``...) made from the name; ``--profiles N``
takes N of them spread evenly over that order (deterministic: the same N, the same hosts).

Each `hiera-ls check --format json` is a fresh process: wall and CPU time (user + system),
medians of ``--runs``; ``--base DIR``: another checkout's ``server`` directory timed in the
same run, interleaved, and whether the two reports are the same.  ``--short``: 1 and 2
profiles, one run (the runner's; without a clone the runner says it did not run).
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import re
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_check_profiles import check_once

HIERA_CONFIG = "rake_modules/hiera.yaml"
# Puppet 7, as Wikimedia ran at that commit: its hiera.yaml reads legacy facts (``::fqdn``)
SETTINGS = "target: puppet7\nbackends:\n  wmflib::expand_path: expand_path\n"
SITES = {"1": "eqiad", "2": "codfw", "3": "esams", "4": "ulsfo", "5": "eqsin", "6": "drmrs"}
SITES["7"] = "magru"
NETWORKS = {"eqiad": 64, "codfw": 192, "esams": 80, "ulsfo": 128, "eqsin": 132, "drmrs": 136}
NETWORKS["magru"] = 140
_NODE = re.compile(r"^node\s+(.*?)\s*\{", re.M)
_NAME = re.compile(r"""/((?:[^/\\]|\\.)*)/|'([^']*)'|"([^"]*)\"""")
_ROLE = re.compile(r"\brole\(\s*([\w:]+)")
_NUMBER = re.compile(r"(\d)\d{3}$")


def node_roles(site_pp: str) -> list[tuple[re.Pattern[str] | str, str]]:
    """(name or pattern, role) of each node definition of site.pp that sets a role."""
    out: list[tuple[re.Pattern[str] | str, str]] = []
    heads = list(_NODE.finditer(site_pp))
    for i, head in enumerate(heads):
        body = site_pp[head.end() : heads[i + 1].start() if i + 1 < len(heads) else None]
        role = _ROLE.search(body)
        if role is None:
            continue
        for name in _NAME.finditer(head.group(1)):
            if name.group(1) is not None:
                try:
                    out.append((re.compile(name.group(1)), role.group(1)))
                except re.error:
                    continue  # Ruby's regex syntax Python lacks: that definition is left out
            else:
                out.append((name.group(2) or name.group(3) or "", role.group(1)))
    return out


def hosts(repo: Path) -> list[dict[str, object]]:
    """Every host of ``hieradata/hosts`` whose site and role can be told, in name order,
    as facts."""
    roles = node_roles((repo / "manifests" / "site.pp").read_text(encoding="utf-8"))
    out: list[dict[str, object]] = []
    for path in sorted((repo / "hieradata" / "hosts").glob("*.yaml")):
        host = path.stem
        number = _NUMBER.search(host)
        site = SITES.get(number.group(1)) if number else None
        if site is None:
            continue
        fqdn = f"{host}.{site}.wmnet"
        role = next(
            (
                r
                for name, r in roles
                if (name.search(fqdn) if isinstance(name, re.Pattern) else name == fqdn)
            ),
            None,
        )
        if role is not None:
            out.append(_facts(host, site, fqdn, role, len(out)))
    return out


def _facts(host: str, site: str, fqdn: str, role: str, n: int) -> dict[str, object]:
    ip = f"10.{NETWORKS[site]}.{n // 250}.{n % 250 + 2}"
    ip6 = f"2620:0:860:{NETWORKS[site]:x}:10:{NETWORKS[site]}:{n // 250}:{n % 250 + 2}"
    release = ("12", "bookworm") if n % 3 else ("11", "bullseye")
    ssl = "/var/lib/puppet/ssl"
    return {
        "clientcert": fqdn,
        "hostname": host,
        "fqdn": fqdn,
        "domain": f"{site}.wmnet",
        "site": site,
        "_role": role.replace("::", "/"),
        "ipaddress": ip,
        "ipaddress6": ip6,
        "networking": {
            "hostname": host,
            "fqdn": fqdn,
            "domain": f"{site}.wmnet",
            "ip": ip,
            "ip6": ip6,
        },
        "os": {
            "family": "Debian",
            "name": "Debian",
            "release": {"major": release[0], "full": f"{release[0]}.8"},
            "distro": {"codename": release[1]},
        },
        "puppet_config": {
            "localcacert": f"{ssl}/certs/ca.pem",
            "hostcert": f"{ssl}/certs/{fqdn}.pem",
            "hostprivkey": f"{ssl}/private_keys/{fqdn}.pem",
        },
    }


def spread(items: list[dict[str, object]], count: int) -> list[dict[str, object]]:
    """``count`` of ``items`` evenly spaced (the first always)."""
    if count >= len(items):
        return items
    return [items[i * len(items) // count] for i in range(count)]


def repository(repo: Path, root: Path, profiles: list[dict[str, object]]) -> Path:
    """The clone's files linked under ``root`` (copied where a link cannot be made), with
    the profiles and the settings."""

    def link(source: str, target: str) -> None:
        try:
            os.link(source, target)
        except OSError:
            shutil.copy2(source, target)

    shutil.copytree(repo, root, ignore=shutil.ignore_patterns(".git"), copy_function=link)
    facts = root / ".hiera-ls" / "facts"
    facts.mkdir(parents=True, exist_ok=True)
    for profile in profiles:
        (facts / f"{profile['fqdn']}.json").write_text(json.dumps(profile), encoding="utf-8")
    (root / ".hiera-ls.yaml").write_text(SETTINGS, encoding="utf-8")
    return root


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", default=os.environ.get("WIKIMEDIA_PUPPET"))
    parser.add_argument("--profiles", default="1,100")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--base", help="a baseline checkout's server directory")
    parser.add_argument("--short", action="store_true")
    args = parser.parse_args()
    if not args.repo or not (Path(args.repo) / "hieradata" / "hosts").is_dir():
        raise SystemExit("give --repo (or $WIKIMEDIA_PUPPET): a clone of operations/puppet")
    if args.short:
        args.profiles, args.runs = "1,2", 1
    repo = Path(args.repo).resolve()
    every = hosts(repo)
    sides: list[tuple[str, str | None]] = [("this", None)]
    if args.base:
        sides.append(("base", str(Path(args.base).resolve())))
    more = ["--hiera-config", HIERA_CONFIG]
    with tempfile.TemporaryDirectory() as tmp:
        for count in (int(n) for n in args.profiles.split(",") if n):
            chosen = spread(every, count)
            root = repository(repo, Path(tmp) / f"wm{count}", chosen)
            walls: dict[str, list[float]] = {name: [] for name, _ in sides}
            cpus: dict[str, list[float]] = {name: [] for name, _ in sides}
            for _ in range(args.runs):
                for name, server in sides:  # interleaved: the machine's load hits both alike
                    output = Path(tmp) / f"{name}.json"
                    wall, cpu = check_once(root, server, output, more)
                    walls[name].append(wall)
                    cpus[name].append(cpu)
            for name, _ in sides:
                report = json.loads((Path(tmp) / f"{name}.json").read_text())
                print(
                    f"{name}: check, Wikimedia, {len(chosen)} profiles: median "
                    f"{statistics.median(walls[name]):.2f} s wall, "
                    f"{statistics.median(cpus[name]):.2f} s CPU over {args.runs} runs "
                    f"(walls {', '.join(f'{w:.2f}' for w in walls[name])}; CPU "
                    f"{', '.join(f'{c:.2f}' for c in cpus[name])}; "
                    f"{len(report.get('findings', report))} findings)"
                )
            if args.base:
                same = filecmp.cmp(Path(tmp) / "this.json", Path(tmp) / "base.json", False)
                print(f"  reports {'identical' if same else 'DIFFER'}")
            print(f"  load average: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            shutil.rmtree(root)


if __name__ == "__main__":
    main()
