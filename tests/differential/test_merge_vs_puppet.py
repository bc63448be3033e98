"""Differential test: our merge strategies and Ruby value semantics against Puppet itself.

The oracle runs Puppet's own ``MergeStrategy`` (``strategy(spec)``, ``#merge``, ``#lookup``
over variants with not-found ones), ``Array#sort``, ``inspect`` / ``to_s`` and Puppet's type
inference over a few thousand random cases; every result must be identical (hash key order
and Integer/Float included, compared through ``tests.oracle.values.canonical``), and so
must every error message.  Our side works on the values decoded from what was sent, as
Puppet does.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from hiera_ls.engine.merge import (
    MergeStrategy,
    convert_first,
    merge_pair,
    merge_single,
    parse_merge,
)
from hiera_ls.puppet.errors import MergeError
from hiera_ls.puppet.ruby import (
    ComparisonFailed,
    ruby_sort,
)
from hiera_ls.puppet.ruby_text import inspect, to_s
from hiera_ls.puppet.type_format import format_type
from hiera_ls.puppet.type_infer import infer_set, normalize
from hiera_ls.puppet.values import RubySymbol
from tests.differential.known_differences import comparable
from tests.oracle.puppet import PuppetOracle
from tests.oracle.values import canonical, decode, encode

pytestmark = pytest.mark.puppet


# ---------------------------------------------------------------------------- our side

NOT_FOUND = object()


def our_lookup(s: MergeStrategy, values: list[object]) -> object:
    """Puppet's MergeStrategy#lookup over variants, some not found (as lookup.py runs it)."""
    if s.name == "first":
        for v in values:
            if v is not NOT_FOUND:
                return v
        return NOT_FOUND
    if not values:
        return NOT_FOUND
    if len(values) == 1:
        return NOT_FOUND if values[0] is NOT_FOUND else merge_single(s, values[0])
    memo: object = NOT_FOUND
    for v in values:
        if v is NOT_FOUND:
            continue
        memo = convert_first(s, v) if memo is NOT_FOUND else merge_pair(s, memo, v)
    return memo


def same_value(value: object) -> object:
    """A fresh copy, as Puppet decodes it from the request (our merges may share nothing)."""
    return decode(encode(value))


def ours_canonical(value: object) -> object:
    return canonical(encode(value))


def run_ours(case: dict[str, Any]) -> dict[str, object]:
    op = case["op"]
    try:
        if op == "merge":
            s = parse_merge(same_value(case["spec"]))
            assert s is not None
            a, b = same_value(case["a"]), same_value(case["b"])
            return {"ok": ours_canonical(merge_pair(s, a, b))}
        if op == "lookup":
            s = parse_merge(same_value(case["spec"]))
            assert s is not None
            values = [v if v is NOT_FOUND else same_value(v) for v in case["values"]]
            result = our_lookup(s, values)
            return {"ok": ("notfound",) if result is NOT_FOUND else ours_canonical(result)}
        if op == "strategy":
            s = parse_merge(same_value(case["spec"]))
            assert s is not None
            return {"ok": (s.name, ours_canonical(dict(s.options)))}
        if op == "sort":
            v = same_value(case["v"])
            assert isinstance(v, list)
            return {"ok": ours_canonical(ruby_sort(v))}
        if op == "inspect":
            v = same_value(case["v"])
            return {"ok": (inspect(v), to_s(v))}
        if op == "type":
            return {"ok": format_type(normalize(infer_set(same_value(case["v"]))))}
    except (MergeError, ComparisonFailed) as e:
        return {"err": str(e)}
    raise AssertionError(op)


def puppet_key(strategy_key: str) -> str:
    """Our strategy names are Puppet's class keys, except that ``default`` runs as ``first``."""
    return "first" if strategy_key == "default" else strategy_key


def theirs_normalised(case: dict[str, Any], out: dict[str, Any]) -> dict[str, object]:
    if "error" in out:
        return {"err": out["error"]}
    op = case["op"]
    if op == "lookup" and out.get("not_found"):
        return {"ok": ("notfound",)}
    ok = out["ok"]
    if op in ("merge", "sort", "lookup"):
        return {"ok": canonical(ok)}
    if op == "strategy":
        options = decode(ok["options"])
        assert isinstance(options, dict)
        options.pop("strategy", None)  # we keep the options as explain prints them
        return {"ok": (puppet_key(str(ok["key"])), ours_canonical(options))}
    if op == "inspect":
        return {"ok": (ok["inspect"], ok["to_s"])}
    return {"ok": ok}


# ---------------------------------------------------------------------------- random cases

SCALARS: list[object] = [
    None,
    True,
    False,
    0,
    1,
    2,
    -1,
    3,
    1.0,
    2.5,
    0.0,
    -0.0,
    1e20,
    10**20,
    "a",
    "b",
    "c",
    "1",
    "2",
    "",
    "--",
    "--a",
    "--1",
    "--b",
    "--c",
    "-",
    "-a",
    "x--",
    "a|b",
    "#{x}",
    "A1",
    ".",
    "--2",
    "--",
    "--x\n--a",
    "é",
]
PREFIXES: list[object] = [
    "--",
    "-",
    "a|b",
    ".",
    "x",
    "^",
    "--a",
    "--",
    "-",
    "",
    "(",
    "[",
    ")",
    "\\",
    "?",
]
KEYS = ["a", "b", "c", "--a", "x"]


def gen_value(rng: random.Random, depth: int, rich: bool = False) -> object:
    r = rng.random()
    if depth <= 0 or r < 0.4:
        if rich and rng.random() < 0.05:
            return float("nan")
        return rng.choice(SCALARS)
    if r < 0.62:
        return [gen_value(rng, depth - 1, rich) for _ in range(rng.randint(0, 4))]
    if r < 0.72:  # arrays of hashes, for merge_hash_arrays
        return [gen_hash(rng, depth - 1, rich) for _ in range(rng.randint(0, 3))]
    return gen_hash(rng, depth, rich)


def gen_hash(rng: random.Random, depth: int, rich: bool) -> dict[object, object]:
    keys: list[object] = list(KEYS)
    if rich:
        keys += [1, 2, 1.5, "", 3]
    return {rng.choice(keys): gen_value(rng, depth - 1, rich) for _ in range(rng.randint(0, 4))}


def gen_deep_spec(rng: random.Random) -> object:
    spec: dict[str, object] = {"strategy": "deep"}
    if rng.random() < 0.6:
        spec["knockout_prefix"] = rng.choice(PREFIXES)
    if rng.random() < 0.5:
        spec["sort_merged_arrays"] = rng.random() < 0.5
    if rng.random() < 0.5:
        spec["merge_hash_arrays"] = rng.random() < 0.5
    if rng.random() < 0.1:
        spec["merge_debug"] = False
    if len(spec) == 1 and rng.random() < 0.5:
        return "deep"
    return spec


def gen_unconstrained_spec(rng: random.Random) -> object:
    spec: dict[str, object] = {"strategy": rng.choice(["unconstrained_deep", "reverse_deep"])}
    for option, values in (
        ("knockout_prefix", ["--", "-", 1, None, False]),
        ("sort_merged_arrays", [True, False, 1, None]),
        ("merge_hash_arrays", [True, False]),
        ("preserve_unmergeables", [True, False]),
        ("overwrite_arrays", [True, False]),
        ("extend_existing_arrays", [True, False]),
        ("unpack_arrays", [",", " ", "-", "", False, 1]),
    ):
        if rng.random() < 0.3:
            spec[option] = rng.choice(values)
    return spec


def gen_spec(rng: random.Random) -> object:
    r = rng.random()
    if r < 0.15:
        return "unique"
    if r < 0.3:
        return "hash"
    if r < 0.85:
        return gen_deep_spec(rng)
    return gen_unconstrained_spec(rng)


def gen_hashy(rng: random.Random, rich: bool) -> object:
    """Mostly hashes, so that the hash strategy gets past its type check now and then."""
    return gen_hash(rng, 3, rich) if rng.random() < 0.6 else gen_value(rng, 3, rich)


SPEC_CASES: list[object] = [
    "first",
    "default",
    "unique",
    "hash",
    "deep",
    "unconstrained_deep",
    "reverse_deep",
    "bogus",
    "",
    "Deep",
    5,
    1.5,
    True,
    ["deep"],
    {"a": 1},
    {"strategy": "deep"},
    {"strategy": None},
    {"strategy": 5},
    {"strategy": False},
    {"strategy": ["deep"]},
    {"strategy": {"a": 1}},
    {"strategy": "deep", "x": 1},
    {"strategy": "hash", "x": 1},
    {"strategy": "first", "x": 1},
    {"strategy": "unique", "x": 1},
    {"strategy": "default", "x": 1},
    {"strategy": "default"},
    {"strategy": "unconstrained_deep", "x": 1},
    {"strategy": "reverse_deep", "x": 1},
    {"strategy": "deep", "knockout_prefix": 1},
    {"strategy": "deep", "knockout_prefix": None},
    {"strategy": "deep", "sort_merged_arrays": "yes"},
    {"strategy": "deep", "merge_hash_arrays": 1},
    {"strategy": "deep", "merge_debug": "x"},
    {"strategy": "deep", "knockout_prefix": 1, "x": 2},
    {"strategy": "deep", "x": 2, "y": 3},
    {"strategy": "deep", "preserve_unmergeables": True},
    {"strategy": "deep", "knockout_prefix": ""},
    {"strategy": "hash", "strategy2": 1},
    {"strategy": "deep", "sort_merged_arrays": False, "merge_hash_arrays": False},
    {"strategy": "deep", "knockout_prefix": 1, "sort_merged_arrays": 2},
    {"strategy": "deep", 1: 2},
    {"strategy": "deep", "knockout_prefix": ["a"]},
    {"strategy": "deep", "sort_merged_arrays": None},
    {"strategy": "Deep"},
    {"strategy": "deep", "x": None},
    {"x": 1, "strategy": "deep"},
    {"strategy": "unconstrained_deep"},
    {"strategy": "unconstrained_deep", "": 1},
    {"strategy": "unconstrained_deep", 1: 1},
    {"strategy": "hash", 1: 2},
    {"strategy": "hash", "": 2},
    {"strategy": "deep", "knockout_prefix": "x", "y": 1, "z": 2},
    {"strategy": "hash ", "x": 1},
    {"strategy": "deep", "knockout_prefix": 1.5, "merge_debug": [], "sort_merged_arrays": {}},
    {"strategy": "deep", "merge_hash_arrays": {"a": 1}, "merge_debug": True},
    {"strategy": "deep", 1: 2, 2: 3, 3: 4, 4: 5, 5: 6},
    {"strategy": "first", "": 1},
    {"strategy": "deep", "": None, "knockout_prefix": "--"},
    {"strategy": RubySymbol("deep")},
    {"strategy": RubySymbol("deep"), "knockout_prefix": "x"},
    RubySymbol("unique"),
]

SORT_POOL: list[object] = [
    1,
    2,
    3,
    1.5,
    -1,
    10**20,
    2.0,
    "a",
    "b",
    "B",
    "é",
    "",
    None,
    True,
    False,
    [1],
    [1, "a"],
    [1, 2],
    [],
    {},
    {"a": 1},
    RubySymbol("s"),
    RubySymbol("t"),
    float("nan"),
]

TEXT_POOL = [
    "a",
    '"',
    "\\",
    "#",
    "{",
    "$",
    "@",
    "#{",
    "\n",
    "\t",
    "\x1b",
    "\x00",
    "\x7f",
    "\x85",
    "\xa0",
    "\u200b",
    "\u2028",
    "é",
    "😀",
    "\U0010ffff",
    "\ufffe",
    "\u0378",
    " ",
    "'",
    "%",
    "#$x",
    "#@y",
]
FLOAT_POOL = [
    0.1,
    1.0,
    2.5,
    1e15,
    1e16,
    1e14,
    999999999999999.0,
    1234567890123456.0,
    123456789012345.67,
    1e-4,
    1e-5,
    0.00012,
    1.5e-7,
    5e-324,
    1.7976931348623157e308,
    1e100,
    -0.0,
    100.0,
    1e20,
    3.14159,
    float("inf"),
    float("-inf"),
    12345.678,
    0.30000000000000004,
    2.0**60,
    1 / 3,
]


@dataclass
class Cases:
    cases: list[dict[str, Any]] = field(default_factory=list)
    by_kind: dict[str, int] = field(default_factory=dict)

    def add(self, op: str, kind: str, **payload: object) -> None:
        self.cases.append({"id": len(self.cases), "op": op, **payload})
        self.by_kind[kind] = self.by_kind.get(kind, 0) + 1


def generate(seed: int) -> Cases:
    rng = random.Random(seed)
    cases = Cases()
    for _ in range(2400):
        spec = gen_spec(rng)
        rich = rng.random() < 0.2
        if spec == "hash":
            a, b = gen_hashy(rng, rich), gen_hashy(rng, rich)
        else:
            a, b = gen_value(rng, 3, rich), gen_value(rng, 3, rich)
        kind = spec if isinstance(spec, str) else str(spec["strategy"])  # type: ignore[index]
        cases.add("merge", f"merge {kind}", spec=spec, a=a, b=b)
    for _ in range(900):
        spec = rng.choice(
            ["first", "default", "unique", "hash", gen_deep_spec(rng), gen_unconstrained_spec(rng)]
        )
        values: list[object] = []
        for _ in range(rng.randint(0, 3)):
            if rng.random() < 0.25:
                values.append(NOT_FOUND)
            else:
                values.append(gen_hashy(rng, False) if spec == "hash" else gen_value(rng, 3))
        cases.add("lookup", "lookup over variants", spec=spec, values=values)
    for spec in SPEC_CASES:
        cases.add("strategy", "merge specification", spec=spec)
    for _ in range(400):
        v = [rng.choice(SORT_POOL) for _ in range(rng.randint(0, 6))]
        if rng.random() < 0.5:  # mostly comparable arrays, so that ordering itself is checked
            v = [x for x in v if isinstance(x, int | float) and not isinstance(x, bool)] or [
                x for x in v if isinstance(x, str)
            ]
        cases.add("sort", "sort", v=v)
    for _ in range(300):
        text = "".join(rng.choice(TEXT_POOL) for _ in range(rng.randint(0, 6)))
        cases.add("inspect", "inspect/to_s", v=text)
    for f in FLOAT_POOL:
        cases.add("inspect", "inspect/to_s", v=f)
        cases.add("inspect", "inspect/to_s", v=-f)
    for _ in range(200):
        cases.add("inspect", "inspect/to_s", v=gen_value(rng, 3, True))
    for sym in ["a", "a b", "a?", "A", "+", "[]=", "@x", "9", "", "é", "a=", "$g", "@@c"]:
        cases.add("inspect", "inspect/to_s", v=[RubySymbol(sym), {RubySymbol(sym): 1}])
    for _ in range(400):
        cases.add("type", "type inference", v=gen_hash(rng, 3, True))
    return cases


def run_puppet(oracle: PuppetOracle, cases: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Puppet's answer to every case, in order (one oracle request per kind of case)."""
    by_op: dict[str, list[int]] = {}
    for i, case in enumerate(cases):
        by_op.setdefault(case["op"], []).append(i)
    answers: list[dict[str, Any]] = [{} for _ in cases]

    def put(op: str, results: list[dict[str, Any]]) -> None:
        for i, result in zip(by_op.get(op, []), results, strict=True):
            answers[i] = result

    def chosen(op: str) -> list[dict[str, Any]]:
        return [cases[i] for i in by_op.get(op, [])]

    put("merge", oracle.merge([(c["spec"], c["a"], c["b"]) for c in chosen("merge")]))
    put(
        "lookup",
        oracle.merge_lookup([(c["spec"], c["values"]) for c in chosen("lookup")], NOT_FOUND),
    )
    put("strategy", oracle.merge_strategy([c["spec"] for c in chosen("strategy")]))
    put("sort", oracle.sort([c["v"] for c in chosen("sort")]))
    put("inspect", oracle.inspect([c["v"] for c in chosen("inspect")]))
    put("type", oracle.infer_type([c["v"] for c in chosen("type")]))
    return answers


def describe(case: dict[str, Any]) -> str:
    shown = {
        k: [{"not_found": True} if x is NOT_FOUND else encode(x) for x in v]
        if k == "values"
        else encode(v)
        for k, v in case.items()
    }
    return json.dumps(shown, ensure_ascii=False)


def in_ruby_words(result: dict[str, object], op: str, engine: str) -> dict[str, object]:
    """Texts (an error, inspect and to_s) as compared with that engine's Ruby
    (docs/differences.md#ruby-error-texts)."""
    if "err" in result:
        return {"err": comparable(str(result["err"]), engine)}
    ok = result["ok"]
    if op == "inspect" and isinstance(ok, tuple):
        return {"ok": tuple(comparable(str(t), engine) for t in ok)}
    return result


def check(oracle: PuppetOracle, seed: int, report: Callable[[str], None]) -> None:
    cases = generate(seed)
    disagreements: list[str] = []
    engine = oracle.engine.name
    for case, theirs in zip(cases.cases, run_puppet(oracle, cases.cases), strict=True):
        expected = in_ruby_words(theirs_normalised(case, theirs), case["op"], engine)
        actual = in_ruby_words(run_ours(case), case["op"], engine)
        if expected != actual:
            disagreements.append(f"{describe(case)}\n  puppet: {expected}\n  ours:   {actual}")
    total = len(cases.cases)
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(cases.by_kind.items()))
    report(f"seed {seed}: {total - len(disagreements)}/{total} cases agree with Puppet ({kinds})")
    assert not disagreements, f"{len(disagreements)} of {total} disagree:\n" + "\n".join(
        disagreements[:15]
    )


def test_merge_strategies_agree_with_puppet(
    puppet_oracle: PuppetOracle, capsys: pytest.CaptureFixture[str]
) -> None:
    with capsys.disabled():
        check(puppet_oracle, 20250101, lambda msg: print(f"\n{msg}"))
