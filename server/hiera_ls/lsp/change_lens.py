"""``textDocument/codeLens``: on each key of an edited data file whose unsaved value differs
from the saved file's, how many facts profiles the change affects; its command
``hiera.compareKey`` (and the request ``hiera/compareKey``) answers with every profile's
value before and after, for a read-only view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp import protocol
from hiera_ls.lsp.protocol import CompareKeyParams
from hiera_ls.lsp.server import HieraLanguageServer, empty, handler, none

if TYPE_CHECKING:  # (the feature loads with the first code lens: not at start)
    from hiera_ls.features.change_lens import KeyComparison


@handler(types.TEXT_DOCUMENT_CODE_LENS, empty, types.CodeLensOptions(resolve_provider=False))
async def text_document_code_lens(
    ls: HieraLanguageServer, params: types.CodeLensParams
) -> list[types.CodeLens]:
    from hiera_ls.features.change_lens import changed_keys

    uri = params.text_document.uri
    path = lsp_ranges.path_of(uri)
    if path is None:
        return []
    snapshot = ls.snapshot()
    conv = ls.converter(path, snapshot.text(path) or "")
    return [
        types.CodeLens(
            range=conv.to_lsp_range(found.span),
            command=types.Command(
                title=found.title,
                command=protocol.CMD_COMPARE_KEY,
                arguments=[{"uri": uri, "key": found.key}],
            ),
        )
        for found in changed_keys(snapshot, path)
    ]


def _compare(ls: HieraLanguageServer, params: CompareKeyParams | None) -> KeyComparison | None:
    from hiera_ls.features.change_lens import compare_key

    if params is None:
        return None
    path = lsp_ranges.path_of(params.uri)
    return compare_key(ls.snapshot(), path, params.key) if path is not None else None


@handler(protocol.COMPARE_KEY, none)
async def hiera_compare_key(ls: HieraLanguageServer, params: Any) -> KeyComparison | None:
    return _compare(ls, CompareKeyParams.from_json(params))


@handler(protocol.CMD_COMPARE_KEY, none, command=True)
async def command_compare_key(ls: HieraLanguageServer, *args: Any) -> KeyComparison | None:
    return _compare(ls, CompareKeyParams.from_json(args[0] if args else None))
