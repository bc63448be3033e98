"""Every message the server handles is handled once, by a handler under the error guard."""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.lsp import protocol
from hiera_ls.lsp.serve import create_server


def test_every_handler_runs_under_the_error_guard() -> None:
    fm = create_server().protocol.fm
    handlers = {**fm.features, **fm.commands}
    assert set(fm.features) == {
        types.INITIALIZE,
        types.INITIALIZED,
        types.TEXT_DOCUMENT_DID_OPEN,
        types.TEXT_DOCUMENT_DID_CHANGE,
        types.TEXT_DOCUMENT_DID_CLOSE,
        types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS,
        types.WORKSPACE_DID_CHANGE_CONFIGURATION,
        types.TEXT_DOCUMENT_HOVER,
        types.TEXT_DOCUMENT_DEFINITION,
        types.TEXT_DOCUMENT_REFERENCES,
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.TEXT_DOCUMENT_DOCUMENT_SYMBOL,
        types.TEXT_DOCUMENT_FOLDING_RANGE,
        types.TEXT_DOCUMENT_SELECTION_RANGE,
        types.TEXT_DOCUMENT_PREPARE_RENAME,
        types.TEXT_DOCUMENT_RENAME,
        types.WORKSPACE_SYMBOL,
        types.TEXT_DOCUMENT_DOCUMENT_LINK,
        types.TEXT_DOCUMENT_COMPLETION,
        types.COMPLETION_ITEM_RESOLVE,
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_FULL,
        types.TEXT_DOCUMENT_SEMANTIC_TOKENS_RANGE,
        types.TEXT_DOCUMENT_INLAY_HINT,
        protocol.LIST_FACTS_PROFILES,
        protocol.SELECT_FACTS_PROFILE,
        protocol.EXPLAIN,
        protocol.EYAML_DECRYPT,
        protocol.EYAML_EDIT_TEXT,
        protocol.EYAML_REENCRYPT,
        types.TEXT_DOCUMENT_CODE_LENS,
        protocol.COMPARE_KEY,
        protocol.KEY_VIEW,
    }
    assert set(fm.commands) == {
        protocol.CMD_LIST_FACTS_PROFILES,
        protocol.CMD_SELECT_FACTS_PROFILE,
        protocol.CMD_COMPARE_KEY,
        protocol.CMD_EXPLAIN,
        protocol.CMD_EYAML_DECRYPT,
    }
    for method, handler in handlers.items():
        fn = getattr(handler, "func", handler)  # pygls wraps it to pass the server in
        assert fn.__code__.co_name == "guarded", method
