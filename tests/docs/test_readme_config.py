"""The README's example .hiera-ls.yaml is one hiera-ls reads without a complaint."""

from __future__ import annotations

import re
from pathlib import Path

from hiera_ls.project.repo_config import load_repo_config

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_example_configuration_loads_clean() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Configuration: `.hiera-ls.yaml`", 1)[1]
    example = re.search(r"^```yaml\n(.*?)^```", section, re.M | re.S)
    assert example is not None
    config = load_repo_config("/repo/.hiera-ls.yaml", example.group(1))
    assert config.problems == ()
    assert config.facts == ("/repo/ci/facts",)
    assert config.backend_reader("company_yaml") == "yaml_data"
    assert ("hiera-data-file-unused", None) in config.severity
