"""``textDocument/hover``: the merged value of the key under the cursor, and where it came
from. Markdown, or plain text for clients that show nothing else."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features.hover import hover
from hiera_ls.features.render import plain_text
from hiera_ls.lsp.server import HieraLanguageServer, guard, none


@guard("hover", none)
async def text_document_hover(
    ls: HieraLanguageServer, params: types.HoverParams
) -> types.Hover | None:
    at = ls.position(params.text_document.uri, params.position)
    if at is None:
        return None
    path, pos = at
    result = hover(ls.snapshot(), path, pos)
    if result is None:
        return None
    if ls.hover_markdown:
        contents = types.MarkupContent(kind=types.MarkupKind.Markdown, value=result.markdown)
    else:
        contents = types.MarkupContent(
            kind=types.MarkupKind.PlainText, value=plain_text(result.markdown)
        )
    return types.Hover(
        contents=contents,
        range=ls.converter(path).to_lsp_range(result.span),
    )


def register(ls: HieraLanguageServer) -> None:
    ls.feature(types.TEXT_DOCUMENT_HOVER)(text_document_hover)
