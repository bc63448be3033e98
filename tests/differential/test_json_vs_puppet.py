"""json_data's parser against Ruby's own JSON.parse, as Puppet's json_data runs it.

Every value and every message (``Unable to parse (x.json): ...``) must be Ruby's, over the
hand-picked invalid and valid texts below and 150 random documents (the oracle's
``load_json`` command).  Skipped without Puppet (failed instead on CI).
"""

from __future__ import annotations

import json
import random

import pytest

from hiera_ls.source.json_loader import load_json
from tests.differential.known_differences import comparable
from tests.oracle.puppet import PuppetOracle
from tests.oracle.values import canonical, encode

pytestmark = pytest.mark.puppet

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


def _comparable(result: dict[str, object], engine: str) -> dict[str, object]:
    """Values canonical; an error's json gem words as docs/differences.md#ruby-error-texts says."""
    if "ok" in result:
        return {"ok": canonical(result["ok"])}
    return {"error": comparable(str(result["error"]), engine)}


def test_json_matches_ruby_json_parse(puppet_oracle: PuppetOracle) -> None:
    rng = random.Random(99)
    generated = [
        json.dumps(_random_json(rng), ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 2]))
        for _ in range(150)
    ]
    texts = INVALID + VALID + generated
    theirs = puppet_oracle.load_json(texts)
    wrong = []
    for text, expected in zip(texts, theirs, strict=True):
        doc = load_json("x.json", text)
        ours = {"error": doc.fatal.message} if doc.fatal else {"ok": encode(doc.value)}
        if _comparable(ours, puppet_oracle.engine.name) != _comparable(
            expected, puppet_oracle.engine.name
        ):
            wrong.append(f"{text!r}: ruby {expected} / hiera-ls {ours}")
    assert wrong == []
