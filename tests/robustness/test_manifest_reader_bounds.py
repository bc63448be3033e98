"""The Puppet code reader on hostile or broken input: it never raises, its positions lie
inside the text, and input built to make a scanner rescan (ten thousand unclosed calls,
heredoc tags, interpolations) is read in linear time, stopped by the hang guard if not."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator
from types import FrameType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hiera_ls.source.manifest_model import ManifestFacts
from hiera_ls.source.manifest_parser import read_manifest
from hiera_ls.source.spans import Span
from hiera_ls.source.template_reader import read_epp_lookups, read_ruby_lookups
from tests.hang_guard import HUNG_S

pytestmark = pytest.mark.slow  # big inputs, to show the reader stays linear

FRAGMENTS = [
    "class ", "define ", "function ", "type ", "node ", "inherits ", "a::b", "Foo::Bar",
    "$x", "$::y", " = ", "(", ")", "[", "]", "{", "}", ",", ":", ";", "=>", ".", "*",
    "'s'", '"d ${x} e"', '"${', "'", '"', "\\", "/re/", "/", "@(END)", '@("E"/L)', "\nEND\n",
    "\n| END\n", "# c\n", "/* c */", "/*", "lookup(", "hiera('k')", "include ", "contain ",
    "require ", "Class['x']", "-", "\n", "\r\n", "\t", "é", "\x00", "<%", "%>", "<%=",
    "call_function('lookup', ['k'])", "#{", "@summary s", "@param x y",
]  # fmt: skip


class Hang(Exception):
    pass


@contextlib.contextmanager
def bounded(seconds: float) -> Iterator[None]:
    def ring(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"still running after {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _inside(lines: list[str], span: Span) -> bool:
    for pos in (span.start, span.end):
        if not 0 <= pos.line < len(lines) or not 0 <= pos.column <= len(lines[pos.line]):
            return False
    return span.start <= span.end


def _check(text: str, facts: ManifestFacts) -> None:
    spans = [d.span for d in facts.definitions]
    spans += [p.span for d in facts.definitions for p in d.params]
    spans += [c.span for c in facts.lookups] + [i.span for i in facts.inclusions]
    spans += [p.span for p in facts.problems]
    lines = text.split("\n")
    assert all(_inside(lines, s) for s in spans)


@settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)
@given(st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=4), max_size=60).map("".join))
def test_any_text_is_read_without_raising(text: str) -> None:
    with bounded(HUNG_S):
        for reader in (read_manifest, read_epp_lookups, read_ruby_lookups):
            _check(text, reader("/m/x.pp", text))


@pytest.mark.parametrize(
    "text",
    [
        "lookup(" * 20_000,
        "include (" * 20_000,
        "class { " * 20_000,
        "@(" * 20_000,
        '$x = @("E")\n${\nE\n' * 5_000,
        "function f() >> " + "(" * 20_000,
        "# c\n" * 20_000 + "class a {} " * 5_000,
        '"${' * 40 + "x",
        "/" * 20_000,
    ],
)
def test_built_to_rescan_is_still_linear(text: str) -> None:
    with bounded(HUNG_S):
        _check(text, read_manifest("/m/x.pp", text))
