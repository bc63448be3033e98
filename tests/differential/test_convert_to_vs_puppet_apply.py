"""Class parameters whose key has a ``convert_to`` lookup option: hiera-ls judges the value
Puppet binds (converted, ``Sensitive`` wrapped as Puppet wraps it), so its type findings are
the lines `puppet apply` prints when it compiles the class (Puppet 7.23, offline), no more.

Every conversion hiera-ls does is here (Sensitive, Array, ``[Array, true]``, Boolean,
Integer, Float, Numeric, String), each once with a value the parameter takes and once with
one it refuses; and conversions hiera-ls does not do (``Hash``, ``[Integer, 16]``), which
Puppet compiles: hiera-ls must stay silent on those rather than judge the unconverted value.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.workspace import Workspace
from tests.differential.test_class_parameters_vs_puppet_apply import HIERA, puppet_lines
from tests.oracle.engines import PuppetEngine

pytestmark = pytest.mark.puppet

# (parameter declaration, convert_to, value in YAML)
CASES = [
    ("Sensitive[String] $secret", "Sensitive", "hunter2"),
    ("Sensitive[Integer] $pin", "Sensitive", '"1234"'),
    ("String $plain", "Sensitive", "hunter2"),
    ("Sensitive[Array[String]] $keys", "Sensitive", "[a, b]"),
    ("Sensitive[Hash[String, Integer]] $map", "Sensitive", "{a: x}"),
    ("Sensitive[String[10]] $short", "Sensitive", "abc"),
    ("Sensitive $anything", "Sensitive", "5"),
    ("Optional[Sensitive[String]] $maybe", "Sensitive", "x"),
    ("Array[String] $wrapped", "[Array, true]", "one"),
    ("Array[Integer] $wrapped_bad", "[Array, true]", "one"),
    ("Array[String] $chars", "Array", "abc"),
    ("Array[String, 4] $chars_bad", "Array", "abc"),
    ("Integer $port", "Integer", '"8080"'),
    ("Integer[1, 1024] $port_bad", "Integer", '"8080"'),
    ("Float $ratio", "Float", '"0.5"'),
    ("Float[1.0] $ratio_bad", "Float", '"0.5"'),
    ("Numeric $number", "Numeric", '"0x10"'),
    ("Integer[20] $number_bad", "Numeric", '"0x10"'),
    ("Boolean $flag", "Boolean", '"yes"'),
    ("String $flag_bad", "Boolean", '"yes"'),
    ("String $text", "String", "42"),
    ("Integer $text_bad", "String", "42"),
    # conversions hiera-ls does not do: Puppet compiles these, hiera-ls must not guess
    ("Hash[String, Integer] $pairs", "Hash", "[[a, 1], [b, 2]]"),
    ("Integer $decimal", "[Integer, 10]", '"042"'),
]
CLASS = (
    "class conv (\n"
    + "".join(f"  {declaration},\n" for declaration, _, _ in CASES)
    + ") {\n  notice('compiled')\n}\n"
)


def _name(declaration: str) -> str:
    return declaration.rsplit("$", 1)[1]


DATA = (
    "lookup_options:\n"
    + "".join(f"  conv::{_name(d)}: {{convert_to: {c}}}\n" for d, c, _ in CASES)
    + "".join(f"conv::{_name(d)}: {v}\n" for d, _, v in CASES)
)


def layout(base: Path) -> Path:
    env = base / "environments" / "production"
    for rel, text in {
        "environment.conf": "modulepath = site-modules\n",
        "hiera.yaml": HIERA,
        "data/common.yaml": DATA,
        "site-modules/conv/manifests/init.pp": CLASS,
        "manifests/site.pp": "include conv\n",
        ".hiera-ls/facts/node.example.com.json": json.dumps({"os": {"family": "Debian"}}),
    }.items():
        (env / rel).parent.mkdir(parents=True, exist_ok=True)
        (env / rel).write_text(text)
    for d in ("conf", "code", "var"):
        (base / d).mkdir()
    return env


def hiera_ls_lines(env: Path) -> set[str]:
    workspace = Workspace([str(env)])
    workspace.select_profile("node.example.com")
    snapshot = workspace.snapshot()
    assert [p.name for p in snapshot.profiles] == ["node.example.com"]
    found = Diagnostics().file_problems(snapshot, str(env / "data" / "common.yaml"))
    prefix = "[node.example.com] Class[Conv]: "
    suffix = " (the value this node gets from this file)"
    return {
        p.message.removeprefix(prefix).removesuffix(suffix)
        for p in found
        if p.code == "class-parameter-type-mismatch"
    }


def test_type_findings_after_convert_to_are_the_ones_puppet_apply_prints(
    tmp_path: Path, puppet_engine: PuppetEngine
) -> None:
    base = tmp_path.resolve()
    env = layout(base)
    theirs = puppet_lines(puppet_engine, base, env, "Conv")
    ours = hiera_ls_lines(env)
    assert ours == theirs
    refused = {_name(d) for d, _, _ in CASES if _name(d).endswith("_bad")}
    refused |= {"pin", "plain", "map"}
    assert {line.split("'")[1] for line in theirs} == refused
