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

from hiera_ls.source.manifest_parser import read_manifest
from tests.differential.manifest_agreement import (
    Agreement,
    agreement,
    compare_file,
    main,
    read_ours,
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
