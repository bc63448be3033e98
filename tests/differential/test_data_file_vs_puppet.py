"""A data file's per-key errors are the errors Puppet's lookup of each key raises."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.source.data_file import load_yaml_data
from tests.oracle.puppet import PuppetOracle

pytestmark = pytest.mark.puppet


def test_key_errors_match_puppet_lookup(tmp_path: Path, puppet_oracle: PuppetOracle) -> None:
    """Puppet itself, looking every key up in a file full of poisoned values."""
    env = tmp_path / "production"
    (env / "data").mkdir(parents=True)
    (env / "hiera.yaml").write_text("version: 5\nhierarchy:\n  - name: c\n    path: c.yaml\n")
    text = (
        "a: :sym\nb: [1, {true: 2}]\nc: !ruby/sym default\nd:\n  x: [a, !ruby/sym s]\ne: {~: 1}\n"
        "f:\n  - [1]\n  - - :s\ng:\n  k:\n    1: :v\nh: fine\n:i:\n  :j: 1\nk:\n  - 1.5\n  - :s\n"
        "  - {}\n"
    )
    path = env / "data" / "c.yaml"
    path.write_text(text)
    keys = ["a", "b", "d", "e", "f", "g", "h", "i", "k"]
    results = puppet_oracle.lookup_batch(
        {
            "environmentpath": str(tmp_path),
            "environment": "production",
            "node": "n",
            "facts": {},
            "hiera_config": None,
            "strict_variables": True,
            "lookups": [{"key": k, "merge": None} for k in keys],
        }
    )
    df = load_yaml_data(str(path), text)
    assert df.error is None
    for key, result in zip(keys, results, strict=True):
        if "error" in result:
            assert key in df.key_errors and df.key_errors[key].plain == result["error"], key
        else:
            assert key not in df.key_errors, key
