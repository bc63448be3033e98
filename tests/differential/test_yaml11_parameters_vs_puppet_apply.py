"""``yaml11-boolean`` judged by the class parameter's type is what `puppet apply` (Puppet
7.23, offline) does with the Boolean: a warning exactly where Puppet refuses it, worded with
Puppet's own line, and no finding where Puppet binds it to a Boolean."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Severity
from tests.differential.test_class_parameters_vs_puppet_apply import HIERA, puppet_lines
from tests.oracle.engines import PuppetEngine

pytestmark = pytest.mark.puppet

CLASS = """\
class yb (
  Boolean $dhcp4,
  Optional[Boolean] $maybe,
  String $answer,
  Enum['yes', 'no'] $choice,
  Hash[String, Struct[{dhcp4 => Boolean, Optional[name] => String}]] $ethernets,
) {
  notice('compiled')
}
"""
DATA = """\
yb::dhcp4: no
yb::maybe: yes
yb::answer: yes
yb::choice: no
yb::ethernets: {eth0: {dhcp4: no, name: off}}
"""
MARK = "Puppet reads `"


def test_warnings_are_where_puppet_refuses_the_boolean(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    base = tmp_path.resolve()
    env = base / "environments" / "production"
    for rel, text in {
        "environment.conf": "modulepath = site-modules\n",
        "hiera.yaml": HIERA,
        "data/common.yaml": DATA,
        "site-modules/yb/manifests/init.pp": CLASS,
        "manifests/site.pp": "include yb\n",
    }.items():
        (env / rel).parent.mkdir(parents=True, exist_ok=True)
        (env / rel).write_text(text)
    for d in ("conf", "code", "var"):
        (base / d).mkdir()
    theirs = puppet_lines(puppet_engine, base, env, "Yb")
    assert len(theirs) == 3, theirs  # answer, choice, ethernets eth0 name

    snapshot = Workspace([str(env)]).snapshot()
    found = Diagnostics().file_problems(snapshot, str(env / "data" / "common.yaml"))
    notes = [p for p in found if p.code == "yaml11-boolean"]
    assert {p.severity for p in notes} == {Severity.WARNING}
    # "Puppet reads `yes` as the Boolean true; Class[Yb]: parameter ...: quote it"
    ours = {p.message.split("; ", 1)[1].removesuffix(": quote it") for p in notes}
    assert ours == {f"Class[Yb]: {line}" for line in theirs}
    assert [p.where.span.start.line for p in notes] == [2, 3, 4]
