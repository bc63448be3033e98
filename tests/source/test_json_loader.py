"""json_data's parser: Ruby's JSON.parse rules and messages, with the range of every node."""

from __future__ import annotations

import json
import random

import pytest

from hiera_ls.source.json_loader import load_json
from hiera_ls.source.spans import Span
from hiera_ls.source.yaml_loader import NodeSpans
from tests.source import ruby_oracle

INVALID = [
    "",
    " ",
    '{"a":1,}',
    "[1,]",
    '{"a" 1}',
    "{a:1}",
    '/* c */ {"a": 1} // x',
    '{"a": NaN}',
    '{"a": "x\ty"}',
    '{"a": 01}',
    '{"a": .5}',
    '{"a": 1.}',
    '{"a": tru}',
    '{"a": [1, 2',
    '{"a": 1} x',
    '{"a": 1}\n{"b": 2}',
    "[" * 101 + "]" * 101,
    '{"a": "\\ud800"}',
    '{"a": -}',
    "{'a': 1}",
    '  {"a":\n  [1,\n   2,,\n  ]}',
    '{"a": "\\u12"}',
    "[1.5.3]",
    "[1 2]",
    "[01]",
    '{"a": 1}/',
    '{"a": 1}/x',
    "[truex]",
    '{"a":-Infinity}',
    '{"a": Infinity}',
    "[1,/* x */]",
    '{"a": 1, "b": }',
    '{"a" : {"b" 1}}',
    '[{"b" 1}]',
    "[[1,]]",
    '["a\tb"]',
    "[-]",
    "[- 1]",
    "{,}",
    '{"a":1,,}',
    "\ufeff{}",
    "[/* open",
    "[1 //",
    '{"a": 1} xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
]
VALID = [
    "{}",
    "2",
    '"s"',
    "null",
    '{"a":1,"a":2}',
    '{"a": 1e400}',
    '{"a": -0}',
    '{"a": "\\q"}',
    "[/* x */ 1 /* y */, // z\n2]",
    '{"a"/**/:/**/1}',
    '{"a": "\\u00e9\\ud83d\\ude00"}',
    '"\\x"',
    "[1e5, 1E+2, -0.0, 0e0, 0.5, -12]",
    '{"a":1 , "b":2}',
    '{"é": "😀", "k": [true, false, null]}',
    '{"a": "\\ud800\\u0041"}',
    '{"n": 123456789012345678901234567890}',
    '{"a": {"b": {"c": []}}}',
    "[" * 100 + "]" * 100,
    '\r\n\t {"a": "\\"\\\\\\/\\b\\f\\n\\r\\t"}\n',
]


def _random_json(rng: random.Random, depth: int = 0) -> object:
    kind = rng.randrange(7 if depth < 4 else 4)
    if kind == 0:
        return rng.randint(-(10**20), 10**20)
    if kind == 1:
        return rng.choice([0.5, -1.25e-7, 3.0, 1e300])
    if kind == 2:
        return "".join(rng.choice('ab é😀"\\\n\t/') for _ in range(rng.randint(0, 8)))
    if kind == 3:
        return rng.choice([True, False, None])
    if kind in (4, 5):
        return {
            f"k{i}{rng.choice('xé')}": _random_json(rng, depth + 1)
            for i in range(rng.randint(0, 4))
        }
    return [_random_json(rng, depth + 1) for _ in range(rng.randint(0, 4))]


def test_json_matches_ruby_json_parse() -> None:
    rng = random.Random(99)
    generated = [
        json.dumps(_random_json(rng), ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 2]))
        for _ in range(150)
    ]
    texts = INVALID + VALID + generated
    theirs = ruby_oracle.run(ruby_oracle.JSON_SCRIPT, texts)
    wrong = []
    for text, expected in zip(texts, theirs, strict=True):
        doc = load_json("x.json", text)
        ours = {"error": doc.fatal.message} if doc.fatal else {"ok": ruby_oracle.encode(doc.value)}
        if ours != expected:
            wrong.append(f"{text!r}: ruby {expected} / hiera-ls {ours}")
    assert wrong == []


def test_values_and_ranges() -> None:
    doc = load_json("x.json", '{\n  "a": [1, "é😀"],\n  "b": {"c": null}\n}\n')
    assert doc.value == {"a": [1, "é😀"], "b": {"c": None}}
    assert doc.nodes[("a",)] == NodeSpans(Span.of(1, 2, 1, 5), Span.of(1, 7, 1, 16), None)
    assert doc.nodes[("a", 1)] == NodeSpans(None, Span.of(1, 11, 1, 15), '"')
    assert doc.nodes[("b", "c")].value == Span.of(2, 13, 2, 17)
    assert doc.nodes[()].value == Span.of(0, 0, 3, 1)


def test_errors_carry_puppets_text_and_a_position() -> None:
    doc = load_json("/d/x.json", '{"a": [1,\n  ]}')
    assert doc.fatal is not None and doc.fatal.code == "json-syntax"
    assert doc.fatal.message == "Unable to parse (/d/x.json): 451: unexpected token at ']}'"
    assert doc.fatal.where.span.start.line == 1 and doc.fatal.where.span.start.column == 2


def test_duplicate_keys_keep_last_and_warn() -> None:
    doc = load_json("x.json", '{"a": {"x": 1}, "a": {"y": 2}}')
    assert doc.value == {"a": {"y": 2}}
    assert [p.code for p in doc.problems] == ["json-duplicate-key"]
    assert ("a", "x") not in doc.nodes and ("a", "y") in doc.nodes


@pytest.mark.parametrize("seed", range(3))
def test_garbage_never_raises(seed: int) -> None:
    rng = random.Random(seed)
    pieces = [
        "{",
        "}",
        "[",
        "]",
        '"',
        ":",
        ",",
        "1",
        "-",
        ".",
        "e",
        "true",
        "nul",
        "/*",
        "*/",
        "//",
        "\n",
        "\\u",
        "é",
    ]
    for _ in range(500):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        doc = load_json("g.json", text)
        assert (
            doc.fatal is not None or doc.value is not None or "null" in text or text.strip() == ""
        )
