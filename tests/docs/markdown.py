"""The commands, code blocks and sections of the project's Markdown files, as a reader sees them."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
COMMANDS_DOC = ROOT / "docs" / "commands.md"
EDITORS_DOC = ROOT / "docs" / "editors.md"
EXAMPLE = ROOT / "examples" / "control-repo"


def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def section(path: Path, heading: str) -> str:
    """The section under ``heading`` (a whole heading line), up to the next heading of the
    same or a higher level; a ``#`` line inside a fenced block is no heading."""
    level = len(heading) - len(heading.lstrip("#"))
    lines = text_of(path).splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines) if line.rstrip("\n") == heading), None)
    assert start is not None, f"{path.name} lost its section {heading!r}"
    body: list[str] = []
    in_fence = False
    for line in lines[start + 1 :]:
        if line.startswith("```"):
            in_fence = not in_fence
        marks = len(line) - len(line.lstrip("#"))
        if not in_fence and 0 < marks <= level and line[marks : marks + 1] == " ":
            break
        body.append(line)
    return "".join(body)


def commands(text: str) -> list[str]:
    """The shell commands of the indented code blocks (four spaces, after a blank line), each
    with its continuation lines (``\\``) joined; a fenced block is not a command."""
    found: list[str] = []
    in_fence = False
    previous_blank = True
    block: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("```"):
            in_fence = not in_fence
        if not in_fence and line.startswith("    ") and (block or previous_blank):
            block.append(line[4:])
        elif block:
            found += _joined(block)
            block = []
        previous_blank = not line.strip()
    return found


def _joined(lines: list[str]) -> list[str]:
    out: list[str] = []
    pending = ""
    for line in lines:
        if line.rstrip().endswith("\\"):
            pending += line.rstrip()[:-1].rstrip() + " "
        else:
            out.append((pending + line.strip()).strip())
            pending = ""
    return [c for c in out if c]


def fenced(text: str, language: str) -> list[str]:
    """The fenced blocks of ``language``, each as its text."""
    return re.findall(rf"^```{language}\n(.*?)^```", text, re.M | re.S)


def hiera_ls(argv: str | list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """A ``hiera-ls ...`` command as a user types it, run with this interpreter's hiera-ls."""
    words = shlex.split(argv) if isinstance(argv, str) else argv
    assert words[0] == "hiera-ls", words
    environ = {k: v for k, v in os.environ.items() if k != "GITHUB_ACTIONS"}
    environ["PYTHONPATH"] = os.pathsep.join(sys.path)
    return subprocess.run(
        [sys.executable, "-m", "hiera_ls", *words[1:]],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**environ, **env},
    )
