"""``textDocument/codeAction``: quick fixes for the diagnostics in the client's request."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.code_actions import QUICK_FIX, code_actions, wanted
from hiera_ls.lsp.server import HieraLanguageServer, empty, guard


@guard("codeAction", empty)
async def text_document_code_action(
    ls: HieraLanguageServer, params: types.CodeActionParams
) -> list[types.CodeAction]:
    uri = params.text_document.uri
    path = lsp_ranges.path_of(uri)
    if path is None or not wanted(params.context.only):
        return []
    text = ls.text_of(path)
    if text is None:
        return []
    conv = ls.converter(path, text)
    return code_actions(uri, path, text, params.context.diagnostics, conv)


def register(ls: HieraLanguageServer) -> None:
    ls.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[QUICK_FIX]),
    )(text_document_code_action)
