"""Texts and values whose answers Puppet gives through libyaml, and Puppet's recorded answers.

hiera-ls parses YAML with the libyaml bundled in the PyYAML wheel and writes YAML with its
emitter; Puppet runs libyaml 0.2.5 under Psych. A new PyYAML (or ruamel.yaml.clib) may bundle
another libyaml that reads or writes some text otherwise (PyYAML 6.0.4's libyaml 0.2.6 refuses
deep nesting and reads ``[ ? ]``). ``psych_answers.json`` holds what Puppet answered for each
text and value below; ``test_psych_answers.py`` compares the installed libyaml with it on every
run (no Puppet needed), and ``tests/differential/test_psych_vs_puppet.py`` checks that the
record is still what Puppet answers.

Record again after changing a list (Puppet needed): ``python -m tests.source.psych_cases``.
"""

from __future__ import annotations

import itertools
import json
import random
import subprocess
from pathlib import Path

ANSWERS = Path(__file__).with_name("psych_answers.json")

# Where libyaml's scanner and parser decide (flow corners, explicit keys, every error libyaml
# words, line breaks, documents): the texts where one libyaml may part from another.
LIBYAML_CORNERS = [
    # ``?`` closed at once by ``]`` in a flow sequence: 0.2.5 refuses it, 0.2.6 reads a pair
    "[?]\n",
    "[ ? ]\n",
    "[ ? ] ]\n",
    "a: [ ? ]\n",
    "- [ ? ]\n",
    "[?\n]\n",
    "[ ? # comment\n  ]\n",
    "[ a, ? ]\n",
    "[ ? a, ? ]\n",
    "[ ? ]\t,:b\n",
    "[? ]}\n",
    "[ ? a ]\n",
    "[ ? a : b ]\n",
    "[ ? : ]\n",
    "[ ? :]\n",
    "[ ? , a ]\n",
    "[ ?x: y ]\n",
    "{ ? }\n",
    "{ ? : }\n",
    "{ ? a }\n",
    "[ [ ? ] ]\n",
    "[ {?} ]\n",
    # flow collections
    "[a:b]\n",
    "[a: b]\n",
    "[a :b]\n",
    "[a?b]\n",
    "[?a]\n",
    "{a:b}\n",
    "{a: b, c}\n",
    "{a?b: c}\n",
    "{?a: b}\n",
    "[a, b,]\n",
    "[a, , b]\n",
    "[,]\n",
    "{,}\n",
    "[a]]\n",
    "{a: 1}}\n",
    "[a\n",
    "{a\n",
    "[a, {b: [c, {d: e}]}]\n",
    '["a":b]\n',
    "['a':b]\n",
    "[a: [b]: c]\n",
    "{[a]: b}\n",
    "{a: [b, c: d]}\n",
    "- [a, b]: c\n",
    "[*x]\n",
    "[&x a, *x]\n",
    "[!!str, a]\n",
    "[!t a, !t]\n",
    "[a #c\n, b]\n",
    "[a#c, b]\n",
    "[\n a,\n b\n]\n",
    "k: [\na]\n",
    "k: {\na: 1}\n",
    "[a\n- b]\n",
    "- [a\n- b]\n",
    # block structure
    "a:\n  b: 1\n c: 2\n",
    "a:\n- 1\n- 2\n",
    "- a\n - b\n",
    "-a\n",
    "- - - x\n",
    "- a: 1\n  b: 2\n- c\n",
    "? a\n: b\n",
    "? - a\n  - b\n: c\n",
    "?\n:\n",
    "? a\n",
    ": a\n",
    "a: b\n: c\n",
    "a:\n\t- b\n",
    "\ta: 1\n",
    "a: 1\n\t\n",
    "a:\tb\n",
    "a: 'x\n  y'\n",
    'a: "x\n\n  y"\n',
    "a: |2\n   x\n",
    "a: |-\n  x\n\n",
    "a: |+\n  x\n\n",
    "a: >2-\n   x\n   y\n",
    "a: |0\n",
    "a: |10\n",
    "a: |x\n",
    "a: >\n x\n\n  y\n z\n",
    "a: |\n  x\n # not a comment\n",
    "a: b #c\n",
    "a: b#c\n",
    "a: 'b'#c\n",
    "a: 'b' c\n",
    'a: "b" c\n',
    "a: b\n  c\n",
    "a: b\n  c: d\n",
    "a: - b\n",
    "a: ? b\n",
    "- a\nb\n",
    "a\nb: c\n",
    "a: " + "x" * 1100 + "\n",
    "x" * 1100 + ": a\n",
    "'" + "x" * 1100 + "': a\n",
    "? " + "x" * 1100 + "\n: a\n",
    # scalars the scanner reads
    "a: 'it''s'\n",
    'a: "\\x41\\u00e9\\U0001F600\\N\\_\\L\\P\\0\\a\\e\\ "\n',
    'a: "\\u12"\n',
    'a: "\\uD800"\n',
    'a: "\\UFFFFFFFF"\n',
    'a: "x\\\n  y"\n',
    "a: '\n'\n",
    'a: "\\/"\n',
    'a: "\\\t"\n',
    'a: "\t"\n',
    "a: -\n",
    "a: --- x\n",
    "a: ... x\n",
    "a: :b\n",
    "a: ::\n",
    "a: ?b\n",
    "a: ? b\n",
    "a: @b\n",
    "a: `b\n",
    "a: %b\n",
    "a: |b\n",
    "a: >b\n",
    "a: !b\n",
    "a: !<tag:x> b\n",
    "a: !<!> b\n",
    "a: !<> b\n",
    "a: !!\n",
    "a: !x!y b\n",
    "a: &b\n",
    "a: & b\n",
    "a: &\n",
    "a: *\n",
    "a: *b c\n",
    "a: &x &y b\n",
    "a: !t !u b\n",
    "a: &x !t b\nc: *x\n",
    "a: !t &x b\nc: *x\n",
    "&x a: *x\n",
    "*x : a\n",
    "a: *x\nb: &x 1\n",
    # documents and directives
    "--- a\n--- b\n",
    "---\na: 1\n---\n: bad\n",
    "a: 1\n--- b\n",
    "a: 1\n...\n",
    "a: 1\n... x\n",
    "--- |\n  x\n",
    "--- >\n  x\n",
    "---a\n",
    "--- # c\na: 1\n",
    "%YAML 1.1\n---\na: 1\n",
    "%YAML 1.1\na: 1\n",
    "%YAML 1.3\n--- a\n",
    "%YAML 1\n--- a\n",
    "%YAML x\n--- a\n",
    "%TAG ! tag:x,2000:\n--- !a b\n",
    "%TAG !e! tag:x,2000:\n--- !e!a b\n",
    "%TAG !e! tag:x,2000:\n%TAG !e! tag:y,2000:\n--- a\n",
    "%TAG e tag:x\n--- a\n",
    "%TAG !e!\n--- a\n",
    "--- !e!a b\n",
    "%\n--- a\n",
    "% YAML 1.1\n--- a\n",
    # characters and line breaks
    "a: 1\r\nb: 2\r\n",
    "a: 1\rb: 2\r",
    "a: 1\u2028b: 2\n",
    "a: 1\u0085b: 2\n",
    "a: x\u2029y\n",
    'a: "x\u2028y"\n',
    "a: |\n  x\u2028  y\n",
    "a: \x00\n",
    "a: \x07\n",
    "a: \x7f\n",
    "a: \x85\n",
    "a: \ufeff\n",
    "a: 1\n\ufeffb: 2\n",
    "a: \uffff\n",
    "a: \U0010ffff\n",
    "a: \ue000\n",
    "\u00e9: \u00e9\n",
    "a: b\u00a0c\n",
    "a:\u00a0b\n",
    "a: 1\n\x0c\n",
    "\x0ca: 1\n",
    # anchors and merge keys as libyaml hands them over
    "- &a a\n- &a b\n- *a\n",
    "<<: {a: 1}\n",
    "<<: [{a: 1}, {b: 2}]\na: 0\n",
    "a: {<<: {b: 1}, b: 2}\n",
    "a: {b: 2, <<: {b: 1}}\n",
]


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


WORDS = ["y", "n", "yes", "no", "on", "off", "true", "false", "null", "nil", "~"]
NUMBERISH = [
    "0", "-0", "+0", "00", "0755", "0789", "08", "09.5", "0o17", "0o19", "0x1f", "0x1F", "0X1F",
    "0xg", "0b101", "0b12", "1_000", "1__0", "_1", "1_", "1,000", "1,0,0", "1e3", "1E3", "1e+3",
    "1.5e+3", "1.5E-3", "1.", ".5", "-.5", "+.5", "1.0", "1.0.0", "12:30", "12:30:00", "1:30.5",
    "1:70", "-1:30", ".inf", ".Inf", ".INF", "+.inf", "-.inf", ".nan", ".NaN", ".NAN", "inf",
    "nan", "1e", "e1", "0.", ".", "-", "+", "+12", "-12", "123abc", "12 ", " 12",
    "10000000000000000000000", "1/2", "1-2", "2e", "3,", ",3",
]  # fmt: skip
TIMESTAMPS = [
    "2001-01-01", "2001-1-1", "2001-13-01", "2001-01-01 10:00:00", "2001-01-01T10:00:00Z",
    "2001-01-01t10:00:00.5+01:00", "2001-01-01 10:00:00 -5", "20010101", "2001-01",
]  # fmt: skip
INDICATORS = [
    ":sym", ":'q'", ':"q"', "::", ":", "x:", "x: y", "x :y", "k:v", "= ", "=", "<<", "<", "<<x",
    "-", "- x", "-x", "?", "? x", "?x", "#c", "a #b", "a#b", "@x", "`x", "!x", "!!str", "&x",
    "*x", "|", "| x", "> x", ">", "%x", "[x]", "{x}", "x,y", "x]", "'", '"', "a'b", 'a"b', "'a'",
    '"a"', "\\", "a\\b", "!", "&", "*", ",", "[", "]", "{", "}",
]  # fmt: skip
SPACES = [
    "", " ", "  ", "  lead", "trail  ", " both ", "\t", "\tx", "x\t", "a\tb", "a  b", "null ",
    " true", "\u00a0x", "x\u00a0",
]  # fmt: skip
LINES = [
    "a\nb", "a\n", "a\n\n", "a\n\n\n", "\na", "\n", "\n\n", "a\nb\n", "a\nb\n\n", "a\n b",
    " a\nb", "a \nb", "a\n\tb", "x\r\ny", "x\ry", "a\n...", "---\na", "a\n---", "...",
]  # fmt: skip
OTHER = [
    "é", "é x", "ünïcödé: yes", "\x1b", "\x00", "\x7f", "\u2028", "\u0085", "\ufeff",
    "\u2019", "😀",
    "a" * 100 + " " + "b" * 10, "word " * 30, "  " + "word " * 20, '"' + "word " * 20 + '"',
    "#" + "word " * 20, "a" * 81, "x" * 79 + " y z", "%{lookup('k')}", "%%{}{x}", "ENC[PKCS7,x]",
]  # fmt: skip


def casings(word: str) -> list[str]:
    """Every upper/lower mix of a word (``nUlL`` included)."""
    options = [(c.lower(), c.upper()) if c.isalpha() else (c,) for c in word]
    return sorted({"".join(p) for p in itertools.product(*options)})


def scalars() -> list[object]:
    strings = [c for w in WORDS for c in casings(w)]
    strings += NUMBERISH + TIMESTAMPS + INDICATORS + SPACES + LINES + OTHER
    numbers: list[object] = [0, 1, -1, 10**25, 0.0, -0.0, 1.0, 1.5, 1e20, 1e-5, 123456789.125]
    numbers += [float("inf"), float("-inf"), True, False, None]
    return strings + numbers


def collections(strings: list[object]) -> list[object]:
    return [
        [],
        {},
        [None],
        {"a": None},
        list(strings),
        {str(s): s for s in strings if isinstance(s, str)},
        {1: "one", "1": "string one", "<<": 1, "y": "n", "a b": [1, {"c": [], "d": {}}]},
        [[1, 2], [3, [4]], {"k": {"n": "y"}}, {"multi": "a\nb\n", "t": "x\n"}],
        ["a\n\n\n", None],
        ["a\n\n\n", "a\nb"],
        {"k": "a\n\n\n", "j": {}},
        [None, "a\n\n\n"],
    ]


def recorded_texts() -> list[str]:
    """The texts whose ``Psych.safe_load`` answer is recorded: every libyaml corner and
    document above, and each scalar as a value."""
    texts = LIBYAML_CORNERS + DOCUMENTS + [f"k: {s}\n" for s in SCALARS]
    return list(dict.fromkeys(texts))


def recorded_values() -> list[object]:
    """The values whose ``to_yaml`` text (libyaml's emitter, through Psych) is recorded."""
    values = scalars()
    return values + collections(values)


def record() -> None:
    """Ask Puppet for every answer and write them to ``psych_answers.json``."""
    from tests.oracle.puppet import PuppetOracle
    from tests.oracle.values import encode

    texts = recorded_texts()
    values = recorded_values()
    version = subprocess.run(["puppet", "--version"], capture_output=True, text=True, check=True)
    with PuppetOracle() as oracle:
        loads = oracle.load_yaml(texts)
        renders = oracle.render(values)
    payload = {
        "puppet": version.stdout.strip(),
        "load_yaml": [[text, answer] for text, answer in zip(texts, loads, strict=True)],
        "to_yaml": [
            [encode(value), answer["ok"]["yaml"]]
            for value, answer in zip(values, renders, strict=True)
        ],
    }
    ANSWERS.write_text(json.dumps(payload, indent=0) + "\n", encoding="utf-8")


if __name__ == "__main__":
    record()
