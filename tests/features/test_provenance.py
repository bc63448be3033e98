"""Where the merge strategy was set: the hover must name the lookup_options entry Puppet uses.

Two patterns matching one key in two levels: Puppet iterates the merged lookup_options
hash with the lower level's keys first, so the *lower* level's pattern wins (a quirk
checked on Puppet 7.23).  The value Puppet returns shows which strategy ran, so the oracle
settles it.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from hiera_ls.features.hover import key_hover
from hiera_ls.features.provenance import definitions, option_entries, resolve
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace

HIERA = """\
version: 5
hierarchy:
  - name: Node
    path: "nodes/%{trusted.certname}.yaml"
  - name: Common
    path: common.yaml
"""
NODE = """\
lookup_options:
  "^profile::x":
    merge: first
  profile::lit:
    merge: unique
profile::x: [b]
profile::lit: [n]
profile::regex_only: [n]
"""
COMMON = """\
lookup_options:
  "^profile::":
    merge: unique
profile::x: [a]
profile::lit: [c]
profile::regex_only: [c]
"""
FACTS = "clientcert: web01\n"


def write_repo(tmp_path: Path) -> Path:
    """The environment both levels' lookup_options live in (also asked of Puppet)."""
    root = tmp_path / "envs" / "production"
    for rel, text in {
        "hiera.yaml": HIERA,
        "data/nodes/web01.yaml": NODE,
        "data/common.yaml": COMMON,
        ".hiera-ls/facts/web01.yaml": FACTS,
    }.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    return root


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return write_repo(tmp_path)


def test_the_lower_levels_pattern_wins_and_the_hover_says_so(repo: Path) -> None:
    snap = Workspace([str(repo)], Settings(facts_profile="web01")).snapshot()
    view = snap.environments[0]
    res = resolve(snap, view, "profile::x", "profile::x")
    assert res.outcome.value == ["b", "a"]  # unique: the common pattern ran
    assert res.strategy is not None and res.strategy.name == "unique"
    assert res.option_source is not None
    assert res.option_source.pattern == "^profile::"
    assert res.option_source.where is not None and res.option_source.where.path.endswith(
        "data/common.yaml"
    )
    assert res.option_source.where.span.start.line == 1
    text = key_hover(snap, view, "profile::x", ("profile::x",), here=None)
    assert "set by lookup_options `^profile::` in [data/common.yaml:2]" in text


def test_a_literal_key_beats_every_pattern(repo: Path) -> None:
    snap = Workspace([str(repo)], Settings(facts_profile="web01")).snapshot()
    view = snap.environments[0]
    res = resolve(snap, view, "profile::lit", "profile::lit")
    assert res.option_source is not None and res.option_source.pattern == "profile::lit"
    assert res.option_source.where is not None and res.option_source.where.path.endswith(
        "nodes/web01.yaml"
    )


def test_without_a_profile_every_matching_entry_and_definition_is_listed(repo: Path) -> None:
    snap = Workspace([str(repo)]).snapshot()
    view = snap.environments[0]
    entries = [
        (e.pattern, Path(e.where.path).name) for e in option_entries(snap, view, "profile::x")
    ]
    assert entries == [("^profile::x", "web01.yaml"), ("^profile::", "common.yaml")]
    defs = [
        (d.level.entry.name, Path(d.where.path).name, d.where.span.start.line)
        for d in definitions(snap, view, ("profile::x",))
    ]
    assert defs == [("Node", "web01.yaml", 5), ("Common", "common.yaml", 3)]
