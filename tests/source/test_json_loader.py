"""json_data's parser: messages and the range of every node.

Values and messages against Ruby's own JSON.parse: tests/differential/test_json_vs_puppet.py.
"""

from __future__ import annotations

import random

import pytest

from hiera_ls.source.json_loader import load_json
from hiera_ls.source.node_table import NodeSpans
from hiera_ls.source.spans import Span
from hiera_ls.source.yaml_loader import load_yaml


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


def test_every_nested_node_is_listed_parents_first_like_yaml() -> None:
    # Iterating a table builds each path from its parent's: a reader that recorded children
    # before their parent (as this one did) left every node below the top level out.
    text = '{\n  "a::b": {"x": 1, "y": [1, {"z": [2, {}]}]},\n  "c": [[3], {"d": null}]\n}\n'
    nodes = load_json("x.json", text).nodes
    listed = list(nodes)
    assert listed == list(load_yaml("x.yaml", text).nodes)
    assert len(listed) == len(nodes) == 14
    assert ("a::b", "y", 1, "z", 1) in listed and ("c", 1, "d") in listed
    assert dict(nodes.raw_items()) == {path: nodes.raw(path) for path in listed}
    again = load_json("x.json", '{"a": {"x": 1}, "b": 2, "a": {"y": [3]}}').nodes
    assert list(again) == [(), ("b",), ("a",), ("a", "y"), ("a", "y", 0)]


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
