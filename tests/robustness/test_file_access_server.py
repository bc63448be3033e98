"""The language server itself, over JSON-RPC, with a data file that is a symlink to
/dev/stdin: before, it read its own JSON-RPC input as YAML; now it never opens the file,
and every lookup reading it fails with that message while the other
files keep working (docs/security.md, "Files and file access")."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pytest_lsp import LanguageClient, client_capabilities

from hiera_ls.display_text import md_escape
from tests.e2e.conftest import (
    CONTROL_REPO,
    READY,
    copy_repo,
    fresh_client,
    hover_text,
    init_params,
    open_document,
    wait_for_diagnostics,
    wait_for_log,
)

__all__ = ["fresh_client"]  # the server fixture, used by name below


@pytest.mark.asyncio
async def test_a_data_file_linked_to_dev_stdin_is_not_read_by_the_server(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    repo = copy_repo(CONTROL_REPO, tmp_path)
    node = repo / "data/nodes/web01.example.com.yaml"
    node.unlink()
    os.symlink("/dev/stdin", node)
    await client.initialize_session(
        init_params(
            repo,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    await wait_for_log(client, READY)
    common = repo / "data/common.yaml"
    doc = open_document(client, common)
    await wait_for_diagnostics(client, doc, version=1)
    classes = await hover_text(client, common, "classes:")
    assert (
        "**hiera-ls stops this lookup at a limit:** hiera-ls does not read "
        f"{md_escape(str(node))} (a symlink to" in classes
    )
    assert "hiera-ls reads regular files only" in classes
    # the server keeps answering, its input intact
    ssh = await hover_text(client, common, "profile::ssh::port")
    assert "**hiera-ls stops this lookup at a limit:** hiera-ls does not read" in ssh
