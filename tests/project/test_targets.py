"""The target: named once (.hiera-ls.yaml, --target, hiera.target), and what it decides for
the workspace (strictness, a facts profile's legacy facts) as every feature sees it."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.features.sessions import new_session
from hiera_ls.project.environments import ModuleDirs
from hiera_ls.project.settings import Settings, parse_settings
from hiera_ls.project.targets import DEFAULT_TARGET, TARGETS, choose_target
from hiera_ls.project.workspace import Workspace
from tests.project.test_workspace import write

HIERA = """\
version: 5
hierarchy:
  - name: OS
    path: "os/%{facts.osfamily}.yaml"
  - name: Common
    path: common.yaml
"""
FILES = {
    "hiera.yaml": HIERA,
    "data/os/Debian.yaml": "pkg: apt\n",
    "data/common.yaml": 'pkg: none\nmotd: "on %{::operatingsystem}"\nsafe: "%{facts.os.name}"\n',
    ".hiera-ls/facts/web01.yaml": (
        "clientcert: web01\nosfamily: Debian\noperatingsystem: Debian\n"
        "os: {family: Debian, name: Debian}\n"
    ),
}


def test_the_table_is_puppet_and_openvox_with_their_defaults() -> None:
    assert DEFAULT_TARGET.name == "puppet8"
    assert [t.name for t in TARGETS.values()] == ["puppet7", "puppet8", "openvox8", "openvox9"]
    p7, p8, o8, o9 = TARGETS.values()
    assert (p7.strict, p7.strict_variables, p7.include_legacy_facts) == ("warning", False, True)
    for t in (p8, o8, o9):
        assert (t.strict, t.strict_variables, t.include_legacy_facts) == ("error", True, False)
    assert [t.environment_data_provider for t in (p7, p8, o8, o9)] == [True, True, True, False]
    assert p7.undefined_variable == "Puppet 7 (no strict_variables) warns and writes '' here"
    assert o9.undefined_variable == (
        "with strict_variables (OpenVox 9's default) every lookup that reads this value fails"
    )


def test_the_flag_wins_then_the_deprecated_switch_then_the_repository() -> None:
    assert choose_target(None, None) == choose_target(None, None, None)
    assert choose_target(None, None).target.name == "puppet8"
    assert choose_target(None, "puppet7").target.name == "puppet7"
    assert choose_target("openvox9", "puppet7").target.name == "openvox9"
    old = choose_target(None, "openvox9", False, deprecated_as="hiera.strictVariables")
    assert old.target.name == "puppet7"
    assert old.notes == (
        "hiera.strictVariables is deprecated and will be removed in a later release: use "
        "--target puppet7 (what it means now), or name the target once in .hiera-ls.yaml "
        "(target: puppet7 | puppet8 | openvox8 | openvox9)",
    )
    both = choose_target("puppet8", None, False, given_as="hiera.target")
    assert both.target.name == "puppet8" and "ignored" in both.notes[0]


def test_the_editor_setting_is_checked() -> None:
    parsed = parse_settings({"hiera": {"target": "openvox8"}})
    assert parsed.settings.target == "openvox8" and parsed.messages == ()
    bad = parse_settings({"hiera": {"target": "puppet6"}})
    assert bad.settings.target is None
    assert bad.messages == (
        'hiera.target must be one of "puppet7", "puppet8", "openvox8", "openvox9"; ignored',
    )
    assert parse_settings({"hiera.strictVariables": False}).settings.strict_variables is False


def _values(ws: Workspace) -> dict[str, object]:
    snap = ws.snapshot()
    session = new_session(snap, snap.environments[0])
    out: dict[str, object] = {}
    for key in ("pkg", "motd", "safe"):
        found = session.lookup(key)
        out[key] = found.error if found.error is not None else found.value
    return out


def test_a_puppet_8_node_has_no_legacy_facts_so_neither_has_its_preview(tmp_path: Path) -> None:
    root = write(tmp_path / "repo", FILES)
    ws = Workspace([str(root)], Settings(facts_profile="web01"))
    assert ws.snapshot().target.name == "puppet8"
    assert _values(ws) == {
        "pkg": "none",  # os/%{facts.osfamily}.yaml is os/.yaml for this node
        "motd": "Undefined variable '::operatingsystem'; ",
        "safe": "Debian",
    }
    (note,) = ws.snapshot().messages
    assert note.startswith("Puppet 8 agents do not send Facter's legacy facts")
    assert "1 facts profile is read without osfamily, operatingsystem" in note
    (root / ".hiera-ls.yaml").write_text("target: puppet7\n")
    ws.disk_changed(str(root / ".hiera-ls.yaml"), created_or_deleted=True)
    assert ws.snapshot().target.name == "puppet7"
    assert ws.snapshot().messages == ()
    assert _values(ws) == {"pkg": "apt", "motd": "on Debian", "safe": "Debian"}
    ws.set_settings(Settings(facts_profile="web01", target="openvox9"))  # the editor's wins
    assert ws.snapshot().target.name == "openvox9"
    assert _values(ws)["pkg"] == "none"


def test_the_deprecated_editor_setting_still_chooses_with_a_note(tmp_path: Path) -> None:
    root = write(tmp_path / "repo", FILES)
    ws = Workspace([str(root)], Settings(facts_profile="web01", strict_variables=False))
    snap = ws.snapshot()
    assert snap.target.name == "puppet7"
    assert snap.messages[0].startswith("hiera.strictVariables is deprecated")
    assert _values(ws)["motd"] == "on Debian"


def test_two_repositories_that_disagree_are_told(tmp_path: Path) -> None:
    a = write(tmp_path / "a", {**FILES, ".hiera-ls.yaml": "target: puppet7\n"})
    b = write(tmp_path / "b", {**FILES, ".hiera-ls.yaml": "target: openvox9\n"})
    snap = Workspace([str(a), str(b)]).snapshot()
    assert snap.target.name == "puppet7"
    assert any("name different targets" in m for m in snap.messages)


@pytest.mark.parametrize(("target", "expected"), [("puppet7", 0), ("puppet8", 1)])
def test_a_data_file_that_is_not_a_hash_fails_under_strict_error_only(
    tmp_path: Path, target: str, expected: int
) -> None:
    hiera = "version: 5\nhierarchy:\n  - {name: A, path: list.yaml}\n  - {name: B, path: c.yaml}\n"
    files = {"hiera.yaml": hiera, "data/list.yaml": "- not\n- a hash\n", "data/c.yaml": "pkg: 1\n"}
    root = write(tmp_path / "repo", files)
    ws = Workspace([str(root)], Settings(facts_profile="web01", target=target))
    snap = ws.snapshot()
    found = new_session(snap, snap.environments[0]).lookup("pkg")
    assert (found.error is not None) == bool(expected)


def test_openvox_9_no_longer_reads_environment_data_provider(tmp_path: Path) -> None:
    root = write(
        tmp_path / "production",
        {
            "environment.conf": "environment_data_provider = hiera\n",
            "data/common.yaml": "k: env\nm::k: env\n",
            "modules/m/metadata.json": '{"name": "x-m", "data_provider": "hiera"}\n',
            "modules/m/data/common.yaml": "m::k: module\nm::only: module\n",
        },
    )

    def answers(target: str) -> list[object]:
        ws = Workspace([str(root)], Settings(target=target, module_dirs=ModuleDirs.MODULEPATH))
        snap = ws.snapshot()
        session = new_session(snap, snap.environments[0])
        return [session.lookup(k).value for k in ("k", "m::k", "m::only")]

    assert answers("puppet8") == answers("openvox8") == ["env", "env", "module"]
    # metadata.json's data_provider is still read by OpenVox 9.0 (lookup_adapter.rb)
    assert answers("openvox9") == [None, "module", "module"]


def test_every_command_takes_target() -> None:
    from hiera_ls.cli import build_parser
    from hiera_ls.lsp.serve import create_server

    parser = build_parser()
    for command in ("lookup", "check", "diff", "serve"):
        assert parser.parse_args([command, "--target", "openvox9"]).target == "openvox9"
    with pytest.raises(SystemExit):
        parser.parse_args(["check", "--target", "puppet6"])
    assert create_server("puppet7").init_settings.target == "puppet7"  # the editor's wins
