"""PyYAML's pure-Python reader, whose printable-character pattern ``hiera_ls.source`` compiles
beforehand from the complement of the set (``yaml_comments`` scans with that reader), refuses
exactly the characters PyYAML's own pattern refuses: every code point compared."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml.reader

import hiera_ls.source

EVERY_CODE_POINT = "".join(map(chr, range(0x110000)))
SEEDED = re.compile(hiera_ls.source._NON_PRINTABLE)
OWN = re.compile(hiera_ls.source._PYYAML_PRINTABLE_COMPLEMENT)


def test_a_fresh_process_reading_yaml_has_the_pattern_compiled_beforehand() -> None:
    """(PyYAML's pattern text is the one the cache was given, or PyYAML compiles its own.)"""
    script = (
        "import hiera_ls.source.yaml_loader, hiera_ls.source, yaml.reader\n"
        "print(yaml.reader.Reader.NON_PRINTABLE.pattern == hiera_ls.source._NON_PRINTABLE)\n"
    )
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["True"]


def test_it_finds_what_pyyaml_own_pattern_finds_at_every_code_point() -> None:
    assert SEEDED.findall(EVERY_CODE_POINT) == OWN.findall(EVERY_CODE_POINT)
    # C0 and C1 controls but tab, LF, CR and NEL; the surrogates; U+FFFE and U+FFFF
    assert len(OWN.findall(EVERY_CODE_POINT)) == 61 + 2048 + 2


@pytest.mark.parametrize("text", ["a\x07b", "tab\tok\x7f", "\ud800", "\ufffe", "fine ✓ \U0001f600"])
def test_the_reader_reports_the_same_character_and_place(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(yaml.reader.Reader, "NON_PRINTABLE", SEEDED)
    try:
        yaml.reader.Reader(text)  # checks the text as it reads it
        outcome = None
    except yaml.reader.ReaderError as error:
        outcome = (error.character, error.position)
    own = OWN.search(text)
    assert outcome == (None if own is None else (ord(own.group()), own.start()))
