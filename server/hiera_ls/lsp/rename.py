"""``textDocument/prepareRename`` and ``textDocument/rename`` of a key (``features/rename.py``).

A refused rename answers with LSP's ``RequestFailed`` error and the reason as its message (the
editor shows it); the guard lets that error through, and a bug still only logs and answers
nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lsprotocol import types
from pygls.exceptions import JsonRpcException

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp.server import HieraLanguageServer, at_position, none
from hiera_ls.source.spans import Position

if TYPE_CHECKING:
    from hiera_ls.features.rename import FileEdit


class RenameFailed(JsonRpcException):
    """The error LSP names for a request that cannot be done as asked (a refused rename)."""

    CODE = types.LSPErrorCodes.RequestFailed.value


@at_position(types.TEXT_DOCUMENT_PREPARE_RENAME, none)
async def text_document_prepare_rename(
    ls: HieraLanguageServer, params: types.PrepareRenameParams, path: str, pos: Position
) -> types.PrepareRenamePlaceholder | None:
    from hiera_ls.features.rename import RenameRefused, prepare  # on first use, not at start

    try:
        target = prepare(ls.snapshot(), path, pos)
    except RenameRefused as refused:
        raise RenameFailed(refused.message) from None
    return types.PrepareRenamePlaceholder(
        range=ls.converter(path).to_lsp_range(target.span), placeholder=target.key
    )


@at_position(types.TEXT_DOCUMENT_RENAME, none, types.RenameOptions(prepare_provider=True))
async def text_document_rename(
    ls: HieraLanguageServer, params: types.RenameParams, path: str, pos: Position
) -> types.WorkspaceEdit | None:
    from hiera_ls.features.rename import RenameRefused, rename

    try:
        edits = rename(ls.snapshot(), path, pos, params.new_name)
    except RenameRefused as refused:
        raise RenameFailed(refused.message) from None
    return workspace_edit(ls, edits)


def workspace_edit(ls: HieraLanguageServer, edits: list[FileEdit]) -> types.WorkspaceEdit:
    """``documentChanges`` (each open file at its version), or ``changes`` for a client
    without them."""
    caps = ls.client_capabilities.workspace
    edit_caps = caps.workspace_edit if caps is not None else None
    versioned = bool(edit_caps is not None and edit_caps.document_changes)
    per_file: list[types.TextDocumentEdit] = []
    changes: dict[str, list[types.TextEdit]] = {}
    for fe in edits:
        conv = ls.converter(fe.path)
        uri = ls.uris.get(fe.path) or lsp_ranges.uri_of(fe.path)
        text_edits = [
            types.TextEdit(range=conv.to_lsp_range(span), new_text=new) for span, new in fe.edits
        ]
        if versioned:
            doc = ls.workspace.text_documents.get(uri)
            per_file.append(
                types.TextDocumentEdit(
                    text_document=types.OptionalVersionedTextDocumentIdentifier(
                        uri=uri, version=doc.version if doc is not None else None
                    ),
                    edits=list(text_edits),
                )
            )
        else:
            changes[uri] = text_edits
    if versioned:
        return types.WorkspaceEdit(document_changes=list(per_file))
    return types.WorkspaceEdit(changes=changes)
