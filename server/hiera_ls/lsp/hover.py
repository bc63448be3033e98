"""``textDocument/hover``: the merged value of the key under the cursor, and where it came
from. Markdown, or plain text for clients that show nothing else."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.lsp.server import HieraLanguageServer, at_position, none
from hiera_ls.source.spans import Position


@at_position(types.TEXT_DOCUMENT_HOVER, none)
async def text_document_hover(
    ls: HieraLanguageServer, params: types.HoverParams, path: str, pos: Position
) -> types.Hover | None:
    from hiera_ls.features.hover import hover  # on first use, not at start

    snapshot = ls.snapshot()  # (the one ``pos`` was read in, whatever comes meanwhile)
    await ls.fleet_groups.settled()  # (PuppetDB's nodes in the spread: lsp/fleet_grouping.py)
    result = hover(snapshot, path, pos)
    if result is None:
        return None
    if ls.hover_markdown:
        contents = types.MarkupContent(kind=types.MarkupKind.Markdown, value=result.markdown)
    else:
        from hiera_ls.features.render import plain_text

        contents = types.MarkupContent(
            kind=types.MarkupKind.PlainText, value=plain_text(result.markdown)
        )
    return types.Hover(
        contents=contents,
        range=ls.converter(path).to_lsp_range(result.span),
    )
