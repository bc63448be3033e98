"""`hiera-ls lookup` prints the warnings `puppet lookup` prints, on stderr, in its words and
order: a data file that holds no hash, and a module's keys outside its namespace (one warning
per key, as Puppet prints them), under Puppet 8's strict settings and Puppet 7's defaults.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.oracle.engines import PUPPET7

pytestmark = pytest.mark.puppet

NODE = "web01.example.com"
HIERA = """\
version: 5
hierarchy:
  - name: Empty
    path: empty.yaml
  - name: List
    path: list.yaml
  - name: Common
    path: common.yaml
"""
MODULE_HIERA = "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"
FILES = {
    "hiera.yaml": HIERA,
    "data/empty.yaml": "# nothing yet\n",
    "data/list.yaml": "- a\n- b\n",
    "data/common.yaml": "k: 1\nmod::in_env: 2\n",
    "modules/mod/hiera.yaml": MODULE_HIERA,
    "modules/mod/data/common.yaml": "mod::x: 3\nother: 4\nanother: 5\nlookup_options: {}\n",
    "modules/tidy/hiera.yaml": MODULE_HIERA,
    "modules/tidy/data/common.yaml": "tidy::x: 6\n",
}
# Puppet 8's settings (hiera-ls' default), and Puppet 7's defaults
MODES = {
    "strict": (["--strict", "error", "--strict_variables"], []),
    "puppet7": (["--strict", "warning", "--no-strict_variables"], ["--no-strict-variables"]),
}
KEYS = ["k", "mod::x", "mod::in_env", "mod::missing", "tidy::x"]


def layout(base: Path, files: dict[str, str]) -> None:
    env = base / "environments" / "production"
    for rel, text in files.items():
        path = env / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    (base / "facts.json").write_text(json.dumps({"os": {"family": "Debian"}}))
    for d in ("conf", "code", "empty"):
        (base / d).mkdir(exist_ok=True)


def flags(base: Path) -> list[str]:
    return [
        "--environmentpath", str(base / "environments"), "--environment", "production",
        "--node", NODE, "--facts", str(base / "facts.json"),
    ]  # fmt: skip


def warnings(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("Warning: ")]


def puppet(base: Path, key: str, mode: list[str]) -> tuple[int, str, list[str]]:
    vardir = tempfile.mkdtemp(prefix="var-", dir=base)
    cmd = [
        "puppet", "lookup", "--confdir", str(base / "conf"), "--codedir", str(base / "code"),
        "--vardir", vardir, "--hiera_config", str(base / "empty" / "hiera.yaml"),
        "--basemodulepath", str(base / "empty"), "--color", "false", *mode, *flags(base), key,
    ]  # fmt: skip
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=base)
    return run.returncode, run.stdout, warnings(run.stderr)


def hiera_ls(base: Path, key: str, mode: list[str]) -> tuple[int, str, list[str]]:
    cmd = [sys.executable, "-m", "hiera_ls", "lookup", *flags(base), *mode, key]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=base)
    return run.returncode, run.stdout, warnings(run.stderr)


@pytest.mark.parametrize("mode", sorted(MODES))
def test_lookup_prints_puppets_warnings_about_the_files_it_reads(mode: str, tmp_path: Path) -> None:
    if PUPPET7.missing() is not None:  # Puppet 7.23 given each target's settings
        pytest.skip("`puppet` is not installed")
    layout(tmp_path, FILES)
    theirs_mode, ours_mode = MODES[mode]
    said = 0
    for key in KEYS:
        theirs = puppet(tmp_path, key, theirs_mode)
        ours = hiera_ls(tmp_path, key, ours_mode)
        if mode == "strict":  # a list file fails every lookup: only the exit status compares
            assert ours[0] == theirs[0], key
            continue
        assert ours == theirs, key
        said += len(theirs[2])
    if mode == "puppet7":
        assert said >= len(KEYS)  # every lookup was warned about something


def test_strict_mode_warns_of_an_empty_file_and_module_keys(tmp_path: Path) -> None:
    """Under strict=error a file without a hash that is empty still only warns."""
    if PUPPET7.missing() is not None:  # Puppet 7.23 given each target's settings
        pytest.skip("`puppet` is not installed")
    files = {**FILES, "hiera.yaml": HIERA.replace("  - name: List\n    path: list.yaml\n", "")}
    layout(tmp_path, files)
    for key in KEYS:
        theirs = puppet(tmp_path, key, MODES["strict"][0])
        assert hiera_ls(tmp_path, key, []) == theirs, key
        assert theirs[2], key  # the empty file at least
