"""Our YAML loader against Ruby's Psych itself, over hundreds of scalars and documents.

Psych is the reference: every value, every refusal and every syntax-error message must be
what ``Psych.safe_load(text, permitted_classes: [Symbol], aliases: true)`` gives, worded as
Puppet's yaml_data words it (the oracle's ``load_yaml`` command).  Skipped without Puppet
(failed instead on CI).
"""

from __future__ import annotations

import json

import pytest

from hiera_ls.source.libyaml import DEFAULT_BACKEND
from hiera_ls.source.yaml_loader import load_yaml
from tests.differential.known_differences import comparable
from tests.oracle.puppet import PuppetOracle
from tests.oracle.values import canonical, encode
from tests.source.psych_cases import (
    ANSWERS,
    DOCUMENTS,
    SCALARS,
    random_scalars,
    recorded_texts,
    recorded_values,
)

RECORD_AGAIN = "record Puppet's answers again: python -m tests.source.psych_cases"

pytestmark = pytest.mark.puppet


def _ours(text: str) -> dict[str, object]:
    doc = load_yaml("f.yaml", text)
    if doc.fatal is not None:
        return {"error": doc.fatal.message}
    return {"ok": encode(doc.value)}


def _same(ours: dict[str, object], theirs: dict[str, object], engine: str) -> bool:
    if "ok" in ours or "ok" in theirs:
        return "ok" in ours and "ok" in theirs and canonical(ours["ok"]) == canonical(theirs["ok"])
    return _in_ruby_words(ours, engine) == _in_ruby_words(theirs, engine)


def _in_ruby_words(answer: dict[str, object], engine: str) -> dict[str, object]:
    """An error as compared with that engine's Psych (docs/differences.md#ruby-error-texts)."""
    if "error" not in answer:
        return answer
    return {**answer, "error": comparable(str(answer["error"]), engine)}


def _compare(oracle: PuppetOracle, texts: list[str]) -> list[str]:
    theirs = oracle.load_yaml(texts)
    wrong = []
    for text, expected in zip(texts, theirs, strict=True):
        ours = _ours(text)
        if not _same(ours, expected, oracle.engine.name):
            wrong.append(f"{text!r}: psych {expected} / hiera-ls {ours}")
    return wrong


needs_libyaml_02 = pytest.mark.skipif(
    "(PyYAML)" not in DEFAULT_BACKEND.name,
    reason=(
        "the flow-collection corners differ in ruamel.yaml.clib's libyaml 0.1.7; add PyYAML's "
        "C extension to get libyaml 0.2"
    ),
)


def test_plain_scalars_type_as_psych_types_them(puppet_oracle: PuppetOracle) -> None:
    texts = [f"k: {s}\n" for s in SCALARS]
    assert len(texts) > 200
    assert _compare(puppet_oracle, texts) == []


def test_quoted_and_tagged_scalars_type_as_psych_types_them(puppet_oracle: PuppetOracle) -> None:
    texts = [f"k: '{s}'\n" for s in SCALARS[:80]] + [f"k: !!float '{s}'\n" for s in SCALARS[::3]]
    texts += [f"k: ! '{s}'\n" for s in SCALARS[::5]] + [f"k: !!int '{s}'\n" for s in SCALARS[::7]]
    assert _compare(puppet_oracle, texts) == []


def test_random_number_like_scalars_type_as_psych_types_them(puppet_oracle: PuppetOracle) -> None:
    texts = [f"- {s}\n" for s in random_scalars(400)]
    assert _compare(puppet_oracle, texts) == []


def test_scalars_as_keys_type_as_psych_types_them(puppet_oracle: PuppetOracle) -> None:
    texts = [
        f"{s}: v\n"
        for s in SCALARS
        if s
        and not s.startswith(
            ("-", "?", ":", "%", "!", "&", "*", "@", "`", "{", "[", "|", ">", "'", '"', "#", "=")
        )
    ]
    assert _compare(puppet_oracle, texts) == []


@needs_libyaml_02
def test_documents_load_as_psych_loads_them(puppet_oracle: PuppetOracle) -> None:
    assert _compare(puppet_oracle, DOCUMENTS) == []


BYTE_ORDER_MARKED = [
    "\ufeffa: 1\nb: 2\n",
    "\ufeffa: 1\nb: 2\na: 3\n",
    "\ufeff- 1\n- 2\n",
    "\ufeff{a: 1, b: 2}\n",
    "\ufeff# comment\na: 1\nb: 2\n",
    "\ufeffa:\n  b: 1\n  c: 2\nd: 3\n",
    "\ufeff---\na: 1\n",
    "\ufeffa: 1\r\nb: 2\r\n",
]


def test_a_byte_order_mark_is_read_as_psych_reads_it(puppet_oracle: PuppetOracle) -> None:
    """Psych hands libyaml a string: the mark is a column of the first line, so a block
    mapping ends with its first entry (and Puppet ignores every key after it)."""
    assert _compare(puppet_oracle, BYTE_ORDER_MARKED) == []


def test_the_recorded_answers_are_puppets(puppet_oracle: PuppetOracle) -> None:
    """tests/source/test_psych_answers.py checks the installed libyaml against a record of
    Puppet's answers on every run, Puppet or not: the record must stay Puppet's."""
    record = json.loads(ANSWERS.read_text(encoding="utf-8"))
    texts, values = recorded_texts(), recorded_values()
    assert [text for text, _ in record["load_yaml"]] == texts, RECORD_AGAIN
    assert [value for value, _ in record["to_yaml"]] == [encode(v) for v in values], RECORD_AGAIN
    engine = puppet_oracle.engine.name  # the record is Puppet 7.23's: Psych 4's words
    loads = [_in_ruby_words(a, engine) for a in puppet_oracle.load_yaml(texts)]
    recorded = [_in_ruby_words(answer, engine) for _, answer in record["load_yaml"]]
    assert recorded == loads, RECORD_AGAIN
    renders = [answer["ok"]["yaml"] for answer in puppet_oracle.render(values)]
    assert [text for _, text in record["to_yaml"]] == renders, RECORD_AGAIN
