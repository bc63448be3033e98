"""A small repository with one finding of each kind the reports must handle."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.report.diff_fixture import Planted, planted_repo

SECRETS = ("S3cr3t-Port-Value", "S3cr3t-Creds-Value", "Json-Value", "S3cr3tFloat")

HIERA = """\
---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: common
    path: common.yaml
"""

COMMON = """\
---
lookup_options:
  app::port:
    convert_to: Integer
app::url: "http://%{::app_host}/"
app::port: "S3cr3t-Port-Value"
app::creds:
  - "S3cr3t-Creds-Value"
app::banner: "creds: %{lookup('app::creds')}"
app::enabled: yes
app::dup: 1
app::dup: 2
"""


def write_repo(root: Path, profiles: int = 6) -> Path:
    (root / "data" / "nodes").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HIERA)
    (root / "data" / "common.yaml").write_text(COMMON)
    (root / "data" / "nodes" / "n1.yaml").write_text("---\nkey: 1\n")
    (root / "data" / "float.yaml").write_text("---\ndb::token: !!float S3cr3tFloat\n")
    (root / "data" / "extra.json").write_text(
        """{"db::a": 1 "db::password": "S3cr3t'Json-Value"}"""
    )
    facts = root / ".hiera-ls" / "facts"
    facts.mkdir(parents=True)
    for i in range(1, profiles):
        (facts / f"n{i}.yaml").write_text(f"certname: n{i}.example.com\n")
    # the one node with the fact the common data interpolates
    (facts / f"n{profiles}.yaml").write_text(f"certname: n{profiles}.example.com\napp_host: h\n")
    return root


@pytest.fixture(scope="session")
def planted_template(tmp_path_factory: pytest.TempPathFactory) -> Planted:
    """diff_fixture's planted repository, made once: tests take copies (``copy_planted``) and
    change those, never this one."""
    root = tmp_path_factory.mktemp("planted") / "repo"
    return (root, *planted_repo(root))


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    root = write_repo(tmp_path / "repo")
    monkeypatch.chdir(root)
    return root


@pytest.fixture
def clean_repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    root = tmp_path / "clean"
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text(
        "---\nversion: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\n"
        "hierarchy:\n  - name: common\n    path: common.yaml\n"
    )
    (root / "data" / "common.yaml").write_text("---\napp::port: 8080\n")
    monkeypatch.chdir(root)
    return root
