"""A YAML data file written as JSON a key a line is read by the JSON decoder
(source/json_lines.py) for a reader of values alone (``diff``): it must give exactly what
the YAML loader gives (values, their types, the order of keys), and only for files the
loader reads cleanly; anything else is left to the loader."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls.source.data_file import load_yaml_values
from hiera_ls.source.json_lines import json_lines_values
from hiera_ls.source.node_table import EMPTY_NODES
from hiera_ls.source.yaml_loader import load_yaml

# characters YAML reads apart from JSON somewhere: quotes, escapes, indicators, comments,
# line breaks YAML folds, tabs, a byte order mark, and text YAML 1.1 types (yes, 0123, ~)
_CHARS = st.sampled_from([*" a1:#,-?[]{}%&*!|>'\"\\\t\n\x85\u2028\ufeffé<", "yes", "0123", "~"])
_TEXT = st.lists(_CHARS, max_size=6).map("".join)
_SCALARS = st.one_of(
    _TEXT,
    st.integers(0, 10**25),
    st.integers(-5, 5),
    st.sampled_from([1.5, 0.0, True, False, None]),
)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(_TEXT, inner, max_size=3)),
    max_leaves=10,
)
_SEPARATORS = st.sampled_from([(", ", ": "), (",", ":"), (", ", ":"), (" , ", " : ")])


@st.composite
def _files(draw: st.DrawFn) -> str:
    entries = draw(st.lists(st.tuples(_TEXT, _VALUES), min_size=1, max_size=4))
    lines = [
        f"{json.dumps(key)}: {json.dumps(value, separators=draw(_SEPARATORS))}"
        for key, value in entries
    ]
    text = "\n".join(lines) + draw(st.sampled_from(["\n", "", "\n\n", " \n", "\r\n"]))
    if draw(st.booleans()):  # a character dropped, doubled or put in
        at = draw(st.integers(0, len(text)))
        what = draw(st.sampled_from(["drop", "double", "insert"]))
        if what == "drop":
            text = text[:at] + text[at + 1 :]
        elif what == "double":
            text = text[:at] + text[at : at + 1] * 2 + text[at + 1 :]
        else:
            text = text[:at] + draw(_CHARS) + text[at:]
    return text


def _typed(value: object) -> object:
    """``value`` with every scalar's exact type, keys in their order (1, 1.0, True apart)."""
    if isinstance(value, dict):
        return ("hash", [(_typed(k), _typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("array", [_typed(v) for v in value])
    return (type(value).__name__, value)


@settings(max_examples=600, deadline=None)
@given(_files())
def test_a_file_read_as_json_lines_is_what_the_yaml_loader_reads(text: str) -> None:
    fast = json_lines_values(text)
    if fast is None:
        return
    doc = load_yaml("f.yaml", text, positions=False)
    assert doc.fatal is None and not doc.problems and not doc.too_large
    assert not (doc.nodes.suspect or doc.nodes.symbol_keys)
    assert _typed(fast) == _typed(doc.value)
    loaded = load_yaml_values("f.yaml", text)
    assert (loaded.failure, loaded.key_errors, loaded.problems) == (None, {}, ())
    assert loaded.nodes is EMPTY_NODES and _typed(loaded.data) == _typed(doc.value)


def test_what_a_generator_writes_is_read_as_json_lines() -> None:
    text = '"a::b": {"x": [1, "%{facts.role}"], "y": {}}\n"c": "v: #1"\n"d": 0\n'
    assert json_lines_values(text) == {
        "a::b": {"x": [1, "%{facts.role}"], "y": {}},
        "c": "v: #1",
        "d": 0,
    }
    assert json_lines_values(text) == load_yaml("f.yaml", text).value


def test_what_yaml_reads_otherwise_is_left_to_the_loader() -> None:
    for text in (
        '"a": 1\n"a": 2\n',  # a duplicate key: the loader warns
        '"a": {"b": 1, "b": 2}\n',
        '"a": {"<<": {"b": 1}}\n',  # a merge key
        '"<<": 1\n',
        '"a": 0123\n',  # an octal number to YAML 1.1
        '"a": 1.5\n',
        '"a": true\n',
        '"a": "x\\"y"\n',  # an escape
        '"a": 1, "b": 2\n',
        '"a": [1,2]\n',
        '"a": 1\n\n',
        '"a": 1',
        "a: 1\n",
        '"' + "k" * 1001 + '": 1\n',
    ):
        assert json_lines_values(text) is None, text
