"""Inlay hints over LSP: what each %{...} expands to and what a key finally gets, for the
active facts profile, on the shipped example and on a small fixture; off by a setting, and
asked for again (workspace/inlayHint/refresh) when the profile or another file changes."""

from __future__ import annotations

import asyncio
from pathlib import Path

import attrs
import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONTROL_REPO,
    READY,
    WAIT_LIMIT_S,
    execute,
    init_params,
    line_of,
    open_document,
    position_of,
    uri,
    wait_for_log,
    wait_for_profile,
)

COMMON = CONTROL_REPO / "data" / "common.yaml"
NODE = CONTROL_REPO / "data" / "nodes" / "web01.example.com.yaml"
DB_ROLE = CONTROL_REPO / "data" / "roles" / "db.yaml"
WEB = {"hiera": {"factsProfile": "web01.example.com"}}


def capabilities() -> types.ClientCapabilities:
    """VS Code's, with inlay hints and their refresh (pytest-lsp's copy predates them)."""
    caps = client_capabilities("visual_studio_code")
    assert caps.workspace is not None and caps.text_document is not None
    return attrs.evolve(
        caps,
        workspace=attrs.evolve(
            caps.workspace,
            inlay_hint=types.InlayHintWorkspaceClientCapabilities(refresh_support=True),
        ),
        text_document=attrs.evolve(
            caps.text_document, inlay_hint=types.InlayHintClientCapabilities()
        ),
    )


async def start(
    client: LanguageClient, root: Path, options: dict[str, object], *paths: Path
) -> asyncio.Queue[None]:
    """Initialize (the client answers refresh requests), open ``paths``; the refreshes asked."""
    asked: asyncio.Queue[None] = client.inlay_refreshes  # type: ignore[attr-defined]
    await client.initialize_session(init_params(root, capabilities(), options))
    await wait_for_log(client, READY)
    for path in paths:
        open_document(client, path)
    return asked


async def hints(
    client: LanguageClient, path: Path, first: int = 0, last: int = 200
) -> list[types.InlayHint]:
    result = await client.text_document_inlay_hint_async(
        types.InlayHintParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            range=types.Range(
                start=types.Position(line=first, character=0),
                end=types.Position(line=last, character=0),
            ),
        )
    )
    return list(result or [])


def at(found: list[types.InlayHint], position: types.Position) -> list[str]:
    return [str(h.label) for h in found if h.position == position]


def end_of(path: Path, needle: str) -> types.Position:
    """The position just after ``needle`` (UTF-16 units, as the client counts)."""
    return position_of(path, needle, len(needle))


def end_of_line(path: Path, needle: str) -> types.Position:
    """The end of the line that starts with ``needle``."""
    line = position_of(path, needle).line
    text = path.read_text(encoding="utf-8").splitlines()[line].rstrip()
    return types.Position(line=line, character=len(text.encode("utf-16-le")) // 2)


@pytest.mark.asyncio
async def test_tokens_show_what_they_expand_to(fresh_client: LanguageClient) -> None:
    await start(fresh_client, CONTROL_REPO, WEB, COMMON)
    found = await hints(fresh_client, COMMON)
    # the motd line has "ô" and "🖥" before its tokens: positions count UTF-16 units
    assert at(found, end_of(COMMON, "%{facts.networking.hostname}")) == ["web01"]
    assert at(found, end_of(COMMON, "(%{lookup('profile::base::domain')}")) == ["example.com"]
    assert at(found, end_of(COMMON, "%{facts.os.release.full}")) == ["12.5"]
    # alias keeps the type: the value, shortened
    (alias,) = at(found, end_of(COMMON, "%{alias('ntp::servers')}"))
    assert alias.startswith('["ntp1.ams1.example.com", "0.pool') and alias.endswith("…")
    assert all(h.padding_left for h in found)


@pytest.mark.asyncio
async def test_a_key_another_level_overrides_says_where_the_value_comes_from(
    fresh_client: LanguageClient,
) -> None:
    await start(fresh_client, CONTROL_REPO, WEB, COMMON, NODE)
    found = await hints(fresh_client, COMMON)
    assert at(found, end_of(COMMON, "profile::ssh::port: 22")) == [
        "= 2222 from data/nodes/web01.example.com.yaml"
    ]
    # merged: the node gets more than this file says (a block value: at the key's line end)
    (users,) = at(found, end_of_line(COMMON, "profile::base::users:"))
    assert users.startswith('= {"alice"=>') and users.endswith(" merged")
    tooltip = next(h.tooltip for h in found if str(h.label) == users)
    assert tooltip is not None and tooltip.startswith(
        'Merged from data/nodes/web01.example.com.yaml, data/common.yaml: {"alice"=>'
    )
    # the winning file's own value is what the node gets: no hint there
    node_hints = await hints(fresh_client, NODE)
    assert at(node_hints, end_of(NODE, "profile::ssh::port: 2222")) == []
    # keys this file wins outright have none either
    assert at(found, end_of(COMMON, "profile::base::domain: example.com")) == []


@pytest.mark.asyncio
async def test_only_the_asked_lines_get_hints(fresh_client: LanguageClient) -> None:
    await start(fresh_client, CONTROL_REPO, WEB, COMMON)
    port = line_of(COMMON, "profile::ssh::port")
    found = await hints(fresh_client, COMMON, port, port)
    assert [str(h.label) for h in found] == ["= 2222 from data/nodes/web01.example.com.yaml"]


@pytest.mark.asyncio
async def test_no_hints_without_a_profile_when_off_or_in_a_file_the_node_does_not_read(
    fresh_client: LanguageClient,
) -> None:
    await start(fresh_client, CONTROL_REPO, {}, COMMON, DB_ROLE)
    assert await hints(fresh_client, COMMON) == []
    await execute(fresh_client, "hiera.selectFactsProfile", "web01.example.com")
    await wait_for_profile(fresh_client, "web01.example.com")
    assert await hints(fresh_client, COMMON) != []
    assert await hints(fresh_client, DB_ROLE) == []  # roles/db.yaml: web01's role is web
    fresh_client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"hiera": {"inlayHints": {"enabled": False}}})
    )
    for _ in range(100):  # the settings are applied in the order the messages come
        if await hints(fresh_client, COMMON) == []:
            break
    assert await hints(fresh_client, COMMON) == []


@pytest.mark.asyncio
async def test_the_setting_off_from_the_start(fresh_client: LanguageClient) -> None:
    options = {"hiera": {"factsProfile": "web01.example.com", "inlayHints.enabled": False}}
    await start(fresh_client, CONTROL_REPO, options, COMMON)
    assert await hints(fresh_client, COMMON) == []


@pytest.mark.asyncio
async def test_a_new_profile_asks_the_client_again(fresh_client: LanguageClient) -> None:
    asked = await start(fresh_client, CONTROL_REPO, WEB, COMMON)
    assert await hints(fresh_client, COMMON) != []
    while not asked.empty():
        asked.get_nowait()
    await execute(fresh_client, "hiera.selectFactsProfile", "db01.example.com")
    await asyncio.wait_for(asked.get(), WAIT_LIMIT_S)
    found = await hints(fresh_client, COMMON)
    assert at(found, end_of(COMMON, "%{facts.networking.hostname}")) == ["db01"]
    assert at(found, end_of(COMMON, "profile::ssh::port: 22")) == []


HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: node
    path: "nodes/%{trusted.certname}.yaml"
  - name: common
    path: common.yaml
"""
FIXTURE_COMMON = """\
greeting: "hi %{facts.networking.hostname}"
missing: "x%{lookup('no::such::key')}"
broken: "%{nosuch('x')}"
unset: "%{nosuch_variable}"
kept: "%{literal('%')}"
port: 80
empty: ""
found_empty: "x%{lookup('empty')}"
half_typed: "x%{lookup('no::such::ke}"
"""
FIXTURE_NODE = """\
port: 8080
"""
FACTS = """\
networking: {hostname: app01}
"""


@pytest.fixture
def fixture_repo(tmp_path: Path) -> Path:
    root = tmp_path / "production"
    (root / "data" / "nodes").mkdir(parents=True)
    (root / ".hiera-ls" / "facts").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HIERA)
    (root / "data" / "common.yaml").write_text(FIXTURE_COMMON)
    (root / "data" / "nodes" / "app01.example.com.yaml").write_text(FIXTURE_NODE)
    (root / ".hiera-ls" / "facts" / "app01.example.com.yaml").write_text(FACTS)
    return root


@pytest.mark.asyncio
async def test_failures_are_a_short_marker_with_the_error_in_the_tooltip(
    fresh_client: LanguageClient, fixture_repo: Path
) -> None:
    common = fixture_repo / "data" / "common.yaml"
    options = {"hiera": {"factsProfile": "app01.example.com"}}
    await start(fresh_client, fixture_repo, options, common)
    found = await hints(fresh_client, common)
    shown = {(h.position.line, h.position.character): (str(h.label), h.tooltip) for h in found}
    assert shown == {
        (0, 42): ("app01", None),
        (1, 37): (
            "'' (not found)",
            "'no::such::key' is not found for this node: Puppet writes '' here (a lookup "
            "inside interpolation defaults to '' instead of failing)",
        ),
        (2, 23): ("⚠ fails", "Puppet fails: Unknown interpolation method 'nosuch'"),
        (3, 26): (
            "⚠ undefined",
            "Undefined variable 'nosuch_variable': with strict_variables (Puppet 8's default) "
            "every lookup that reads this value fails",
        ),
        (5, 8): (
            "= 8080 from data/nodes/app01.example.com.yaml",
            "From data/nodes/app01.example.com.yaml: 8080",
        ),
        # a key found with an empty value is said apart from one not found
        (7, 33): ("''", None),
        # a key being typed whose token is not closed yet: Puppet fails on the whole string
        (8, 37): ("⚠ fails", "Puppet fails: Syntax error in string: %{lookup('no::such::ke}"),
    }


@pytest.mark.asyncio
async def test_an_edit_of_another_file_asks_the_client_again(
    fresh_client: LanguageClient, fixture_repo: Path
) -> None:
    common = fixture_repo / "data" / "common.yaml"
    node = fixture_repo / "data" / "nodes" / "app01.example.com.yaml"
    options = {"hiera": {"factsProfile": "app01.example.com"}}
    asked = await start(fresh_client, fixture_repo, options, common, node)
    assert "= 8080 from data/nodes/app01.example.com.yaml" in [
        str(h.label) for h in await hints(fresh_client, common)
    ]
    while not asked.empty():
        asked.get_nowait()
    fresh_client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(node), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="port: 9090\n")],
        )
    )
    await asyncio.wait_for(asked.get(), WAIT_LIMIT_S)
    assert "= 9090 from data/nodes/app01.example.com.yaml" in [
        str(h.label) for h in await hints(fresh_client, common)
    ]
