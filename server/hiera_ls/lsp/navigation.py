"""``textDocument/definition`` and ``textDocument/references`` for keys, facts and paths."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.definition import definition
from hiera_ls.features.references import references
from hiera_ls.lsp.server import HieraLanguageServer, empty, guard


@guard("definition", empty)
async def text_document_definition(
    ls: HieraLanguageServer, params: types.DefinitionParams
) -> list[types.Location]:
    at = ls.position(params.text_document.uri, params.position)
    if at is None:
        return []
    path, pos = at
    return lsp_ranges.locations(definition(ls.snapshot(), path, pos), ls.converter)


@guard("references", empty)
async def text_document_references(
    ls: HieraLanguageServer, params: types.ReferenceParams
) -> list[types.Location]:
    at = ls.position(params.text_document.uri, params.position)
    if at is None:
        return []
    path, pos = at
    found = references(ls.snapshot(), path, pos, params.context.include_declaration)
    return lsp_ranges.locations(found, ls.converter)


def register(ls: HieraLanguageServer) -> None:
    ls.feature(types.TEXT_DOCUMENT_DEFINITION)(text_document_definition)
    ls.feature(types.TEXT_DOCUMENT_REFERENCES)(text_document_references)
