"""``hiera/explain``: the ``puppet lookup --explain`` text for the key under the cursor or a
named key, for clients that show it in a panel (also the command ``hiera.explain``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp import protocol
from hiera_ls.lsp.protocol import ExplainParams
from hiera_ls.lsp.server import HieraLanguageServer, handler, none

if TYPE_CHECKING:  # (the feature loads with the first request: not at start)
    from hiera_ls.features.explain import ExplainResult


def _explain(ls: HieraLanguageServer, params: ExplainParams | None) -> ExplainResult | None:
    from hiera_ls.features.explain import explain

    if params is None:
        return None
    path = lsp_ranges.path_of(params.uri) if params.uri is not None else None
    pos = None
    if path is not None and params.position is not None:
        pos = ls.converter(path).from_lsp(params.position)
    return explain(ls.snapshot(), path, pos, params.key)


@handler(protocol.EXPLAIN, none)
async def hiera_explain(ls: HieraLanguageServer, params: Any) -> ExplainResult | None:
    return _explain(ls, ExplainParams.from_json(params))


@handler(protocol.CMD_EXPLAIN, none, command=True)
async def command_explain(ls: HieraLanguageServer, *args: Any) -> ExplainResult | None:
    return _explain(ls, ExplainParams.from_json(args[0] if args else None))
