"""Hover over LSP on the control repository fixture, as VS Code and Neovim capabilities ask.

The server runs as ``python -m hiera_ls serve`` with the facts profile of web01 chosen in
initializationOptions; values in the expectations were checked against Puppet (see
tests/differential/test_hover_vs_puppet.py).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONFIG,
    CONTROL_REPO,
    READY,
    WAIT_LIMIT_S,
    hover_text,
    init_params,
    open_document,
    position_of,
    uri,
    wait_for_log,
)
from tests.project.test_environments import NOTE, _module_data, _repo

COMMON = CONTROL_REPO / "data" / "common.yaml"
WEB01 = CONTROL_REPO / "data" / "nodes" / "web01.example.com.yaml"
ROLE_WEB = CONTROL_REPO / "data" / "roles" / "web.yaml"
HIERA = CONTROL_REPO / "hiera.yaml"
FACTS = CONTROL_REPO / ".hiera-ls" / "facts" / "web01.example.com.yaml"
BASE_PP = CONTROL_REPO / "site-modules" / "profile" / "manifests" / "base.pp"


@pytest_lsp.fixture(config=CONFIG, scope="module", params=["visual_studio_code", "neovim@v0.7.0"])
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    await lsp_client.initialize_session(
        init_params(
            CONTROL_REPO,
            client_capabilities(request.param),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    for path in (COMMON, WEB01, HIERA):
        open_document(lsp_client, path)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_deep_merged_key_shows_merged_value_strategy_and_levels(
    client: LanguageClient,
) -> None:
    text = await hover_text(client, COMMON, "profile::base::users:")
    assert "for `web01.example.com`" in text
    # the merged value in Puppet's order (as `puppet lookup` prints it): carol from the node
    # file, bob's shell overridden there
    assert "bob:\n  uid: 1002\n  shell: /bin/zsh\ncarol:\n  uid: 1003\n  shell: /bin/zsh" in text
    assert (
        '**Merge:** `deep` (knockout_prefix: "--"), set by lookup_options `profile::base::users`'
        in text
    )
    assert f"[data/common.yaml:7]({COMMON.as_uri()}#L7)" in text  # where lookup_options set it
    node_link = f"[data/nodes/web01.example.com.yaml:3]({WEB01.as_uri()}#L3)"
    assert f"1. Environment / Per-node data — {node_link} — merged" in text
    assert (
        f"2. Environment / Common data — [data/common.yaml:25]({COMMON.as_uri()}#L25) (this file) "
        "— merged" in text
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_first_found_key_marks_the_winner_and_the_overridden_value(
    client: LanguageClient,
) -> None:
    text = await hover_text(client, WEB01, "profile::ssh::port")
    assert "```yaml\n2222\n```" in text
    assert "**Merge:** `first` (the first value found wins)" in text
    assert "1. Environment / Per-node data — [data/nodes/web01.example.com.yaml:2]" in text
    assert "(this file) — **wins**" in text
    assert (
        f"2. Environment / Common data — [data/common.yaml:37]({COMMON.as_uri()}#L37) — "
        "overridden: `22`" in text
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_unique_merge_across_layers_includes_module_data(client: LanguageClient) -> None:
    text = await hover_text(client, COMMON, "profile::base::packages:")
    assert "```yaml\n- nginx\n- apt-transport-https\n- vim\n- curl\n- git\n```" in text
    assert "**Merge:** `unique`, set by lookup_options `profile::base::packages`" in text
    assert 'Module "profile" / Profile defaults — [site-modules/profile/data/common.yaml:6]' in text


@pytest.mark.asyncio(loop_scope="module")
async def test_fact_token_shows_the_facts_value_and_where_it_is(client: LanguageClient) -> None:
    text = await hover_text(client, COMMON, "%{facts.networking.hostname}", 3)
    assert text.startswith("`%{facts.networking.hostname}` for `web01.example.com`")
    assert "```yaml\nweb01\n```" in text
    assert f"Fact in [.hiera-ls/facts/web01.example.com.yaml:11]({FACTS.as_uri()}#L11)" in text


@pytest.mark.asyncio(loop_scope="module")
async def test_lookup_and_alias_tokens_show_the_looked_up_value(client: LanguageClient) -> None:
    text = await hover_text(client, ROLE_WEB, "%{lookup('profile::base::domain')}", 4)
    assert "```yaml\nexample.com\n```" in text
    assert f"- Environment / Common data: [data/common.yaml:20]({COMMON.as_uri()}#L20)" in text
    alias = await hover_text(client, COMMON, "%{alias('ntp::servers')}", 4)
    assert (
        "```yaml\n- ntp1.ams1.example.com\n- 0.pool.ntp.org\n- 1.pool.ntp.org\n- 2.pool.ntp.org\n"
        "```" in alias
    )
    assert "`alias` keeps the value's type." in alias


@pytest.mark.asyncio(loop_scope="module")
async def test_lookup_options_key_lists_the_keys_it_matches(client: LanguageClient) -> None:
    text = await hover_text(client, COMMON, '"^profile::ssh::', 3)
    assert (
        "**lookup_options** `^profile::ssh::(settings|options)$` (Ruby regular expression" in text
    )
    assert "Applies to 1 key:\n\n- `profile::ssh::settings`" in text


@pytest.mark.asyncio(loop_scope="module")
async def test_hiera_yaml_location_shows_the_file_for_the_node(client: LanguageClient) -> None:
    text = await hover_text(client, HIERA, "datacenter/%{dc}.yaml", 2)
    assert "**Environment / Per-datacenter data** reads `datacenter/%{dc}.yaml`" in text
    ams1 = CONTROL_REPO / "data" / "datacenter" / "ams1.yaml"
    assert f"For `web01.example.com`:\n\n- [data/datacenter/ams1.yaml]({ams1.as_uri()})\n" in text
    assert "Files this level can read for some node: 2" in text
    token = await hover_text(client, HIERA, "%{trusted.certname}", 3)
    assert "```yaml\nweb01.example.com\n```" in token


@pytest.mark.asyncio(loop_scope="module")
async def test_lookup_call_in_a_manifest_hovers_like_the_key(client: LanguageClient) -> None:
    text = await hover_text(client, BASE_PP, "'profile::base::timezone'", 3)
    assert "**`profile::base::timezone`** for `web01.example.com`" in text
    assert "```yaml\nUTC\n```" in text


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_range_counts_utf16_units_after_non_ascii_text(client: LanguageClient) -> None:
    # "Bienvenue sur l'hôte 🖥 %{facts.networking.hostname}": ô is one unit, 🖥 is two.
    start = position_of(COMMON, "%{facts.networking.hostname}")
    line = COMMON.read_text(encoding="utf-8").splitlines()[start.line]
    code_points = line.index("%{facts.networking.hostname}")
    assert start.character == code_points + 1  # the emoji before it is a surrogate pair
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(COMMON)),
            position=types.Position(line=start.line, character=start.character + 2),
        )
    )
    assert result is not None and result.range is not None
    assert result.range.start == start
    assert result.range.end == types.Position(
        line=start.line, character=start.character + len("%{facts.networking.hostname}")
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_no_hover_on_comments_and_blank_lines(client: LanguageClient) -> None:
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(COMMON)),
            position=types.Position(line=0, character=1),
        )
    )
    assert result is None


@pytest.mark.asyncio
async def test_a_client_without_markdown_gets_plain_text(fresh_client: LanguageClient) -> None:
    # eglot without markdown-mode asks for plain text: no ** or ``` to read around
    capabilities = client_capabilities("neovim@v0.7.0")
    assert capabilities.text_document is not None and capabilities.text_document.hover is not None
    capabilities.text_document.hover.content_format = [types.MarkupKind.PlainText]
    client = fresh_client
    await client.initialize_session(
        init_params(CONTROL_REPO, capabilities, {"hiera": {"factsProfile": "web01.example.com"}})
    )
    open_document(client, COMMON)
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(COMMON)),
            position=position_of(COMMON, "classes:", 1),
        )
    )
    assert result is not None and isinstance(result.contents, types.MarkupContent)
    assert result.contents.kind == types.MarkupKind.PlainText
    text = result.contents.value
    assert text.startswith("classes for web01.example.com\n")
    assert "    - role::web" in text and "data/roles/web.yaml:2" in text
    assert "**" not in text and "```" not in text and "](file:" not in text


@pytest.mark.asyncio
async def test_module_dirs_setting_chooses_puppets_modulepath_or_the_conventional_dirs(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    # site-modules/profile without environment.conf: Puppet does not read it
    root = _repo(tmp_path, None)
    module_data = Path(_module_data(root))
    client = fresh_client
    client.set_configuration({"factsProfile": "web01", "moduleDirs": "modulepath"}, section="hiera")
    await client.initialize_session(init_params(root, client_capabilities("visual_studio_code")))
    await wait_for_log(client, READY)
    open_document(client, module_data)
    params = types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri(module_data)),
        position=position_of(module_data, "profile::x", 1),
    )
    assert await client.text_document_hover_async(params) is None  # no level reads the file
    client.set_configuration(
        {"factsProfile": "web01", "moduleDirs": "conventional"}, section="hiera"
    )
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
    async with asyncio.timeout(WAIT_LIMIT_S):
        while (result := await client.text_document_hover_async(params)) is None:
            await asyncio.sleep(0.05)  # the server re-reads its settings in the background
    assert isinstance(result.contents, types.MarkupContent)
    assert "```yaml\nfrom site-modules\n```" in result.contents.value
    assert result.contents.value.count(NOTE) == 1
