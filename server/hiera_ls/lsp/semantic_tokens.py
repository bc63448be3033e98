"""``textDocument/semanticTokens/full`` and ``/range``: the pieces of each ``%{...}``
(``features/semantic_tokens.py``) in LSP's relative encoding and the client's units.

Answers are built as plain JSON (``{"data": [...]}``): thousands of integers need no
lsprotocol object around them."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.semantic_tokens import TOKEN_TYPES, Piece, pieces
from hiera_ls.lsp.server import HieraLanguageServer, handler, none
from hiera_ls.source.spans import Position, Span

LEGEND = types.SemanticTokensLegend(token_types=list(TOKEN_TYPES), token_modifiers=[])


def encode(found: list[Piece], conv: lsp_ranges.Converter) -> list[int]:
    data: list[int] = []
    last_line = last_start = 0
    ascii_line = -1
    for piece in found:
        if piece.line == ascii_line or conv.lines.line_text(piece.line).isascii():
            ascii_line = piece.line
            start, end = piece.start, piece.end  # one unit per code point in every encoding
        else:
            start = conv.to_lsp(Position(piece.line, piece.start)).character
            end = conv.to_lsp(Position(piece.line, piece.end)).character
        delta_line = piece.line - last_line
        delta_start = start - last_start if delta_line == 0 else start
        data += [delta_line, delta_start, end - start, piece.kind, 0]
        last_line, last_start = piece.line, start
    return data


@handler(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL, none, LEGEND)
async def semantic_tokens_full(
    ls: HieraLanguageServer, params: types.SemanticTokensParams
) -> dict[str, list[int]] | None:
    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return None
    conv = ls.converter(path)
    return {"data": encode(pieces(ls.snapshot(), path, lines=conv.lines), conv)}


@handler(types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE, none, LEGEND)
async def semantic_tokens_range(
    ls: HieraLanguageServer, params: types.SemanticTokensRangeParams
) -> dict[str, list[int]] | None:
    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return None
    conv = ls.converter(path)
    within = Span(conv.from_lsp(params.range.start), conv.from_lsp(params.range.end))
    return {"data": encode(pieces(ls.snapshot(), path, within, conv.lines), conv)}
