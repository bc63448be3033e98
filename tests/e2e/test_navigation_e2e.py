"""Go to definition and find references over LSP, on the control repository fixture."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONFIG,
    CONTROL_REPO,
    init_params,
    line_of,
    open_document,
    position_of,
    uri,
)

DATA = CONTROL_REPO / "data"
COMMON = DATA / "common.yaml"
WEB01 = DATA / "nodes" / "web01.example.com.yaml"
ROLE_WEB = DATA / "roles" / "web.yaml"
HIERA = CONTROL_REPO / "hiera.yaml"
FACTS = CONTROL_REPO / ".hiera-ls" / "facts" / "web01.example.com.yaml"
BASE_PP = CONTROL_REPO / "site-modules" / "profile" / "manifests" / "base.pp"
PROFILE_COMMON = CONTROL_REPO / "site-modules" / "profile" / "data" / "common.yaml"


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        init_params(
            CONTROL_REPO,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    open_document(lsp_client, COMMON)
    yield
    await lsp_client.shutdown_session()


def at(path: Path, needle: str, offset: int = 1) -> types.TextDocumentPositionParams:
    return types.TextDocumentPositionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(path)),
        position=position_of(path, needle, offset),
    )


async def definition(
    client: LanguageClient, path: Path, needle: str, offset: int = 1
) -> list[tuple[Path, int, int]]:
    p = at(path, needle, offset)
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=p.text_document, position=p.position)
    )
    assert isinstance(result, list)
    out = []
    for loc in result:
        assert isinstance(loc, types.Location)
        out.append(
            (Path(loc.uri.removeprefix("file://")), loc.range.start.line, loc.range.start.character)
        )
    return out


async def refs(
    client: LanguageClient, path: Path, needle: str, offset: int = 1, declaration: bool = False
) -> list[types.Location]:
    p = at(path, needle, offset)
    result = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=p.text_document,
            position=p.position,
            context=types.ReferenceContext(include_declaration=declaration),
        )
    )
    assert result is not None
    return list(result)


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_lookup_token_is_the_key_in_common(client: LanguageClient) -> None:
    found = await definition(client, ROLE_WEB, "%{lookup('profile::base::domain')}", 4)
    assert found == [(COMMON, line_of(COMMON, "profile::base::domain:"), 0)]


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_lookup_call_lists_the_winning_values_first(
    client: LanguageClient,
) -> None:
    found = await definition(client, BASE_PP, "'profile::base::packages'", 3)
    files = [f for f, _line, _col in found]
    # what web01 reads (unique merge: every level), in priority order, then the others
    assert files[:4] == [ROLE_WEB, DATA / "os" / "Debian.yaml", COMMON, PROFILE_COMMON]
    assert set(files[4:]) == {DATA / "roles" / "db.yaml", DATA / "os" / "RedHat.yaml"}


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_fact_token_is_the_fact_in_the_profile(
    client: LanguageClient,
) -> None:
    found = await definition(client, COMMON, "%{facts.os.release.full}", 3)
    assert found == [(FACTS, line_of(FACTS, "full:"), 4)]


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_hiera_yaml_path_is_the_data_file_for_the_node(
    client: LanguageClient,
) -> None:
    assert await definition(client, HIERA, "roles/%{facts.role}.yaml", 1) == [(ROLE_WEB, 0, 0)]
    assert await definition(client, HIERA, '"os/%{facts.os.family}.yaml"', 2) == [
        (DATA / "os" / "Debian.yaml", 0, 0)
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_data_key_is_the_same_key_in_other_levels(
    client: LanguageClient,
) -> None:
    # first the class parameter it sets
    ssh = CONTROL_REPO / "site-modules" / "profile" / "manifests" / "ssh.pp"
    found = await definition(client, WEB01, "profile::ssh::port")
    assert found == [
        (ssh, line_of(ssh, "Integer $port"), len("  Integer ")),
        (COMMON, line_of(COMMON, "profile::ssh::port:"), 0),
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_references_of_a_key_are_the_interpolations_using_it(client: LanguageClient) -> None:
    found = await refs(client, COMMON, "profile::base::domain:")
    got = sorted(
        (loc.uri, loc.range.start.line, loc.range.start.character, loc.range.end.character)
        for loc in found
    )
    admin = position_of(COMMON, "%{lookup('profile::base::domain')}")
    banner_line = line_of(COMMON, "profile::motd::banner")
    banner_text = COMMON.read_text(encoding="utf-8").splitlines()[banner_line]
    banner_cp = banner_text.index("%{lookup('profile::base::domain')}")
    banner_utf16 = len(banner_text[:banner_cp].encode("utf-16-le")) // 2
    assert banner_utf16 == banner_cp + 1  # after the emoji, UTF-16 counts one more
    width = len("%{lookup('profile::base::domain')}")
    vhost = position_of(ROLE_WEB, "%{lookup('profile::base::domain')}")
    assert got == sorted(
        [
            (uri(COMMON), admin.line, admin.character, admin.character + width),
            (uri(COMMON), banner_line, banner_utf16, banner_utf16 + width),
            (uri(ROLE_WEB), vhost.line, vhost.character, vhost.character + width),
        ]
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_references_with_declaration_and_from_a_token(client: LanguageClient) -> None:
    found = await refs(client, ROLE_WEB, "%{lookup('profile::base::domain')}", 4, declaration=True)
    assert (uri(COMMON), line_of(COMMON, "profile::base::domain:")) in [
        (loc.uri, loc.range.start.line) for loc in found
    ]
    assert len(found) == 4


@pytest.mark.asyncio(loop_scope="module")
async def test_references_of_an_alias_target_and_of_a_variable(client: LanguageClient) -> None:
    aliased = await refs(client, COMMON, "ntp::servers:")
    assert [(loc.uri, loc.range.start.line) for loc in aliased] == [
        (uri(COMMON), line_of(COMMON, "ntp::server_list"))
    ]
    variable = await refs(client, COMMON, "%{facts.os.name}", 3)
    assert [(loc.uri, loc.range.start.line) for loc in variable] == [
        (uri(COMMON), line_of(COMMON, "%{facts.os.name}"))
    ]
