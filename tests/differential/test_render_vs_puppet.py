"""`hiera-ls lookup --render-as yaml|json|s` prints what `puppet lookup` prints, value by value.

The scalars are every one a YAML 1.1 reader treats specially (booleans and nulls in every
casing, numbers in every base and shape, timestamps, symbols, merge keys, indicators, leading
and trailing spaces, line breaks, long lines): Puppet's YAML quotes each string a reader
would take for something else, and hiera-ls must quote exactly the same ones the same way.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from hiera_ls.cli import _render
from tests.differential.known_differences import comparable
from tests.oracle.puppet import PuppetOracle

pytestmark = pytest.mark.puppet

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


@pytest.mark.parametrize("render_as", ["yaml", "json", "s"])
def test_rendering_is_puppets(puppet_oracle: PuppetOracle, render_as: str) -> None:
    values = scalars()
    values += collections(values)
    answers = puppet_oracle.render(values)
    differ: list[str] = []
    agree = 0
    for value, answer in zip(values, answers, strict=True):
        theirs: Any = answer["ok"][render_as]
        if isinstance(theirs, dict):  # Puppet cannot render it (JSON has no Infinity)
            continue
        ours = _render(value, None if render_as == "yaml" else render_as)
        engine = puppet_oracle.engine.name  # docs/differences.md#ruby-error-texts
        if comparable(ours, engine) == comparable(theirs, engine):
            agree += 1
        else:
            differ.append(f"{value!r:.60}\n  puppet  : {theirs!r:.200}\n  hiera-ls: {ours!r:.200}")
    assert not differ, f"{len(differ)} of {len(differ) + agree} differ:\n" + "\n".join(differ[:20])
    assert agree > 300
