"""One oracle process serves many requests; none may see what an earlier one saw.

Puppet caches environments, parsed hiera.yaml files and data files (keyed by inode, mtime and
size), and the lookup_options of a compilation.  A test that edits a file between two
requests must get the edited answer, and two lookups in one request must each get the answer
a separate `puppet lookup` run would give.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.oracle.puppet import PuppetOracle

HIERA = "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"


def _request(base: Path, lookups: list[str], hiera_config: Path | None = None) -> dict[str, Any]:
    return {
        "environmentpath": str(base / "envs"),
        "environment": "production",
        "node": "n1.example.com",
        "facts": {
            "hostname": "n1",
            "domain": "example.com",
            "fqdn": "n1.example.com",
            "clientcert": "n1.example.com",
        },
        "hiera_config": str(hiera_config) if hiera_config else None,
        "lookups": [{"key": k, "merge": None} for k in lookups],
    }


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.puppet
def test_edits_between_requests_are_seen(tmp_path: Path, puppet_oracle: PuppetOracle) -> None:
    env = tmp_path / "envs" / "production"
    _write(env / "hiera.yaml", HIERA)
    _write(env / "data" / "common.yaml", "a: 1\n")
    assert puppet_oracle.lookup_batch(_request(tmp_path, ["a"])) == [{"found": True, "value": 1}]
    _write(env / "data" / "common.yaml", "a: 2\n")  # same size, likely the same mtime second
    assert puppet_oracle.lookup_batch(_request(tmp_path, ["a"])) == [{"found": True, "value": 2}]
    _write(env / "hiera.yaml", HIERA.replace("common.yaml", "other.yaml"))
    _write(env / "data" / "other.yaml", "a: other\n")
    assert puppet_oracle.lookup_batch(_request(tmp_path, ["a"])) == [
        {"found": True, "value": "other"}
    ]


@pytest.mark.puppet
def test_each_key_is_looked_up_as_if_alone(tmp_path: Path, puppet_oracle: PuppetOracle) -> None:
    # Puppet remembers a failed read of the global lookup_options for the rest of a
    # compilation; `puppet lookup KEY` never sees that, so neither may the second key here.
    env = tmp_path / "envs" / "production"
    _write(env / "hiera.yaml", HIERA)
    _write(env / "data" / "common.yaml", "a: 1\n")
    _write(tmp_path / "global" / "hiera.yaml", HIERA)
    _write(tmp_path / "global" / "data" / "common.yaml", "lookup_options: [not, a, hash]\n")
    answers = puppet_oracle.lookup_batch(
        _request(tmp_path, ["a", "a"], tmp_path / "global" / "hiera.yaml")
    )
    assert [a.get("error") for a in answers] == ["value of lookup_options must be a hash"] * 2


@pytest.mark.puppet
def test_without_a_global_config_the_global_layer_is_empty(
    tmp_path: Path, puppet_oracle: PuppetOracle
) -> None:
    env = tmp_path / "envs" / "production"
    _write(env / "hiera.yaml", HIERA)
    _write(env / "data" / "common.yaml", "a: env\n")
    assert puppet_oracle.lookup_batch(_request(tmp_path, ["a", "b"])) == [
        {"found": True, "value": "env"},
        {"found": False},
    ]
