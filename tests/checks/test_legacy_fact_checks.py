"""Legacy facts under a Puppet 8 target: a hierarchy level that silently matches nothing, a
value whose lookups fail, each with the structured fact that holds the value now.

What Puppet 8.10 does with them is checked in tests/differential/test_legacy_facts_vs_puppet.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.checks.fixes import fixes_for
from hiera_ls.checks.interpolation import token_problems
from hiera_ls.checks.legacy_facts import LegacyFacts
from hiera_ls.cli import main
from hiera_ls.project.targets import PUPPET7, PUPPET8
from hiera_ls.source.spans import Problem, Span
from hiera_ls.source.text_edits import apply_edits

PATH = "/env/data/common.yaml"
PUPPET8_FACTS = LegacyFacts.of(PUPPET8, [])


def identity(start: int, end: int) -> Span:
    return Span.of(0, start, 0, end)


def found(value: str, legacy: LegacyFacts | None = PUPPET8_FACTS, **kw: object) -> list[Problem]:
    return token_problems(value, identity, PATH, legacy=legacy, **kw)  # type: ignore[arg-type]


def test_every_way_data_names_a_legacy_fact_is_found_with_its_structured_fact() -> None:
    for written, modern in (
        ("%{osfamily}", "%{facts.os.family}"),
        ("%{::operatingsystem}", "%{facts.os.name}"),
        ("%{facts.osfamily}", "%{facts.os.family}"),
        ("%{::facts.lsbdistcodename}", "%{facts.os.distro.codename}"),
        ("%{scope('operatingsystemmajrelease')}", "%{facts.os.release.major}"),
        ("%{ ::fqdn }", "%{facts.networking.fqdn}"),
    ):
        [problem] = found(f"x-{written}-y")
        assert problem.code == "legacy-fact", written
        assert problem.details.suggestions == (modern,), written
        assert modern in problem.message, written


def test_the_message_says_what_puppet_8_does_with_each_form() -> None:
    [bare] = found("%{::osfamily}")
    assert bare.message.startswith(
        "'osfamily' is a legacy fact: Puppet 8 agents do not send it (include_legacy_facts "
        "= false): with strict_variables (Puppet 8's default) every lookup that reads "
        "this value fails (Undefined variable '::osfamily')"
    )
    [dug] = found("%{facts.osfamily}")
    assert "facts.osfamily is '' for every node" in dug.message
    [level] = found("os/%{osfamily}.yaml", config=True)
    assert (
        "this path has '' in its place for every node, so the level matches nothing (Puppet 8 "
        "only warns: Interpolation failed with 'osfamily', but compilation continuing)"
    ) in level.message
    [quiet] = found("os/%{facts.osfamily}.yaml", config=True)
    assert "so the level matches nothing, without a word" in quiet.message


def test_a_legacy_fact_is_not_also_a_top_scope_variable_finding() -> None:
    assert [p.code for p in found("%{osfamily}/%{role}")] == [
        "legacy-fact",
        "interpolation-top-scope-variable",
    ]


def test_profiles_that_had_the_fact_are_named_with_their_values() -> None:
    legacy = LegacyFacts(
        PUPPET8, (("web01", {"osfamily": "RedHat"}), ("db01", {"osfamily": "Debian"}))
    )
    [problem] = found("os/%{osfamily}.yaml", legacy, config=True)
    assert problem.message.endswith(
        "The facts profiles that had it: web01 (RedHat), db01 (Debian): under Puppet 7 "
        "their nodes had its value in this path"
    )


def test_a_value_that_differs_gets_the_nearest_fact_and_no_fix() -> None:
    [problem] = found("%{memorysize_mb}")
    assert problem.details.suggestions == ()
    assert "memory.system.total_bytes" in problem.message
    assert "in bytes" in problem.message


def test_per_interface_names_are_facters_only_when_a_profile_has_that_interface() -> None:
    assert [p.code for p in found("%{network_zone}")] == ["interpolation-top-scope-variable"]
    legacy = LegacyFacts(PUPPET8, (("web01", {"ipaddress_eth0": "10.0.0.1"}),))
    [problem] = found("%{ipaddress_eth0}", legacy)
    assert problem.details.suggestions == ("%{facts.networking.interfaces.eth0.ip}",)


def test_fine_tokens_and_puppet_7_are_left_alone() -> None:
    for fine in (
        "%{facts.os.family}",
        "%{trusted.certname}",
        "%{::environment}",
        "%{lookup('osfamily')}",
        "%{::clientcert}",
        "%{facts.role}",
    ):
        assert [p.code for p in found(fine)] == [], fine
    assert LegacyFacts.of(PUPPET7, []) is None
    assert [p.code for p in found("%{::osfamily}", None)] == []
    # a mapped_paths entry's own variable is no fact
    assert found("dc/%{domain}.yaml", config=True, local_variable="domain") == []


def _fixed(text: str, problem: Problem, title: str) -> str:
    [fix] = [f for f in fixes_for(problem, text) if f.title.startswith(title)]
    return apply_edits(text, fix.edits)


def test_quick_fix_writes_the_structured_fact() -> None:
    text = "x: 'fam=%{::osfamily}'\n"
    [problem] = token_problems("fam=%{::osfamily}", lambda s, e: Span.of(0, 4 + s, 0, 4 + e),
                               PATH, legacy=PUPPET8_FACTS)  # fmt: skip
    assert _fixed(text, problem, "Read the structured fact") == "x: 'fam=%{facts.os.family}'\n"


def test_top_scope_quick_fix_reads_the_structured_fact_not_another_legacy_one() -> None:
    """It used to write %{facts.osfamily}: a legacy fact, nothing under Puppet 8."""
    text = 'path: "os/%{osfamily}"\n'
    [problem] = token_problems("os/%{osfamily}", lambda s, e: Span.of(0, 7 + s, 0, 7 + e), PATH)
    assert problem.code == "interpolation-top-scope-variable"
    assert "%{facts.os.family} for the fact" in problem.message
    assert _fixed(text, problem, "Read the fact") == 'path: "os/%{facts.os.family}"\n'
    # a fact of no legacy name keeps its name
    [custom] = token_problems("%{role}", identity, PATH)
    assert _fixed("%{role}\n", custom, "Read the fact") == "%{facts.role}\n"


HIERA = """\
version: 5
defaults:
  datadir: data
hierarchy:
  - name: os
    path: "os/%{::osfamily}.yaml"
  - name: common
    path: common.yaml
"""


def test_check_reports_them_under_puppet_8_naming_the_profiles(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    (tmp_path / "data" / "os").mkdir(parents=True)
    (tmp_path / "hiera.yaml").write_text(HIERA)
    (tmp_path / "data" / "common.yaml").write_text("motd: 'on %{facts.operatingsystem}'\n")
    (tmp_path / "data" / "os" / "RedHat.yaml").write_text("pkg: yum\n")
    facts = tmp_path / ".hiera-ls" / "facts"
    facts.mkdir(parents=True)
    (facts / "web01.yaml").write_text("osfamily: RedHat\nos: {family: RedHat, name: CentOS}\n")
    monkeypatch.chdir(tmp_path)
    assert main(["check", "--select", "legacy-fact", "--show-values"]) == 0  # warnings
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("data/common.yaml:1:11: legacy-fact 'operatingsystem' is a legacy")
    assert out[1].startswith("hiera.yaml:6:15: legacy-fact 'osfamily' is a legacy fact")
    assert "web01 (RedHat)" in out[1]
    assert main(["check", "--select", "legacy-fact"]) == 0
    assert "web01 (…)" in capsys.readouterr().out  # a report masks the fact's value
    assert main(["check", "--select", "legacy-fact", "--target", "puppet7"]) == 0
    assert "All checks passed" in capsys.readouterr().out


def test_a_string_a_merge_key_copies_is_reported_once_under_the_key_that_wrote_it(
    tmp_path: Path,
) -> None:
    """Before, the editor showed the finding twice (once per key holding the string)."""
    from hiera_ls.features.diagnostics import Diagnostics
    from hiera_ls.project.workspace import Workspace

    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(
        "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
    )
    common = tmp_path / "data" / "common.yaml"
    common.write_text('base: &b\n  x: "%{osfamily}"\n  y: 2\nderived:\n  <<: *b\n  y: 3\n')
    snapshot = Workspace([str(tmp_path)]).snapshot()
    diagnostics = Diagnostics()
    diagnostics.rebuild_stale(snapshot, diagnostics.changes)
    found = [p for p in diagnostics.file_problems(snapshot, str(common)) if p.code == "legacy-fact"]
    assert [(p.where.span.start.line, p.details.key) for p in found] == [(1, "base")]
