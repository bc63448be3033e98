"""``yaml11-boolean`` where the code says what the value is for: silent on a value a
``Boolean`` parameter takes (``dhcp4: no`` meant the Boolean), a warning where the
parameter wants a String (Puppet binds the Boolean and refuses it), a note as before where
nothing is known."""

from __future__ import annotations

from pathlib import Path

import pytest

import hiera_ls.features.diagnostics as diagnostics
from hiera_ls.checks.registry import check_data_file
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Problem, Severity
from tests.checks.support import make_workspace
from tests.checks.test_class_parameters import define, index, param

HIERA = "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"
NET = define(
    "profile::net",
    param("dhcp4", "Boolean", "true"),
    param("maybe", "Optional[Boolean]"),
    param("answer", "String", "'yes'"),
    param("choice", "Enum['yes', 'no']", "'no'"),
    param("either", "Variant[Boolean, String]", "true"),
    param("untyped", None),
    param("count", "Integer", "1"),
    param("ethernets", "Hash[String, Struct[{dhcp4 => Boolean, Optional[name] => String}]]"),
    param("loose", "Optional[Hash]"),
)
CODE = index(NET)
DATA = """\
profile::net::dhcp4: no
profile::net::maybe: yes
profile::net::answer: yes
profile::net::choice: no
profile::net::either: on
profile::net::untyped: off
profile::net::count: off
other::key: no
profile::net::nested: {flag: no}
profile::net::ethernets: {eth0: {dhcp4: no, name: yes}}
profile::net::loose: {eth0: {dhcp4: no}}
"""


def _notes(tmp_path: Path, code: object) -> dict[int, tuple[Severity, str]]:
    """line -> the note on it (one a line)."""
    ws = make_workspace(tmp_path, {"data/common.yaml": DATA})
    found = check_data_file(ws.index, ws.source("data/common.yaml"), None, ws.env, code)  # type: ignore[arg-type]
    lines = [p.where.span.start.line for p in found if p.code == "yaml11-boolean"]
    assert len(lines) == len(set(lines)) or code is None
    return {
        p.where.span.start.line: (p.severity, p.message)
        for p in found
        if p.code == "yaml11-boolean"
    }


def test_a_boolean_parameter_silences_it_a_string_parameter_makes_it_a_warning(
    tmp_path: Path,
) -> None:
    notes = _notes(tmp_path, CODE)
    # lines 0 and 1 feed Boolean parameters, and line 9's dhcp4 a Boolean in a Struct
    assert sorted(notes) == [2, 3, 4, 5, 6, 7, 8, 9, 10]
    assert notes[2] == (
        Severity.WARNING,
        "Puppet reads `yes` as the Boolean true; Class[Profile::Net]: parameter 'answer' "
        "expects a String value, got Boolean: quote it",
    )
    assert notes[3][0] is Severity.WARNING
    assert "parameter 'choice' expects a match for Enum['no', 'yes'], got Boolean" in notes[3][1]
    assert notes[9] == (
        Severity.WARNING,
        "Puppet reads `yes` as the Boolean true; Class[Profile::Net]: parameter 'ethernets' "
        "entry 'eth0' entry 'name' expects a String value, got Boolean: quote it",
    )
    # takes both, no type, neither, no class, a Hash saying nothing of it: as without code
    for line in (4, 5, 6, 7, 8, 10):
        assert notes[line][0] is Severity.INFORMATION, line


def test_without_the_code_index_every_one_is_a_note(tmp_path: Path) -> None:
    notes = _notes(tmp_path, None)
    assert sorted(notes) == list(range(11))
    assert {severity for severity, _ in notes.values()} == {Severity.INFORMATION}


def test_the_quick_answer_after_an_edit_keeps_the_judgement(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An expensive file's quick answer (loader notes fresh, checks' findings moved) shows
    the judged note once, and not the one a Boolean parameter silenced."""
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA)
    pp = tmp_path / "site-modules" / "profile" / "manifests" / "net.pp"
    pp.parent.mkdir(parents=True)
    pp.write_text("class profile::net (String $answer, Boolean $dhcp4) {}\n")
    (tmp_path / "environment.conf").write_text("modulepath = site-modules\n")
    path = str(tmp_path / "data" / "common.yaml")
    text = "profile::net::answer: yes\nprofile::net::dhcp4: no\n"
    Path(path).write_text(text)
    ws = Workspace([str(tmp_path)])
    d = Diagnostics()

    def notes(found: list[Problem]) -> list[tuple[int, Severity]]:
        return [(p.where.span.start.line, p.severity) for p in found if p.code == "yaml11-boolean"]

    assert notes(d.file_problems(ws.snapshot(), path)) == [(0, Severity.WARNING)]
    monkeypatch.setattr(diagnostics, "FAST_BUDGET_S", 0.0)  # every file counts as expensive
    ws.update_buffer(path, "b: 1\n" + text)
    assert notes(d.quick_problems(ws.snapshot(), path)) == [(1, Severity.WARNING)]
