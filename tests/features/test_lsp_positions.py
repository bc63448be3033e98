"""Our ranges count code points; LSP clients count UTF-16 (or UTF-8/32) units: the edge converts."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.checks.rules import RULES
from hiera_ls.features.lsp_ranges import (
    Converter,
    diagnostic,
    encoding_name,
    locations,
    path_of,
    uri_of,
)
from hiera_ls.source.spans import FileSpan, Position, Span

TEXT = 'key: "é🚀 %{facts.os.family}"\r\nnext: 1\n'


def test_utf16_counts_a_surrogate_pair_as_two() -> None:
    conv = Converter(TEXT)
    token_cp = TEXT.index("%{")
    assert conv.to_lsp(Position(0, token_cp)) == types.Position(line=0, character=token_cp + 1)
    assert conv.from_lsp(types.Position(line=0, character=token_cp + 1)) == Position(0, token_cp)
    # a position inside the pair snaps to the character after it
    emoji_cp = TEXT.index("🚀")
    assert conv.from_lsp(types.Position(line=0, character=emoji_cp + 1)) == Position(
        0, emoji_cp + 1
    )


def test_utf8_and_utf32() -> None:
    token_cp = TEXT.index("%{")
    utf8 = Converter(TEXT, "utf-8")
    assert utf8.to_lsp(Position(0, token_cp)).character == len(TEXT[:token_cp].encode("utf-8"))
    assert utf8.from_lsp(utf8.to_lsp(Position(0, token_cp))) == Position(0, token_cp)
    utf32 = Converter(TEXT, types.PositionEncodingKind.Utf32)
    assert utf32.to_lsp(Position(0, token_cp)).character == token_cp
    assert encoding_name(types.PositionEncodingKind.Utf8) == "utf-8"
    assert encoding_name(None) == "utf-16"


def test_crlf_lines_and_positions_past_the_end_are_clamped() -> None:
    conv = Converter(TEXT)
    assert conv.to_lsp(Position(1, 0)) == types.Position(line=1, character=0)
    assert (
        conv.to_lsp(Position(0, 500)).character == len(TEXT.split("\r\n")[0]) + 1
    )  # clamped to the line
    assert conv.to_lsp(Position(9, 3)) == types.Position(line=9, character=0)


def test_diagnostic_and_location_conversion() -> None:
    token_cp = TEXT.index("%{")
    span = Span.of(0, token_cp, 0, token_cp + len("%{facts.os.family}"))
    problem = RULES["interpolation-unknown-method"].at("msg", "/r/x.yaml", span)
    d = diagnostic(problem, Converter(TEXT))
    assert d.code == "interpolation-unknown-method" and d.source == "hiera-ls"
    assert d.severity == types.DiagnosticSeverity.Error
    assert (d.range.start.character, d.range.end.character) == (
        token_cp + 1,
        token_cp + 1 + len("%{facts.os.family}"),
    )
    (loc,) = locations([FileSpan("/r/dir with space/x.yaml", span)], lambda p: Converter(TEXT))
    assert loc.uri == "file:///r/dir%20with%20space/x.yaml"
    assert path_of(loc.uri) == "/r/dir with space/x.yaml"
    assert path_of("untitled:Untitled-1") is None
    assert uri_of("/a/é.yaml") == "file:///a/%C3%A9.yaml"
