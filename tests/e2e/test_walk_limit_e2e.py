"""A workspace bigger than hiera.maxFiles: the editor says the listing was cut, and where, once,
rather than showing fewer findings as if the files past the limit were clean."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import READY, init_params, open_document, wait_for_log

HIERA = (
    "---\nversion: 5\ndefaults:\n  datadir: data\nhierarchy:\n"
    "  - name: nodes\n    path: 'nodes/%{trusted.certname}.yaml'\n"
    "  - name: common\n    path: common.yaml\n"
)


@pytest.mark.asyncio
async def test_a_listing_cut_at_max_files_is_shown_once(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    root = tmp_path / "repo"
    (root / "data" / "nodes").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HIERA)
    (root / "data" / "common.yaml").write_text("a: 1\n")
    for i in range(30):
        (root / "data" / "nodes" / f"n{i:03}.yaml").write_text("a: 2\n")
    options = {"hiera": {"maxFiles": 10}}
    await client.initialize_session(
        init_params(root, client_capabilities("visual_studio_code"), options)
    )
    await wait_for_log(client, READY)
    open_document(client, root / "data" / "common.yaml")
    for _ in range(300):
        cut = [m.message for m in client.messages if "stopped listing files" in m.message]
        if cut:
            break
        await asyncio.sleep(0.05)
    assert len(cut) == 1, [m.message for m in client.messages]
    assert f"under {root / 'data' / 'nodes'}" in cut[0] or f"under {root}" in cut[0]
    assert "Raise the limit (now 10 files) with the hiera.maxFiles setting" in cut[0]
    open_document(client, root / "data" / "nodes" / "n001.yaml")  # another full run: said once
    await asyncio.sleep(1.0)
    assert len([m for m in client.messages if "stopped listing files" in m.message]) == 1
