"""Which lookup_options pattern sets a key's merge: the value Puppet returns settles it.

The environment is tests/features/test_provenance.py's (two patterns in two levels match one
key); our resolved value must be Puppet's for every key, so the same strategy ran.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.features.provenance import resolve
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from tests.features.test_provenance import write_repo
from tests.oracle.puppet import PuppetOracle

pytestmark = pytest.mark.puppet


def test_puppet_agrees_on_which_strategy_ran(tmp_path: Path, puppet_oracle: PuppetOracle) -> None:
    repo = write_repo(tmp_path)
    snap = Workspace([str(repo)], Settings(facts_profile="web01")).snapshot()
    view = snap.environments[0]
    keys = ["profile::x", "profile::lit", "profile::regex_only"]
    answers = puppet_oracle.lookup_batch(
        {
            "environmentpath": str(repo.parent),
            "environment": "production",
            "node": "web01",
            "facts": {"clientcert": "web01"},
            "lookups": [{"key": k, "merge": None} for k in keys],
        }
    )
    for key, answer in zip(keys, answers, strict=True):
        res = resolve(snap, view, key, key)
        assert res.outcome.value == answer["value"], key
