"""Glob locations read files in the order Puppet's ``Pathname.glob`` gives them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.engine.envbuilder import make_env
from tests.oracle.puppet import PuppetOracle

HIERA = """\
version: 5
hierarchy:
  - name: Globbed
    glob: "{zz,a}/*.yaml"
"""
FILES = {
    "hiera.yaml": HIERA,
    "data/a/one.yaml": "k: from-a\nlist: [a]\n",
    "data/zz/one.yaml": "k: from-zz\nlist: [zz]\n",
}


def test_brace_alternatives_are_searched_in_written_order(tmp_path: Path) -> None:
    env = make_env(tmp_path, FILES)
    assert env.value("k") == "from-zz"  # not the alphabetically first file
    assert env.value("list", "unique") == ["zz", "a"]


@pytest.mark.puppet
def test_puppet_agrees(tmp_path: Path, puppet_oracle: PuppetOracle) -> None:
    env = make_env(tmp_path / "envs", FILES)
    answers = puppet_oracle.lookup_batch(
        {
            "environmentpath": str(tmp_path / "envs"),
            "environment": "production",
            "node": env.node,
            "facts": env.facts,
            "hiera_config": None,
            "lookups": [{"key": "k", "merge": None}, {"key": "list", "merge": "unique"}],
        }
    )
    assert answers == [
        {"found": True, "value": env.value("k")},
        {"found": True, "value": env.value("list", "unique")},
    ]
