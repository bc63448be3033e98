"""``textDocument/documentSymbol``, ``foldingRange`` and ``selectionRange``: the shape of a
YAML or JSON file (``features/outline.py``), in the client's position units."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.outline import Entry, folding_ranges, outline, selection_chain
from hiera_ls.lsp.server import HieraLanguageServer, empty, guard
from hiera_ls.source.spans import Position

SYMBOL_KINDS = {
    "hash": types.SymbolKind.Object,
    "array": types.SymbolKind.Array,
    "string": types.SymbolKind.String,
    "number": types.SymbolKind.Number,
    "boolean": types.SymbolKind.Boolean,
    "null": types.SymbolKind.Null,
    "other": types.SymbolKind.Variable,
}


class LspJson(list[Any]):
    """An answer already in LSP's JSON shape. pygls' converter passes a list type it does not
    know through unchanged, and json.dumps writes it as any list: an outline of 10,000 keys
    as lsprotocol objects took 250 ms to build and 70-190 ms to unstructure, as this 14 ms
    to pass (measured on the 10,000-line benchmark file, bench/bench_outline.py). Were pygls
    to walk it after all, the answer would be the same, only slower."""


@guard("documentSymbol", empty)
async def text_document_document_symbol(
    ls: HieraLanguageServer, params: types.DocumentSymbolParams
) -> list[Any]:
    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return []
    conv = ls.converter(path)
    ascii_only = conv.lines.text.isascii()

    def position(line: int, column: int) -> dict[str, int]:
        if ascii_only:
            return {"line": line, "character": column}
        return {"line": line, "character": conv.to_lsp(Position(line, column)).character}

    def symbol(entry: Entry) -> dict[str, Any]:
        r, s = entry.range, entry.selection
        out: dict[str, Any] = {
            "name": entry.name,
            "kind": SYMBOL_KINDS[entry.kind].value,
            "range": {"start": position(r[0], r[1]), "end": position(r[2], r[3])},
            "selectionRange": {"start": position(s[0], s[1]), "end": position(s[2], s[3])},
        }
        if entry.children:
            out["children"] = [symbol(c) for c in entry.children]
        return out

    return LspJson(symbol(e) for e in outline(ls.snapshot(), path))


@guard("foldingRange", empty)
async def text_document_folding_range(
    ls: HieraLanguageServer, params: types.FoldingRangeParams
) -> list[types.FoldingRange]:
    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return []
    return [
        types.FoldingRange(
            start_line=first,
            end_line=last,
            kind=types.FoldingRangeKind.Comment if comment else None,
        )
        for first, last, comment in folding_ranges(ls.snapshot(), path)
    ]


@guard("selectionRange", empty)
async def text_document_selection_range(
    ls: HieraLanguageServer, params: types.SelectionRangeParams
) -> list[types.SelectionRange]:
    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return []
    conv = ls.converter(path)
    snapshot = ls.snapshot()
    out: list[types.SelectionRange] = []
    for position in params.positions:
        pos = conv.from_lsp(position)
        parent: types.SelectionRange | None = None
        for span in reversed(selection_chain(snapshot, path, pos)):
            parent = types.SelectionRange(range=conv.to_lsp_range(span), parent=parent)
        here = types.Range(start=position, end=position)
        out.append(parent if parent is not None else types.SelectionRange(range=here))
    return out


def register(ls: HieraLanguageServer) -> None:
    ls.feature(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL)(text_document_document_symbol)
    ls.feature(types.TEXT_DOCUMENT_FOLDING_RANGE)(text_document_folding_range)
    ls.feature(types.TEXT_DOCUMENT_SELECTION_RANGE)(text_document_selection_range)
