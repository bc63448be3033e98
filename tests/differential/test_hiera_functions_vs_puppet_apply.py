"""The hiera-function hint's quick fixes give what the hiera*() calls gave, under Puppet.

A manifest reads keys with every form of hiera(), hiera_array(), hiera_hash() and
hiera_include() (defaults, a lambda, a method call, a key built at run time, a key whose
lookup_options merge or convert it, module data), and its data interpolates
``%{hiera('k')}``. `puppet apply` runs it three times: as written, with every quick fix
hiera-ls offers in the code applied, and with the data's fix applied too. Each run's
notices (every value, and the classes included) must be the same; the runs after the fixes
must log no deprecation warning, so what the fixed code calls is lookup() alone, and
``%{hiera()}`` in data is not warned of.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from hiera_ls.checks.fixes import fixes_for
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.text_edits import apply_edits
from tests.oracle.engines import PuppetEngine

pytestmark = pytest.mark.puppet

NODE = "n1.example.com"
HIERA_YAML = """\
version: 5
hierarchy:
  - name: node
    path: nodes/%{trusted.certname}.yaml
  - name: common
    path: common.yaml
"""
COMMON = """\
lookup_options:
  merged_key:
    merge: deep
  converted:
    convert_to: Integer
  ^merged_pattern::.*:
    merge: unique
classes: [n]
plain: common
merged_key: {a: {x: 1}, b: 2}
merged_pattern::list: [c]
list: [c, d]
converted: "42"
ref: "%{hiera('plain')} and %{hiera('list.0')}"
"""
NODE_DATA = """\
classes: [m]
plain: node
merged_key: {a: {y: 1}}
merged_pattern::list: [n]
list: [n, c]
"""
MODULE_HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
MODULE_DATA = "m::key: from module\nm::list: [m1]\n"
# name -> a call; each gets a notice of its value
CALLS = {
    "plain": "hiera('plain')",
    "merged": "hiera('merged_key')",
    "merged_pattern": "hiera('merged_pattern::list')",
    "default_found": "hiera('plain', 'dflt')",
    "default_missing": "hiera('nokey', 'dflt')",
    "default_undef": "hiera('nokey', undef)",
    "override_undef": "hiera('plain', 'dflt', undef)",
    "override_empty": "hiera_array('nokey', [], [ ])",
    "array": "hiera_array('list')",
    "array_default": "hiera_array('nokey', ['dflt'])",
    "array_pattern": "hiera_array('merged_pattern::list')",
    "hash": "hiera_hash('merged_key')",
    "hash_default": "hiera_hash('nokey', {'d' => 1})",
    "lambda": "hiera('nokey') |$k| { \"none for ${k}\" }",
    "array_lambda": "hiera_array('nokey') |$k| { [$k] }",
    "converted": "hiera('converted')",
    "module": "hiera('m::key')",
    "module_array": "hiera_array('m::list')",
    "method": "'plain'.hiera",
    "method_array": "'list'.hiera_array()",
    "dynamic": 'hiera("${mod}::key")',
    "dug": "hiera('merged_key.a')",
    "interpolated": "lookup('ref')",
    "merged_by_options": "lookup('merged_key')",  # what lookup() without a merge gives
}


def _environment(base: Path) -> Path:
    env = base / "environments" / "production"
    (env / "data" / "nodes").mkdir(parents=True)
    (env / "hiera.yaml").write_text(HIERA_YAML, encoding="utf-8")
    (env / "data" / "common.yaml").write_text(COMMON, encoding="utf-8")
    (env / "data" / "nodes" / f"{NODE}.yaml").write_text(NODE_DATA, encoding="utf-8")
    for name in ("m", "n", "o"):
        (env / "modules" / name / "manifests").mkdir(parents=True)
        (env / "modules" / name / "manifests" / "init.pp").write_text(
            f'class {name} {{ notice("included={name}") }}\n', encoding="utf-8"
        )
    (env / "modules" / "m" / "data").mkdir()
    (env / "modules" / "m" / "hiera.yaml").write_text(MODULE_HIERA, encoding="utf-8")
    (env / "modules" / "m" / "data" / "common.yaml").write_text(MODULE_DATA, encoding="utf-8")
    lines = ["$mod = 'm'"]
    for name, call in CALLS.items():
        lines.append(f"${name} = {call}")
        lines.append(f'notice("{name}=${{String(${name})}} ${{type(${name}, generalized)}}")')
    lines.append("hiera_include('classes')")
    lines.append("hiera_include('nokey', [ ])")  # an empty default: nothing included
    lines.append("hiera_include('nokey') |$k| { ['o'] }")  # the lambda's classes
    (env / "manifests").mkdir()
    (env / "manifests" / "site.pp").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for d in ("conf", "code", "var"):
        (base / d).mkdir()
    return env


def _apply_fixes(env: Path, path: Path) -> int:
    """Apply every quick fix hiera-ls offers for ``path``'s hiera-function hints; how many."""
    snapshot = Workspace([str(env)]).snapshot()
    problems = [
        p for p in Diagnostics().file_problems(snapshot, str(path)) if p.code == "hiera-function"
    ]
    text = path.read_text(encoding="utf-8")
    fixes = [fixes_for(p, text)[0] for p in problems]
    assert all(f.title.startswith(("Replace with", "Write")) for f in fixes), fixes
    path.write_text(apply_edits(text, [e for f in fixes for e in f.edits]), encoding="utf-8")
    return len(fixes)


def _run(engine: PuppetEngine, base: Path, env: Path) -> tuple[dict[str, str], str]:
    run = engine.apply(
        base, "--noop", "--environment", "production", "--certname", NODE,
        str(env / "manifests" / "site.pp"),
    )  # fmt: skip
    out = run.stdout + run.stderr
    notices = re.findall(r"Notice: Scope\(Class\[[\w:]+\]\): (\w+)=(.*)", out)
    found: dict[str, str] = {}
    for name, value in notices:
        found[name] = f"{found[name]},{value}" if name in found else value
    assert run.returncode == 0 and found, out[-3000:]
    return found, out


def test_every_quick_fix_gives_what_the_hiera_call_gave(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    base = tmp_path.resolve()
    env = _environment(base)
    before, said = _run(puppet_engine, base, env)
    assert "The function 'hiera_include' is deprecated" in said
    # the unique merge of the node's and common's classes, then the lambda's
    assert before["included"] == "m,n,o"
    # hiera() ignores the key's lookup_options merge: the fix passes 'first' (and converts)
    assert before["merged"] != before["merged_by_options"]
    assert before["converted"] == "42 Integer"

    site = env / "manifests" / "site.pp"
    calls = sum("hiera" in call for call in CALLS.values()) + 3  # and hiera_include()
    assert _apply_fixes(env, site) == calls  # every hiera*() call has its fix
    assert "hiera" not in site.read_text(encoding="utf-8")
    code_fixed, said = _run(puppet_engine, base, env)
    assert code_fixed == before
    # %{hiera()} in data is not warned of, and the fixed code calls no deprecated function
    assert "deprecated" not in said

    common = env / "data" / "common.yaml"
    assert _apply_fixes(env, common) == 2
    assert "%{lookup('plain')} and %{lookup('list.0')}" in common.read_text(encoding="utf-8")
    data_fixed, _ = _run(puppet_engine, base, env)
    assert data_fixed == before
