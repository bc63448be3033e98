"""``textDocument/documentLink`` in hiera.yaml (``features/document_links.py``); the tooltip
only for a client that says it shows them."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp.server import HieraLanguageServer, empty, handler


@handler(types.TEXT_DOCUMENT_DOCUMENT_LINK, empty, types.DocumentLinkOptions())
async def text_document_document_link(
    ls: HieraLanguageServer, params: types.DocumentLinkParams
) -> list[types.DocumentLink]:
    from hiera_ls.features.document_links import document_links  # on first use, not at start

    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return []
    conv = ls.converter(path)
    docs = ls.client_capabilities.text_document
    caps = docs.document_link if docs is not None else None
    tooltips = bool(caps is not None and caps.tooltip_support)
    return [
        types.DocumentLink(
            range=conv.to_lsp_range(link.span),
            target=lsp_ranges.uri_of(link.target),
            tooltip=link.tooltip if tooltips else None,
        )
        for link in document_links(ls.snapshot(), path)
    ]
