"""Legacy facts as each reference Puppet reads them (checks/legacy_facts.py's claims), and the
``legacy-fact`` quick fix checked against Puppet: after it, Puppet 8.10 (whose node sends no
legacy facts) gives the answer Puppet 7.23 gave before it.

Each Puppet is given the facts its node sends (``node_facts``: Puppet 8's without Facter's
legacy facts, as ``include_legacy_facts = false`` has it), and ``hiera-ls lookup`` the same
file with that ``--target``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hiera_ls.checks.fixes import fixes_for
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.text_edits import apply_edits
from tests.differential.test_cli_vs_puppet_lookup import both, layout, same
from tests.oracle.engines import PuppetEngine, node_facts

pytestmark = pytest.mark.puppet

FACTS = {
    "osfamily": "RedHat",
    "operatingsystem": "CentOS",
    "os": {"family": "RedHat", "name": "CentOS"},
}
ENV = "environments/production"
HIERA = """\
version: 5
hierarchy:
  - name: bare
    path: "bare/%{osfamily}.yaml"
  - name: top scope
    path: "top/%{::osfamily}.yaml"
  - name: dug
    path: "dug/%{facts.osfamily}.yaml"
  - name: common
    path: common.yaml
"""
FILES = {
    f"{ENV}/hiera.yaml": HIERA,
    f"{ENV}/data/bare/RedHat.yaml": "bare: from bare/RedHat\n",
    f"{ENV}/data/top/RedHat.yaml": "top: from top/RedHat\n",
    f"{ENV}/data/dug/RedHat.yaml": "dug: from dug/RedHat\n",
    f"{ENV}/data/common.yaml": (
        "bare: common\ntop: common\ndug: common\n"
        "d_bare: 'on %{operatingsystem}'\n"
        "d_top: 'on %{::operatingsystem}'\n"
        "d_dug: 'on %{facts.operatingsystem}'\n"
        "d_scope: \"on %{scope('operatingsystem')}\"\n"
    ),
}
KEYS = ["bare", "top", "dug", "d_bare", "d_top", "d_dug", "d_scope"]
# What a node of Puppet 7 (legacy facts sent) gets: what the quick fix must keep
PUPPET7_ANSWERS = [
    "--- from bare/RedHat\n",
    "--- from top/RedHat\n",
    "--- from dug/RedHat\n",
    *["--- on CentOS\n"] * 4,
]


def write(base: Path, engine: PuppetEngine) -> None:
    layout(base, FILES)
    (base / "facts.json").write_text(json.dumps(node_facts(FACTS, engine.target)))


def test_each_form_reads_as_puppet_reads_it(tmp_path: Path, puppet_engine: PuppetEngine) -> None:
    write(tmp_path, puppet_engine)
    lines = [[k] for k in KEYS]
    pairs = both(puppet_engine, tmp_path, lines)
    assert same(pairs, lines) == len(KEYS)
    theirs = [t for t, _ in pairs]
    if puppet_engine.target.include_legacy_facts:
        assert [t.stdout for t in theirs] == PUPPET7_ANSWERS
        return
    # Puppet 8: every level matches nothing without a word; bare and :: fail, facts. is ''
    assert [t.stdout for t in theirs[:3]] == ["--- common\n"] * 3
    assert [t.error.split(";")[0] for t in theirs[3:5]] == [
        "Undefined variable 'operatingsystem'",
        "Undefined variable '::operatingsystem'",
    ]
    assert theirs[5].stdout == "--- 'on '\n"
    assert theirs[6].error.startswith("Undefined variable 'operatingsystem'")


def test_quick_fix_gives_under_puppet_8_what_puppet_7_gave(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    write(tmp_path, puppet_engine)
    root = tmp_path / ENV
    workspace = Workspace([str(root)])  # target puppet8, the default: every finding's fix
    snapshot = workspace.snapshot()
    diagnostics = Diagnostics()
    diagnostics.rebuild_stale(snapshot, 0)
    fixed = 0
    for rel in ("hiera.yaml", "data/common.yaml"):
        path = root / rel
        text = path.read_text()
        found = [
            p for p in diagnostics.file_problems(snapshot, str(path)) if p.code == "legacy-fact"
        ]
        edits = [fixes_for(p, text)[0] for p in found]
        assert all(f.title.startswith("Read the structured fact") for f in edits)
        path.write_text(apply_edits(text, [e for f in edits for e in f.edits]))
        fixed += len(found)
    assert fixed == 7
    assert "%{facts.os.family}" in (root / "hiera.yaml").read_text()
    lines = [[k] for k in KEYS]
    pairs = both(puppet_engine, tmp_path, lines)
    assert same(pairs, lines) == len(KEYS)
    assert [t.stdout for t, _ in pairs] == PUPPET7_ANSWERS
