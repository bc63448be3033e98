"""Which nodes span a line (what hover and definition ask on every move of the cursor)."""

from __future__ import annotations

import gc

import pytest

from hiera_ls.source.data_file import load_yaml_data
from hiera_ls.source.node_table import SHORT_LINES, NodeTable

TEXT = (
    """\
base: &base
  port: 80
  hosts:
    - a
    - b
long: |
"""
    + "".join(f"  line {i}\n" for i in range(SHORT_LINES + 10))
    + """\
merged:
  <<: *base
  port: 81
again: *base
flow: {a: 1, b: [x, y]}
last: "%{facts.hostname}"
"""
)


def _table(text: str) -> NodeTable:
    nodes = load_yaml_data("/r/data/common.yaml", text).nodes
    assert isinstance(nodes, NodeTable)
    return nodes


def test_the_nodes_of_each_line_are_those_whose_lines_include_it() -> None:
    nodes = _table(TEXT)
    every = list(nodes.raw_items())
    for line in range(TEXT.count("\n") + 2):
        expected = {
            path
            for path, r in every
            if path and ((r[0] if r[0] >= 0 else r[4]) <= line <= max(r[2], r[6]))
        }
        found = {path for path, _ in nodes._on_line(line) if path}
        assert found == expected, line


@pytest.mark.slow  # 0.6 s of building a big file's index
def test_the_line_index_of_a_big_file_is_a_few_arrays_not_a_list_per_line() -> None:
    """Before: the first hover in a file built one list per line (1.65 million lists, 326
    MiB kept and 6 s for a 47.7 MB file)."""
    text = "".join(f"key{i}:\n  a: {i}\n  b: [x, y]\n" for i in range(4_000))  # 12,000 lines
    nodes = _table(text)
    gc.collect()
    before = len(gc.get_objects())
    assert [p for p, _ in nodes.covering(3 * 1_234 + 1) if p] == [("key1234",), ("key1234", "a")]
    gc.collect()
    assert len(gc.get_objects()) - before < 100
