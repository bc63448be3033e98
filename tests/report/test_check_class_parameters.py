"""``hiera-ls check`` on the fixture control repository whose data disagrees with its Puppet
code in every way the class parameter checks know (tests/fixtures/code-repo), and on its clean
twin (tests/fixtures/code-repo-clean), which `puppet apply` compiles for both nodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.cli import main

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str]]:
    code = main(["check", *argv])
    out, _ = capsys.readouterr()
    return code, out.splitlines()


def test_every_planted_finding_is_reported_once(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURES / "code-repo")
    code, lines = check(capsys)
    assert lines == [
        "data/common.yaml:13:1: class-not-found No class or defined type 'profile::webserver' "
        "in module 'profile', and no code looks 'profile::webserver::docroot' up: Puppet never "
        "reads this key",
        "data/common.yaml:14:1: class-parameter-of-define 'profile::vhost' is a defined type, "
        "not a class: automatic parameter lookup sets only class parameters, and no code looks "
        "'profile::vhost::port' up, so Puppet never reads it",
        "data/common.yaml:15:15: class-parameter-type-mismatch Class[Ntp]: parameter 'servers' "
        "expects an Array value, got String",
        "data/nodes/web01.example.com.yaml:2:29: class-parameter-type-mismatch "
        "[web01.example.com] Class[Profile::Web]: parameter 'extra_ports' index 0 expects a "
        "Profile::Port = Integer[1, 65535] value, got Integer (the value merged for this "
        "node; this part comes from this file)",
        "data/roles/db.yaml:3:5: class-parameter-missing [db01.example.com] Class "
        "'profile::db' (included by 'role::db') has no default for parameter 'password' and "
        "no data gives 'profile::db::password' for this node: Puppet fails with "
        "\"Class[Profile::Db]: expects a value for parameter 'password'\"",
        "data/roles/web.yaml:4:21: class-parameter-type-mismatch [web01.example.com] "
        "Class[Profile::Web]: parameter 'port' expects a Profile::Port = Integer[1, 65535] "
        "value, got String (the value this node gets from this file)",
        "data/roles/web.yaml:5:1: class-parameter-unknown Class 'profile::web' has no "
        "parameter 'prot', and no code looks 'profile::web::prot' up: Puppet never reads this "
        "key. Did you mean 'port'?",
        "Found 7 problems (3 errors, 4 warnings) in 9 files, 2 facts profiles.",
    ]
    assert code == 1


def test_the_clean_twin_passes(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(FIXTURES / "code-repo-clean")
    assert check(capsys) == (0, ["All checks passed (9 files, 2 facts profiles)."])


def test_the_shipped_example_agrees_with_its_code(capsys: pytest.CaptureFixture[str]) -> None:
    example = FIXTURES.parent.parent / "examples" / "control-repo"
    assert check(capsys, str(example)) == (
        0,
        ["All checks passed (20 files, 3 facts profiles)."],
    )
