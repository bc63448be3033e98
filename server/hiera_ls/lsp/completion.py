"""``textDocument/completion`` and ``completionItem/resolve``: suggestions from
``features/completion.py`` as LSP items that replace the word being typed (a ``textEdit``,
so typing inside quotes goes on naturally), in the client's position units.

A key's value (the detail) is computed only when the client resolves the item: one lookup
per shown item instead of one per key of the environment."""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.completion import Item, complete, key_detail
from hiera_ls.lsp.server import HieraLanguageServer, guard, none

TRIGGER_CHARACTERS = ["{", "(", "'", '"', ".", ":", " "]
KINDS = {
    "key": types.CompletionItemKind.Field,
    "variable": types.CompletionItemKind.Variable,
    "function": types.CompletionItemKind.Function,
    "property": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.EnumMember,
}
RETRIGGER = types.Command(title="Suggest", command="editor.action.triggerSuggest")


def _item(item: Item, rng: types.Range, uri: str) -> types.CompletionItem:
    data: Any = {"uri": uri, "key": item.key} if item.key is not None else None
    return types.CompletionItem(
        label=item.label,
        kind=KINDS.get(item.kind),
        detail=item.detail,
        documentation=item.documentation,
        sort_text=item.sort,
        filter_text=item.insert if item.insert.startswith(item.label) else None,
        text_edit=types.TextEdit(range=rng, new_text=item.insert),
        command=RETRIGGER if item.retrigger else None,
        data=data,
    )


@guard("completion", none)
async def text_document_completion(
    ls: HieraLanguageServer, params: types.CompletionParams
) -> types.CompletionList | None:
    at = ls.position(params.text_document.uri, params.position)
    if at is None:
        return None
    path, pos = at
    items = complete(ls.snapshot(), path, pos)
    if not items:
        return None
    conv = ls.converter(path)
    ranges: dict[object, types.Range] = {}
    out = []
    for item in items:
        rng = ranges.get(item.span)
        if rng is None:
            rng = ranges[item.span] = conv.to_lsp_range(item.span)
        out.append(_item(item, rng, params.text_document.uri))
    return types.CompletionList(is_incomplete=False, items=out)


@guard("completionItem/resolve", none)
async def completion_item_resolve(
    ls: HieraLanguageServer, item: types.CompletionItem
) -> types.CompletionItem:
    data = item.data
    if isinstance(data, dict) and isinstance(data.get("key"), str):
        path = lsp_ranges.path_of(str(data.get("uri", "")))
        if path is not None and item.detail is None:
            item.detail = key_detail(ls.snapshot(), path, data["key"])
    return item


def register(ls: HieraLanguageServer) -> None:
    ls.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS, resolve_provider=True),
    )(text_document_completion)
    ls.feature(types.COMPLETION_ITEM_RESOLVE)(completion_item_resolve)
