"""``textDocument/diagnostic``: problems for clients that pull them (LSP 3.17).

Clients without the pull capability get them pushed instead (``diagnostics_scheduler``).
"""

from __future__ import annotations

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.lsp.diagnostics_scheduler import result_id
from hiera_ls.lsp.server import HieraLanguageServer, handler

DIAGNOSTIC_ID = "hiera-ls"


def _no_report() -> types.FullDocumentDiagnosticReport:
    return types.FullDocumentDiagnosticReport(items=[])


@handler(
    types.TEXT_DOCUMENT_DIAGNOSTIC,
    _no_report,  # No workspace diagnostics: clients re-pull them every few seconds, and a full
    # pass over a big repository (every key looked up) would keep the server busy.
    types.DiagnosticOptions(
        identifier=DIAGNOSTIC_ID, inter_file_dependencies=True, workspace_diagnostics=False
    ),
)
async def text_document_diagnostic(
    ls: HieraLanguageServer, params: types.DocumentDiagnosticParams
) -> types.FullDocumentDiagnosticReport | types.UnchangedDocumentDiagnosticReport:
    path = lsp_ranges.path_of(params.text_document.uri)
    items = ls.scheduler.diagnostics_for(ls.snapshot(), path, quick=True) if path else []
    items_id = result_id(items)
    if params.previous_result_id == items_id:
        return types.UnchangedDocumentDiagnosticReport(result_id=items_id)
    return types.FullDocumentDiagnosticReport(items=items, result_id=items_id)
