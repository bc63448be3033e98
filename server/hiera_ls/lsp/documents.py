"""Open documents: the editor's buffer wins over the file on disk while it is open.

pygls updates its own copy of a document before these handlers run; the workspace gets
the new text, the edited file its quick checks as soon as the edits received with it are
applied, and the rest waits for a pause in typing (see ``diagnostics_scheduler``).
"""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp.server import HieraLanguageServer, handler, none


@handler(types.TEXT_DOCUMENT_DID_OPEN, none)
async def text_document_did_open(
    ls: HieraLanguageServer, params: types.DidOpenTextDocumentParams
) -> None:
    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return
    ls.uris[path] = params.text_document.uri
    ls.project.open_buffer(path, params.text_document.text)
    if ls.project.buffers.get(path) != ls.text_of_disk(path):
        ls.scheduler.data_changed()
    elif not ls.diagnostics.has_index(ls.snapshot()) or ls.diagnostics.profiles_deferred(
        ls.snapshot(), path
    ):
        # a big environment: its index is built in the background; a big file with many
        # facts profiles: their lookups too
        ls.scheduler.schedule_full_checks()
    ls.scheduler.edited(path, changed=False)


@handler(types.TEXT_DOCUMENT_DID_CHANGE, none)
async def text_document_did_change(
    ls: HieraLanguageServer, params: types.DidChangeTextDocumentParams
) -> None:
    uri = params.text_document.uri
    path = lsp_ranges.path_of(uri)
    if path is None:
        return
    ls.uris[path] = uri
    ls.project.update_buffer(path, ls.workspace.get_text_document(uri).source)
    ls.scheduler.data_changed()
    ls.scheduler.edited(path)


@handler(types.TEXT_DOCUMENT_DID_CLOSE, none)
async def text_document_did_close(
    ls: HieraLanguageServer, params: types.DidCloseTextDocumentParams
) -> None:
    uri = params.text_document.uri
    path = lsp_ranges.path_of(uri)
    if path is None:
        return
    ls.uris.pop(path, None)
    unsaved = ls.project.buffers.get(path) != ls.text_of_disk(path)
    ls.project.close_buffer(path)
    ls.diagnostics.forget(path)
    ls.scheduler.clear(uri)
    if unsaved:  # the disk's text is back: other files' problems may change (after a pause)
        ls.scheduler.data_changed()
