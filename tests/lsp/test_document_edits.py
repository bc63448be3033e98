"""Incremental edits land where the editor made them, at LSP's line breaks, fast in big files."""

from __future__ import annotations

import time

from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from hiera_ls.features.lsp_ranges import UTF8, UTF16, UTF32, Converter
from hiera_ls.lsp.document_edits import apply_change
from tests.hang_guard import HUNG_S


def edit(
    text: str, start: tuple[int, int], end: tuple[int, int], new: str, enc: str = UTF16
) -> str:
    change = types.TextDocumentContentChangePartial(
        range=types.Range(
            start=types.Position(line=start[0], character=start[1]),
            end=types.Position(line=end[0], character=end[1]),
        ),
        text=new,
    )
    return apply_change(text, change, enc)


def test_an_edit_below_a_unicode_line_separator_lands_on_the_editors_line() -> None:
    # LSP (and VS Code) break lines only at \n, \r\n and \r; pygls also broke at U+2028,
    # form feeds and U+0085, so this edit landed one line too low.
    text = "a: 'x\u2028y'\nb: 1\nc: 2\n"
    assert edit(text, (1, 3), (1, 4), "9") == "a: 'x\u2028y'\nb: 9\nc: 2\n"


def test_crlf_and_lone_cr_end_lines() -> None:
    assert edit("a: 1\r\nb: 2\r\n", (1, 3), (1, 4), "5") == "a: 1\r\nb: 5\r\n"
    assert edit("a: 1\rb: 2\r", (1, 3), (1, 4), "5") == "a: 1\rb: 5\r"
    # past the end of a CRLF line means its end, before the line break
    assert edit("a: 1\r\nb: 2\r\n", (0, 99), (0, 99), "0") == "a: 10\r\nb: 2\r\n"


def test_units_are_the_clients() -> None:
    text = "k: 😀é x\n"
    assert edit(text, (0, 7), (0, 8), "y", UTF16) == "k: 😀é y\n"
    assert edit(text, (0, 10), (0, 11), "y", UTF8) == "k: 😀é y\n"
    assert edit(text, (0, 6), (0, 7), "y", UTF32) == "k: 😀é y\n"


def test_positions_past_the_end_append() -> None:
    assert edit("a: 1\n", (5, 0), (9, 9), "b: 2\n") == "a: 1\nb: 2\n"
    assert edit("a: 1\n", (1, 0), (1, 0), "b: 2\n") == "a: 1\nb: 2\n"
    assert edit("", (0, 0), (0, 0), "x") == "x"


def test_a_whole_text_change_replaces_the_text() -> None:
    change = types.TextDocumentContentChangeWholeDocument(text="new")
    assert apply_change("old", change, UTF16) == "new"


LINE_TEXT = st.text(alphabet=st.sampled_from("ab é😀\u2028\x0c"), max_size=6)


@settings(max_examples=300, deadline=None)
@given(
    lines=st.lists(LINE_TEXT, max_size=6),
    breaks=st.lists(st.sampled_from(["\n", "\r\n", "\r"]), min_size=6, max_size=6),
    line=st.integers(0, 8),
    character=st.integers(0, 12),
    enc=st.sampled_from([UTF8, UTF16, UTF32]),
)
def test_offsets_agree_with_the_servers_own_positions(
    lines: list[str], breaks: list[str], line: int, character: int, enc: str
) -> None:
    text = "".join(part + brk for part, brk in zip(lines, breaks, strict=False))
    conv = Converter(text, enc)
    expected = conv.lines.offset(conv.from_lsp(types.Position(line=line, character=character)))
    marked = edit(text, (line, character), (line, character), "\x00", enc)
    assert marked.index("\x00") == expected


def test_edits_at_the_end_of_a_big_document_are_fast() -> None:
    text = "".join(f"profile::key{i}: value {i}\n" for i in range(300_000))  # 8 MB
    started = time.monotonic()
    for _ in range(20):
        text = edit(text, (299_999, 0), (299_999, 0), "#")
    # About 10 ms per edit here (copying the text), pygls about 3 times that (bench/).
    assert time.monotonic() - started < HUNG_S
    assert text.endswith("#" * 20 + "profile::key299999: value 299999\n")
