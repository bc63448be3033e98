"""``textDocument/codeAction``: quick fixes for the diagnostics in the client's request, "fix
all" when the client asks for it, and eyaml's encrypt and decrypt actions at the range.

One handler, because LSP has one codeAction method per server: each provider is asked for the
kinds the client's ``context.only`` lets through."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.code_actions import FIX_ALL, QUICK_FIX, code_actions, fix_all, wanted
from hiera_ls.features.eyaml_kinds import DECRYPT_KIND, ENCRYPT_KIND
from hiera_ls.lsp.server import HieraLanguageServer, empty, handler
from hiera_ls.source.spans import Span

EYAML_KINDS = (ENCRYPT_KIND, DECRYPT_KIND)


@handler(
    types.TEXT_DOCUMENT_CODE_ACTION,
    empty,
    types.CodeActionOptions(code_action_kinds=[QUICK_FIX, FIX_ALL, *EYAML_KINDS]),
)
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
        diagnostics = params.context.diagnostics
        source = ls.fix_sources.of(path, text, conv) if diagnostics else None
        actions.extend(code_actions(uri, path, text, diagnostics, conv, source))
    if wanted(FIX_ALL, only):
        # every diagnostic of the file, as published (hidden codes stay untouched)
        shown = ls.scheduler.diagnostics_for(ls.snapshot(), path, quick=True)
        whole = fix_all(uri, path, text, shown, conv)
        if whole is not None:
            actions.append(whole)
    if not only or any(wanted(kind, only) for kind in EYAML_KINDS):
        from hiera_ls.features import eyaml  # (and cryptography with a key: not at start)

        start = conv.from_lsp(params.range.start)
        end = conv.from_lsp(params.range.end)
        span = Span.of(start.line, start.column, end.line, end.column)
        found = eyaml.code_actions(ls.snapshot(), path, uri, span, conv)
        actions.extend(a for a in found if not only or wanted(a.kind or "", only))
    return actions
