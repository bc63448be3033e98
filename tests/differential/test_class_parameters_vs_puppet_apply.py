"""Class parameter values against their types: hiera-ls' messages are the ones `puppet apply`
prints when it compiles a node that includes the class (Puppet 7.23, offline, in a temporary
environment).

Puppet reports every mismatching parameter of a class at once, one line each after the
class's name (``Class[Difft]:\\n  parameter 'port' expects an Integer value, got String``);
hiera-ls reports each on its key as ``Class[Difft]: parameter 'port' ...``: the lines must be
the same. A required parameter no data gives is compared the same way.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.workspace import Workspace
from tests.oracle.engines import PuppetEngine

pytestmark = pytest.mark.puppet

CLASS = """\
class difft (
  Integer[1, 65535] $port = 80,
  Hash[String, Array[String]] $extra = {},
  Enum['5', '6', '7'] $version = '5',
  Difft::Port $alias_port = 1,
  Hash[String, Integer, 1] $nonempty = {'a' => 1},
  Struct[{a => Integer, b => Optional[String]}] $struct = {'a' => 1},
  Array[Difft::Port] $ports = [],
  Sensitive[String] $secret = Sensitive('x'),
  Optional[String] $optional = undef,
  Variant[Integer, Enum['auto']] $variant = 'auto',
  Pattern[/^\\d+[GM]$/] $size = '1G',
  Boolean $flag = false,
  Float $ratio = 1.0,
  Array[String, 2] $two = ['a', 'b'],
  String[1] $label = 'x',
  Hash[String, Struct[{port => Integer}]] $vhosts = {},
  Integer $fine = 1,
  Integer $required,
) {
}
"""
ALIAS = "type Difft::Port = Integer[1, 65535]\n"
DATA = """\
difft::port: "8080"
difft::extra: []
difft::version: 2
difft::alias_port: 70000
difft::nonempty: {}
difft::struct: {b: x}
difft::ports: [80, "x"]
difft::secret: plain
difft::optional: 5
difft::variant: manual
difft::size: 1K
difft::flag: "yes"
difft::ratio: 1
difft::two: [a]
difft::label: ""
difft::vhosts: {a: {port: "x"}}
difft::fine: 2
"""
HIERA = """\
version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - {name: common, path: common.yaml}
"""


def layout(base: Path) -> Path:
    env = base / "environments" / "production"
    for rel, text in {
        "environment.conf": "modulepath = site-modules\n",
        "hiera.yaml": HIERA,
        "data/common.yaml": DATA,
        "site-modules/difft/manifests/init.pp": CLASS,
        "site-modules/difft/types/port.pp": ALIAS,
        "manifests/site.pp": "include difft\n",
    }.items():
        (env / rel).parent.mkdir(parents=True, exist_ok=True)
        (env / rel).write_text(text)
    for d in ("conf", "code", "var"):
        (base / d).mkdir()
    return env


def puppet_lines(engine: PuppetEngine, base: Path, env: Path, title: str = "Difft") -> set[str]:
    """The lines `puppet apply` prints under ``Class[<title>]:`` (each mismatch, one line)."""
    run = engine.apply(
        base, "--noop", "--environment", "production", "--hiera_config",
        str(base / "conf" / "none.yaml"), str(env / "manifests/site.pp"),
    )  # fmt: skip
    error = run.stdout + run.stderr
    m = re.search(rf"Class\[{title}\]:\n((?:  .*\n?)+)", error)
    assert m is not None, error[-2000:]
    lines = [line.strip() for line in m.group(1).splitlines()]
    lines[-1] = re.sub(r" \(file: .*\)? ?\(?line: .*$| \(line: .*$| on node .*$", "", lines[-1])
    lines[-1] = re.sub(r" \(file: .*$", "", lines[-1])
    return set(lines)


def hiera_ls_lines(env: Path) -> set[str]:
    workspace = Workspace([str(env)])
    snapshot = workspace.snapshot()
    found = Diagnostics().file_problems(snapshot, str(env / "data" / "common.yaml"))
    prefix = "Class[Difft]: "
    return {
        p.message.removeprefix(prefix)
        for p in found
        if p.code == "class-parameter-type-mismatch" and p.message.startswith(prefix)
    }


def test_type_mismatches_are_worded_as_puppet_apply_words_them(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    base = tmp_path.resolve()
    env = layout(base)
    theirs = puppet_lines(puppet_engine, base, env)
    # the required parameter: Puppet names it in its own sentence, after the mismatches
    assert "expects a value for parameter 'required'" in theirs
    ours = hiera_ls_lines(env)
    assert ours == theirs - {"expects a value for parameter 'required'"}
    assert len(ours) >= 15  # every planted value but `fine` is reported
