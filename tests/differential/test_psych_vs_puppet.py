"""Our YAML loader against Ruby's Psych itself, over hundreds of scalars and documents.

Psych is the reference: every value, every refusal and every syntax-error message must be
what ``Psych.safe_load(text, permitted_classes: [Symbol], aliases: true)`` gives, worded as
Puppet's yaml_data words it (the oracle's ``load_yaml`` command).  Skipped without Puppet
(failed instead on CI).
"""

from __future__ import annotations

import itertools
import random

import pytest

from hiera_ls.source.libyaml import DEFAULT_BACKEND
from hiera_ls.source.yaml_loader import load_yaml
from tests.oracle.puppet import PuppetOracle
from tests.oracle.values import canonical, encode

pytestmark = pytest.mark.puppet

BOOLEAN_WORDS = [
    "yes",
    "no",
    "true",
    "false",
    "on",
    "off",
    "y",
    "n",
    "null",
    "nul",
    "nulls",
    "ye",
    "yess",
    "tru",
]

SCALARS = sorted(
    {
        *(
            "".join(c.upper() if bit else c for c, bit in zip(word, bits, strict=False))
            for word in BOOLEAN_WORDS
            for bits in itertools.product([0, 1], repeat=min(len(word), 3))
        ),
        "~",
        "Null",
        "NULL",
        "nUlL",
        "",
        "TRUE",
        "True",
        "FALSE",
        # integers in every base, with signs and separators
        "0",
        "-0",
        "+0",
        "7",
        "-7",
        "+7",
        "42",
        "1_000",
        "1,000",
        "1__000",
        "1_",
        "_1",
        "1,0",
        "10,000,000",
        "0755",
        "-0755",
        "+0755",
        "07_55",
        "0,7",
        "08",
        "09",
        "00",
        "0_",
        "0o17",
        "0O17",
        "0b101",
        "-0b101",
        "+0b1_0",
        "0b",
        "0b_",
        "0b2",
        "0B101",
        "0x1F",
        "-0x1f",
        "+0x_1F",
        "0x",
        "0x_",
        "0xG",
        "0X1F",
        "0x1,F",
        "123456789012345678901234567890",
        "-98765432109876543210",
        # sexagesimal
        "1:30",
        "12:30",
        "12:30:00",
        "-1:30",
        "+1:30",
        "1:30:5",
        "1:60",
        "1:5:30",
        "190:20:30",
        "1_0:30",
        "1:30.5",
        "190:20:30.15",
        "1:30.",
        "1:30._5",
        "1:2:3:4",
        "1::30",
        "1:3a",
        # floats
        "1.5",
        "-1.5",
        "+1.5",
        ".5",
        "-.5",
        "+.5",
        "1.",
        "-1.",
        ".",
        "-.",
        "+.",
        "1.0e+3",
        "1.0E-3",
        "1.e+3",
        "-.e+5",
        ".e+5",
        "1e3",
        "1E3",
        "1e+3",
        "-2e10",
        "1.5e3",
        "1_000.5",
        "1,000.5",
        "1__0.5",
        "0.1",
        "00.5",
        "1.5.6",
        "6.8523015e+5",
        "685.230_15e+03",
        "1.0e+400",
        "-1.0e+400",
        # special floats
        ".inf",
        ".Inf",
        ".INF",
        ".iNf",
        "+.inf",
        "-.inf",
        "-.Inf",
        ".nan",
        ".NaN",
        ".NAN",
        "inf",
        "nan",
        "-.nan",
        "+.nan",
        ".infinity",
        # dates and timestamps (refused) and near misses
        "2001-12-14",
        "2001-1-1",
        "2001-13-01",
        "2001-02-30",
        "2001-12-14t21:59:43.10-05:00",
        "2001-12-14 21:59:43.10 -5",
        "2001-12-15T02:59:43.1Z",
        "2001-12-15 2:59:43.10",
        "2001-12-14x",
        "20011214",
        "01-12-14",
        "-2001-12-14 21:59:43",
        # symbols
        ":a",
        ":sym",
        ":Foo::Bar",
        ":1",
        ":",
        "::",
        ':"quoted sym"',
        ":'single'",
        ":'x'y",
        ':"a"b"c',
        # strings that look like something else
        "1.2.3",
        "-",
        "+",
        "1-2",
        "1a",
        "a1",
        "0.0.0.0",
        "10.0.0.1/24",
        "1/2",
        "1 2",
        "v1.0",
        "=",
        "<<",
        "%foo",
        "é",
        "été",
        "日本",
        "1é",
        "Ⅻ",
        "\u00aa",
        "-a",
        ".a",
        "_",
        "__init__",
        "x" * 6,
        "yes_please",
        "on-call",
        "no way",
    }
)


def random_scalars(count: int, seed: int = 1234) -> list[str]:
    rng = random.Random(seed)
    alphabet = "0123456789._,:-+eExXbBo yYnNtTfF~a"
    found: set[str] = set()
    while len(found) < count:
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 8))).strip()
        if (
            text
            and not text.startswith(("-", "?", ":", "~ ", "o ", "e "))
            and ": " not in text
            and " #" not in text
        ):
            found.add(text)
    return sorted(found)


DOCUMENTS = [
    "a: &a {x: 1}\nb: {<<: *a, y: 2}\nc: {y: 3, <<: *a, x: 4}\nd: {x: 0, <<: [*a, {x: 9, z: 1}]}\n"
    "e: {<<: [*a, 1]}\nf: {<<: 5}\ng: {!!str <<: *a}\nh: {x: 0, <<: *a}\ni: {'<<': *a}\n",
    "a: &a [1]\nb: {<<: *a}\n",
    "a: &x 1\nb: &x 2\nc: *x\n",
    "a: 1\na: 2\n",
    "a: {b: 1}\na: {c: 2}\n",
    "*y\n",
    "a: *nope\n",
    "a: 1\n---\n: bad: [\n",
    "--- a\n...\n--- b\n",
    "",
    "# only a comment\n",
    "---\n",
    "...\n",
    "~\n",
    "false\n",
    "no\n",
    "- 1\n- 2\n",
    "just a string\n",
    "[a:b]\n",
    "{a:b}\n",
    "{a?b: c}\n",
    "[a?b]\n",
    "%YAML 1.2\n--- a\n",
    "%YAML 1.1\n%YAML 1.1\n--- a\n",
    "a: b: c\n",
    "a: [1, 2\n",
    "a: {x: 1\n",
    'key: "unterminated\n',
    "a:\n  - 1\n - 2\n",
    "a: 1\n b: 2\n",
    "- a\nb: c\n",
    "a: `x`\n",
    "a: @x\n",
    "a: &x\n",
    "a: !<x\n",
    "%FOO bar\n--- a\n",
    "%YAML 2.0\n--- a\n",
    "a: |\n  x\n y\n",
    "{a: 1, [\n",
    'a: "\\q"\n',
    "a:\n\tb: 1\n",
    "? a\n? b\nc\n",
    "foo: bar\n- x\n",
    "key: 'it''s'\n  more: x\n",
    'x: "é😀" : y\n',
    "a: 1\nb: \x01\n",
    "!x!foo bar\n",
    "a: 2020-01-01\nb: c: d\n",
    "a: 2020-01-01\nb: [\n",
    "a: :sym\nb: 2020-01-01\n",
    "- [a: 1, b]\n- {x, y: z}\n",
    "- [a, b]: c\n",
    ":sym: 1\n:other: :value\n",
    "a: !!float 5\nb: !!float 1e3\nc: !!float 0x1A\nd: !!float ' 1.5 '\n",
    "a: !!float ~\n",
    "a: !!float yes\n",
    "a: !!float :s\n",
    "a: !!float abc\n",
    "a: !!float '1__0'\n",
    "a: !!int '12'\nb: ! '3'\nc: !!null x\nd: !!bool x\ne: !!str 123\nf: !foo 0755\n"
    "g: !!int 0x10\n",
    "a: !ruby/sym foo\nb: !ruby/symbol:x ''\nc: !str: x\nd: !ruby/class ''\n",
    "a: !str:Foo x\n",
    "a: !ruby/struct {}\n",
    "a: !ruby/object {}\n",
    "a: !ruby/object:Foo {x: 1}\n",
    "a: !ruby/object:Hash {x: 1}\n",
    "a: !ruby/object:Foo bar\n",
    "a: !!set {a, b}\n",
    "a: !omap {a: 1}\n",
    "a: !!omap [b: 1, c: 2]\n",
    "a: !ruby/regexp /x/\n",
    "a: !ruby/range 1..2\n",
    "a: !ruby/object:BigDecimal 1.5\n",
    "a: !ruby/object:DateTime 2001-01-01\n",
    "a: !!timestamp 2001-12-14\n",
    "a: !ruby/hash-with-ivars {elements: {x: 1}, ivars: {'@a': 2}}\n",
    "a: !!str {str: x}\n",
    "a: !!binary aGVsbG8gd29ybGQ=\n",
    "a: !ruby/exception {}\n",
    "a: !ruby/object:Complex {}\n",
    "a: !!map {x: 1}\nb: !!seq [1]\nc: !foo {y: 2}\nd: !bar [3]\n",
    "a: |\n  line\n  two\nb: >\n  folded\n  text\n\nc: 'single'\nd: \"double\\ttab\"\n",
    "a:\nb: ~\nc: null\nd: Null\ne: ''\n",
    "? [1, 2]\n: list key\n? {a: 1}\n: map key\n",
    "true: 1\n2: 2\n1.5: 3\n~: 4\n",  # not 1 and true together: Python's dict merges them
    "a: no\n\n  x\n",
    "a: &anchor\n  b: 1\nc: *anchor\nd:\n  <<: *anchor\n  e: 2\n",
    "\ufeffa: 1\n",
    "a: \u00e9t\u00e9\nb: \U0001f600\n",
]


def _ours(text: str) -> dict[str, object]:
    doc = load_yaml("f.yaml", text)
    if doc.fatal is not None:
        return {"error": doc.fatal.message}
    return {"ok": encode(doc.value)}


def _same(ours: dict[str, object], theirs: dict[str, object]) -> bool:
    if "ok" in ours or "ok" in theirs:
        return "ok" in ours and "ok" in theirs and canonical(ours["ok"]) == canonical(theirs["ok"])
    return ours == theirs


def _compare(oracle: PuppetOracle, texts: list[str]) -> list[str]:
    theirs = oracle.load_yaml(texts)
    wrong = []
    for text, expected in zip(texts, theirs, strict=True):
        ours = _ours(text)
        if not _same(ours, expected):
            wrong.append(f"{text!r}: psych {expected} / hiera-ls {ours}")
    return wrong


needs_libyaml_025 = pytest.mark.skipif(
    "0.2.5" not in DEFAULT_BACKEND.name,
    reason=(
        "the flow-collection corners differ in ruamel.yaml.clib's libyaml 0.1.7; add PyYAML to "
        "get 0.2.5"
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


@needs_libyaml_025
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
