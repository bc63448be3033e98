"""``hiera-ls serve``: a server with every handler registered once, run over stdio.

Apart from ``server.py`` (the server's state, which every handler module imports for the
type of its server parameter), so that nothing imports back: this module imports them all,
and holds the one list of handlers.
"""

from __future__ import annotations

import gc
import logging
import os
import sys
import threading
from typing import NoReturn

from lsprotocol.types import LSPErrorCodes
from pygls.exceptions import JsonRpcException

from hiera_ls.lsp import (
    change_lens,
    code_actions,
    completion,
    configuration,
    diagnostics,
    document_links,
    documents,
    explain,
    eyaml,
    hover,
    inlay_hints,
    key_view,
    lifecycle,
    navigation,
    outline,
    profiles,
    rename,
    semantic_tokens,
    workspace_changes,
    workspace_symbols,
)
from hiera_ls.lsp.server import HieraLanguageServer, registration
from hiera_ls.lsp.transport import serve_stdio
from hiera_ls.project.settings import Settings

# Every handler, each once: the LSP method (or command) and options it is registered with
# are on it (``server.handler``); ``tests/lsp/test_serve.py`` checks that no handler of the
# modules is left out.
HANDLERS = (
    lifecycle.initialize,
    lifecycle.initialized,
    documents.text_document_did_open,
    documents.text_document_did_change,
    documents.text_document_did_close,
    workspace_changes.workspace_did_change_watched_files,
    workspace_changes.workspace_did_change_workspace_folders,
    configuration.workspace_did_change_configuration,
    hover.text_document_hover,
    navigation.text_document_definition,
    navigation.text_document_references,
    diagnostics.text_document_diagnostic,
    profiles.hiera_list_facts_profiles,
    profiles.hiera_select_facts_profile,
    profiles.command_list_facts_profiles,
    profiles.command_select_facts_profile,
    explain.hiera_explain,
    explain.command_explain,
    code_actions.text_document_code_action,
    outline.text_document_document_symbol,
    outline.text_document_folding_range,
    outline.text_document_selection_range,
    eyaml.eyaml_decrypt,
    eyaml.eyaml_edit_text,
    eyaml.eyaml_reencrypt,
    eyaml.command_eyaml_decrypt,
    rename.text_document_prepare_rename,
    rename.text_document_rename,
    workspace_symbols.workspace_symbol,
    document_links.text_document_document_link,
    change_lens.text_document_code_lens,
    change_lens.hiera_compare_key,
    change_lens.command_compare_key,
    completion.text_document_completion,
    completion.completion_item_resolve,
    semantic_tokens.semantic_tokens_full,
    semantic_tokens.semantic_tokens_range,
    inlay_hints.text_document_inlay_hint,
    key_view.hiera_key_view,
)


def create_server(target: str | None = None) -> HieraLanguageServer:
    """A server with every handler registered, each once; ``target``: ``serve --target``,
    which the editor's ``hiera.target`` overrides."""
    ls = HieraLanguageServer()
    ls.init_settings = Settings(target=target)
    for fn in HANDLERS:
        found = registration(fn)
        if found.command:
            ls.command(found.method)(fn)
        else:
            ls.feature(found.method, found.options)(fn)
    return ls


REQUEST_FAILED = LSPErrorCodes.RequestFailed.value

# pygls' records that carry whole message bodies (at INFO and DEBUG): an answer the user asked
# for may hold eyaml plaintext, and it must not reach a log (docs/security.md).
_BODY_RECORDS = frozenset(
    {
        "Sending data: %s",
        "Sending notification: '%s' %s",
        'Sending request with id "%s": %s %s',
        'Received result for message "%s": %s',
        'Received error response to message "%s": %s',
        "Client response for %s received: %s",
    }
)


class _NoMessageBodies(logging.Filter):
    """Keeps pygls' message records, without their bodies."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in _BODY_RECORDS:
            record.msg = f"{str(record.msg).split(':')[0].split(' %s')[0]} (body not logged)"
            record.args = ()
        return True


class _RefusalsWithoutTraceback(logging.Filter):
    """A request a handler refuses on purpose (LSP's ``RequestFailed``, such as a rename that
    would collide) is an answer, not a bug: pygls logs it with a traceback, which the editor's
    output channel would show as if the server had failed. One line says it instead."""

    def __init__(self, logger: logging.Logger) -> None:
        super().__init__()
        self.logger = logger

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, JsonRpcException) and error.code == REQUEST_FAILED:
            record.msg, record.args = "Refused a request: %s", (error.message,)
            record.exc_info, record.exc_text, record.levelno = None, None, logging.INFO
            record.levelname = "INFO"
            return self.logger.isEnabledFor(logging.INFO)
        return True


def filter_pygls_records(logger: logging.Logger) -> None:
    logger.addFilter(_NoMessageBodies())
    logger.addFilter(_RefusalsWithoutTraceback(logger))


LOG_LEVELS = {"debug": 10, "info": 20, "warning": 30, "warn": 30, "error": 40, "critical": 50}


def log_level(given: str) -> tuple[int, str]:
    """``HIERA_LS_LOG``'s level in any case (``debug``, ``DEBUG``) or as a number; an unknown
    name is returned to be told (logging.basicConfig raised on ``debug``: the server did not
    start)."""
    name = given.strip().lower()
    if not name:
        return logging.WARNING, ""
    if name.isdigit():
        return int(name), ""
    return (LOG_LEVELS[name], "") if name in LOG_LEVELS else (logging.WARNING, given)


def serve(target: str | None = None) -> NoReturn:
    """Run over stdio until the client says exit; what ``hiera-ls serve`` calls."""
    level, unknown = log_level(os.environ.get("HIERA_LS_LOG", ""))
    logging.basicConfig(level=level, stream=sys.stderr)
    if unknown:
        logging.getLogger(__name__).warning(
            "hiera-ls: HIERA_LS_LOG=%r is not a log level (debug, info, warning, error, "
            "critical): using warning",
            unknown,
        )
    filter_pygls_records(logging.getLogger("pygls.protocol.json_rpc"))
    # Parsing a big file allocates many small objects; default GC thresholds make that
    # pay for full collections of everything loaded before (measured: p95 edit latency).
    gc.set_threshold(50_000, 20, 100)
    # The background checks hold the GIL between their pauses; a request arriving then
    # waits for the interpreter's switch interval (5 ms by default) at every hand-over.
    # Measured on the LSP benchmark while checks ran: hover p50 17 ms at 1 ms, 11 ms here.
    sys.setswitchinterval(0.0002)
    server = create_server(target)
    collect_after_start(server.code_read_go)
    serve_stdio(server, server.scheduler)


START_COLLECT_S = 5.0  # the collector's first run, at the latest, with no publish or request


def collect_after_start(started: threading.Event, wait_s: float = START_COLLECT_S) -> None:
    """The cycle collector's first run, once the first diagnostics are out (``started``: the
    first publish or request) or ``wait_s`` after start-up; then what is left is kept out of
    later collections (gc.freeze) and the collector runs from then on.

    ``hiera-ls serve`` loads its modules with the collector paused (cli/serve.py), and keeps
    it paused until then: the modules leave some 17,000 objects of garbage (the classes
    attrs and dataclasses replace by their slotted twins), and the first collection, which
    walks every object they made, took 70-100 ms of CPU before the first diagnostics
    (bench_lsp_start); it frees the same garbage after them. Not before: frozen with it,
    that garbage (8 MB) would never be freed."""

    def collect() -> None:
        started.wait(wait_s)
        gc.collect()
        gc.freeze()
        gc.enable()

    threading.Thread(target=collect, name="hiera-ls-first-collection", daemon=True).start()
