"""The README's commands do what the README says, on the data the project ships.

The first command checks the shipped control repository and prints the output shown; the
lookup example after it prints the merged value shown; the CI examples are valid YAML whose
``hiera-ls check`` commands run as written on that repository.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
EXAMPLE = ROOT / "examples" / "control-repo"


def _run(argv: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    assert argv[0] == "hiera-ls"
    environ = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    environ["PYTHONPATH"] = os.pathsep.join(sys.path)
    return subprocess.run(
        [sys.executable, "-m", "hiera_ls", *argv[1:]],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**environ, **env},
    )


def test_first_command_checks_the_example_and_prints_the_output_shown() -> None:
    command = re.search(r"^    python3 -m pip install \. && (hiera-ls .+)$", README, re.M)
    output = re.search(r"^```text\n(.*?)^```", README, re.M | re.S)
    assert command is not None and output is not None, "the README lost its first command"
    assert command.start() < output.start()
    assert README.index("    python3 -m pip install . && ") == command.start()  # the first
    argv = shlex.split(command.group(1))
    assert argv[:2] == ["hiera-ls", "check"]
    run = _run(argv, ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout == output.group(1)


def test_the_lookup_example_prints_the_merged_value_shown() -> None:
    command = re.search(r"^    (hiera-ls lookup .+)$", README, re.M)
    output = re.search(r"^```yaml\n(---\n.*?)^```", README, re.M | re.S)
    assert command is not None and output is not None, "the README lost its lookup example"
    assert command.start() < output.start()
    run = _run(shlex.split(command.group(1)), ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout == output.group(1)


def _yaml_after(heading: str) -> object:
    found = re.search(rf"^### {heading}\n.*?^```yaml\n(.*?)^```", README, re.M | re.S)
    assert found is not None, f"the README lost its {heading} example"
    return yaml.safe_load(found.group(1))


def _check_commands(lines: list[str]) -> list[list[str]]:
    return [shlex.split(line) for line in lines if line.startswith("hiera-ls check")]


def test_the_github_actions_example_runs_the_check_with_annotations(tmp_path: Path) -> None:
    workflow = _yaml_after("GitHub Actions")
    assert isinstance(workflow, dict)
    steps = workflow["jobs"]["hiera"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@")
    commands = _check_commands([s["run"] for s in steps if "run" in s])
    assert commands == [["hiera-ls", "check"]]
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE, repo)
    run = _run(commands[0], repo, GITHUB_ACTIONS="true")
    assert run.returncode == 0, run.stderr
    assert run.stdout == "All checks passed (20 files, 3 facts profiles).\n"
    common = repo / "data" / "common.yaml"
    common.write_text(common.read_text() + "broken: [unclosed\n")
    run = _run(commands[0], repo, GITHUB_ACTIONS="true")
    assert run.returncode == 1
    assert run.stdout.startswith("::error file=data/common.yaml,line=")


def test_the_gitlab_ci_example_writes_the_code_quality_report(tmp_path: Path) -> None:
    job = _yaml_after("GitLab CI")
    assert isinstance(job, dict)
    script = job["hiera-ls"]["script"]
    report = job["hiera-ls"]["artifacts"]["reports"]["codequality"]
    commands = _check_commands(script)
    assert len(commands) == 1 and commands[0][commands[0].index("--output") + 1] == report
    repo = tmp_path / "repo"
    shutil.copytree(EXAMPLE, repo)
    run = _run(commands[0], repo)
    assert (run.returncode, run.stdout) == (0, "")
    assert json.loads((repo / report).read_text()) == []


def test_the_pre_commit_example_names_the_hook_the_repository_defines() -> None:
    config = _yaml_after("pre-commit")
    assert isinstance(config, dict)
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    assert [h["id"] for h in config["repos"][0]["hooks"]] == [h["id"] for h in hooks]


@pytest.mark.parametrize("heading", ["GitHub Actions", "GitLab CI", "pre-commit"])
def test_each_ci_example_is_yaml(heading: str) -> None:
    assert isinstance(_yaml_after(heading), dict)


def test_the_diff_example_prints_the_changes_shown(tmp_path: Path) -> None:
    section = re.search(r"^## `hiera-ls diff`.*?(?=^## )", README, re.M | re.S)
    assert section is not None, "the README lost its diff section"
    commands = re.findall(r"^    (sed .*|hiera-ls diff)$", section.group(0), re.M)
    output = re.search(r"^```text\n(.*?)^```", section.group(0), re.M | re.S)
    assert commands and output is not None and commands[-1] == "hiera-ls diff"
    repo = tmp_path / "control-repo"
    shutil.copytree(EXAMPLE, repo)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for step in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "example"]):
        subprocess.run([*git, *step], cwd=repo, check=True, capture_output=True)
    for command in commands[:-1]:
        subprocess.run(shlex.split(command), cwd=repo, check=True)
    run = _run(["hiera-ls", "diff"], repo)
    assert run.returncode == 1, run.stderr
    assert run.stdout == output.group(1)


def test_every_picture_the_readme_shows_is_in_the_repository() -> None:
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README)
    assert pictures
    for picture in pictures:
        assert (ROOT / picture).is_file(), picture


def test_the_class_parameter_example_prints_the_lines_shown() -> None:
    found = re.search(
        r"^### Data against the Puppet code\n.*?^    (hiera-ls check [^\n]+)\n\n```text\n(.*?)^```",
        README,
        re.M | re.S,
    )
    assert found is not None, "the README lost its class parameter example"
    run = _run(shlex.split(found.group(1)), ROOT)
    assert run.returncode == 1, run.stderr
    printed = run.stdout.splitlines()
    for line in found.group(2).splitlines():
        assert line in printed
