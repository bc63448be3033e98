"""``workspace/symbol``: every data key of the repository (``features/workspace_symbols.py``)."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.workspace_symbols import SymbolTable, workspace_symbols
from hiera_ls.lsp.server import HieraLanguageServer, empty, guard


async def workspace_symbol(
    ls: HieraLanguageServer, params: types.WorkspaceSymbolParams, table: SymbolTable
) -> list[types.SymbolInformation]:
    out: list[types.SymbolInformation] = []
    for symbol in workspace_symbols(ls.snapshot(), params.query, table):
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


def register(ls: HieraLanguageServer) -> None:
    table = SymbolTable()  # this server's, kept between snapshots

    @guard("workspaceSymbol", empty)
    async def handler(
        ls: HieraLanguageServer, params: types.WorkspaceSymbolParams
    ) -> list[types.SymbolInformation]:
        return await workspace_symbol(ls, params, table)

    ls.feature(types.WORKSPACE_SYMBOL)(handler)
