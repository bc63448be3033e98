"""A publish after an edit starts from the last one (the findings it shares with it at
either end kept as they were): random edits of random findings give what working it out
from nothing gives."""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls.checks.unused_data import KEY_UNUSED
from hiera_ls.features.said_once import SaidOnce, without_said
from hiera_ls.features.unchanged_ends import common_ends
from hiera_ls.puppet.message import Text
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.spans import FileSpan, Problem, Severity, Span

CODES = [KEY_UNUSED.code, KEY_UNUSED.code, "class-not-found", "class-parameter-unknown"]


def _problem(code: str, severity: Severity, line: int, column: int, lines: int) -> Problem:
    span = Span.of(line, column, line + lines, column + 3)
    return Problem(code, Text.of("m"), severity, FileSpan("f.yaml", span))


_PROBLEM = st.builds(
    _problem,
    st.sampled_from(CODES),
    st.sampled_from(list(Severity)),
    st.integers(0, 12),
    st.integers(0, 5),
    st.integers(0, 2),
)
# an edit: where, how many findings it removes, the ones it adds, whether the rest are the
# same objects or equal copies (the checks run again make new ones)
_EDIT = st.tuples(
    st.integers(0, 40), st.integers(0, 4), st.lists(_PROBLEM, max_size=4), st.booleans()
)


def _edited(found: list[Problem], edit: tuple[int, int, list[Problem], bool]) -> list[Problem]:
    at, removed, added, copies = edit
    at = min(at, len(found))
    out = [*found[:at], *added, *found[at + removed :]]
    return [dataclasses.replace(p) for p in out] if copies else out


@settings(max_examples=300, deadline=None)
@given(st.lists(_PROBLEM, max_size=40), st.lists(_EDIT, max_size=8))
def test_hints_after_edits_are_those_of_the_whole_pass(
    first: list[Problem], edits: list[tuple[int, int, list[Problem], bool]]
) -> None:
    said = SaidOnce()
    found = first
    for n in range(len(edits) + 1):
        if n:
            found = _edited(found, edits[n - 1])
        got = said.without_said("f.yaml", found)
        want = without_said(found, found)
        assert [id(p) for p in got] == [id(p) for p in want]


@given(st.lists(st.integers(0, 3), max_size=30), st.lists(st.integers(0, 3), max_size=30))
def test_common_ends_are_the_longest_shared_ends(old: list[int], new: list[int]) -> None:
    head, tail = common_ends(old, new)
    limit = min(len(old), len(new))
    want_head = next((i for i in range(limit) if old[i] != new[i]), limit)
    rest = limit - want_head
    want_tail = next((i for i in range(rest) if old[-1 - i] != new[-1 - i]), rest)
    assert (head, tail) == (want_head, want_tail)


_TEXT = st.text(alphabet="ab\n\r: ", max_size=40)


@given(_TEXT, st.lists(st.tuples(st.integers(0, 60), st.integers(0, 6), _TEXT), max_size=6))
def test_line_table_after_edits_is_the_text_s_own(
    first: str, edits: list[tuple[int, int, str]]
) -> None:
    lines = LineMap(first)
    text = first
    for at, removed, added in edits:
        at = min(at, len(text))
        text = text[:at] + added + text[at + removed :]
        lines = LineMap.after_edit(lines, text)
        fresh = LineMap(text)
        assert lines.text == text
        assert lines._starts == fresh._starts
        assert [lines.line_text(n) for n in range(text.count("\n") + 2)] == [
            fresh.line_text(n) for n in range(text.count("\n") + 2)
        ]
