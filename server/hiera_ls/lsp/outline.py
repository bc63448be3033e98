"""``textDocument/documentSymbol``, ``foldingRange`` and ``selectionRange``: the shape of a
YAML or JSON file (``features/outline.py``), in the client's position units."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.outline import Entry, folding_ranges, outline, selection_chain
from hiera_ls.lsp.server import HieraLanguageServer, empty, guard

SYMBOL_KINDS = {
    "hash": types.SymbolKind.Object,
    "array": types.SymbolKind.Array,
    "string": types.SymbolKind.String,
    "number": types.SymbolKind.Number,
    "boolean": types.SymbolKind.Boolean,
    "null": types.SymbolKind.Null,
    "other": types.SymbolKind.Variable,
}


@guard("documentSymbol", empty)
async def text_document_document_symbol(
    ls: HieraLanguageServer, params: types.DocumentSymbolParams
) -> list[types.DocumentSymbol]:
    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return []
    conv = ls.converter(path)
    return [_symbol(e, conv) for e in outline(ls.snapshot(), path)]


def _symbol(entry: Entry, conv: lsp_ranges.Converter) -> types.DocumentSymbol:
    return types.DocumentSymbol(
        name=entry.name,
        kind=SYMBOL_KINDS[entry.kind],
        range=conv.to_lsp_range(entry.range),
        selection_range=conv.to_lsp_range(entry.selection),
        children=[_symbol(c, conv) for c in entry.children] or None,
    )


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
