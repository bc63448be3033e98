"""The diff's JSON report is written by its own indented writer: the text must be
``json.dumps(..., indent=2, ensure_ascii=False)``'s, byte for byte, for any value."""

from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls.report.indented_json import dumps_indented

_scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
)
_keys = st.text() | st.integers() | st.booleans() | st.none() | st.floats()
_values = st.recursive(
    _scalars,
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.tuples(inner, inner)
        | st.dictionaries(_keys, inner, max_size=5)
    ),
    max_leaves=40,
)


@given(_values)
@settings(max_examples=200, deadline=None)
def test_any_plain_value_is_written_as_json_dumps_writes_it(value: object) -> None:
    assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


class Name(str):
    """A str of a class of its own: json.dumps writes it, so must the writer."""


def test_other_classes_and_odd_values_are_written_as_json_dumps_writes_them() -> None:
    for value in (
        {"a": [Name("x"), {"b": math.nan, "c": -math.inf}], Name("k"): 1},
        {1.5: "x", None: [], True: {}, False: ["\ud800", "é\u2028\x00"]},
        [[], {}, [[]], [{}], 10**40, -0.0, 1e300],
    ):
        assert dumps_indented(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_what_json_dumps_refuses_is_refused_alike() -> None:
    cyclic: list[object] = []
    cyclic.append(cyclic)
    for value in (cyclic, {"a": {1, 2}}, {(1, 2): "x"}):
        try:
            json.dumps(value, indent=2, ensure_ascii=False)
        except (TypeError, ValueError) as expected:
            try:
                dumps_indented(value)
            except type(expected) as got:
                assert str(got) == str(expected)
            else:
                raise AssertionError(f"{value!r} was written")
