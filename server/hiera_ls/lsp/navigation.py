"""``textDocument/definition`` and ``textDocument/references`` for keys, facts and paths."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp.server import HieraLanguageServer, at_position, empty
from hiera_ls.source.spans import Position


@at_position(types.TEXT_DOCUMENT_DEFINITION, empty)
async def text_document_definition(
    ls: HieraLanguageServer, params: types.DefinitionParams, path: str, pos: Position
) -> list[types.Location]:
    from hiera_ls.features.definition import definition  # on first use, not at start

    return lsp_ranges.locations(definition(ls.snapshot(), path, pos), ls.converter)


@at_position(types.TEXT_DOCUMENT_REFERENCES, empty)
async def text_document_references(
    ls: HieraLanguageServer, params: types.ReferenceParams, path: str, pos: Position
) -> list[types.Location]:
    from hiera_ls.features.references import references  # on first use, not at start

    found = references(ls.snapshot(), path, pos, params.context.include_declaration)
    return lsp_ranges.locations(found, ls.converter)
