"""The comparison of hiera-ls's reader of Puppet code with Puppet's own parser
(``manifest_agreement.py``, used by ``test_manifests_vs_puppet.py`` and ``python -m
tests.differential.manifest_agreement``), on answers written by hand: no Puppet needed."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hiera_ls.source.manifest_model import (
    Definition,
    DefinitionKind,
    Inclusion,
    LookupCall,
    LookupFunction,
    ManifestFacts,
    ManifestProblem,
    Parameter,
)
from hiera_ls.source.spans import Span
from tests.differential.manifest_agreement import Agreement, compare_file, write_mutants


def _span(line: int, col: int, end_col: int) -> Span:
    return Span.of(line, col, line, end_col)


ANSWER: dict[str, Any] = {
    "path": "/m/init.pp",
    "ok": True,
    "validation": [],
    "definitions": [
        {
            "kind": "class",
            "name": "::web",
            "span": [0, 6, 0, 11],
            "parent": None,
            "alias_text": None,
            "params": [
                {
                    "name": "port",
                    "span": [1, 10, 1, 15],
                    "type_text": "Integer[1, 2]",
                    "default_text": "@(END)",
                    "default_class": "HeredocExpression",
                    "captures_rest": False,
                },
                {
                    "name": "mode",
                    "span": [2, 9, 2, 14],
                    "type_text": "String",
                    "default_text": "{ 'a' => 1 }",
                    "default_class": "LiteralHash",
                    "captures_rest": False,
                },
            ],
        }
    ],
    "lookups": [
        {
            "function": "lookup",
            "key": "web::x",
            "form": "name",
            "span": [5, 14, 5, 22],
            "text_span": [5, 15, 5, 21],
            "call_span": [5, 7],
            "argument": "LiteralString",
            "style": "call",
        }
    ],
    "inclusions": [
        {
            "name": "::base",
            "function": "include",
            "style": "call",
            "span": [6, 10, 6, 16],
            "text_span": None,
        }
    ],
}


def _ours(
    port_default: str, mode_default: str, extra: tuple[Definition, ...] = ()
) -> ManifestFacts:
    params = (
        Parameter("port", _span(1, 10, 15), "Integer[1, 2]", port_default, None),
        Parameter("mode", _span(2, 9, 14), "String", mode_default, None),
    )
    web = Definition(DefinitionKind.CLASS, "web", "/m/init.pp", _span(0, 6, 11), params)
    return ManifestFacts(
        path="/m/init.pp",
        definitions=(web, *extra),
        lookups=(LookupCall(LookupFunction.LOOKUP, "/m/init.pp", _span(5, 15, 21), "web::x"),),
        inclusions=(Inclusion("base", "/m/init.pp", _span(6, 10, 16)),),
    )


def test_agreeing_facts_count_as_full_agreement() -> None:
    tally = Agreement()
    compare_file(tally, ANSWER, _ours("@(END)\n  text\n  END", "{ 'a' => 1 }"))
    assert tally.disagreements == []
    assert tally.full
    assert tally.compared["default texts"] == 2


def test_whitespace_only_differences_are_counted_apart() -> None:
    tally = Agreement()
    compare_file(tally, ANSWER, _ours("@(END)", "{ 'a' =>\n    1 }"))
    assert not tally.full
    compared, agreed, loose = tally.total()
    assert (agreed, loose) == (compared - 1, compared)
    assert [d.kind for d in tally.disagreements] == ["LiteralHash, whitespace only"]


def test_what_only_hiera_ls_reports_counts_against_it() -> None:
    extra = Definition(DefinitionKind.DEFINE, "web::vhost", "/m/init.pp", _span(9, 7, 17), ())
    tally = Agreement()
    compare_file(tally, ANSWER, _ours("@(END)", "{ 'a' => 1 }", (extra,)))
    assert [(d.category, d.kind, d.line) for d in tally.disagreements] == [
        ("definitions", "extra define", 10)
    ]
    assert tally.extra["definitions"] == 1


def test_a_crash_or_a_problem_in_a_file_puppet_parses_is_a_disagreement() -> None:
    tally = Agreement()
    compare_file(tally, ANSWER, None)
    assert "hiera-ls raised" in {d.kind for d in tally.disagreements}
    tally = Agreement()
    problem = ManifestProblem("/m/init.pp", _span(3, 0, 1), "cannot read this")
    facts = _ours("@(END)", "{ 'a' => 1 }")
    compare_file(
        tally,
        ANSWER,
        ManifestFacts(facts.path, facts.definitions, facts.lookups, facts.inclusions, (problem,)),
    )
    assert [d.line for d in tally.disagreements] == [4]


def test_a_file_puppet_cannot_parse_needs_a_problem_from_hiera_ls() -> None:
    failed = {"path": "/m/bad.pp", "ok": False, "error": "Syntax error at '}'", "line": 3}
    tally = Agreement()
    compare_file(tally, failed, ManifestFacts(path="/m/bad.pp"))
    assert [d.category for d in tally.disagreements] == ["files"]
    tally = Agreement()
    problem = ManifestProblem("/m/bad.pp", _span(2, 0, 1), "syntax error")
    compare_file(tally, failed, ManifestFacts(path="/m/bad.pp", problems=(problem,)))
    assert tally.disagreements == [] and tally.puppet_failed == 1


def test_a_name_declared_twice_is_compared_occurrence_by_occurrence() -> None:
    """Puppet parses a class or parameter declared twice (loading fails later): the n-th of
    Puppet's is compared with the n-th of ours, so neither copy is taken for the other."""
    twice = dict(ANSWER)
    definition = ANSWER["definitions"][0]
    second = dict(definition, span=[9, 6, 9, 11], params=[])
    twice["definitions"] = [definition, second]
    facts = _ours("@(END)", "{ 'a' => 1 }")
    web_again = Definition(DefinitionKind.CLASS, "web", "/m/init.pp", _span(9, 6, 11), ())
    tally = Agreement()
    compare_file(
        tally,
        twice,
        ManifestFacts(facts.path, (*facts.definitions, web_again), facts.lookups, facts.inclusions),
    )
    assert tally.disagreements == []
    assert tally.compared["definitions"] == 2


def test_mutants_are_small_seeded_edits(tmp_path: Path) -> None:
    source = tmp_path / "init.pp"
    source.write_text("class a (\n  $x = [1, 2],\n) {\n  include b\n}\n", encoding="utf-8")
    first = write_mutants([str(source)], 5, 7, str(tmp_path / "one"))
    again = write_mutants([str(source)], 5, 7, str(tmp_path / "two"))
    texts = [Path(p).read_text(encoding="utf-8") for p in first]
    assert texts == [Path(p).read_text(encoding="utf-8") for p in again]
    original = source.read_text(encoding="utf-8")
    for text in texts:
        assert text != original and abs(len(text) - len(original)) <= 20
    told = (tmp_path / "one" / "MUTANTS.txt").read_text(encoding="utf-8").splitlines()
    assert len(told) == 5 and told[0].startswith("init.m0.pp: ")
