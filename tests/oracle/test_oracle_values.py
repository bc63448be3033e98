"""Values cross to Ruby and back unchanged, and Ruby reads them as the Ruby values they stand for.

Every differential test trusts the one encoding (tests/oracle/values.py and ``Values`` in
puppet_oracle.rb): a Symbol must arrive as a Symbol, ``1`` and ``"1"`` must stay two keys,
``1.0`` must not become ``1``, and NaN, the infinities and ``-0.0`` must survive.
"""

from __future__ import annotations

import pytest

from hiera_ls.puppet.values import RubySymbol
from tests.oracle.puppet import OracleError, PuppetOracle
from tests.oracle.values import OracleObject, canonical, decode, encode

pytestmark = pytest.mark.puppet

VALUES: list[tuple[object, str]] = [
    (None, "nil"),
    (True, "true"),
    (False, "false"),
    (0, "0"),
    (10**30, "1000000000000000000000000000000"),
    (-7, "-7"),
    (1.0, "1.0"),
    (-0.0, "-0.0"),
    (1e20, "1.0e+20"),
    (1.5e-7, "1.5e-07"),
    (0.1 + 0.2, "0.30000000000000004"),
    (float("inf"), "Infinity"),
    (float("-inf"), "-Infinity"),
    (float("nan"), "NaN"),
    ("", '""'),
    ("é😀\n\u2028\x00", '"é😀\\n\\u2028\\u0000"'),
    (RubySymbol("a b"), ':"a b"'),
    ([], "[]"),
    ([1, [2.0, "x"]], '[1, [2.0, "x"]]'),
    ({}, "{}"),
    (
        {1: "int", "1": "str", 1.5: None, False: [], None: 0, RubySymbol("k"): {"z": 1, "a": 2}},
        '{1=>"int", "1"=>"str", 1.5=>nil, false=>[], nil=>0, :k=>{"z"=>1, "a"=>2}}',
    ),
]


def test_ruby_reads_each_value_as_the_ruby_value(puppet_oracle: PuppetOracle) -> None:
    answers = puppet_oracle.inspect([value for value, _ in VALUES])
    assert [a["ok"]["inspect"] for a in answers] == [text for _, text in VALUES]


def test_values_come_back_unchanged(puppet_oracle: PuppetOracle) -> None:
    # Sorting a one-element array gives the element back, through Ruby's encoder.
    answers = puppet_oracle.sort([[value] for value, _ in VALUES])
    for (value, text), answer in zip(VALUES, answers, strict=True):
        assert canonical(answer["ok"]) == canonical(encode([value])), text


def test_comparison_keeps_ruby_distinctions() -> None:
    assert canonical(encode(1)) != canonical(encode(1.0)) != canonical(encode(True))
    assert canonical(encode(0.0)) != canonical(encode(-0.0))
    assert canonical(encode(float("nan"))) == canonical(float("nan"))
    assert canonical(encode({"a": 1, "b": 2})) != canonical(encode({"b": 2, "a": 1}))
    assert canonical(encode(RubySymbol("a"))) != canonical(encode("a"))


def test_decoding_gives_python_values() -> None:
    wire = encode({RubySymbol("k"): [1, 2.5, None], 3: "x"})
    assert decode(wire) == {RubySymbol("k"): [1, 2.5, None], 3: "x"}
    assert decode({"ruby_object": "Encoding", "inspect": "#<Encoding:UTF-8>"}) == OracleObject(
        "Encoding", "#<Encoding:UTF-8>"
    )


def test_an_unknown_command_is_refused_and_kind_names_a_command_too(
    puppet_oracle: PuppetOracle,
) -> None:
    with pytest.raises(OracleError, match="unknown command"):
        puppet_oracle.call("no_such_command")
    assert puppet_oracle.sort([[2, 1]]) == [{"ok": [1, 2]}]
    assert puppet_oracle.request({"kind": "sort", "values": [[2, 1]]})["results"] == [
        {"ok": [1, 2]}
    ]
