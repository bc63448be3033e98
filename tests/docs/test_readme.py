"""The README says what a user needs, once, and its commands print what it shows.

The quick tests read the documents; those that run ``hiera-ls`` (a process each) are
``slow``, and the installs are run as written by ``tests/install/``.
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

from hiera_ls import __version__
from hiera_ls.project.facts import load_facts
from tests.docs.markdown import (
    COMMANDS_DOC,
    CONTRIBUTING,
    EDITORS_DOC,
    EXAMPLE,
    README,
    ROOT,
    commands,
    fenced,
    hiera_ls,
    section,
    text_of,
)

TEXT = text_of(README)
# The README is also PyPI's page, where a relative link leads nowhere: it links the
# repository's files by these addresses (its main branch), the other documents relatively.
BLOB = "https://github.com/hiera-ls/hiera-ls/blob/main/"
RAW = "https://raw.githubusercontent.com/hiera-ls/hiera-ls/main/"
# Where each command of the README and CONTRIBUTING is run as written (or, for the tools of
# the whole suite, by .ci/run itself), so that no command is shown untried.
INSTALLS = "tests/install/test_documented_installs.py"
FACTS = "test_puppet_and_facter_give_facts_profiles"
FIRST = "test_a_first_check_and_lookup_on_a_repository"
EXAMPLE_LOOKUP = (
    "hiera-ls lookup --environmentpath examples --environment control-repo --node "
    "web01.example.com --facts examples/control-repo/.hiera-ls/facts/web01.example.com.yaml "
    "profile::base::users"
)
LINT = (
    "ruff check server tests bench && ruff format --check server tests bench && mypy && "
    "PYTHONPATH=server lint-imports --no-cache"
)
FULL_SUITE = "python3 -m pip install -e '.[dev]' && python3 -m pytest -q"
RUN_BY = {
    "git clone https://github.com/hiera-ls/hiera-ls": "tests/install (a clone of this one)",
    "pipx install ./hiera-ls": INSTALLS,
    "uv tool install ./hiera-ls": INSTALLS,
    "python3 -m venv ~/.local/share/hiera-ls": INSTALLS,
    "~/.local/share/hiera-ls/bin/python -m pip install ./hiera-ls": INSTALLS,
    "mkdir -p ~/.local/bin && ln -sf ~/.local/share/hiera-ls/bin/hiera-ls ~/.local/bin/": INSTALLS,
    "hiera-ls --version": "test_the_version_is_what_the_readme_shows",
    "cd hiera-ls": "the checkout's root: where every test below runs",
    "hiera-ls check examples/control-repo": "test_the_example_check_prints_the_output_shown",
    EXAMPLE_LOOKUP: "test_the_lookup_example_prints_the_merged_value_shown",
    "puppet facts show --render-as json > web01.example.com.json": FACTS,
    "facter -j > web01.example.com.json": FACTS,
    "hiera-ls check": FIRST,
    "hiera-ls lookup profile::ssh::port --node web01.example.com --facts "
    ".hiera-ls/facts/web01.example.com.json": FIRST,
    "cd client-vscode && npm ci && npm run package -- --target linux-x64": (
        "tests/vscode/test_vscode_bundled.py (every platform's .vsix)"
    ),
    "code --install-extension hiera-ls-linux-x64.vsix": (
        "tests/vscode (code-server's --install-extension)"
    ),
    FULL_SUITE: ".ci/run, as its last step",
    # CONTRIBUTING
    "git clone https://github.com/hiera-ls/hiera-ls && cd hiera-ls": INSTALLS,
    "python3 -m venv .venv && . .venv/bin/activate": INSTALLS,
    "python3 -m pip install -e '.[dev]'": INSTALLS,
    'python3 -m pytest -q -m "not slow"': "test_the_quick_loop_leaves_out_every_slow_kind",
    "python3 -m tests.differential.manifest_agreement examples/control-repo": (
        "test_the_manifest_agreement_command_runs"
    ),
    "python3 -m tests.source.psych_cases": "tests/differential/test_psych_vs_puppet.py",
    LINT: ".ci/run",
    "bash .ci/vscode-setup.sh": ".ci/run",
    "python3 bench/bench_loader.py --lines 10000 --repeat 15": "test_the_benchmark_command_runs",
    "python3 -m build && twine check --strict dist/*": INSTALLS,
    "CI=true .ci/run": "CI itself",
}


def test_every_command_of_the_readme_and_contributing_is_run_somewhere() -> None:
    shown = commands(TEXT) + commands(text_of(CONTRIBUTING))
    assert sorted(set(shown)) == sorted(RUN_BY)
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    for command, where in RUN_BY.items():
        if where.startswith(".ci/run"):
            assert command in ci, command
    assert (
        ci.rstrip().splitlines()[-1] == "python3 -m pip install -e '.[dev]' && python3 -m pytest -q"
    )


def test_the_readme_is_for_users_and_short() -> None:
    assert len(TEXT.splitlines()) <= 300
    first = TEXT.split("\n\n")[1]
    assert first.startswith("hiera-ls shows") and "Puppet" in first
    before_contributing = TEXT.split("## Contributing")[0]
    for word in ("pytest", "oracle", "bench", "mypy", "ruff", "tests/"):
        assert word not in before_contributing, word


def test_a_facts_profile_is_defined_where_the_term_is_first_used() -> None:
    prose = " ".join(TEXT.split())
    first = prose.lower().index("facts profile")
    assert prose[first - 2 : first + len("facts profiles**")] == "**facts profiles**"
    assert "the facts of one node each, saved in a file" in prose[first:]


def test_no_document_sends_users_to_a_package_index_that_lacks_hiera_ls() -> None:
    """hiera-ls is not on PyPI: no document says ``pip install hiera-ls``."""
    documents = [README, CONTRIBUTING, *sorted((ROOT / "docs").glob("*.md"))]
    documents += [ROOT / "client-vscode" / "README.md"]
    for document in documents:
        assert not re.search(r"(pip|pipx|uv tool) install hiera-ls\b", text_of(document)), document


def test_every_picture_is_in_the_repository() -> None:
    for document in (README, EDITORS_DOC, COMMANDS_DOC):
        for picture in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text_of(document)):
            local = ROOT / picture.removeprefix(RAW) if picture.startswith(RAW) else picture
            assert (document.parent / local).is_file(), (document, picture)
    assert re.search(rf"!\[[^\]]+\]\({RAW}docs/images/[^)]+\.png\)", TEXT.split("## Install")[0])


def test_a_puppetdb_export_facts_file_is_a_facts_profile() -> None:
    """PuppetDB's facts format (wire format v5), as its export archive holds it."""
    exported = {
        "certname": "web01.example.com",
        "environment": "production",
        "producer_timestamp": "2026-01-01T00:00:00.000Z",
        "producer": "puppet.example.com",
        "values": {"os": {"family": "Debian"}, "role": "web"},
    }
    profile = load_facts("/r/.hiera-ls/facts/web01.example.com.json", json.dumps(exported))
    assert profile.name == "web01.example.com" and profile.error is None
    assert profile.facts["role"] == "web" and "certname" not in profile.facts


@pytest.mark.slow
def test_the_quick_loop_leaves_out_every_slow_kind() -> None:
    """The CONTRIBUTING's quick loop selects no test of a kind that implies slow, and keeps
    the unit tests."""
    done = subprocess.run(
        ["python3", "-m", "pytest", "-q", "-m", "not slow", "--collect-only", "tests/e2e",
         "tests/vscode", "tests/install", "tests/source/test_yaml_loader.py"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=300,
        env={**os.environ, "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"},
    )  # fmt: skip
    ids = [line for line in done.stdout.splitlines() if "::" in line]
    assert ids and all(i.startswith("tests/source/test_yaml_loader.py") for i in ids), ids[:5]


# --------------------------------------------------------------------------- running them


@pytest.mark.slow
def test_the_version_is_what_the_readme_shows() -> None:
    shown = re.search(r"^    hiera-ls --version\n\n```text\n(.*?)```", TEXT, re.M | re.S)
    assert shown is not None
    run = hiera_ls("hiera-ls --version", ROOT)
    assert run.returncode == 0 and run.stdout == shown.group(1) == f"hiera-ls {__version__}\n"


@pytest.mark.slow
def test_the_example_check_prints_the_output_shown() -> None:
    example = section(README, "## Try it on the example")
    assert commands(example)[:2] == ["cd hiera-ls", "hiera-ls check examples/control-repo"]
    (output,) = fenced(example, "text")
    run = hiera_ls(commands(example)[1], ROOT)
    # a terminal shows the note (stderr, written first) above the result
    assert (run.returncode, run.stderr + run.stdout) == (0, output)


@pytest.mark.slow
def test_the_lookup_example_prints_the_merged_value_shown() -> None:
    example = section(README, "## Try it on the example")
    (output,) = fenced(example, "yaml")
    run = hiera_ls(commands(example)[2], ROOT)
    assert (run.returncode, run.stdout) == (0, output), run.stderr


@pytest.mark.slow
def test_a_first_check_and_lookup_on_a_repository(tmp_path: Path) -> None:
    """In a control repository whose facts profile is JSON, as ``puppet facts show`` writes."""
    first = section(README, "### A first check")
    check, lookup = commands(first)
    repo = shutil.copytree(EXAMPLE, tmp_path / "control-repo")
    facts = repo / ".hiera-ls" / "facts"
    web01 = yaml.safe_load((facts / "web01.example.com.yaml").read_text(encoding="utf-8"))
    (facts / "web01.example.com.yaml").unlink()
    (facts / "web01.example.com.json").write_text(json.dumps(web01), encoding="utf-8")
    run = hiera_ls(check, repo)
    assert (run.returncode, run.stdout) == (0, "All checks passed (20 files, 3 facts profiles).\n")
    run = hiera_ls(lookup, repo)
    assert (run.returncode, run.stdout) == (0, "--- 2222\n"), run.stderr
    assert "profile::ssh::port" in (repo / "data" / "nodes" / "web01.example.com.yaml").read_text()


@pytest.mark.slow
def test_the_github_actions_workflow_annotates_what_it_finds(tmp_path: Path) -> None:
    (workflow_text,) = fenced(section(README, "### A first check"), "yaml")
    workflow = yaml.safe_load(workflow_text)
    steps = workflow["jobs"]["hiera"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@")
    assert steps[-1]["run"] == "hiera-ls check"  # the install step: tests/install
    repo = shutil.copytree(EXAMPLE, tmp_path / "repo")
    run = hiera_ls(steps[-1]["run"], repo, GITHUB_ACTIONS="true")
    assert (run.returncode, run.stdout) == (0, "All checks passed (20 files, 3 facts profiles).\n")
    common = repo / "data" / "common.yaml"
    common.write_text(common.read_text() + "broken: [unclosed\n")
    run = hiera_ls(steps[-1]["run"], repo, GITHUB_ACTIONS="true")
    assert run.returncode == 1 and run.stdout.startswith("::error file=data/common.yaml,line=")


@pytest.mark.puppet
@pytest.mark.parametrize("tool", ["puppet", "facter"])
def test_puppet_and_facter_give_facts_profiles(tool: str, tmp_path: Path) -> None:
    """The README's commands, run on this machine as on a node: the file they write is a
    facts profile whose lookups read this machine's OS family."""
    if shutil.which(tool) is None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but `{tool}` is not installed", pytrace=False)
        pytest.skip(f"`{tool}` is not installed")
    (command,) = [c for c in commands(section(README, "### Facts profiles")) if c.startswith(tool)]
    done = subprocess.run(["bash", "-c", command], cwd=tmp_path, capture_output=True, timeout=300)
    # Facter exits 1 where a sandbox hides /proc/1/environ (as here), after writing every fact
    errors = [e for e in done.stderr.decode().splitlines() if "/proc/1/environ" not in e]
    assert done.returncode == 0 or errors == [], done.stderr
    written = tmp_path / shlex.split(command)[-1]
    facts = json.loads(written.read_text(encoding="utf-8"))
    assert facts["os"]["family"] and facts["networking"]["hostname"]
    repo = shutil.copytree(EXAMPLE, tmp_path / "control-repo")
    shutil.copy(written, repo / ".hiera-ls" / "facts" / written.name)
    run = hiera_ls(["hiera-ls", "check", "--profiles", "all"], repo)
    assert run.stdout.endswith("4 facts profiles).\n"), run.stdout + run.stderr
    run = hiera_ls(["hiera-ls", "lookup", "profile::ssh::port", "--facts", str(written)], repo)
    assert (run.returncode, run.stdout) == (0, "--- 22\n"), run.stderr


@pytest.mark.puppet
def test_the_manifest_agreement_command_runs() -> None:
    (command,) = [c for c in commands(text_of(CONTRIBUTING)) if "manifest_agreement" in c]
    done = subprocess.run(
        [sys.executable, *shlex.split(command)[1:]],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "agree" in done.stdout


@pytest.mark.slow
def test_the_benchmark_command_runs() -> None:
    (command,) = [c for c in commands(text_of(CONTRIBUTING)) if c.startswith("python3 bench/")]
    words = shlex.split(command)
    words[words.index("--repeat") + 1] = "1"  # the command as written, timed once
    words[words.index("--lines") + 1] = "500"
    done = subprocess.run(
        [sys.executable, *words[1:]],
        cwd=ROOT, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def _anchor(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_between_the_documents_lands_on_a_file_and_heading() -> None:
    documents = [README, CONTRIBUTING, *sorted((ROOT / "docs").glob("*.md"))]
    for document in documents:
        for target in re.findall(r"\]\(([^)\s]+)\)", text_of(document)):
            if target.startswith((BLOB, RAW)):
                target = str(ROOT / target.removeprefix(BLOB).removeprefix(RAW))
            elif target.startswith(("http://", "https://")):
                continue
            else:
                assert document != README, f"the README links {target} relatively"
            path, _, anchor = target.partition("#")
            linked = (document.parent / path).resolve() if path else document
            assert linked.exists(), (document.name, target)
            if anchor and linked.suffix == ".md":
                headings = re.findall(r"^#+ (.+)$", _prose(text_of(linked)), re.M)
                assert anchor in {_anchor(h) for h in headings}, (document.name, target)


def _prose(text: str) -> str:
    """The text without its fenced blocks (a ``#`` comment there is no heading)."""
    return re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)


def _ci_tools(tmp_path: Path) -> tuple[Path, Path]:
    """A bin directory where ``hiera-ls`` is this interpreter's and the tools that reach the
    network (pipx, pip, gh, curl) only write their arguments, and their ``--body-file`` or
    ``body@`` file's text, to the returned log."""
    bin_dir, log = tmp_path / "bin", tmp_path / "calls.log"
    bin_dir.mkdir()
    path, python, out = (
        shlex.quote(s) for s in (os.pathsep.join(sys.path), sys.executable, str(log))
    )
    (bin_dir / "hiera-ls").write_text(
        f'#!/bin/sh\nPYTHONPATH={path} exec {python} -m hiera_ls "$@"\n'
    )
    recorder = (
        f'#!/bin/sh\necho "$(basename "$0") $*" >> {out}\n'
        f'for a in "$@"; do case "$a" in body@*) cat "${{a#body@}}" >> {out};; esac; done\n'
        f'while [ $# -gt 0 ]; do [ "$1" = --body-file ] && cat "$2" >> {out}; shift; done\n'
    )
    for tool in ("pipx", "pip", "gh", "curl"):
        (bin_dir / tool).write_text(recorder)
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    return bin_dir, log


def _pull_request(tmp_path: Path) -> Path:
    """A clone of a control repository whose branch ``feature`` changes one key."""
    origin, clone = tmp_path / "origin", tmp_path / "clone"
    shutil.copytree(EXAMPLE, origin)
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
    for argv in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-qm", "data"]):
        subprocess.run([*git, *argv], cwd=origin, check=True)
    subprocess.run(["git", "clone", "-q", str(origin), str(clone)], check=True)
    subprocess.run([*git, "checkout", "-qb", "feature"], cwd=clone, check=True)
    common = clone / "data" / "common.yaml"
    common.write_text(
        common.read_text().replace("profile::ssh::port: 22", "profile::ssh::port: 2222")
    )
    subprocess.run([*git, "commit", "-qam", "port"], cwd=clone, check=True)
    return clone


def _run_script(lines: list[str], cwd: Path, shell: list[str], **env: str) -> None:
    for line in lines:
        done = subprocess.run(
            [*shell, line], cwd=cwd, capture_output=True, text=True, env={**os.environ, **env}
        )
        assert done.returncode == 0, (line, done.stdout, done.stderr)


WORKFLOWS = "### What a change does to every node"


@pytest.mark.slow
def test_the_github_diff_workflow_posts_the_report_as_written(tmp_path: Path) -> None:
    github, _ = fenced(section(README, WORKFLOWS), "yaml")
    steps = yaml.safe_load(github)["jobs"]["diff"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["fetch-depth"] == 0
    bin_dir, log = _ci_tools(tmp_path)
    clone = _pull_request(tmp_path)
    values = {"${{ github.token }}": "tok", "${{ github.event.pull_request.number }}": "7"}
    for step in steps[1:]:
        env = {k: values.get(v, v) for k, v in step.get("env", {}).items()}
        path = f"{bin_dir}{os.pathsep}{os.environ['PATH']}"
        bash = ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c"]  # GitHub's own
        _run_script([step["run"]], clone, bash, PATH=path, GITHUB_BASE_REF="main", **env)
    calls = log.read_text()
    assert "pipx install git+https://github.com/hiera-ls/hiera-ls\n" in calls
    assert "gh pr comment 7 --body-file diff.md\n### hiera-ls diff: `origin/main`" in calls
    assert "#### `profile::ssh::port`: 2 of 3 profiles" in calls


@pytest.mark.slow
def test_the_gitlab_diff_job_posts_the_report_as_written(tmp_path: Path) -> None:
    _, gitlab = fenced(section(README, WORKFLOWS), "yaml")
    job = yaml.safe_load(gitlab)["hiera-ls diff"]
    assert job["variables"] == {"GIT_DEPTH": 0}
    bin_dir, log = _ci_tools(tmp_path)
    clone = _pull_request(tmp_path)
    _run_script(
        job["script"],
        clone,
        ["sh", "-ec"],
        PATH=f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME="main",
        HIERA_LS_TOKEN="tok",
        CI_API_V4_URL="https://gitlab.example.com/api/v4",
        CI_PROJECT_ID="42",
        CI_MERGE_REQUEST_IID="5",
    )
    calls = log.read_text()
    assert "pip install git+https://github.com/hiera-ls/hiera-ls\n" in calls
    notes = "https://gitlab.example.com/api/v4/projects/42/merge_requests/5/notes"
    assert (
        f"curl --fail --header PRIVATE-TOKEN: tok --data-urlencode body@diff.md {notes}\n" in calls
    )
    assert "#### `profile::ssh::port`: 2 of 3 profiles" in calls
