"""The merge the code asks for, over LSP: the hover on a key read with
``lookup('k', Hash, 'deep')`` previews the deep merge and links the call; ``hiera/keyView``
gives each merge the code reads the key with."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONFIG,
    FIXTURES,
    READY,
    hover_text,
    init_params,
    open_document,
    position_of,
    request,
    uri,
    wait_for_log,
)

BASE_PP = "site-modules/profile/manifests/base.pp"


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path: Path):
    root = tmp_path / "merge-repo"
    shutil.copytree(FIXTURES / "merge-repo", root)
    await lsp_client.initialize_session(
        init_params(
            root,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "n1.example.com"}},
        )
    )
    await wait_for_log(lsp_client, READY)
    open_document(lsp_client, root / "data" / "common.yaml")
    lsp_client.root = root  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_hover_and_key_view_use_the_merge_the_code_asks_for(client: LanguageClient) -> None:
    root: Path = client.root  # type: ignore[attr-defined]
    common = root / "data" / "common.yaml"
    text = await hover_text(client, common, "profile::base::settings:")
    assert "```yaml\nzeta:\n  b: 1\n  a: 2\n  c: 3\nalpha: 0\n" in text
    link = f"[{BASE_PP}:3]({(root / BASE_PP).as_uri()}#L3)"
    assert f"**Merge:** `deep`, asked by `lookup(…, 'deep')` at {link}" in text
    here = position_of(common, "mixed:", 1)
    view = await request(
        client,
        "hiera/keyView",
        {"uri": uri(common), "position": {"line": here.line, "character": here.character}},
    )
    assert view["merge"] == f"merge deep, asked by lookup(…, 'deep') at {BASE_PP}:7"
    [other] = view["other_merges"]
    assert other["merge"].endswith(f"read by lookup() at {BASE_PP}:8")
