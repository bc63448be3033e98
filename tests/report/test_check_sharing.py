"""`hiera-ls check` over many profiles asks each answer once: the class checks take the
answers the every-profile coverage already looked up, and the coverage does not look a key up
again through blanked strings or without its definition when only one file the profile reads
defines it.  Each shortcut must give the report the long way gives (on random repositories
and fleets, tests/report/test_check_classes.py's), with fewer lookups."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from hiera_ls.checks import profile_coverage
from hiera_ls.engine.lookup import LookupOutcome, LookupSession
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.workspace import EnvironmentView
from hiera_ls.report.formats import Report, formatters
from hiera_ls.report.run import CheckResult, run_check
from tests.report.test_check_classes import HIERA, _fleet


def _json(result: CheckResult) -> str:
    return formatters()["json"](Report(result, "error", os.getcwd()))


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool]]:
    """Every lookup the engine is asked for from now on: (its cache's kind, traced)."""
    asked: list[tuple[str, bool]] = []
    real = LookupSession.lookup

    def lookup(self: LookupSession, *args: object, **kwargs: object) -> LookupOutcome:
        asked.append((type(self.cache).__name__, bool(kwargs.get("explain"))))
        return real(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(LookupSession, "lookup", lookup)
    return asked


@pytest.mark.parametrize("seed", [0, pytest.param(5, marks=pytest.mark.slow)])
def test_the_class_checks_take_the_coverages_answers_and_report_the_same(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    _fleet(tmp_path, seed, 16)
    monkeypatch.chdir(tmp_path)
    asked = _counted(monkeypatch)
    shared = _json(run_check(["."], show_values=True))
    with_sharing = len(asked)
    asked.clear()
    with monkeypatch.context() as patched:  # the long way: the class checks ask again

        def nothing_kept(self: Diagnostics, view: EnvironmentView, *rest: str) -> None:
            return None

        patched.setattr(Diagnostics, "kept_answer", nothing_kept)
        alone = _json(run_check(["."], show_values=True))
    assert shared == alone
    assert with_sharing < len(asked)


def test_an_answer_is_kept_for_its_own_profile_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key whose value reads the node's own fact: each profile's answer is its own."""
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(
        "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
    )
    (tmp_path / "data/common.yaml").write_text("app::scheme: '%{facts.scheme}'\n")
    _app_and_profiles(tmp_path)
    monkeypatch.chdir(tmp_path)
    found = [f.message for f in run_check(["."], show_values=True).findings if f.profiles]
    assert found == [
        "[b] Class[App]: parameter 'scheme' expects a match for Enum['http', 'https'], got "
        "'ftp' (the value this node gets from this file)",
        "[d] Class[App]: parameter 'scheme' expects a match for Enum['http', 'https'], got "
        "'gopher' (the value this node gets from this file)",
    ]


def _coverage_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[str, str, int, int]:
    """The report and the lookups through other caches than the data's (blanked strings,
    a definition removed), with the shortcut and without it."""
    monkeypatch.chdir(tmp_path)
    asked = _counted(monkeypatch)
    quick = _json(run_check(["."], show_values=True))
    other = sum(1 for kind, _ in asked if kind != "DataCache")
    asked.clear()
    with monkeypatch.context() as patched:  # every key looked up three ways, as before
        patched.setattr(profile_coverage, "_single_definitions", lambda *_: {})
        slow = _json(run_check(["."], show_values=True))
    return quick, slow, other, sum(1 for kind, _ in asked if kind != "DataCache")


@pytest.mark.parametrize("seed", [2, pytest.param(6, marks=pytest.mark.slow)])
def test_a_key_one_file_defines_is_judged_without_more_lookups_and_alike(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    _fleet(tmp_path, seed, 16)
    levels = HIERA.split("  - name: ")
    kept = [level for level in levels if "expand_path" not in level]
    (tmp_path / "hiera.yaml").write_text("  - name: ".join(kept))
    quick, slow, fewer, more = _coverage_both_ways(tmp_path, monkeypatch)
    assert quick == slow
    assert fewer < more


def test_a_level_reading_a_file_per_key_leaves_every_key_looked_up_three_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """expand_path reads a file per key prefix: the files a profile reads, found with a
    probe key, are not those a key reads, so no key is taken as defined once."""
    _fleet(tmp_path, 2, 8)
    assert "expand_path" in (tmp_path / "hiera.yaml").read_text()
    quick, slow, fewer, more = _coverage_both_ways(tmp_path, monkeypatch)
    assert quick == slow
    assert fewer == more


NESTED_HIERA = (
    "version: 5\nhierarchy:\n"
    "  - name: nodes\n    path: nodes/%{trusted.certname}.yaml\n"
    "  - name: common\n    path: common.yaml\n"
)


def _nested_repository(tmp_path: Path, common: str, nodes: dict[str, str]) -> None:
    """A class ``app`` with a typed parameter, data in ``common.yaml`` and node files,
    and a profile per node (the nodes a-d, each its ``scheme`` fact)."""
    (tmp_path / "data/nodes").mkdir(parents=True)
    (tmp_path / "hiera.yaml").write_text(NESTED_HIERA)
    (tmp_path / "data/common.yaml").write_text(common)
    for name, text in nodes.items():
        (tmp_path / f"data/nodes/{name}.yaml").write_text(text)
    _app_and_profiles(tmp_path)


def _app_and_profiles(tmp_path: Path) -> None:
    """The class ``app`` with a typed parameter, and a profile per node (the nodes a-d,
    each its ``scheme`` fact)."""
    (tmp_path / "modules/app/manifests").mkdir(parents=True)
    (tmp_path / "modules/app/manifests/init.pp").write_text(
        "class app (Enum['http', 'https'] $scheme = 'http') {}\n"
    )
    facts = tmp_path / ".hiera-ls/facts"
    facts.mkdir(parents=True)
    for name, scheme in (("a", "http"), ("b", "ftp"), ("c", "https"), ("d", "gopher")):
        (facts / f"{name}.json").write_text(f'{{"clientcert": "{name}", "scheme": "{scheme}"}}')


def _per_profile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.chdir(tmp_path)
    return [f.message for f in run_check(["."], show_values=True).findings if f.profiles]


MISMATCH = (
    "[{}] Class[App]: parameter 'scheme' expects a match for Enum['http', 'https'], got "
    "'{}' (the value this node gets from this file)"
)


@pytest.mark.parametrize("call", ["lookup", "alias", "hiera"])
def test_a_key_looking_up_a_key_each_node_defines_gets_each_nodes_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, call: str
) -> None:
    """``app::scheme`` is defined once, for every node alike, but looks up ``scheme``,
    which each node's file defines: the nodes share its definition, not its answer."""
    schemes = {"a": "http", "b": "ftp", "c": "https", "d": "gopher"}
    nodes = {name: f"scheme: {scheme}\n" for name, scheme in schemes.items()}
    _nested_repository(tmp_path, f"app::scheme: \"%{{{call}('scheme')}}\"\n", nodes)
    assert _per_profile(tmp_path, monkeypatch) == [
        MISMATCH.format("b", "ftp"),
        MISMATCH.format("d", "gopher"),
    ]


@pytest.mark.parametrize("own_files", [True, False], ids=["own-files", "same-files"])
def test_a_key_looking_up_a_literal_token_gets_each_nodes_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, own_files: bool
) -> None:
    """``literal('%')`` writes a token into ``template``'s answer, the same for every node;
    a ``lookup`` of it interpolates that token again, with each node's own fact (Puppet 7.23
    and 8.10 give ``ftp`` for b: tests/differential/test_cases_vs_puppet.py). With a file of
    its own each node is a class of its own, and only a key's signature could share the
    answer; without, the four read the same files and only the token tells them apart
    (every node was reported with a's answer)."""
    common = "template: \"%{literal('%')}{facts.scheme}\"\napp::scheme: \"%{lookup('template')}\"\n"
    nodes = {name: "other: 1\n" for name in "abcd"} if own_files else {}
    _nested_repository(tmp_path, common, nodes)
    assert _per_profile(tmp_path, monkeypatch) == [
        MISMATCH.format("b", "ftp"),
        MISMATCH.format("d", "gopher"),
    ]


def test_keys_looking_each_other_up_fail_for_every_profile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A loop of lookups has no answer to share: each profile's lookup fails, as Puppet's."""
    common = "one: \"%{lookup('two')}\"\ntwo: \"%{lookup('one')}\"\napp::scheme: http\n"
    _nested_repository(tmp_path, common, {"b": "two: \"%{lookup('one')}\"\n"})
    monkeypatch.chdir(tmp_path)
    result = run_check(["."], show_values=True)
    failing = {(f.code, os.path.basename(f.path), f.span.start.line) for f in result.findings}
    assert ("lookup-fails-for-profile", "common.yaml", 0) in failing
    assert ("lookup-fails-for-profile", "common.yaml", 1) in failing
