"""After an edit, a big file's findings are moved and converted by slices (only those around
the edited lines looked at): what that gives is what the whole walk gave, on random texts,
findings and edits. Also: a text's lines, summed in C, are those of the walk over them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from hiera_ls.checks.problems import file_order as order
from hiera_ls.features.carried_findings import FileOrdered, move_with_lines
from hiera_ls.features.lsp_ranges import ConvertedDiagnostics, Converter, diagnostic
from hiera_ls.puppet.message import Text
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.spans import FileSpan, Problem, Severity, Span
from tests.examples import examples

_LINES = st.lists(st.sampled_from(["a: 1", "  b: é", "", "c:", "  - x", "d: 🖥"]), max_size=12)


def _text(lines: list[str], end: bool) -> str:
    return "\n".join(lines) + ("\n" if end else "")


def _problem(line: int, column: int, lines: int, end: int, word: str) -> Problem:
    span = Span.of(line, column, line + lines, end)
    return Problem("class-not-found", Text.of(word), Severity.WARNING, FileSpan("f.yaml", span))


_PROBLEMS = st.lists(
    st.builds(
        _problem,
        st.integers(0, 12),
        st.integers(0, 4),
        st.integers(0, 3),
        st.integers(0, 4),
        st.sampled_from(["m", "n"]),
    ),
    max_size=25,
)


@st.composite
def _edits(draw: st.DrawFn) -> tuple[str, str]:
    """A text and the same text with one stretch replaced (lines added, removed or not)."""
    old = _text(draw(_LINES), draw(st.booleans()))
    start = draw(st.integers(0, len(old)))
    stop = draw(st.integers(start, len(old)))
    inserted = draw(st.sampled_from(["", "1", "x: 2", "\n", "q\nr: 3\n", "🖥"]))
    return old, old[:start] + inserted + old[stop:]


@settings(max_examples=examples(300), deadline=None)
@given(_edits(), _PROBLEMS)
def test_moving_by_slices_is_moving_one_by_one(edit: tuple[str, str], found: list[Problem]) -> None:
    old, new = edit
    in_order = sorted(set(found), key=order)
    assert FileOrdered.of(in_order).moved(old, new) == move_with_lines(old, new, in_order)


@settings(max_examples=300, deadline=None)  # all in the quick loop: 150 missed a stale one
@given(_edits(), _PROBLEMS, st.sampled_from(["utf-16", "utf-8", "utf-32"]))
def test_diagnostics_kept_over_an_edit_are_those_made_anew(
    edit: tuple[str, str], found: list[Problem], encoding: str
) -> None:
    """Before the edit's text, a publish of the old text's findings; then its findings (the
    old ones, unmoved: those on lines the edit shifted must be converted again)."""
    old, new = edit
    converted = ConvertedDiagnostics()
    converted.diagnostics("f.yaml", found, Converter(old, encoding))
    conv = Converter(new, encoding)
    again = converted.diagnostics("f.yaml", found, conv)
    assert again == [diagnostic(p, conv) for p in found]
    assert all(isinstance(d, types.Diagnostic) for d in again)


@given(st.text(alphabet="ab\n\r", max_size=40))
def test_line_starts_are_those_of_a_walk(text: str) -> None:
    lines = LineMap(text)
    walked = [0]
    i = 0
    while i < len(text):
        if text[i] == "\r" and i + 1 < len(text) and text[i + 1] == "\n":
            i += 1
        if text[i] in "\r\n":
            walked.append(i + 1)
        i += 1
    assert lines._starts == walked


def test_a_finding_before_the_change_on_its_line_is_kept() -> None:
    """Typing a value keeps its key's finding (the key's text is unchanged); the value's goes,
    and so does the key's once the key itself is typed in."""
    old = "a: 1\nport: 80\nb: 2\n"
    key, value, after = (
        _problem(1, 0, 0, 4, "k"),
        _problem(1, 6, 0, 8, "v"),
        _problem(2, 0, 0, 1, "b"),
    )
    found = [key, value, after]
    assert move_with_lines(old, old.replace("80", "81"), found) == [key, after]
    assert move_with_lines(old, old.replace("80", "80\nc: 3"), found)[0] == key
    assert move_with_lines(old, old.replace("port", "pork"), found) == [after]
    assert move_with_lines(old, old.replace("port: ", "port:  "), found) == [key, after]
    crlf = old.replace("\n", "\r\n")
    assert move_with_lines(crlf, crlf.replace("80", "81"), found) == [key, after]


def test_a_diagnostic_before_the_change_on_its_line_is_the_same_object() -> None:
    """A key's diagnostic while its value is typed is not made again: the publish after the
    edit holds the same object, so its JSON is the last publish's (lsp/transport.py)."""
    old = "a: 1\nport: 80\n"
    key = _problem(1, 0, 0, 4, "k")
    converted = ConvertedDiagnostics()
    before = converted.diagnostics("f.yaml", [key], Converter(old, "utf-16"))
    after = converted.diagnostics("f.yaml", [key], Converter(old.replace("80", "81"), "utf-16"))
    assert after[0] is before[0]
    renamed = converted.diagnostics("f.yaml", [key], Converter(old.replace("po", "pö"), "utf-16"))
    assert renamed[0] is not before[0]
