"""A publish after an edit starts from the last one (the findings it shares with it at
either end kept as they were): random edits of random findings give what working it out
from nothing gives."""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls.checks.problems import file_order
from hiera_ls.checks.unused_data import KEY_UNUSED
from hiera_ls.features.carried_findings import move_with_lines
from hiera_ls.features.lsp_ranges import ConvertedDiagnostics, Converter, diagnostic
from hiera_ls.features.said_once import SaidOnce, without_said
from hiera_ls.puppet.message import Text
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.spans import (
    NO_DETAILS,
    Consequence,
    Consequences,
    FileSpan,
    Problem,
    Severity,
    Span,
)
from hiera_ls.source.text_diff import common_ends

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
@given(st.lists(_PROBLEM, max_size=40), st.lists(_EDIT, max_size=8), st.booleans())
def test_hints_after_edits_are_those_of_the_whole_pass(
    first: list[Problem], edits: list[tuple[int, int, list[Problem], bool]], in_order: bool
) -> None:
    said = SaidOnce()
    found = sorted(first, key=file_order) if in_order else first
    for n in range(len(edits) + 1):
        if n:
            found = _edited(found, edits[n - 1])
            found = sorted(found, key=file_order) if in_order else found
        got = said.without_said("f.yaml", found)
        want = without_said(found, found)
        assert [id(p) for p in got] == [id(p) for p in want]


def test_a_hint_beside_a_warning_the_edit_removed_is_reported_again() -> None:
    """The edit drops the warning on its line (the checks run again after a pause): the
    hint on the key beside it, which the warning said instead, is said again."""
    said = SaidOnce()
    warning = _problem("class-not-found", Severity.WARNING, 3, 0, 0)
    hint = _problem(KEY_UNUSED.code, Severity.HINT, 3, 0, 0)
    after = _problem(KEY_UNUSED.code, Severity.HINT, 5, 0, 0)
    assert said.without_said("f.yaml", [warning, hint, after]) == [warning, after]
    assert said.without_said("f.yaml", [hint, after]) == [hint, after]
    assert said.without_said("f.yaml", [warning, hint, after]) == [warning, after]


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


_LINE = st.sampled_from(["a: 1", "  b: é", "", "c:", "  - x", "d: 🖥", "e: 22"])


def _finding(line: int, column: int, lines: int, word: str, cause: bool) -> Problem:
    span = Span.of(line, column, line + lines, column + 1)
    consequences = None
    if cause:
        item = Consequence("k", FileSpan("other.yaml", Span.of(0, 0, 0, 2)))
        consequences = Consequences((item,), 1)
    where = FileSpan("f.yaml", span)
    return Problem(
        "class-not-found", Text.of(word), Severity.WARNING, where, NO_DETAILS, consequences
    )


_FINDING = st.builds(
    _finding,
    st.integers(0, 10),
    st.integers(0, 4),
    st.integers(0, 2),
    st.sampled_from(["m", "n"]),
    st.booleans(),
)
# an edit of the text: a line replaced, or lines inserted or removed; and of its findings:
# those moved with the edit, those the checks found again as they were (on the edited
# lines, or by chance where a line moved to), and new ones
_TEXT_EDIT = st.tuples(
    st.integers(0, 12),
    st.integers(0, 2),
    st.lists(_LINE, max_size=2),
    st.lists(_FINDING, max_size=3),
    st.booleans(),
)


@settings(max_examples=500, deadline=None)
@given(
    st.lists(_LINE, max_size=12),
    st.lists(_FINDING, max_size=20),
    st.lists(_TEXT_EDIT, max_size=6),
    st.sampled_from(["utf-16", "utf-8", "utf-32"]),
)
def test_diagnostics_after_edits_are_those_made_anew(
    lines: list[str],
    found: list[Problem],
    edits: list[tuple[int, int, list[str], list[Problem], bool]],
    encoding: str,
) -> None:
    converted = ConvertedDiagnostics()
    other = ["x: 1"]  # another file's text: a cause's related information is made anew

    def converter_of(path: str) -> Converter:
        return Converter(other[0], encoding)

    text = "\n".join(lines)
    found = sorted(found, key=file_order)
    conv = Converter(text, encoding)
    for n in range(len(edits) + 1):
        if n:
            at, removed, added, new, again = edits[n - 1]
            old = text
            kept = lines[:at] + added + lines[at + removed :]
            text, lines = "\n".join(kept), kept
            moved = move_with_lines(old, text, found)
            found = sorted({*moved, *new, *(found if again else ())}, key=file_order)
            conv = Converter(text, encoding, conv.lines if n % 2 else None)
            other[0] = "🖥" * n + "x: 1"
        got = converted.diagnostics("f.yaml", found, conv, converter_of)
        assert got == [diagnostic(p, conv, converter_of) for p in found]
        assert converted._kept["f.yaml"].causes == [
            i for i, p in enumerate(found) if p.consequences
        ]


def _at(line: int, column: int) -> Problem:
    return _finding(line, column, 0, "m", False)


@pytest.mark.parametrize(
    ("before", "after", "new"),
    [
        # the last line edited, the last finding found again and all others the same
        ([(0, 3), (1, 3), (2, 3)], [(0, 3), (1, 3), (2, 3)], "a: 11\nb: 22\nc:"),
        # the edit changed a finding above it (a duplicate key's) and kept its own
        ([(0, 3), (2, 3)], [(0, 4), (2, 3)], "a: 11\nb: 22\nc:"),
        # not in file order
        ([(2, 3), (1, 3), (0, 3)], [(2, 3), (1, 4), (0, 3)], "a:\nb: 22\nc: 33"),
    ],
)
def test_a_finding_found_again_on_the_edited_line_is_made_anew(
    before: list[tuple[int, int]], after: list[tuple[int, int]], new: str
) -> None:
    """The checks find the same finding on the line just edited (a key's hint while its value
    is typed): its range is worked out on the new line, wherever it is in the list."""
    converted = ConvertedDiagnostics()
    old = "a: 11\nb: 22\nc: 33"
    found = [_at(*n) for n in before]
    converted.diagnostics("f.yaml", found, Converter(old))
    found = [p if n in before else _at(*n) for p, n in zip(found, after, strict=True)]
    conv = Converter(new, previous=Converter(old).lines)
    assert converted.diagnostics("f.yaml", found, conv) == [diagnostic(p, conv) for p in found]
