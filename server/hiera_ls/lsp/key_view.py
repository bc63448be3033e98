"""``hiera/keyView``: the key under the cursor (or a named key) for every facts profile, and
the active profile's hierarchy level by level, for a client's side view."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp import protocol
from hiera_ls.lsp.protocol import KeyViewParams
from hiera_ls.lsp.server import HieraLanguageServer, handler, none

if TYPE_CHECKING:  # (the feature loads with the first request: not at start)
    from hiera_ls.features.key_view import KeyView


@handler(protocol.KEY_VIEW, none)
async def hiera_key_view(ls: HieraLanguageServer, params: Any) -> KeyView | None:
    from hiera_ls.features.key_view import key_view

    found = KeyViewParams.from_json(params)
    if found is None:
        return None
    path = lsp_ranges.path_of(found.uri) if found.uri is not None else None
    pos = None
    if path is not None and found.position is not None:
        pos = ls.converter(path).from_lsp(found.position)
    snapshot = ls.snapshot()  # (the one ``pos`` was read in, whatever comes meanwhile)
    await ls.fleet_groups.settled()  # (PuppetDB's nodes: lsp/fleet_grouping.py)
    return key_view(snapshot, path, pos, found.key)
