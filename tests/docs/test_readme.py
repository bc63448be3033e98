"""The README's first command does what the README says, on the data the project ships."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _first_command_and_output() -> tuple[list[str], str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"^    python3 -m pip install \. && (hiera-ls .+)$", text, re.M)
    output = re.search(r"^```yaml\n(.*?)^```", text, re.M | re.S)
    assert command is not None and output is not None, "the README lost its first command"
    assert command.start() < output.start()
    return shlex.split(command.group(1)), output.group(1)


def test_first_command_prints_the_merged_value_shown() -> None:
    argv, shown = _first_command_and_output()
    assert argv[0] == "hiera-ls"
    run = subprocess.run(
        [sys.executable, "-m", "hiera_ls", *argv[1:]],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout == shown
