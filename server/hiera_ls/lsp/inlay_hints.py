"""``textDocument/inlayHint``: values for the active facts profile, written after tokens and
keys (``features/inlay_hints.py``); ``HieraLanguageServer.refresh_inlay_hints`` asks the
client to ask again when they change."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp.server import HieraLanguageServer, empty, handler


@handler(types.TEXT_DOCUMENT_INLAY_HINT, empty, types.InlayHintOptions(resolve_provider=False))
async def text_document_inlay_hint(
    ls: HieraLanguageServer, params: types.InlayHintParams
) -> list[types.InlayHint]:
    path = lsp_ranges.path_of(params.text_document.uri)
    snapshot = ls.snapshot()
    if path is None or not snapshot.settings.inlay_hints or snapshot.active is None:
        return []
    from hiera_ls.features.inlay_hints import inlay_hints  # on first use, not at start

    conv = ls.converter(path, snapshot.text(path) or "")
    found = inlay_hints(snapshot, path, params.range.start.line, params.range.end.line)
    return [
        types.InlayHint(
            position=conv.to_lsp(hint.position),
            label=hint.label,
            tooltip=hint.tooltip,
            padding_left=True,
        )
        for hint in found
    ]
