"""``textDocument/documentSymbol``, ``foldingRange`` and ``selectionRange``: the shape of a
YAML or JSON file (``features/outline.py``), in the client's position units."""

from __future__ import annotations

from collections.abc import Callable
from json.encoder import encode_basestring_ascii as encode_string
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp.server import HieraLanguageServer, empty, handler
from hiera_ls.lsp.transport import RawJson
from hiera_ls.source.spans import Position

if TYPE_CHECKING:  # (the feature loads with the first request: not at start)
    from hiera_ls.features.outline import Entry

SYMBOL_KINDS = {
    "hash": types.SymbolKind.Object.value,
    "array": types.SymbolKind.Array.value,
    "string": types.SymbolKind.String.value,
    "number": types.SymbolKind.Number.value,
    "boolean": types.SymbolKind.Boolean.value,
    "null": types.SymbolKind.Null.value,
    "other": types.SymbolKind.Variable.value,
}


@handler(types.TEXT_DOCUMENT_DOCUMENT_SYMBOL, empty)
async def text_document_document_symbol(
    ls: HieraLanguageServer, params: types.DocumentSymbolParams
) -> list[Any] | RawJson:
    from hiera_ls.features.outline import outline

    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return []
    snapshot = ls.snapshot()
    conv = ls.converter(path, snapshot.text(path) or "")
    memo_key = ("documentSymbol", path, conv.encoding)
    cached = snapshot.memo.get(memo_key)
    if isinstance(cached, RawJson):
        return cached  # the outline view, breadcrumbs and sticky scroll ask again and again
    written = ls.outline_json.pop((path, conv.encoding), {})
    if len(ls.outline_json) >= MAX_OUTLINES:
        ls.outline_json.clear()
    answer = RawJson(symbols_json(outline(snapshot, path), conv, written))
    ls.outline_json[(path, conv.encoding)] = written
    snapshot.memo[memo_key] = answer
    return answer


MAX_OUTLINES = 16  # files whose written outline is kept for the next edit (open files)


def symbols_json(
    entries: list[Entry],
    conv: lsp_ranges.Converter,
    written: dict[int, tuple[Entry, str]] | None = None,
) -> str:
    """LSP's ``DocumentSymbol[]`` as JSON text, written directly: an outline of 10,000 keys
    as lsprotocol objects took 250 ms to build and 70-190 ms to unstructure, as dicts
    85 ms to build and 70 ms to encode, as this 20 ms (bench/bench_outline.py).

    ``written``: the text of each top-level entry written last time, by the entry's id;
    replaced with this outline's. The outline re-uses the entries an edit did not touch
    (``features.outline``), and an entry on the same lines of the same text is written the
    same way, so after an edit only the new entries are written (1 ms instead of 20)."""
    if written is None:
        written = {}
    before = dict(written)
    written.clear()
    write = _writer(conv)
    parts: list[str] = []
    for entry in entries:
        kept = before.get(id(entry))
        text = kept[1] if kept is not None and kept[0] is entry else write(entry)
        written[id(entry)] = (entry, text)
        parts.append(text)
    return "[" + ",".join(parts) + "]"


def _writer(conv: lsp_ranges.Converter) -> Callable[[Entry], str]:
    """Writes one top-level entry and its children as a ``DocumentSymbol``."""
    ascii_only = conv.lines.text.isascii()

    def column(line: int, col: int) -> int:
        if ascii_only:
            return col
        return conv.to_lsp(Position(line, col)).character

    def walk(level: list[Entry], add: Callable[[str], None]) -> None:
        head = '{"name":'
        for entry in level:
            r, s = entry.range, entry.selection
            if not ascii_only:
                r = (r[0], column(r[0], r[1]), r[2], column(r[2], r[3]))
                s = (s[0], column(s[0], s[1]), s[2], column(s[2], s[3]))
            tail = _SYMBOL_TAIL % (SYMBOL_KINDS[entry.kind], *r, *s)
            add(head + encode_string(entry.name) + tail)
            head = ',{"name":'
            if entry.children:
                add(',"children":[')
                walk(entry.children, add)
                add("]}")
            else:
                add("}")

    def write(top: Entry) -> str:
        out: list[str] = []
        walk([top], out.append)
        return "".join(out)

    return write


_SYMBOL_TAIL = (
    ',"kind":%d,'
    '"range":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}},'
    '"selectionRange":{"start":{"line":%d,"character":%d},"end":{"line":%d,"character":%d}}'
)


@handler(types.TEXT_DOCUMENT_FOLDING_RANGE, empty)
async def text_document_folding_range(
    ls: HieraLanguageServer, params: types.FoldingRangeParams
) -> list[types.FoldingRange] | RawJson:
    from hiera_ls.features.outline import folding_ranges

    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return []
    snapshot = ls.snapshot()
    memo_key = ("foldingRange", path)
    cached = snapshot.memo.get(memo_key)
    if isinstance(cached, RawJson):
        return cached  # asked again after each edit and scroll, as the outline is
    answer = RawJson(folding_json(folding_ranges(snapshot, path)))
    snapshot.memo[memo_key] = answer
    return answer


def folding_json(ranges: list[tuple[int, int, bool]]) -> str:
    """LSP's ``FoldingRange[]`` as JSON text: 10,000 lsprotocol objects took longer to
    unstructure than the ranges took to find (bench/bench_outline.py)."""
    return (
        "["
        + ",".join(
            (_COMMENT_FOLD if comment else _FOLD) % (first, last) for first, last, comment in ranges
        )
        + "]"
    )


_FOLD = '{"startLine":%d,"endLine":%d}'
_COMMENT_FOLD = '{"startLine":%d,"endLine":%d,"kind":"comment"}'


@handler(types.TEXT_DOCUMENT_SELECTION_RANGE, empty)
async def text_document_selection_range(
    ls: HieraLanguageServer, params: types.SelectionRangeParams
) -> list[types.SelectionRange]:
    from hiera_ls.features.outline import selection_chain

    path = lsp_ranges.path_of(params.text_document.uri)
    if path is None:
        return []
    conv = ls.converter(path)
    snapshot = ls.snapshot()
    out: list[types.SelectionRange] = []
    for position in params.positions:
        pos = conv.from_lsp(position)
        parent: types.SelectionRange | None = None
        for span in reversed(selection_chain(snapshot, path, pos)):
            parent = types.SelectionRange(range=conv.to_lsp_range(span), parent=parent)
        here = types.Range(start=position, end=position)
        out.append(parent if parent is not None else types.SelectionRange(range=here))
    return out
