"""The example .hiera-ls.yaml of docs/commands.md is one hiera-ls reads without a complaint."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hiera_ls.project.repo_config import load_repo_config

ROOT = Path(__file__).resolve().parents[2]


def _example() -> str:
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    section = text.split("## Configuration: `.hiera-ls.yaml`", 1)[1]
    example = re.search(r"^```yaml\n(.*?)^```", section, re.M | re.S)
    assert example is not None
    return example.group(1)


def test_the_example_configuration_loads_clean() -> None:
    config = load_repo_config("/repo/.hiera-ls.yaml", _example())
    assert config.problems == ()
    assert config.facts == ("/repo/ci/facts",)
    assert config.backend_reader("company_yaml") == "yaml_data"
    assert ("hiera-data-file-unused", None) in config.severity
    assert config.puppetdb.url == "https://puppetdb.example.com:8081"


def test_the_schema_offered_to_editors_accepts_the_example_and_refuses_mistakes() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    from hiera_ls.project.repo_config import CONFIG_SCHEMA
    from hiera_ls.schemas_path import load_schema
    from hiera_ls.source.yaml_loader import load_yaml

    schema = load_schema(CONFIG_SCHEMA)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    example = load_yaml("/repo/.hiera-ls.yaml", _example()).value
    assert list(validator.iter_errors(example)) == []
    for mistake in [
        "ignroe: [yaml11-boolean]\n",
        "severity: {yaml11-boolean: loud}\n",
        "backends: {mine: yaml}\n",
        "exclude: 7\n",
        "severity: {yaml11-boolean: off}\n",  # YAML 1.1 false: accepted as off
        "puppetdb: {url: puppetdb.example.com}\n",
        "puppetdb: {timeout: 0}\n",
        "puppetdb: {port: 8081}\n",
    ]:
        value = load_yaml("/repo/.hiera-ls.yaml", mistake).value
        errors = list(validator.iter_errors(value))
        problems = load_repo_config("/repo/.hiera-ls.yaml", mistake).problems
        assert bool(errors) == bool(problems), mistake
