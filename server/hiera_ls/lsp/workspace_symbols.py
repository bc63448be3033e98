"""``workspace/symbol``: every data key of the repository (``features/workspace_symbols.py``),
from the server's symbol table (kept between snapshots)."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp.server import HieraLanguageServer, empty, handler


@handler(types.WORKSPACE_SYMBOL, empty)
async def workspace_symbol(
    ls: HieraLanguageServer, params: types.WorkspaceSymbolParams
) -> list[types.SymbolInformation]:
    from hiera_ls.features.workspace_symbols import workspace_symbols  # (not at start)

    out: list[types.SymbolInformation] = []
    for symbol in workspace_symbols(ls.snapshot(), params.query, ls.symbol_table):
        uri = ls.uris.get(symbol.path) or lsp_ranges.uri_of(symbol.path)
        out.append(
            types.SymbolInformation(
                name=symbol.name,
                kind=types.SymbolKind.Key,
                location=types.Location(
                    uri=uri, range=ls.converter(symbol.path).to_lsp_range(symbol.span)
                ),
                container_name=symbol.container,
            )
        )
    return out
