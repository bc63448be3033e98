"""Differential test: our merge strategies and Ruby value semantics against Puppet itself.

One Ruby process loads Puppet and runs Puppet's own ``MergeStrategy`` (``strategy(spec)``,
``#merge``, ``#lookup`` over variants with not-found ones), ``Array#sort``, ``inspect`` /
``to_s`` and Puppet's type inference over a few thousand random cases; every result must be
identical (hash key order and Integer/Float included), and so must every error message.

Values cross the process boundary as tagged JSON (``{"a": [...]}`` for arrays,
``{"h": [[k, v], ...]}`` for hashes, so non-string keys and key order survive), and both
sides decode the same text.
"""

from __future__ import annotations

import json
import math
import os
import random
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest

from hiera_ls.engine.merge import (
    MergeError,
    MergeStrategy,
    convert_first,
    merge_pair,
    merge_single,
    parse_merge,
)
from hiera_ls.puppet.ruby import (
    ComparisonFailed,
    ruby_sort,
)
from hiera_ls.puppet.ruby_text import inspect, to_s
from hiera_ls.puppet.type_format import format_type
from hiera_ls.puppet.type_infer import infer_set, normalize
from hiera_ls.puppet.values import RubySymbol

RUBY_DRIVER = r"""
require 'puppet'
require 'json'
Puppet.initialize_settings
MS = Puppet::Pops::MergeStrategy
TC = Puppet::Pops::Types::TypeCalculator

def dec(v)
  return v unless v.is_a?(Hash)
  return v['a'].map { |e| dec(e) } if v.key?('a')
  return v['y'].to_sym if v.key?('y')
  h = {}
  v['h'].each { |k, x| h[dec(k)] = dec(x) }
  h
end

def enc(v)
  case v
  when Array then { 'a' => v.map { |e| enc(e) } }
  when Hash then { 'h' => v.map { |k, x| [enc(k), enc(x)] } }
  when Symbol then { 'y' => v.to_s }
  else v
  end
end

NF = Object.new
STDIN.each_line do |line|
  c = JSON.parse(line, allow_nan: true)
  out = { 'id' => c['id'] }
  begin
    case c['op']
    when 'merge'
      out['ok'] = enc(MS.strategy(dec(c['spec'])).merge(dec(c['a']), dec(c['b'])))
    when 'lookup'
      vals = c['values'].map { |v| v.is_a?(Hash) && v['nf'] ? NF : dec(v) }
      s = MS.strategy(dec(c['spec']))
      found = false
      r = catch(:no_such_key) do
        x = s.lookup(vals, Puppet::Pops::Lookup::Invocation.new(nil)) { |v| throw :no_such_key if v.equal?(NF); v }
        found = true
        x
      end
      out['ok'] = found ? enc(r) : { 'notfound' => true }
    when 'strategy'
      s = MS.strategy(dec(c['spec']))
      out['ok'] = { 'key' => s.class.key.to_s, 'options' => enc(s.options) }
    when 'sort'
      out['ok'] = enc(dec(c['v']).sort)
    when 'inspect'
      v = dec(c['v'])
      out['ok'] = { 'inspect' => v.inspect, 'to_s' => v.to_s }
    when 'type'
      out['ok'] = TC.singleton.infer_set(dec(c['v'])).normalize.to_s
    end
  rescue Exception => e
    out['err'] = e.message
  end
  STDOUT.puts JSON.generate(out, allow_nan: true)
end
"""


def _puppet_available() -> bool:
    if shutil.which("ruby") is None:
        return False
    probe = subprocess.run(["ruby", "-e", "require 'puppet'"], capture_output=True, check=False)
    return probe.returncode == 0


pytestmark = [
    pytest.mark.puppet,
    pytest.mark.skipif(
        os.environ.get("CI") != "true" and not _puppet_available(),
        reason="needs ruby with Puppet (always runs under CI)",
    ),
]


# ---------------------------------------------------------------------------- encoding


def enc(value: object) -> object:
    if isinstance(value, list):
        return {"a": [enc(v) for v in value]}
    if isinstance(value, dict):
        return {"h": [[enc(k), enc(v)] for k, v in value.items()]}
    if isinstance(value, RubySymbol):
        return {"y": value.name}
    return value


def dec(value: object) -> object:
    if isinstance(value, dict):
        if "a" in value:
            return [dec(v) for v in value["a"]]
        if "y" in value:
            return RubySymbol(value["y"])
        return {dec(k): dec(v) for k, v in value["h"]}
    return value


def loads(text: str) -> object:
    return json.loads(text)


def canonical(value: object) -> object:
    """A form in which equality means Ruby-identical: types, float sign, key order."""
    if value is None or isinstance(value, bool | str):
        return (type(value).__name__, value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("float", "nan" if math.isnan(value) else repr(value))
    if isinstance(value, RubySymbol):
        return ("sym", value.name)
    if isinstance(value, list):
        return ("list", [canonical(v) for v in value])
    if isinstance(value, dict):
        return ("dict", [(canonical(k), canonical(v)) for k, v in value.items()])
    return ("?", repr(value))


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


def run_ours(case: dict[str, object]) -> dict[str, object]:
    op = case["op"]
    try:
        if op == "merge":
            s = parse_merge(dec(case["spec"]))
            assert s is not None
            return {"ok": canonical(merge_pair(s, dec(case["a"]), dec(case["b"])))}
        if op == "lookup":
            s = parse_merge(dec(case["spec"]))
            assert s is not None
            raw = case["values"]
            assert isinstance(raw, list)
            values = [NOT_FOUND if isinstance(v, dict) and v.get("nf") else dec(v) for v in raw]
            result = our_lookup(s, values)
            return {"ok": ("notfound",) if result is NOT_FOUND else canonical(result)}
        if op == "strategy":
            s = parse_merge(dec(case["spec"]))
            assert s is not None
            return {"ok": (s.name, canonical(dict(s.options)))}
        if op == "sort":
            v = dec(case["v"])
            assert isinstance(v, list)
            return {"ok": canonical(ruby_sort(v))}
        if op == "inspect":
            v = dec(case["v"])
            return {"ok": (inspect(v), to_s(v))}
        if op == "type":
            return {"ok": format_type(normalize(infer_set(dec(case["v"]))))}
    except (MergeError, ComparisonFailed) as e:
        return {"err": str(e)}
    raise AssertionError(op)


def puppet_key(strategy_key: str) -> str:
    """Our strategy names are Puppet's class keys, except that ``default`` runs as ``first``."""
    return "first" if strategy_key == "default" else strategy_key


def theirs_normalised(case: dict[str, object], out: dict[str, object]) -> dict[str, object]:
    if "err" in out:
        return {"err": out["err"]}
    ok = out["ok"]
    op = case["op"]
    if op in ("merge", "sort"):
        return {"ok": canonical(dec(ok))}
    if op == "lookup":
        if isinstance(ok, dict) and ok.get("notfound"):
            return {"ok": ("notfound",)}
        return {"ok": canonical(dec(ok))}
    if op == "strategy":
        assert isinstance(ok, dict)
        options = dec(ok["options"])
        assert isinstance(options, dict)
        options.pop("strategy", None)  # we keep the options as explain prints them
        return {"ok": (puppet_key(str(ok["key"])), canonical(options))}
    if op == "inspect":
        assert isinstance(ok, dict)
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
    lines: list[str] = field(default_factory=list)
    by_kind: dict[str, int] = field(default_factory=dict)

    def add(self, op: str, kind: str, **payload: object) -> None:
        case = {"id": len(self.lines), "op": op, **payload}
        self.lines.append(json.dumps(case))
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
        cases.add("merge", f"merge {kind}", spec=enc(spec), a=enc(a), b=enc(b))
    for _ in range(900):
        spec = rng.choice(
            ["first", "default", "unique", "hash", gen_deep_spec(rng), gen_unconstrained_spec(rng)]
        )
        values: list[object] = []
        for _ in range(rng.randint(0, 3)):
            if rng.random() < 0.25:
                values.append({"nf": True})
            else:
                values.append(enc(gen_hashy(rng, False) if spec == "hash" else gen_value(rng, 3)))
        cases.add("lookup", "lookup over variants", spec=enc(spec), values=values)
    for spec in SPEC_CASES:
        cases.add("strategy", "merge specification", spec=enc(spec))
    for _ in range(400):
        v = [rng.choice(SORT_POOL) for _ in range(rng.randint(0, 6))]
        if rng.random() < 0.5:  # mostly comparable arrays, so that ordering itself is checked
            v = [x for x in v if isinstance(x, int | float) and not isinstance(x, bool)] or [
                x for x in v if isinstance(x, str)
            ]
        cases.add("sort", "sort", v=enc(v))
    for _ in range(300):
        text = "".join(rng.choice(TEXT_POOL) for _ in range(rng.randint(0, 6)))
        cases.add("inspect", "inspect/to_s", v=enc(text))
    for f in FLOAT_POOL:
        cases.add("inspect", "inspect/to_s", v=enc(f))
        cases.add("inspect", "inspect/to_s", v=enc(-f))
    for _ in range(200):
        cases.add("inspect", "inspect/to_s", v=enc(gen_value(rng, 3, True)))
    for sym in ["a", "a b", "a?", "A", "+", "[]=", "@x", "9", "", "é", "a=", "$g", "@@c"]:
        cases.add("inspect", "inspect/to_s", v=enc([RubySymbol(sym), {RubySymbol(sym): 1}]))
    for _ in range(400):
        cases.add("type", "type inference", v=enc(gen_hash(rng, 3, True)))
    return cases


def run_puppet(lines: list[str]) -> Iterator[dict[str, object]]:
    proc = subprocess.run(
        ["ruby", "-e", RUBY_DRIVER],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"},
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    for line in proc.stdout.split("\n")[:-1]:  # not splitlines(): U+2028 is no line break here
        yield loads(line)  # type: ignore[misc]


def check(seed: int, report: Callable[[str], None]) -> None:
    cases = generate(seed)
    disagreements: list[str] = []
    for line, theirs in zip(cases.lines, run_puppet(cases.lines), strict=True):
        case = loads(line)
        assert isinstance(case, dict) and case["id"] == theirs["id"]
        expected = theirs_normalised(case, theirs)
        actual = run_ours(case)
        if expected != actual:
            disagreements.append(f"{line}\n  puppet: {expected}\n  ours:   {actual}")
    total = len(cases.lines)
    kinds = ", ".join(f"{n} {k}" for k, n in sorted(cases.by_kind.items()))
    report(f"seed {seed}: {total - len(disagreements)}/{total} cases agree with Puppet ({kinds})")
    assert not disagreements, f"{len(disagreements)} of {total} disagree:\n" + "\n".join(
        disagreements[:15]
    )


def test_merge_strategies_agree_with_puppet(capsys: pytest.CaptureFixture[str]) -> None:
    with capsys.disabled():
        check(20250101, lambda msg: print(f"\n{msg}"))
