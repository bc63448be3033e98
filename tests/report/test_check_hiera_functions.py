"""``hiera-ls check`` on Puppet code that calls hiera*(): a hint per call, where it is, with
the lookup() that gives the same value, or why there is none; and on data that interpolates
``%{hiera('k')}``. (tests/differential/test_hiera_functions_vs_puppet_apply.py checks the
fixes against Puppet.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.checks.fixes import fixes_for
from hiera_ls.cli import main
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.workspace import Workspace

HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
MODULE_HIERA = HIERA
COMMON = """\
lookup_options:
  merged: {merge: deep}
  ^pattern::: {merge: unique}
merged: {a: 1}
pattern::list: [a]
plain: 1
motd: "%{hiera('plain')} and %{lookup('plain')}"
"""
SITE = """\
$a = hiera('plain')
$b = hiera('merged')
$c = hiera('pattern::list', [])
$d = hiera_hash('merged', {})
$e = hiera('plain', 'd', 'special')
$f = hiera(['plain', 'd'])
hiera_include('classes') |$k| { [] }
$g = hiera('plain', 'd', undef) # hiera-ls: disable-line=hiera-function
$h = "${hiera_array('m::list')}"
"""
DEPRECATED = "hiera-function {}() is deprecated (Puppet 8 logs a deprecation warning for it)"


def _write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "production"
    _write(
        root,
        {
            "hiera.yaml": HIERA,
            "data/common.yaml": COMMON,
            "manifests/site.pp": SITE,
            "modules/m/hiera.yaml": MODULE_HIERA,
            "modules/m/data/common.yaml": "m::list: [x]\n",
            "modules/m/manifests/init.pp": "class m { $x = hiera_array('m::list') }\n",
            "modules/m/templates/motd.epp": "Welcome to <%= hiera('plain') %>\n",
        },
    )
    return root


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(["check", *argv])
    out, _ = capsys.readouterr()
    return code, out.splitlines()


def test_each_call_gets_a_hint_with_the_same_lookup_or_why_there_is_none(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, repo: Path
) -> None:
    monkeypatch.chdir(repo)
    code, lines = check(capsys, "--select", "hiera-function")
    hiera, array = DEPRECATED.format("hiera"), DEPRECATED.format("hiera_array")
    no_equivalent = ", and lookup() has no exact equivalent here: "
    assert lines == [
        "data/common.yaml:7:8: hiera-function %{hiera('plain')} is %{lookup('plain')} under an "
        "old name: in data, Puppet reads hiera as an alias of lookup (and does not warn of it); "
        "lookup is the name Puppet's documentation uses, as in code, where hiera() is "
        "deprecated",
        f"manifests/site.pp:1:6: {hiera}: lookup('plain') gives the same value",
        f"manifests/site.pp:2:6: {hiera}: lookup('merged', {{'merge' => 'first'}}) gives the "
        "same value (lookup_options give 'merged' a merge, which hiera() ignores and lookup() "
        "without a merge argument would use)",
        f"manifests/site.pp:3:6: {hiera}: lookup('pattern::list', {{'merge' => 'first', "
        "'default_value' => []}) gives the same value (lookup_options give 'pattern::list' a "
        "merge, which hiera() ignores and lookup() without a merge argument would use)",
        f"manifests/site.pp:4:6: {DEPRECATED.format('hiera_hash')}: lookup('merged', "
        "{'merge' => 'hash', 'default_value' => {}}) gives the same value",
        f"manifests/site.pp:5:6: {hiera}{no_equivalent}its override ('special') names a data "
        "source searched before the hierarchy, which lookup() cannot: move that data into a "
        "hierarchy level",
        f"manifests/site.pp:6:6: {hiera}{no_equivalent}its one argument is an array holding "
        "the arguments (key, default, override), where lookup() reads an array as keys to try "
        "in turn: write the arguments out",
        f"manifests/site.pp:7:1: {DEPRECATED.format('hiera_include')}: lookup('classes', "
        "{'merge' => 'unique'}) |$k| { [] }.include gives the same value",
        f"manifests/site.pp:9:9: {array}: lookup('m::list', {{'merge' => 'unique'}}) gives "
        "the same value",
        f"modules/m/manifests/init.pp:1:16: {array}: lookup('m::list', {{'merge' => 'unique'}}) "
        "gives the same value",
        f"modules/m/templates/motd.epp:1:16: {hiera}: lookup('plain') gives the same value",
        "Found 11 problems (11 hints) in 7 files.",
    ]
    assert code == 0  # hints do not fail a run


def test_the_message_names_the_target(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, repo: Path
) -> None:
    monkeypatch.chdir(repo)
    for target, title in (("puppet7", "Puppet 7"), ("openvox9", "OpenVox 9")):
        _, lines = check(capsys, "--select", "hiera-function", "--target", target)
        assert (
            f"manifests/site.pp:1:6: hiera-function hiera() is deprecated ({title} logs a "
            in (lines[1])
        )


def test_without_an_environment_hiera_yaml_a_module_key_gets_no_fix(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, repo: Path
) -> None:
    """hiera*() then reads the global layer only; lookup() also the key's module."""
    (repo / "hiera.yaml").unlink()
    monkeypatch.chdir(repo)
    _, lines = check(capsys, "--select", "hiera-function")
    assert lines[-3] == (
        f"modules/m/manifests/init.pp:1:16: {DEPRECATED.format('hiera_array')}, and lookup() "
        "has no exact equivalent here: this environment has no version 5 hiera.yaml, so "
        "hiera_array() reads only the global hiera.yaml, where lookup() also reads module m's "
        "data"
    )


def test_the_quick_fixes_are_the_lookups_the_hints_name(repo: Path) -> None:
    snapshot = Workspace([str(repo)]).snapshot()
    site = repo / "manifests" / "site.pp"
    problems = Diagnostics().file_problems(snapshot, str(site))
    text = site.read_text(encoding="utf-8")
    offered = [[f.title for f in fixes_for(p, text)] for p in problems]
    assert offered[0] == ["Replace with lookup('plain')"]  # no YAML comment in Puppet code
    assert offered[4:6] == [[], []]  # no equivalent: no fix
    include = problems[6]  # with its lambda, which the fix keeps, .include after it
    assert (include.where.span.start.column, include.where.span.end.column) == (0, 36)
    assert offered[6] == [
        "Replace with lookup('classes', {'merge' => 'unique'}) |$k| { [] }.include"
    ]
    common = repo / "data" / "common.yaml"
    found = Diagnostics().file_problems(snapshot, str(common))
    (hint,) = [p for p in found if p.code == "hiera-function"]
    fix, disable = fixes_for(hint, common.read_text(encoding="utf-8"))
    assert disable.title == "Disable hiera-function on this line"
    assert fix.title == "Write %{lookup(...)}" and not fix.safe
    assert fix.edits[0].new_text == "%{lookup('plain')}"
