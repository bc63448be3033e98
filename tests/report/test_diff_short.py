"""The text and Markdown reports show a value in at most 60 characters; of a hash too long
for that, against a hash, only the entries that differ, the same way down
(report/diff_formats.py ``_short``).  What is cut off is never made: the shown text is the
one the whole would give, checked here against the whole made first and then cut."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls.report.diff_formats import SHORT, _short
from hiera_ls.report.diff_result import Answer


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def _whole(mine: object, theirs: object) -> str:
    """The entries that differ, every one of them (the report's text before it is cut)."""
    text = _json(mine)
    if len(text) <= SHORT or not isinstance(mine, dict) or not isinstance(theirs, dict):
        return text
    changed = [k for k in mine if k not in theirs or _json(mine[k]) != _json(theirs[k])]
    parts = ["…"] * (len(changed) < len(mine))
    parts += [f"{_json(k)}: {_whole(mine[k], theirs.get(k))}" for k in changed]
    return "{" + ", ".join(parts) + "}"


def _cut(answer: Answer, other: Answer) -> str:
    text = _json(answer.shown)
    if len(text) > SHORT and other.state == "value":
        text = _whole(answer.shown, other.shown)
    return text if len(text) <= SHORT else text[: SHORT - 1] + "…"


_KEYS = st.sampled_from(["a", "port", "ssh", "é", "k" * 25, "x\ny"])
_LEAVES = st.one_of(
    st.integers(0, 10**12), st.sampled_from(["v", "value " * 6, True, None, 1.5, []])
)
_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.one_of(st.dictionaries(_KEYS, inner, max_size=5), st.lists(inner, max_size=3)),
    max_leaves=25,
)


@st.composite
def _pairs(draw: st.DrawFn) -> tuple[object, object]:
    mine = draw(_VALUES)
    if draw(st.booleans()) and isinstance(mine, dict):  # theirs: mine with some changes
        theirs = {k: draw(_VALUES) if draw(st.booleans()) else v for k, v in mine.items()}
        if draw(st.booleans()):
            theirs = dict(reversed(list(theirs.items())))
        return mine, theirs
    return mine, draw(_VALUES)


@settings(max_examples=500, deadline=None)
@given(_pairs())
def test_a_long_value_is_shown_as_its_whole_text_cut(pair: tuple[object, object]) -> None:
    mine, theirs = (Answer("value", v, None) for v in pair)
    assert _short(mine, theirs) == _cut(mine, theirs)
    assert _short(theirs, mine) == _cut(theirs, mine)


def test_the_entries_that_differ_are_shown_down_through_nested_hashes() -> None:
    before = {"ssh": {"port": 22, "ciphers": ["aes256-gcm"] * 4}, "users": ["root"] * 8}
    after = {"ssh": {"port": 2222, "ciphers": ["aes256-gcm"] * 4}, "users": ["root"] * 8}
    assert _short(Answer("value", after, None), Answer("value", before, None)) == (
        '{…, "ssh": {…, "port": 2222}}'
    )
