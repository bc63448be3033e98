"""PyYAML's pure-Python reader, whose printable-character pattern ``hiera_ls.source`` compiles
beforehand from the complement of the set (``yaml_comments`` scans with that reader), refuses
exactly the characters PyYAML's own pattern refuses: every code point compared."""

from __future__ import annotations

import re

import pytest
import yaml.reader

import hiera_ls.source

EVERY_CODE_POINT = "".join(map(chr, range(0x110000)))


def test_the_reader_pattern_is_the_one_compiled_beforehand() -> None:
    assert yaml.reader.Reader.NON_PRINTABLE.pattern == hiera_ls.source._NON_PRINTABLE


def test_it_finds_what_pyyaml_own_pattern_finds_at_every_code_point() -> None:
    own = re.compile(hiera_ls.source._PYYAML_PRINTABLE_COMPLEMENT)
    seeded = yaml.reader.Reader.NON_PRINTABLE
    assert seeded.findall(EVERY_CODE_POINT) == own.findall(EVERY_CODE_POINT)
    assert (
        len(own.findall(EVERY_CODE_POINT)) == 61 + 2048 + 2
    )  # C0 and C1 controls but tab, LF, CR, NEL; surrogates; U+FFFE/F


@pytest.mark.parametrize("text", ["a\x07b", "tab\tok\x7f", "\ud800", "\ufffe", "fine ✓ \U0001f600"])
def test_the_reader_reports_the_same_character_and_place(text: str) -> None:
    try:
        yaml.reader.Reader(text)  # checks the text as it reads it
        outcome = None
    except yaml.reader.ReaderError as error:
        outcome = (error.character, error.position)
    own = re.compile(hiera_ls.source._PYYAML_PRINTABLE_COMPLEMENT).search(text)
    assert outcome == (None if own is None else (ord(own.group()), own.start()))
