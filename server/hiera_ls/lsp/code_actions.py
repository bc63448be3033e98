"""``textDocument/codeAction``: quick fixes for the diagnostics in the client's request."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.code_actions import FIX_ALL, QUICK_FIX, code_actions, fix_all, wanted
from hiera_ls.lsp.server import HieraLanguageServer, empty, guard


@guard("codeAction", empty)
async def text_document_code_action(
    ls: HieraLanguageServer, params: types.CodeActionParams
) -> list[types.CodeAction]:
    uri = params.text_document.uri
    path = lsp_ranges.path_of(uri)
    only = params.context.only
    if path is None:
        return []
    text = ls.text_of(path)
    if text is None:
        return []
    conv = ls.converter(path, text)
    actions: list[types.CodeAction] = []
    if wanted(QUICK_FIX, only):
        actions.extend(code_actions(uri, path, text, params.context.diagnostics, conv))
    if wanted(FIX_ALL, only):
        # every diagnostic of the file, as published (hidden codes stay untouched)
        shown = ls.scheduler.diagnostics_for(ls.snapshot(), path, quick=True)
        whole = fix_all(uri, path, text, shown, conv)
        if whole is not None:
            actions.append(whole)
    return actions


def register(ls: HieraLanguageServer) -> None:
    ls.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[QUICK_FIX, FIX_ALL]),
    )(text_document_code_action)
