"""The merge a manifest asks for, and hash keys in Puppet's order: what hiera-ls previews
for a key read with ``lookup('k', Hash, 'deep')``, ``lookup('k', {merge => ...})``, ``hiera_hash``,
``hiera_array``, ``hiera`` or automatic parameter lookup is what `puppet apply` (Puppet 7.23,
offline) binds there, in Puppet's order.

The fixture's manifests notice every value they read; each notice is compared with the
lookup hiera-ls runs for the merge that call asks for (project/asked_merges.py), and the
hover's value is the first asked merge's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from hiera_ls.features.hover import hover
from hiera_ls.features.puppet_code import merge_value, previewed_merges, ready_code_index
from hiera_ls.features.render import yaml_block
from hiera_ls.features.sessions import new_session
from hiera_ls.project.workspace import Workspace
from hiera_ls.puppet.ruby_text import puppet_string
from hiera_ls.source.spans import Position
from tests.oracle.engines import PuppetEngine

pytestmark = pytest.mark.puppet

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "merge-repo"
NODE = "n1.example.com"
ASSIGNED = re.compile(r"^\s*\$(\w+)\s*=")
KEY = re.compile(r"^([\w:.]+):(?:\s|$)")


def _puppet_notices(engine: PuppetEngine, base: Path, env: Path) -> dict[str, str]:
    """``name=value`` notices of `puppet apply` for the node (role web)."""
    run = engine.apply(
        base, "--noop", "--environment", "production", "--certname", NODE,
        str(env / "manifests/site.pp"), env={**os.environ, "FACTER_role": "web"},
    )  # fmt: skip
    out = run.stdout + run.stderr
    found = dict(re.findall(r"Notice: Scope\(Class\[[\w:]+\]\): (\w+)=(.*)", out))
    assert found, out[-2000:]
    return found


def test_previews_use_the_merge_each_call_asks_for_as_puppet_apply_binds(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    base = tmp_path.resolve()
    env = base / "environments" / "production"
    shutil.copytree(FIXTURE, env)
    theirs = _puppet_notices(puppet_engine, base, env)

    workspace = Workspace([str(env)])
    workspace.select_profile(NODE)
    snapshot = workspace.snapshot()
    view = snapshot.environments[0]
    code = ready_code_index(snapshot, view)
    assert code is not None
    session = new_session(snapshot, view)  # the active profile's, as the hover's
    common = env / "data" / "common.yaml"
    lines = common.read_text(encoding="utf-8").splitlines()
    ours: dict[str, str] = {}
    for number, line in enumerate(lines):
        m = KEY.match(line)
        if m is None or m.group(1) == "lookup_options":
            continue
        key = m.group(1)
        asked = previewed_merges(snapshot, view, key)
        for merge in asked:
            for call in merge.calls:
                source = Path(call.path).read_text(encoding="utf-8").splitlines()
                assigned = ASSIGNED.match(source[call.span.start.line])
                if assigned is not None and merge.known:
                    outcome = session.lookup(call.key or key, merge.argument())
                    ours[assigned.group(1)] = puppet_string(outcome.value)
        parameter = code.parameter_for_key(key)
        if parameter is not None:  # automatic parameter lookup: the key's lookup_options
            ours[parameter.parameter.name] = puppet_string(session.lookup(key).value)
        # the hover previews the first merge the code asks for
        primary = merge_value(asked)
        shown = hover(snapshot, str(common), Position(number, 1))
        assert shown is not None
        value = session.lookup(key, primary.argument() if primary else None).value
        assert yaml_block(value) in shown.markdown, key
    # the computed merge ($merge) is not previewed; every other read is Puppet's
    assert ours == {k: v for k, v in theirs.items() if k != "computed"}
    assert set(theirs) - set(ours) == {"computed"}


def _puppet_lookup(engine: PuppetEngine, base: Path, key: str, merge: str | None) -> object:
    """What `puppet lookup --render-as yaml` prints for the node (its key order kept). The
    node's facts come from facter with the role set (``--facts`` would leave
    ``trusted.certname`` empty)."""
    run = subprocess.run(
        engine.command([
            "puppet", "lookup", "--confdir", str(base / "conf"), "--codedir", str(base / "code"),
            "--vardir", str(base / "var"), "--environmentpath", str(base / "environments"),
            "--environment", "production", "--certname", NODE, "--render-as", "yaml",
            *(["--merge", merge] if merge else []), key,
        ], cwd=base),
        capture_output=True, text=True, timeout=300, cwd=base,
        env={**os.environ, "FACTER_role": "web"},
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-2000:]
    return YAML(typ="safe").load(run.stdout)


def test_hover_shows_hash_keys_in_the_order_puppet_lookup_prints(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    base = tmp_path.resolve()
    env = base / "environments" / "production"
    shutil.copytree(FIXTURE, env)
    for d in ("conf", "code", "var"):
        (base / d).mkdir()
    workspace = Workspace([str(env)])
    workspace.select_profile(NODE)
    snapshot = workspace.snapshot()
    view = snapshot.environments[0]
    common = env / "data" / "common.yaml"
    lines = common.read_text(encoding="utf-8").splitlines()
    for key, merge in (
        ("profile::base::settings", "deep"),
        ("profile::base::users", "hash"),
        ("mixed", "deep"),
        ("profile::apl::conf", None),  # lookup_options' deep merge
    ):
        primary = merge_value(previewed_merges(snapshot, view, key))
        assert (primary.value if primary else None) == merge, key
        theirs = _puppet_lookup(puppet_engine, base, key, merge)
        number = next(i for i, line in enumerate(lines) if line.startswith(f"{key}:"))
        shown = hover(snapshot, str(common), Position(number, 1))
        assert shown is not None
        # the value the hover renders: the same, its keys in the same order
        block = shown.markdown.split("```yaml\n", 1)[1].split("```", 1)[0]
        assert json.dumps(YAML(typ="safe").load(block)) == json.dumps(theirs), key
        assert json.dumps(theirs) != json.dumps(theirs, sort_keys=True), key  # not sorted
