"""The cause first, once, in the editor: the problem that makes lookups fail carries them as
related information, and the files whose keys fail show no error of their own for it."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import READY, init_params, open_document, wait_for_diagnostics, wait_for_log
from tests.e2e.conftest import wait_for_matching as wait_for
from tests.report.test_causes import EXPECTED, broken


@pytest.mark.asyncio
@pytest.mark.parametrize("case", sorted(EXPECTED))
async def test_the_cause_carries_its_consequences_as_related_information(
    fresh_client: LanguageClient, tmp_path: Path, case: str
) -> None:
    client = fresh_client
    root = broken(tmp_path, case)
    options = {"hiera": {"factsProfile": "web01.example.com"}}
    capabilities = client_capabilities("visual_studio_code")
    await client.initialize_session(init_params(root, capabilities, options))
    await wait_for_log(client, READY)
    code, where, counted = EXPECTED[case]
    lookups = int(counted.split()[2])
    # a consequence's file: its key's lookup fails, but that is the cause's to say
    consequence = root / "data" / "os" / "Debian.yaml"
    own = await wait_for_diagnostics(client, open_document(client, consequence), version=1)
    assert [d.code for d in own if d.severity == types.DiagnosticSeverity.Error] == []

    def counted_in(diagnostics: list[types.Diagnostic]) -> bool:
        return any(d.code == code and d.message.endswith(counted) for d in diagnostics)

    found = await wait_for(client, open_document(client, root / where), counted_in)
    (cause,) = [d for d in found if d.code == code]
    assert cause.severity == types.DiagnosticSeverity.Error
    assert cause.related_information is not None
    assert len(cause.related_information) == lookups
    assert any(r.location.uri == consequence.as_uri() for r in cause.related_information)
    assert "…" not in cause.message
