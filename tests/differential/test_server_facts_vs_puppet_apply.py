"""`%{server_facts.environment}` previews what a catalog compile gives, with `puppet apply`
(a manifest that calls lookup, offline, in a temporary environmentpath) as the reference.

Puppet's docs recommend `server_facts.environment` for a node's environment; `puppet lookup`
alone gives `{}` for `server_facts` (a known Puppet gap), so a hierarchy using it would send
a preview to the wrong files.  The oracle's ``compile`` mode, which every other differential
test uses, must agree with `puppet apply` too.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hiera_ls.project.targets import DEFAULT_TARGET
from tests.oracle.engines import PuppetEngine, settings_flags
from tests.oracle.puppet import PuppetOracle

pytestmark = pytest.mark.puppet

HIERA = """\
version: 5
hierarchy:
  - name: Environment
    path: "%{server_facts.environment}.yaml"
  - name: Common
    path: common.yaml
"""
DATA = {
    "staging.yaml": "k: from the environment's file\n",
    "common.yaml": (
        "k: common\n"
        'whole: "%{server_facts}"\n'
        'name: "env=%{server_facts.environment}"\n'
        'absent: "[%{server_facts.servername}]"\n'
    ),
}
KEYS = ["k", "whole", "name", "absent"]
NOTICE = re.compile(r"Notice: Scope\(Class\[main\]\): (.*)")


def layout(base: Path) -> Path:
    env = base / "environments" / "staging"
    (env / "data").mkdir(parents=True)
    (env / "hiera.yaml").write_text(HIERA)
    for name, text in DATA.items():
        (env / "data" / name).write_text(text)
    for d in ("conf", "code", "var"):
        (base / d).mkdir()
    (base / "facts.json").write_text(json.dumps({"clientcert": "web01", "role": "web"}))
    return env


def puppet_apply(engine: PuppetEngine, base: Path) -> list[str]:
    manifest = " ".join(f'notice(lookup("{k}"))' for k in KEYS)
    run = engine.apply(
        base, "--environment", "staging", "--hiera_config", str(base / "conf" / "none.yaml"),
        *settings_flags(DEFAULT_TARGET), "-e", manifest,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    return [m.group(1) for m in map(NOTICE.match, run.stdout.splitlines()) if m]


def hiera_ls(base: Path, key: str) -> str:
    run = subprocess.run(
        [
            sys.executable, "-m", "hiera_ls", "lookup", "--environmentpath",
            str(base / "environments"), "--environment", "staging", "--facts",
            str(base / "facts.json"), "--render-as", "s", key,
        ],
        capture_output=True, text=True, timeout=120, cwd=base,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    return run.stdout.removesuffix("\n")


def test_server_facts_are_what_puppet_apply_gives(
    tmp_path: Path, puppet_engine: PuppetEngine, puppet_oracle: PuppetOracle
) -> None:
    base = tmp_path.resolve()
    layout(base)
    theirs = puppet_apply(puppet_engine, base)
    assert theirs[0] == "from the environment's file"  # the reference really used it
    assert theirs == [hiera_ls(base, k) for k in KEYS]
    compiled = puppet_oracle.lookup_batch(
        {
            "environmentpath": str(base / "environments"),
            "environment": "staging",
            "node": "web01",
            "facts": {"clientcert": "web01"},
            "compile": True,
            "lookups": [{"key": k, "merge": None} for k in KEYS],
        }
    )
    assert [r["value"] for r in compiled] == theirs
