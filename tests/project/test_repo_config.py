""".hiera-ls.yaml: what each setting becomes, and each mistake reported on its line and column."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.checks.policy import config_code_problems
from hiera_ls.project.backends import READERS
from hiera_ls.project.repo_config import (
    CONFIG_SCHEMA,
    SETTINGS,
    RepoConfig,
    find_config_file,
    find_repo_config,
    load_repo_config,
)
from hiera_ls.project.targets import TARGET_NAMES
from hiera_ls.schemas_path import load_schema
from hiera_ls.source.files import FileAccess
from hiera_ls.source.spans import Severity

PATH = "/repo/.hiera-ls.yaml"


def problems(text: str) -> list[tuple[str, str]]:
    """(code, 1-based line:column) of each problem the file has (the codes it names are
    judged by the checks, which know them)."""
    config = load_repo_config(PATH, text)
    found = sorted(
        [*config.problems, *config_code_problems(config)],
        key=lambda p: (p.where.span.start, p.where.span.end),
    )
    return [(p.code, p.where.span.start.human()) for p in found]


def test_every_setting_is_read() -> None:
    config = load_repo_config(
        PATH,
        """\
target: openvox9
facts: [spec/factsets, /repo/site/facts.yaml]
select: [yaml11-*, hiera-*]
ignore: yaml11-octal
severity:
  yaml11-boolean: off
  hiera-data-file-unused: "warning"
  yaml11-*: info
exclude:
  - hieradata/vendor/
per-path:
  "hieradata/legacy/**": [yaml11-*]
  "*.json": json-duplicate-key
backends:
  my_yaml: yaml_data
""",
    )
    assert config.problems == ()
    assert config.root == "/repo"
    assert config.target == "openvox9"
    assert config.facts == ("/repo/spec/factsets", "/repo/site/facts.yaml")
    assert config.select == ("yaml11-*", "hiera-*")
    assert config.ignore == ("yaml11-octal",)
    assert config.severity == (
        ("yaml11-boolean", None),
        ("hiera-data-file-unused", Severity.WARNING),
        ("yaml11-*", Severity.INFORMATION),
    )
    assert [(r.patterns, r.codes) for r in config.rules] == [
        (("hieradata/vendor/",), ()),
        (("hieradata/legacy/**",), ("yaml11-*",)),
        (("*.json",), ("json-duplicate-key",)),
    ]
    assert config.backend_reader("my_yaml") == "yaml_data"
    assert config.backend_reader("other") is None


def test_an_unknown_setting_is_reported_on_its_key_and_the_rest_applies() -> None:
    text = "ignore: [yaml11-octal]\nignroe: [yaml11-boolean]\n"
    assert problems(text) == [("config-unknown-setting", "2:1")]
    assert load_repo_config(PATH, text).ignore == ("yaml11-octal",)


def test_wrong_types_are_reported_where_they_are() -> None:
    text = """\
facts: {a: 1}
select: [yaml11-boolean, 3]
severity: [yaml11-boolean]
exclude: 7
per-path:
  "a/**": [yaml11-octal, {x: 1}]
backends: yaml_data
"""
    assert problems(text) == [
        ("config-bad-value", "1:8"),
        ("config-bad-value", "2:26"),
        ("config-bad-value", "3:11"),
        ("config-bad-value", "4:10"),
        ("config-bad-value", "6:26"),
        ("config-bad-value", "7:11"),
    ]


def test_bad_values_and_unknown_codes_are_reported_where_they_are() -> None:
    text = """\
ignore: [yaml-boolean, yaml11-*]
severity:
  yaml11-octal: loud
  nope-*: error
backends:
  mine: yaml
target: puppet6
"""
    assert problems(text) == [
        ("config-unknown-code", "1:10"),
        ("config-bad-value", "3:17"),
        ("config-unknown-code", "4:3"),
        ("config-bad-value", "6:9"),
        ("config-bad-value", "7:9"),
    ]
    config = load_repo_config(PATH, text)
    assert config.target is None
    # a pattern that names no code stays (it matches nothing): the checks say so
    assert config.ignore == ("yaml-boolean", "yaml11-*")
    assert config.severity == (("nope-*", Severity.ERROR),)
    assert config.backends == ()


def test_a_file_that_is_not_a_mapping_or_not_yaml() -> None:
    assert problems("- ignore\n") == [("config-bad-value", "1:1")]
    assert [c for c, _ in problems("ignore: [a\n")] == ["yaml-syntax"]
    assert problems("") == []
    assert problems("# nothing yet\n") == []
    assert problems("a: 1\na: 2\n")[-1] == ("yaml-duplicate-key", "2:1")


def test_the_nearest_file_walking_up_to_the_repository_root(tmp_path: Path) -> None:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "site" / "data").mkdir(parents=True)
    files = FileAccess({})
    assert find_config_file(str(repo / "site" / "data"), files) is None
    (tmp_path / ".hiera-ls.yaml").write_text("ignore: [yaml11-*]\n")  # above the repository
    assert find_config_file(str(repo / "site"), files) is None
    (repo / ".hiera-ls.yaml").write_text("ignore: [yaml11-octal]\n")
    assert find_config_file(str(repo / "site" / "data"), files) == str(repo / ".hiera-ls.yaml")
    assert find_repo_config(str(repo / "site"), files).ignore == ("yaml11-octal",)
    buffer = FileAccess({str(repo / ".hiera-ls.yaml"): "ignore: [yaml11-binary]\n"})
    assert find_repo_config(str(repo), buffer).ignore == ("yaml11-binary",)  # an open buffer wins
    assert find_repo_config(str(tmp_path / "elsewhere"), files).ignore == ("yaml11-*",)


def test_paths_relative_to_the_config_directory() -> None:
    config = load_repo_config(PATH, "ignore: []\n")
    assert config.relative("/repo/data/common.yaml") == "data/common.yaml"
    assert config.relative("/other/common.yaml") is None
    assert RepoConfig.EMPTY.relative("/repo/data/common.yaml") is None


def test_the_schema_offered_to_editors_says_what_the_loader_reads() -> None:
    schema = load_schema(CONFIG_SCHEMA)
    assert tuple(schema["properties"]) == SETTINGS
    backends = schema["properties"]["backends"]["additionalProperties"]["enum"]
    assert tuple(backends) == READERS
    assert tuple(schema["properties"]["target"]["enum"]) == TARGET_NAMES
    severities = schema["properties"]["severity"]["additionalProperties"]["enum"]
    assert set(severities) == {"error", "warning", "info", "information", "hint", "off", False}
    assert schema["additionalProperties"] is False


def test_facts_outside_the_repository_need_the_users_own_setting(tmp_path: Path) -> None:
    """A repository's .hiera-ls.yaml made the user's files facts profiles that hovers show
    (``/proc/self/environ``, ``~/.ssh``), or walked the whole disk (``facts: ["/"]``)."""
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "escape").symlink_to(tmp_path)
    text = "facts: [/, ~/.ssh, /proc/self/environ, ../elsewhere, escape/x, spec/factsets]\n"
    config = load_repo_config(str(repo / ".hiera-ls.yaml"), text)
    assert config.facts == (str(repo / "spec/factsets"),)
    refused = [p.message for p in config.problems]
    assert len(refused) == 5 and all(p.code == "config-bad-value" for p in config.problems)
    assert refused[0] == (
        f"facts: / lies outside the repository ({repo}); a repository names facts only inside "
        "itself. To read facts from there, name the path yourself: the editor's "
        "hiera.factsPaths setting, or hiera-ls check --facts-path"
    )
