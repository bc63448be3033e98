"""Puppet's type system and value text, compared with Puppet 7.23 on generated cases.

A seeded generator makes values (scalars, nested arrays and hashes, strings with quotes,
escapes and unicode, floats such as 1e15 and -0.0) and type expressions of every kind
(aliases of a module included).  For each pair the one oracle process answers what Puppet
prints: ``inspect``, ``to_s``, ``String(v)``, ``String(v, '%p')``, the type's text,
``instance?`` and the ``assert_type`` mismatch message; ours must be the same text.

``HIERA_LS_TYPES_SEEDS=N`` runs N seeds instead of one (a longer search for differences).
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from hiera_ls.puppet.ruby_text import inspect, puppet_string, to_s
from hiera_ls.puppet.type_format import format_type
from hiera_ls.puppet.type_infer import instance_of
from hiera_ls.puppet.type_mismatch import describe_mismatch, render
from hiera_ls.puppet.type_parser import TypeExpressionError, parse_type
from tests.oracle.puppet import PuppetOracle

CASES_PER_SEED = 400

ALIASES = {
    "Tm::Port": "Integer[0, 65535]",
    "Tm::Host": "Variant[Pattern[/\\A[a-z][a-z.]*\\z/], Tm::Port]",
    "Tm::Tree": "Hash[String, Variant[Integer, Tm::Tree]]",
    "Tm::Conf": (
        "Struct[{name => String[1], Optional['port'] => Tm::Port, tags => Optional[Array[String]]}]"
    ),
    "Tm::Mode": "Enum['on', 'off']",
}

FLOATS = [1e15, 1e16, 1234567890123456.8, 1e-5, 100.0, -0.0, 0.0, 0.1, 1.5, -2.25, 1e100, 123e-20]
STRINGS = [
    "",
    "a",
    "b",
    "on",
    "x/y",
    "it's",
    'say "hi"',
    "back\\slash",
    "tab\there",
    "new\nline",
    "#{x}",
    "${y}",
    "$z",
    "ünïcødé",
    "日本語",
    "emoji 🎉",
    "bell\u0007",
    "a'b\\c",
    "host.example",
    "name",
    "port",
]
KEYS = ["a", "b", "name", "port", "tags", "x", "", "it's"]

SCALAR_TYPES = [
    "Any",
    "Undef",
    "Default",
    "Integer",
    "Integer[1, 65535]",
    "Integer[default, 10]",
    "Integer[-5]",
    "Float",
    "Float[0.5, 2]",
    "Numeric",
    "String",
    "String[1]",
    "String[2, 4]",
    "Enum['a', \"b\"]",
    "Enum[on, off]",
    "Pattern[/^x\\/y$/]",
    "Pattern[/^a/, /b$/]",
    "Boolean",
    "Boolean[true]",
    "Scalar",
    "ScalarData",
    "Data",
    "RichData",
    "NotUndef",
    "Collection[1, 2]",
    "Tm::Port",
    "Tm::Host",
    "Tm::Mode",
    "Stdlib::Port",
]
WHOLE_TYPES = ["Tm::Tree", "Tm::Conf", "Array", "Hash", "Tuple", "Struct", "Optional", "Variant"]
# Kinds that data never holds: parsed and named, and every value is checked against them.
OTHER_TYPES = [
    "Sensitive[String]",
    "Sensitive",
    "Type[Integer]",
    "Type",
    "Callable",
    "Callable[String, 1]",
    "Callable[[String], Integer]",
    "SemVer",
    "SemVer['>=1.0.0']",
    "SemVerRange",
    "Timestamp",
    "Timespan",
    "Regexp",
    "Regexp[/a+/]",
    "Runtime[ruby, 'Symbol']",
    "Iterable[String]",
    "Iterator",
    "Init[Integer]",
    "Object",
    "Binary",
    "URI",
    "CatalogEntry",
    "Class",
    "Boolean[false]",
    "Float[default, 1.5]",
    "String[0, default]",
    "Enum['A', 'b', true]",
    "Pattern['^s']",
    "Array[1, 3]",
    "Hash[0, 0]",
    "Tuple[Integer, String, 1, default]",
    "Collection",
    "Unit",
    "Puppet::LookupValue",
    "RichDataKey",
]
# Not type expressions: Puppet and we must both refuse them.
BAD_TYPES = [
    "Integer[",
    "Array[String,",
    "Struct[{a => }]",
    "Integer[10, 1]",
    "Integer]",
    "Foo bar",
    "Enum[",
    "Hash[String, Integer",
    "[Integer]",
    "Optional[Integer, String]",
    "Integer['x']",
    "Struct[{'' => Integer}]",
]


def gen_value(rng: random.Random, depth: int = 0) -> object:
    roll = rng.random()
    if depth < 3 and roll < 0.25:
        return [gen_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if depth < 3 and roll < 0.45:
        return {rng.choice(KEYS): gen_value(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    kind = rng.randrange(6)
    if kind == 0:
        return rng.choice([0, 1, 80, 65535, 65536, -7, 10, 2**40])
    if kind == 1:
        return rng.choice(FLOATS)
    if kind == 2:
        return rng.choice([True, False, None])
    return rng.choice(STRINGS)


def gen_type(rng: random.Random, depth: int = 0) -> str:
    if depth >= 2 or rng.random() < 0.4:
        return rng.choice(SCALAR_TYPES + (WHOLE_TYPES if rng.random() < 0.2 else []))
    inner = gen_type(rng, depth + 1)
    other = gen_type(rng, depth + 1)
    return rng.choice(
        [
            f"Optional[{inner}]",
            f"NotUndef[{inner}]",
            f"Variant[{inner}, {other}]",
            f"Array[{inner}]",
            f"Array[{inner}, 1]",
            f"Array[{inner}, 0, 2]",
            f"Tuple[{inner}, {other}]",
            f"Tuple[{inner}, 1, 3]",
            f"Hash[String, {inner}]",
            f"Hash[String[1], {inner}, 1, 2]",
            f"Struct[{{a => {inner}, Optional['b'] => {other}}}]",
            f"Struct[{{NotUndef['name'] => Optional[{inner}], port => {other}}}]",
        ]
    )


def generate(seed: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    cases: list[dict[str, Any]] = []
    for _ in range(CASES_PER_SEED):
        value = gen_value(rng)
        roll = rng.random()
        if roll < 0.08:
            type_text = None
        elif roll < 0.13:
            type_text = rng.choice(BAD_TYPES)
        elif roll < 0.25:
            type_text = rng.choice(OTHER_TYPES)
        else:
            type_text = gen_type(rng)
        cases.append({"type": type_text, "value": value})
    return cases


def resolver(name: str) -> str | None:
    return ALIASES.get(name)


def ours(case: dict[str, Any]) -> dict[str, Any]:
    value = case["value"]
    result: dict[str, Any] = {
        "inspect": inspect(value),
        "to_s": to_s(value),
        "string": puppet_string(value),
        "string_p": puppet_string(value, True),
    }
    if case["type"] is None:
        return result
    try:
        t = parse_type(case["type"], resolver)
    except TypeExpressionError:
        return {**result, "parse_error": True}
    result["type_string"] = format_type(t)
    if case["type"].startswith(NAME_ONLY):
        return result
    result["instance"] = instance_of(t, value)
    mismatch = render(describe_mismatch("V has wrong type,", t, value))
    result["mismatch"] = None if result["instance"] else mismatch
    return result


TYPE_FIELDS = ("type_string", "instance", "mismatch", "parse_error")
# Kinds whose instances never come from data: their values are only named here, so whether a
# data value is one (Iterable['abc'], Init[Integer] from 1.5 ...) is not compared.
NAME_ONLY = ("Init", "Iterable", "Iterator", "Callable", "SemVer", "Timestamp", "Timespan")


def theirs_normalised(answer: dict[str, Any]) -> dict[str, Any]:
    if "parse_error" in answer:
        return {**answer, "parse_error": True}
    return answer


def without_type_fields(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k not in TYPE_FIELDS and k != "puppet_crash"}


def disagreements(oracle: PuppetOracle, seed: int) -> Iterator[tuple[str, str, object, object]]:
    cases = generate(seed)
    for case, answer in zip(cases, oracle.types(ALIASES, cases), strict=True):
        mine, theirs = ours(case), theirs_normalised(answer)
        if "puppet_crash" in theirs:  # Puppet failed on the type itself: compare value text only
            mine, theirs = without_type_fields(mine), without_type_fields(theirs)
        elif case["type"] and case["type"].startswith(NAME_ONLY) and "parse_error" not in theirs:
            theirs = {k: v for k, v in theirs.items() if k not in ("instance", "mismatch")}
        for field in sorted(set(mine) | set(theirs)):
            if mine.get(field) != theirs.get(field):
                yield (repr(case), field, theirs.get(field), mine.get(field))


def _check(oracle: PuppetOracle, seeds: list[int], report: Callable[[str], None]) -> None:
    found: list[str] = []
    fields: dict[str, int] = {}
    crashes = sum(
        1 for seed in seeds for a in oracle.types(ALIASES, generate(seed)) if "puppet_crash" in a
    )
    for seed in seeds:
        for case, field, theirs, mine in disagreements(oracle, seed):
            fields[field] = fields.get(field, 0) + 1
            found.append(f"{case}\n  {field}:\n    puppet: {theirs!r}\n    ours:   {mine!r}")
    total = CASES_PER_SEED * len(seeds)
    report(
        f"types: {total} cases over {len(seeds)} seed(s), {len(found)} field differences {fields}"
        f" ({crashes} cases where Puppet itself failed on the type: value text compared only)"
    )
    assert not found, f"{len(found)} differences:\n" + "\n".join(found[:20])


def test_types_and_value_text_agree_with_puppet(
    puppet_oracle: PuppetOracle, capsys: pytest.CaptureFixture[str]
) -> None:
    count = int(os.environ.get("HIERA_LS_TYPES_SEEDS", "1"))
    with capsys.disabled():
        _check(puppet_oracle, list(range(1, count + 1)), print)
