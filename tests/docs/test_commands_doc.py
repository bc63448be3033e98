"""docs/commands.md: the CI setups are valid and run the check as written, and its examples
print what it shows, on the data the project ships."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.docs.markdown import COMMANDS_DOC, EXAMPLE, ROOT, commands, fenced, hiera_ls, section


def _yaml_after(heading: str) -> object:
    (found, *_) = fenced(section(COMMANDS_DOC, heading), "yaml")
    return yaml.safe_load(found)


def _check_commands(lines: list[str]) -> list[list[str]]:
    return [shlex.split(line) for line in lines if line.startswith("hiera-ls check")]


@pytest.mark.parametrize("heading", ["### GitLab CI", "### pre-commit"])
def test_each_ci_example_is_yaml(heading: str) -> None:
    assert isinstance(_yaml_after(heading), dict)


def test_the_pre_commit_example_names_the_hook_the_repository_defines() -> None:
    config = _yaml_after("### pre-commit")
    assert isinstance(config, dict)
    (repo,) = config["repos"]
    assert repo["repo"] == "https://github.com/hiera-ls/hiera-ls"
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in repo["hooks"]] == [h["id"] for h in hooks]


@pytest.mark.slow
def test_the_gitlab_ci_example_writes_the_code_quality_report(tmp_path: Path) -> None:
    job = _yaml_after("### GitLab CI")
    assert isinstance(job, dict)
    script = job["hiera-ls"]["script"]
    assert script[0] == "python3 -m pip install git+https://github.com/hiera-ls/hiera-ls"
    report = job["hiera-ls"]["artifacts"]["reports"]["codequality"]
    commands_ = _check_commands(script)
    assert len(commands_) == 1 and commands_[0][commands_[0].index("--output") + 1] == report
    repo = shutil.copytree(EXAMPLE, tmp_path / "repo")
    run = hiera_ls(commands_[0], repo)
    assert (run.returncode, run.stdout) == (0, "")
    assert json.loads((repo / report).read_text()) == []


@pytest.mark.slow
def test_the_diff_example_prints_the_changes_shown(tmp_path: Path) -> None:
    diff = section(COMMANDS_DOC, "## `hiera-ls diff`: what a change does to every node")
    steps = [c for c in commands(diff) if c.startswith("sed ") or c == "hiera-ls diff"]
    (output,) = fenced(diff, "text")
    assert steps[-1] == "hiera-ls diff"
    repo = shutil.copytree(EXAMPLE, tmp_path / "control-repo")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "example"]):
        subprocess.run([*git, *step], cwd=repo, check=True, capture_output=True)
    for command in steps[:-1]:
        subprocess.run(shlex.split(command), cwd=repo, check=True)
    run = hiera_ls("hiera-ls diff", repo)
    assert (run.returncode, run.stdout) == (1, output), run.stderr


@pytest.mark.slow
def test_the_class_parameter_example_prints_the_lines_shown() -> None:
    found = section(COMMANDS_DOC, "### Data against the Puppet code")
    (command,) = commands(found)
    (output,) = fenced(found, "text")
    run = hiera_ls(command, ROOT)
    assert run.returncode == 1, run.stderr
    printed = run.stdout.splitlines()
    for line in output.splitlines():
        assert line in printed


@pytest.mark.slow
def test_the_lookup_examples_answer_in_the_shipped_example() -> None:
    """Each command of the lookup section that runs in examples/control-repo, as written."""
    lookup = section(COMMANDS_DOC, "## `hiera-ls lookup`: `puppet lookup` without a Puppet server")
    shown = commands(lookup)
    assert shown[0].startswith("cd examples/control-repo")
    ran = 0
    for command in shown[1:]:
        if ".hiera-ls/facts/web01.example.com.yaml" not in command:
            continue  # another repository's (Wikimedia's backend)
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=EXAMPLE,
            capture_output=True,
            text=True,
            timeout=120,
            env=_with_hiera_ls(),
        )
        assert done.returncode == 0, (command, done.stderr)
        assert done.stdout.strip(), command
        ran += 1
    assert ran == 4
    assert re.search(r"ntp::servers", lookup)


def _with_hiera_ls() -> dict[str, str]:
    """This interpreter's ``hiera-ls`` first on PATH (the development install's)."""
    import os
    import sys

    return {**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
