"""hiera-ls's reader of Puppet code against Puppet's own parser, on hand-written tricky files.

The fixture module ``manifests/modules/tricky`` holds what trips readers of Puppet code:
heredocs (with interpolation, margins, escapes, a lookup inside), strings holding commas,
parentheses, comments and braces, regular expressions, every way to include a class, resource
defaults and collectors, type aliases with nested Struct/Variant and comments, defaults that
are hashes, calls, selectors, lambdas and operators, puppet-strings docs and comments inside
parameter lists, Unicode (columns count code points), CRLF line endings, tabs, nested
definitions, a Puppet-language function, files Puppet cannot parse (a syntax error, a byte
order mark), and EPP templates (their lookups, read by hiera-ls's template reader).  Puppet
(``tests/oracle/manifest_oracle.rb``) says what each file declares; ours must say the same.
Seeded random manifests (``manifest_generator.py``) are compared the same way.
``python -m tests.differential.manifest_agreement PATH...`` runs the comparison on any
repository.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

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
from hiera_ls.source.manifest_parser import read_manifest
from hiera_ls.source.spans import Span
from tests.differential.manifest_agreement import (
    Agreement,
    agreement,
    compare_file,
    main,
    read_ours,
    write_mutants,
)
from tests.differential.manifest_generator import generate
from tests.oracle.engines import PuppetEngine
from tests.oracle.manifests import manifest_files, puppet_parse

FIXTURES = Path(__file__).with_name("manifests")
TRICKY = FIXTURES / "modules" / "tricky"

# Disagreements of the reader as it is, each told to its author; the test fails on any other
# (file under the tricky module, 1-based line, category).  Remove an entry once it is fixed.
# Empty since the reader learnt lookup(a::b), lookup([...]), ['a', 'b'].lookup, 'x'.include,
# include Class['x'], lookups in heredocs, node regexes and "%>" in EPP strings, all first found
# by this test or the agreement report.
KNOWN: set[tuple[str, int, str]] = set()


@pytest.fixture(scope="module")
def puppet_answers(puppet_engine: PuppetEngine) -> list[dict[str, Any]]:
    files = list(manifest_files([str(FIXTURES)], (".pp", ".epp")))
    _, answers = puppet_parse(files, puppet_engine)
    return answers


def _text_at(lines: list[str], span: list[int]) -> str:
    line, col, end_line, end_col = span
    if line == end_line:
        return lines[line][col:end_col]
    return lines[line][col:] + "".join(lines[line + 1 : end_line]) + lines[end_line][:end_col]


def _by_name(answers: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {os.path.relpath(a["path"], TRICKY): a for a in answers}


@pytest.mark.puppet
def test_the_oracle_reports_what_the_fixtures_declare(puppet_answers: list[dict[str, Any]]) -> None:
    """The oracle itself: names, texts and spans (code points, CRLF kept) are right."""
    answers = _by_name(puppet_answers)
    rejected = {"manifests/broken.pp", "manifests/bom.pp"}  # a syntax error; a byte order mark
    assert {name for name, a in answers.items() if not a["ok"]} == rejected
    for a in puppet_answers:
        if not a["ok"]:
            continue
        with open(a["path"], encoding="utf-8", newline="") as f:
            lines = f.read().splitlines(keepends=True)
        for d in a["definitions"]:
            name = _text_at(lines, d["span"]).lower().removeprefix("::")
            assert d["name"].lower().removeprefix("::").endswith(name)  # nested: qualified
            for p in d["params"]:
                assert _text_at(lines, p["span"]) == "$" + p["name"]
        for c in a["lookups"]:
            if c["text_span"]:
                assert _text_at(lines, c["text_span"]) == c["key"]
        for i in a["inclusions"]:
            shown = _text_at(lines, i["text_span"] or i["span"])
            assert shown.lower().removeprefix("::") == i["name"].lower().removeprefix("::")
    defaults = {p["name"]: p for p in answers["manifests/defaults.pp"]["definitions"][0]["params"]}
    assert defaults["bytes"]["default_text"] == "1024 * 1024"
    assert defaults["selected"]["default_text"].endswith("default  => 'www',\n  }")
    heredocs = answers["manifests/heredocs.pp"]["definitions"][0]["params"]
    assert [p["default_text"] for p in heredocs][:2] == ["@(END)", '@("EOT"/L)']
    crlf = answers["manifests/crlf.pp"]["definitions"][0]["params"]
    assert crlf[1]["default_text"] == '{\r\n    "k" => "v",\r\n  }'
    unicode = answers["manifests/unicode.pp"]["definitions"][0]["params"]
    assert [p["span"][:2] for p in unicode] == [[3, 9], [4, 9], [4, 31], [5, 10]]
    (config,) = answers["types/config.pp"]["definitions"]
    assert config["alias_text"].startswith("Struct[{\n") and config["alias_text"].endswith("}]")
    lookups = {c["key"] for c in answers["manifests/lookups.pp"]["lookups"]}
    assert {"tricky::lookups::bare", "tricky::lookups::i", "tricky::lookups::j2"} <= lookups


@pytest.mark.puppet
def test_the_reader_agrees_with_puppet_on_tricky_manifests(
    puppet_answers: list[dict[str, Any]], capsys: pytest.CaptureFixture[str]
) -> None:
    tally = Agreement()
    for answer in puppet_answers:
        compare_file(tally, answer, read_ours(read_manifest, answer["path"]))
    with capsys.disabled():
        print()
        print("\n".join(tally.report(show=0, root=str(TRICKY))))
    found = {(os.path.relpath(d.path, TRICKY), d.line, d.category): d for d in tally.disagreements}
    fixed = sorted(KNOWN - set(found))
    if fixed:  # said, not failed: the reader and this list are merged at different times
        with capsys.disabled():
            print(f"known disagreements that no longer occur (remove them from KNOWN): {fixed}")
    unexpected = [d.human(str(TRICKY)) for key, d in found.items() if key not in KNOWN]
    assert not unexpected, "\n".join(unexpected)


@pytest.mark.puppet
def test_the_reader_agrees_with_puppet_on_generated_manifests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], puppet_engine: PuppetEngine
) -> None:
    """Seeded random manifests (``manifest_generator.py``); ``HIERA_LS_MANIFEST_SEEDS=N`` runs
    N files instead of 150 (a longer search for differences)."""
    count = int(os.environ.get("HIERA_LS_MANIFEST_SEEDS", "150"))
    paths = []
    for seed in range(count):
        path = tmp_path / f"seed{seed}.pp"
        with open(path, "w", encoding="utf-8", newline="") as out:
            out.write(generate(seed))
        paths.append(str(path))
    tally = agreement(paths, read_manifest, puppet_engine)
    with capsys.disabled():
        print()
        print("\n".join(tally.report(show=0, root=str(tmp_path))))
    # The generator writes what Puppet parses: a file it rejects is a generator bug.
    assert tally.puppet_failed == 0
    assert not tally.disagreements, "\n".join(d.human(str(tmp_path)) for d in tally.disagreements)


@pytest.mark.puppet
def test_the_agreement_command_prints_the_figure(
    puppet_engine: PuppetEngine, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    report = tmp_path / "agreement.json"
    main([str(TRICKY / "types"), "--json", str(report), "--engine", puppet_engine.name])
    out = capsys.readouterr().out
    assert "6 files, 6 parsed by Puppet, 0 not" in out
    assert "agreement: " in out
    assert '"items"' in report.read_text(encoding="utf-8")


# ----------------------------------------------------------------------------------------------
# The comparison itself, on answers written by hand (no Puppet needed)


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
