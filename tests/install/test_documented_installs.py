"""The README's and CONTRIBUTING's installs, run as written, each in a new home directory.

The one change: ``git clone https://github.com/hiera-ls/hiera-ls`` clones this repository
instead (the machines that test hiera-ls reach no GitHub), and a ``git+https`` URL of it
becomes the ``git+file`` URL of that clone. Everything else is the documents' text: each
command runs in bash with the home as ``~``, and the ``hiera-ls`` it installs, found on
``PATH`` as the user's shell finds it, checks the shipped example.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from hiera_ls import __version__
from tests.docs.markdown import CONTRIBUTING, README, commands, fenced, section, text_of
from tests.install.conftest import ROOT, clone_checkout, shell, user_env

PROJECT_URL = "https://github.com/hiera-ls/hiera-ls"
CLONE = f"git clone {PROJECT_URL}"
INSTALL = section(README, "## Install")
WAYS = {"pipx": ("pipx",), "uv": ("uv",), "venv": ()}


def _way(way: str) -> list[str]:
    """The README's commands for one way, from its paragraph to the next one."""
    lines = commands(INSTALL)
    if way == "pipx":
        return [c for c in lines if c.startswith("pipx ")]
    if way == "uv":
        return [c for c in lines if c.startswith("uv ")]
    return [c for c in lines if "~/.local" in c]


def _wheel_commands() -> dict[str, str]:
    """The README's one-line installs of a wheel file, by way."""
    spans = re.findall(r"`((?:pipx|uv|~\S+python) [^`]*\.whl)`", " ".join(INSTALL.split()))
    return {("venv" if s.startswith("~") else s.split()[0]): s for s in spans}


# the target's one note (stderr): the example's facts came from a Facter with legacy facts
LEGACY_NOTE = "hiera-ls check: note: Puppet 8 agents do not send Facter's legacy facts"


def _works(home: Path, env: dict[str, str]) -> None:
    """``hiera-ls`` as the shell finds it is the one just installed, and it works."""
    where = shell("command -v hiera-ls", home, env).strip()
    assert where == str(home / ".local" / "bin" / "hiera-ls"), where
    assert shell("hiera-ls --version", home, env) == f"hiera-ls {__version__}\n"
    example = ROOT / "examples" / "control-repo"
    out = shell(f"hiera-ls check {example}", home, env).splitlines()
    assert out[0] == "All checks passed (20 files, 3 facts profiles)."
    assert [line[: len(LEGACY_NOTE)] for line in out[1:]] == [LEGACY_NOTE]


def test_the_readme_names_each_way_and_the_wheel_it_installs(wheel: Path) -> None:
    assert [c for c in commands(INSTALL) if c.startswith("git ")] == [CLONE]
    assert _way("pipx") == ["pipx install ./hiera-ls"]
    assert _way("uv") == ["uv tool install ./hiera-ls"]
    assert len(_way("venv")) == 3
    wheels = _wheel_commands()
    assert sorted(wheels) == ["pipx", "uv", "venv"]
    assert all(c.endswith(f"./{wheel.name}") for c in wheels.values()), (wheels, wheel.name)


@pytest.mark.parametrize("way", sorted(WAYS))
def test_a_readme_install_from_a_checkout(way: str, home: Path) -> None:
    env = user_env(home, *WAYS[way])
    clone_checkout(home / "hiera-ls")
    for command in _way(way):
        shell(command, home, env)
    _works(home, env)


@pytest.mark.parametrize("way", sorted(WAYS))
def test_a_readme_install_from_the_wheel(way: str, home: Path, wheel: Path) -> None:
    env = user_env(home, *WAYS[way])
    shutil.copy(wheel, home / wheel.name)
    command = _wheel_commands()[way]
    if way == "venv":  # the README's venv, its pip with the wheel, then the link
        first, _, link = _way("venv")
        for line in (first, command, link):
            shell(line, home, env)
    else:
        shell(command, home, env)
    _works(home, env)


def test_the_readme_github_actions_install_step(home: Path) -> None:
    (text,) = fenced(section(README, "### A first check"), "yaml")
    workflow = yaml.safe_load(text)
    steps = [s["run"] for s in workflow["jobs"]["hiera"]["steps"] if "run" in s]
    assert steps == [f"pipx install git+{PROJECT_URL}", "hiera-ls check"]
    # GitHub's runners have PyPI's pipx (Debian 12's 1.1.0 reads no git+file URL)
    runner = home.parent / "runner"
    shell(
        f"python3 -m venv {runner} && {runner}/bin/python -m pip install -q pipx",
        home,
        user_env(home),
    )
    env = user_env(home, f"pipx={runner}/bin/pipx")
    clone = clone_checkout(home.parent / "hiera-ls")
    shell(steps[0].replace(f"git+{PROJECT_URL}", f"git+file://{clone}"), home, env)
    _works(home, env)


def test_contributing_setup_in_a_fresh_clone(home: Path) -> None:
    """Clone, venv, the dev install, and a build checked as PyPI would check it."""
    setup = section(CONTRIBUTING, "## Set up")
    clone, venv, install = commands(setup)
    assert clone == f"{CLONE} && cd hiera-ls"
    env = user_env(home, "git")
    clone_checkout(home / "hiera-ls")
    activate = venv.split(" && ", 1)[1]
    assert activate == ". .venv/bin/activate"
    build = [c for c in commands(text_of(CONTRIBUTING)) if c.startswith("python3 -m build")]
    checkout = home / "hiera-ls"
    shell(venv, checkout, env)
    shell(f"{activate} && {install}", checkout, env, timeout=900)
    out = shell(f"{activate} && {build[0]}", checkout, env)
    assert out.count("PASSED") == 2, out
    assert sorted(p.name for p in (checkout / "dist").iterdir()) == [
        f"hiera_ls-{__version__}-py3-none-any.whl",
        f"hiera_ls-{__version__}.tar.gz",
    ]
