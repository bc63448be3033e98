"""Every facts profile at once, over LSP: the hover spread, per-profile diagnostics reported
once, and the code lens on unsaved changes with its comparison.

The fixture (tests/fixtures/spread-repo) has five profiles: web01 and web02 (role web),
db01 (role db), bare1 and bare2 (no role fact: ``%{::role}`` fails for them). The server
runs with web01 active, as a user would have it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONFIG,
    FIXTURES,
    copy_repo,
    execute,
    hover_text,
    init_params,
    mark,
    open_document,
    request,
    uri,
    wait_for_diagnostics,
    wait_for_matching,
)

REPO = FIXTURES / "spread-repo"
COMMON = REPO / "data" / "common.yaml"
ROLE_APP = REPO / "data" / "roles" / "app.yaml"
WEB = "web01.example.com, web02.example.com"
BARE = "bare1.example.com, bare2.example.com"


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        init_params(
            REPO,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    open_document(lsp_client, COMMON)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_shows_each_value_with_the_profiles_that_get_it(client: LanguageClient) -> None:
    text = await hover_text(client, COMMON, "port:")
    assert text.startswith("**`port`** for `web01.example.com`\n\n```yaml\n8080\n```")
    assert "**Across 5 facts profiles:** 3 different answers" in text
    assert f"- `8080` — 2 of 5: {WEB} (this profile)" in text
    assert "- `5432` — 1 of 5: db01.example.com\n" in text
    assert f"- `80` — 2 of 5: {BARE}\n" in text
    assert text.count("Across") == 1


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_says_once_when_every_profile_agrees(client: LanguageClient) -> None:
    text = await hover_text(client, COMMON, "ntp::servers:")
    assert "**Across 5 facts profiles:** every one gets this value." in text
    assert "of 5" not in text


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_names_the_profiles_that_fail_with_the_error_once(
    client: LanguageClient,
) -> None:
    text = await hover_text(client, COMMON, "motd:")
    assert '- `"Serving as web"` — 2 of 5' in text
    assert f"- fails — 2 of 5: {BARE}: Undefined variable '::role'" in text
    assert text.count("Undefined variable") == 1


@pytest.mark.asyncio(loop_scope="module")
async def test_a_lookup_failing_for_other_profiles_is_reported_once_naming_them(
    client: LanguageClient,
) -> None:
    # web01, the active profile, looks motd up fine: only the other profiles fail
    found = await wait_for_matching(
        client,
        uri(COMMON),
        lambda diags: any(d.code == "lookup-fails-for-profile" for d in diags),
    )
    failing = [d for d in found if d.code == "lookup-fails-for-profile"]
    assert [d.message for d in failing] == [
        f"[{BARE}] Looking up 'motd' fails: Undefined variable '::role'; "
    ]
    assert failing[0].range.start.line == 4


def _replace(client: LanguageClient, path: Path, version: int, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text=text.replace(old, new))
            ],
        )
    )


async def _lenses(client: LanguageClient, path: Path) -> list[tuple[int, str]]:
    found = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri(path)))
    )
    out: list[tuple[int, str]] = []
    for lens in found or []:
        assert lens.command is not None
        assert lens.command.command == "hiera.compareKey"
        out.append((lens.range.start.line, lens.command.title))
    return out


@pytest.mark.asyncio(loop_scope="module")
async def test_change_lens_counts_the_profiles_an_unsaved_edit_changes(
    client: LanguageClient,
) -> None:
    assert await _lenses(client, COMMON) == []  # the buffer is the saved file
    since = mark(client)
    _replace(client, COMMON, 2, "port: 80\n", "port: 81\n")
    await wait_for_diagnostics(client, uri(COMMON), version=2, after=since)
    try:
        assert await _lenses(client, COMMON) == [(3, f"changes {BARE}")]
        answer = await request(client, "hiera/compareKey", {"uri": uri(COMMON), "key": "port"})
        rows = {row["name"]: row for row in answer["profiles"]}
        assert rows["bare1.example.com"] == {
            "name": "bare1.example.com",
            "before": "80",
            "after": "81",
            "changed": True,
        }
        assert rows["web01.example.com"]["changed"] is False
        assert "2 of 5 facts profiles get another value" in answer["text"]
        # the lens's command answers the same
        command = await execute(client, "hiera.compareKey", {"uri": uri(COMMON), "key": "port"})
        assert command is not None
    finally:
        since = mark(client)
        _replace(client, COMMON, 3, "port: 80\n", "port: 80\n")
        await wait_for_diagnostics(client, uri(COMMON), version=3, after=since)


@pytest.mark.asyncio(loop_scope="module")
async def test_change_lens_says_when_no_profile_reads_the_change(client: LanguageClient) -> None:
    open_document(client, ROLE_APP)
    since = mark(client)
    _replace(client, ROLE_APP, 2, "9000", "9001")
    await wait_for_diagnostics(client, uri(ROLE_APP), version=2, after=since)
    assert await _lenses(client, ROLE_APP) == [(0, "changes no profile's value")]


@pytest.mark.asyncio
async def test_change_lens_goes_once_the_change_is_saved(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    repo = copy_repo(REPO, tmp_path)
    common = repo / "data" / "common.yaml"
    await client.initialize_session(
        init_params(
            repo,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    open_document(client, common)
    since = mark(client)
    _replace(client, common, 2, "port: 80\n", "port: 81\n")
    await wait_for_diagnostics(client, uri(common), version=2, after=since)
    assert await _lenses(client, common) == [(3, f"changes {BARE}")]
    common.write_text(common.read_text(encoding="utf-8").replace("port: 80\n", "port: 81\n"))
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(common), type=types.FileChangeType.Changed)]
        )
    )
    assert await _lenses(client, common) == []
