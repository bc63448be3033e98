"""Facts profiles: list them, and switch the node every answer is computed for.

Requests for clients with a picker of their own, commands for clients that only run
commands (see ``protocol``); the active profile is announced by ``announce_profile``.
"""

from __future__ import annotations

from typing import Any

from lsprotocol import types

from hiera_ls.features.profiles import list_profiles
from hiera_ls.lsp import protocol
from hiera_ls.lsp.protocol import FactsProfile, SelectFactsProfileParams, SelectFactsProfileResult
from hiera_ls.lsp.server import HieraLanguageServer, empty, handler


def _no_selection() -> SelectFactsProfileResult:
    return SelectFactsProfileResult(active=None, profiles=[])


def _profiles(ls: HieraLanguageServer) -> list[FactsProfile]:
    return list_profiles(ls.snapshot())


def _select(ls: HieraLanguageServer, params: SelectFactsProfileParams) -> SelectFactsProfileResult:
    wanted = params.name
    ls.project.select_profile(wanted)
    snap = ls.snapshot()
    active = snap.active.name if snap.active is not None else None
    if wanted is not None and active is None:
        ls.window_show_message(
            types.ShowMessageParams(
                type=types.MessageType.Warning,
                message=f"hiera-ls: no facts profile named '{wanted}'",
            )
        )
    ls.scheduler.refresh()
    return SelectFactsProfileResult(active=active, profiles=_profiles(ls))


@handler(protocol.LIST_FACTS_PROFILES, empty)
async def hiera_list_facts_profiles(ls: HieraLanguageServer, params: Any) -> list[FactsProfile]:
    return _profiles(ls)


@handler(protocol.SELECT_FACTS_PROFILE, _no_selection)
async def hiera_select_facts_profile(
    ls: HieraLanguageServer, params: Any
) -> SelectFactsProfileResult:
    return _select(ls, SelectFactsProfileParams.from_json(params))


@handler(protocol.CMD_LIST_FACTS_PROFILES, empty, command=True)
async def command_list_facts_profiles(ls: HieraLanguageServer, *args: Any) -> list[FactsProfile]:
    return _profiles(ls)


@handler(protocol.CMD_SELECT_FACTS_PROFILE, _no_selection, command=True)
async def command_select_facts_profile(
    ls: HieraLanguageServer, *args: Any
) -> SelectFactsProfileResult:
    return _select(ls, SelectFactsProfileParams.from_json(args[0] if args else None))
