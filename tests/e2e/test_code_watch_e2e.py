"""The server asks the editor to watch Puppet code, so the code index follows .pp edits made
outside the editor (git checkout, another tool), and a .pp change leaves data answers alone."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.e2e.conftest import CONTROL_REPO, open_document, uri, wait_for_diagnostics
from tests.e2e.test_diagnostics_e2e import start


@pytest.mark.asyncio
async def test_the_server_watches_puppet_code_and_templates(
    fresh_client: LanguageClient,
) -> None:
    client = fresh_client
    await start(client, CONTROL_REPO)
    for _ in range(100):  # the registration is sent after `initialized`, in the background
        if client.registrations:  # type: ignore[attr-defined]
            break
        await asyncio.sleep(0.05)
    shown = " ".join(str(r.register_options) for r in client.registrations)  # type: ignore[attr-defined]
    assert "**/*.{pp,epp,erb,rb}" in shown
    assert "**/*.{yaml,yml,json,conf,properties}" in shown  # HOCON includes too

    common = CONTROL_REPO / "data" / "common.yaml"
    doc = open_document(client, common)
    await wait_for_diagnostics(client, doc, version=1)
    lines = common.read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(lines) if t.startswith("profile::base::domain:"))
    where = types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=doc),
        position=types.Position(line=line, character=1),
    )
    before = await client.text_document_hover_async(where)
    manifest = CONTROL_REPO / "site-modules" / "profile" / "manifests" / "base.pp"
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(manifest), type=types.FileChangeType.Changed)]
        )
    )
    after = await client.text_document_hover_async(where)
    assert before is not None and after == before
