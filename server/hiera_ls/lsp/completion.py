"""``textDocument/completion`` and ``completionItem/resolve``: suggestions from
``features/completion.py`` as LSP items that replace the word being typed (a ``textEdit``,
so typing inside quotes goes on naturally), in the client's position units.

A key's value (the detail) is computed only when the client resolves the item: one lookup
per shown item instead of one per key of the environment."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp.server import HieraLanguageServer, at_position, handler, none
from hiera_ls.source.spans import Position, Span

if TYPE_CHECKING:
    from hiera_ls.features.completion import Item


TRIGGER_CHARACTERS = ["{", "(", "'", '"', ".", ":", " "]
KINDS = {
    "key": types.CompletionItemKind.Field,
    "variable": types.CompletionItemKind.Variable,
    "function": types.CompletionItemKind.Function,
    "property": types.CompletionItemKind.Property,
    "value": types.CompletionItemKind.EnumMember,
}
RETRIGGER = {"title": "Suggest", "command": "editor.action.triggerSuggest"}


def _item(item: Item, rng: dict[str, Any], uri: str) -> dict[str, Any]:
    """The item in LSP's JSON shape: built as dicts, as 100 lsprotocol objects take pygls
    tens of milliseconds to unstructure (bench/bench_completion.py)."""
    out: dict[str, Any] = {
        "label": item.label,
        "kind": KINDS[item.kind].value,
        "textEdit": {"range": rng, "newText": item.insert},
    }
    if item.detail is not None:
        out["detail"] = item.detail
    if item.documentation is not None:
        out["documentation"] = item.documentation
    if item.sort is not None:
        out["sortText"] = item.sort
    if not item.insert.startswith(item.label):
        out["filterText"] = item.insert
    if item.retrigger:
        out["command"] = RETRIGGER
    if item.key is not None:
        out["data"] = {"uri": uri, "key": item.key}
    return out


def _range(conv: lsp_ranges.Converter, span: Span) -> dict[str, Any]:
    r = conv.to_lsp_range(span)
    return {
        "start": {"line": r.start.line, "character": r.start.character},
        "end": {"line": r.end.line, "character": r.end.character},
    }


@at_position(
    types.TEXT_DOCUMENT_COMPLETION,
    none,
    types.CompletionOptions(trigger_characters=TRIGGER_CHARACTERS, resolve_provider=True),
)
async def text_document_completion(
    ls: HieraLanguageServer, params: types.CompletionParams, path: str, pos: Position
) -> dict[str, Any] | None:
    from hiera_ls.features.completion import complete  # on first use, not at start

    snapshot = ls.snapshot()
    # a big environment's files are the start-up checks' to read (a small one's are read at
    # once, as its index is: a completion right after start lists every key)
    reading = ls.scheduler.indexing(snapshot) and ls.diagnostics.index_deferred(snapshot, path)
    found = complete(snapshot, path, pos, reading)
    if not found.items:  # an empty incomplete list: nothing yet, the client asks again
        return {"isIncomplete": True, "items": []} if found.incomplete else None
    conv = ls.converter(path)
    ranges: dict[Span, dict[str, Any]] = {}
    items = []
    uri = params.text_document.uri
    for item in found.items:
        rng = ranges.get(item.span)
        if rng is None:
            rng = ranges[item.span] = _range(conv, item.span)
        items.append(_item(item, rng, uri))
    return {"isIncomplete": found.incomplete, "items": items}


@handler(types.COMPLETION_ITEM_RESOLVE, none)
async def completion_item_resolve(
    ls: HieraLanguageServer, item: types.CompletionItem
) -> types.CompletionItem:
    from hiera_ls.features.completion import key_detail

    data = item.data
    if isinstance(data, dict) and isinstance(data.get("key"), str):
        path = lsp_ranges.path_of(str(data.get("uri", "")))
        if path is not None and item.detail is None:
            item.detail = key_detail(ls.snapshot(), path, data["key"])
    return item
