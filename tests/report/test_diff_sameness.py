"""``diff`` decides whether a profile's answer changed on ``same_as`` of the two values
(report/diff_result.py): JSON text for plain data, a fraction of the cost of
:func:`canonical`'s nested tuples and sets; two values are the same exactly when their
canonical forms are equal, whatever the types (eyaml strings, keys that are not Strings,
``1`` against ``1.0`` against ``true``, a hash's order)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls.puppet.values import Encrypted, RubySymbol, canonical
from hiera_ls.report.diff_result import same_as

_TEXT = st.sampled_from(["a", "b", "1", "true", "ENC[PKCS7,x]", "é", '"', "", "\ud800"])
_SCALARS = st.one_of(
    _TEXT,
    _TEXT.map(Encrypted),
    st.integers(-2, 2),
    st.sampled_from([0.0, -0.0, 1.0, 1.5, float("nan"), float("inf")]),
    st.booleans(),
    st.none(),
    st.sampled_from([RubySymbol("a"), RubySymbol("b")]),
)
_KEYS = st.one_of(_TEXT, _TEXT.map(Encrypted), st.integers(0, 1), st.booleans(), st.none())
VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(_KEYS, inner, max_size=3),
    ),
    max_leaves=8,
)


def _reordered(value: object) -> object:
    """The same value, each hash's entries in the other order."""
    if isinstance(value, dict):
        return {k: _reordered(v) for k, v in reversed(list(value.items()))}
    if isinstance(value, list):
        return [_reordered(v) for v in value]
    return value


@settings(max_examples=400, deadline=None)
@given(VALUES, VALUES)
def test_two_values_are_the_same_exactly_when_their_canonical_forms_are(
    a: object, b: object
) -> None:
    for other in (b, _reordered(a), _reordered(b)):
        assert (same_as(a) == same_as(other)) == (canonical(a) == canonical(other))
    assert same_as(a) == same_as(_reordered(a))


def test_types_tell_plain_values_apart() -> None:
    apart = [1, 1.0, True, "1", [1], {"1": 1}, None, "null", Encrypted("1"), {1: 1}]
    assert len({same_as(v) for v in apart}) == len(apart)
    assert same_as({"a": 1, "b": [2]}) == same_as({"b": [2], "a": 1})
