"""Facts profiles over LSP: listing them, switching by command, request and settings."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONTROL_REPO,
    READY,
    execute,
    hover_text,
    init_params,
    open_document,
    request,
    wait_for_log,
    wait_for_profile,
)

COMMON = CONTROL_REPO / "data" / "common.yaml"
FACTS_DIR = CONTROL_REPO / ".hiera-ls" / "facts"


async def start(
    client: LanguageClient,
    options: dict[str, object] | None = None,
    capabilities: str = "visual_studio_code",
) -> None:
    await client.initialize_session(
        init_params(CONTROL_REPO, client_capabilities(capabilities), options)
    )
    await wait_for_log(client, READY)
    open_document(client, COMMON)


@pytest.mark.asyncio
async def test_list_profiles_names_every_profile_by_certname(fresh_client: LanguageClient) -> None:
    client = fresh_client
    await start(client, {"hiera": {"factsProfile": "web01.example.com"}})
    listed = await request(client, "hiera/listFactsProfiles")
    got = sorted((p["name"], p["path"], p["active"]) for p in listed)
    assert got == [
        ("db01.example.com", str(FACTS_DIR / "db01.json"), False),  # PuppetDB factset export
        (
            "debian11.example.com",
            str(CONTROL_REPO / "spec" / "factsets" / "Debian-11-64.json"),
            False,
        ),  # onceover
        ("web01.example.com", str(FACTS_DIR / "web01.example.com.yaml"), True),  # facter -y
    ]
    via_command = await execute(client, "hiera.listFactsProfiles")
    assert sorted(p["name"] for p in via_command) == [g[0] for g in got]


@pytest.mark.asyncio
async def test_select_profile_command_changes_hover_at_once(fresh_client: LanguageClient) -> None:
    client = fresh_client
    await start(client, {"hiera": {"factsProfile": "web01.example.com"}})
    before = await hover_text(client, COMMON, "profile::ssh::settings:")
    assert "X11Forwarding: 'yes'" in before  # web01 is a web node: roles/web.yaml
    answer = await execute(client, "hiera.selectFactsProfile", "db01.example.com")
    assert answer["active"] == "db01.example.com"
    after = await hover_text(client, COMMON, "profile::ssh::settings:")
    assert "for `db01.example.com`" in after
    assert "X11Forwarding: 'no'" in after
    listed = await request(client, "hiera/listFactsProfiles")
    assert [p["name"] for p in listed if p["active"]] == ["db01.example.com"]


@pytest.mark.asyncio
async def test_select_profile_request_and_clearing_it(fresh_client: LanguageClient) -> None:
    client = fresh_client
    await start(client)
    unresolved = await hover_text(client, COMMON, "profile::ssh::port:")
    assert (
        "_No facts profile selected: every definition, in the order Puppet searches them._"
        in unresolved
    )
    assert "1. Environment / Per-node data `nodes/%{trusted.certname}.yaml`" in unresolved
    assert "2. Environment / Common data `common.yaml`" in unresolved
    answer = await request(client, "hiera/selectFactsProfile", {"name": "web01.example.com"})
    assert answer["active"] == "web01.example.com"
    assert "```yaml\n2222\n```" in await hover_text(client, COMMON, "profile::ssh::port:")
    await execute(client, "hiera.selectFactsProfile", None)
    assert "_No facts profile selected" in await hover_text(client, COMMON, "profile::ssh::port:")


@pytest.mark.asyncio
async def test_settings_change_switches_profile(fresh_client: LanguageClient) -> None:
    client = fresh_client
    client.set_configuration({"factsProfile": "web01.example.com"}, section="hiera")
    await start(client)
    assert "for `web01.example.com`" in await hover_text(client, COMMON, "profile::ssh::port:")
    client.set_configuration({"factsProfile": "db01.example.com"}, section="hiera")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))
    await wait_for_profile(client, "db01.example.com")
    text = await hover_text(client, COMMON, "profile::ssh::port:")
    assert "for `db01.example.com`" in text
    assert "```yaml\n22\n```" in text


@pytest.mark.asyncio
async def test_pushed_settings_count_when_the_client_has_no_hiera_section(
    fresh_client: LanguageClient,
) -> None:
    # eglot with a flat .dir-locals.el: workspace/configuration answers null for "hiera"
    client = fresh_client
    await start(client)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"factsProfile": "db01.example.com"})
    )
    await wait_for_profile(client, "db01.example.com")
    assert "for `db01.example.com`" in await hover_text(client, COMMON, "profile::ssh::port:")


@pytest.mark.asyncio
async def test_settings_pushed_by_a_client_without_workspace_configuration(
    fresh_client: LanguageClient,
) -> None:
    client = fresh_client
    await start(client, capabilities="neovim@v0.7.0")
    assert "_No facts profile selected" in await hover_text(client, COMMON, "profile::ssh::port:")
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"hiera": {"factsProfile": "db01.example.com"}})
    )
    await wait_for_profile(client, "db01.example.com")
    assert "for `db01.example.com`" in await hover_text(client, COMMON, "profile::ssh::port:")


@pytest.mark.asyncio
async def test_facts_paths_setting_adds_profiles_and_unknown_names_are_reported(
    fresh_client: LanguageClient, tmp_path
) -> None:
    client = fresh_client
    extra = tmp_path / "app01.json"
    extra.write_text('{"fqdn": "app01.example.com", "role": "web", "os": {"family": "RedHat"}}')
    await start(client, {"hiera": {"factsPaths": [str(tmp_path)], "factsProfile": "nosuch"}})
    listed = await request(client, "hiera/listFactsProfiles")
    assert "app01.example.com" in [p["name"] for p in listed]
    assert not any(p["active"] for p in listed)
    messages = [m.message for m in client.log_messages]
    assert any("No facts profile named 'nosuch'" in m for m in messages)
    # shown to the user too, not only logged, and once
    await hover_text(client, COMMON, "profile::base::packages:")
    shown = [m.message for m in client.messages if "'nosuch'" in m.message]
    assert shown == [
        "hiera-ls: no facts profile named 'nosuch' (setting hiera.factsProfile): hovers show "
        "every definition instead of one node's value. Profiles: app01.example.com, "
        "db01.example.com, debian11.example.com, web01.example.com"
    ]
    await execute(client, "hiera.selectFactsProfile", "app01.example.com")
    text = await hover_text(client, COMMON, "profile::base::packages:")
    assert "for `app01.example.com`" in text and "- yum-utils" in text and "- nginx" in text


@pytest.mark.asyncio
async def test_workspace_folders_can_change(fresh_client: LanguageClient) -> None:
    client = fresh_client
    broken = CONTROL_REPO.parent / "broken-repo"
    await client.initialize_session(
        init_params(
            broken,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "db01.example.com"}},
        )
    )
    await wait_for_log(client, READY)
    client.workspace_did_change_workspace_folders(
        types.DidChangeWorkspaceFoldersParams(
            event=types.WorkspaceFoldersChangeEvent(
                added=[types.WorkspaceFolder(uri=CONTROL_REPO.as_uri(), name="control-repo")],
                removed=[types.WorkspaceFolder(uri=broken.as_uri(), name="broken-repo")],
            )
        )
    )
    await wait_for_profile(client, "db01.example.com")
    assert "for `db01.example.com`" in await hover_text(client, COMMON, "profile::ssh::port:")
