"""A fact path no facts profile has, beside a name every profile has: a misspelt fact, which
interpolates to '' without a word (#23 item 9)."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.checks.fixes import fixes_for
from hiera_ls.checks.rules import RULES
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.workspace import Workspace
from hiera_ls.report.run import run_check
from hiera_ls.source.text_edits import apply_edits

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: Host
    path: "hosts/%{facts.networking.hostnme}.yaml"
  - name: Common
    path: common.yaml
"""
COMMON = """\
home: "/home/%{facts.networking.hostnme}"
right: "%{facts.networking.hostname} %{::facts.os.family}"
custom: "%{facts.datacenter}"
some: "%{facts.rack}"
top: "%{facts.osfamly}"
'%{facts.networking.domian}': key
indexed: "%{facts.processors.models.0}"
"""
FACTS = {
    "web01": "networking: {hostname: web01, domain: example.com}\nos: {family: Debian}\n"
    "osfamily: Debian\nrack: r1\nprocessors: {models: [x]}\n",
    "db01": "networking: {hostname: db01, domain: example.com}\nos: {family: RedHat}\n"
    "osfamily: RedHat\nprocessors: {models: [y]}\n",
}


def repository(root: Path, profiles: bool = True) -> None:
    files = {"hiera.yaml": HIERA, "data/common.yaml": COMMON}
    if profiles:
        files.update({f".hiera-ls/facts/{n}.yaml": t for n, t in FACTS.items()})
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


def unknown(root: Path) -> list[str]:
    result = run_check([str(root)])
    return [
        f"{Path(f.path).name}:{f.span.start.line + 1}:{f.span.start.column + 1} {f.message}"
        for f in result.findings
        if f.code == "interpolation-unknown-fact"
    ]


def test_a_misspelt_fact_is_reported_with_what_every_profile_has(tmp_path: Path) -> None:
    repository(tmp_path)
    assert unknown(tmp_path) == [
        "common.yaml:1:14 No facts profile has the fact facts.networking.hostnme (2 profiles), "
        "while every one has facts.networking.hostname: did you mean "
        "facts.networking.hostname? A fact that does not exist interpolates to '' without a "
        "word",
        "common.yaml:6:2 No facts profile has the fact facts.networking.domian (2 profiles), "
        "while every one has facts.networking.domain: did you mean facts.networking.domain? "
        "A fact that does not exist interpolates to '' without a word",
        "hiera.yaml:7:18 No facts profile has the fact facts.networking.hostnme (2 profiles), "
        "while every one has facts.networking.hostname: did you mean "
        "facts.networking.hostname? A fact that does not exist interpolates to '' without a "
        "word",
    ]
    # not: a fact they all have, a top-level fact (custom, legacy: osfamly is near osfamily,
    # but profiles written by `puppet facts show` lack the legacy facts), one some have, an
    # index into an array


def test_without_profiles_nothing_is_said(tmp_path: Path) -> None:
    repository(tmp_path, profiles=False)
    assert unknown(tmp_path) == []


def test_the_quick_fix_writes_the_near_name(tmp_path: Path) -> None:
    repository(tmp_path)
    snapshot = Workspace([str(tmp_path)]).snapshot()
    problems = Diagnostics().file_problems(snapshot, str(tmp_path / "data" / "common.yaml"))
    first = next(p for p in problems if p.code == "interpolation-unknown-fact")
    fixes = [f for f in fixes_for(first, COMMON) if not f.title.startswith("Disable")]
    assert RULES[first.code].fix_safe is False  # it changes the value
    assert [f.title for f in fixes] == ["Write facts.networking.hostname"]
    assert apply_edits(COMMON, fixes[0].edits).splitlines()[0] == (
        'home: "/home/%{facts.networking.hostname}"'
    )
