"""PuppetDB's nodes in the server's profile picker, over LSP: the user's PuppetDB is listed
and answers hovers as the chosen node; a repository's .hiera-ls.yaml alone never makes the
server connect; a PuppetDB that is down is said, not hidden."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONTROL_REPO,
    READY,
    SERVER_COMMAND,
    copy_repo,
    execute,
    hover_text,
    init_params,
    make_client,
    open_document,
    request,
    wait_for_log,
)
from tests.fleet.fake_puppetdb import FakePuppetDB, good_row, serving
from tests.puppetdb.service import free_port

CACHE = tempfile.mkdtemp(prefix="hiera-ls-e2e-cache-")  # the server's XDG_CACHE_HOME
CONFIG = ClientServerConfig(
    server_command=SERVER_COMMAND,
    client_factory=make_client,
    server_env={**os.environ, "XDG_CACHE_HOME": CACHE},
)
NODES = [
    good_row("pdb-db01.example.com", role="db"),
    good_row("pdb-web01.example.com", role="web"),
]


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def fake() -> Iterator[FakePuppetDB]:
    with serving(FakePuppetDB(list(NODES))) as server:
        yield server


async def start(client: LanguageClient, root: Path, settings: dict[str, object]) -> None:
    await client.initialize_session(
        init_params(root, client_capabilities("visual_studio_code"), {"hiera": settings})
    )
    await wait_for_log(client, READY)


@pytest.mark.asyncio
async def test_the_users_puppetdb_nodes_are_listed_and_answer_as_that_node(
    client: LanguageClient, fake: FakePuppetDB
) -> None:
    await start(client, CONTROL_REPO, {"puppetdb": {"url": fake.url}})
    said = await wait_for_log(client, "as facts profiles")
    assert said == (f"hiera-ls: PuppetDB {fake.url}: 2 nodes as facts profiles (2 new, 0 changed)")
    listed = await request(client, "hiera/listFactsProfiles")
    fleet = [p for p in listed if p["name"].startswith("pdb-")]
    assert [(p["name"], p["active"]) for p in fleet] == [
        ("pdb-db01.example.com", False),
        ("pdb-web01.example.com", False),
    ]
    assert all(p["path"].startswith(CACHE) for p in fleet)  # the user's cache, not the repo
    assert not (CONTROL_REPO / ".hiera-ls" / "facts" / "puppetdb").exists()
    common = CONTROL_REPO / "data" / "common.yaml"
    open_document(client, common)
    answer = await execute(client, "hiera.selectFactsProfile", "pdb-db01.example.com")
    assert answer["active"] == "pdb-db01.example.com"
    text = await hover_text(client, common, "profile::ssh::settings:")
    assert "for `pdb-db01.example.com`" in text and "X11Forwarding: 'no'" in text
    await execute(client, "hiera.selectFactsProfile", "pdb-web01.example.com")
    text = await hover_text(client, common, "profile::ssh::settings:")
    assert "X11Forwarding: 'yes'" in text  # roles/web.yaml, from the node's role fact


@pytest.mark.asyncio
async def test_a_repositorys_puppetdb_is_used_only_once_the_user_allows_its_url(
    client: LanguageClient, fake: FakePuppetDB, tmp_path: Path
) -> None:
    repo = copy_repo(CONTROL_REPO, tmp_path)
    (repo / ".hiera-ls.yaml").write_text(f"puppetdb:\n  url: {fake.url}\n")
    await start(client, repo, {})
    said = await wait_for_log(client, "only when you allow it")
    assert said == (
        f"hiera-ls: {repo / '.hiera-ls.yaml'} names PuppetDB at {fake.url}; hiera-ls "
        "connects to a URL a repository names only when you allow it "
        "(hiera.puppetdb.allowedUrls, or --puppetdb on the command line)"
    )
    await asyncio.sleep(0.5)
    listed = await request(client, "hiera/listFactsProfiles")
    assert not any(p["name"].startswith("pdb-") for p in listed)
    assert fake.requests == []  # no connection at all

    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(
            settings={"hiera": {"puppetdb": {"allowedUrls": [fake.url]}}}
        )
    )
    await wait_for_log(client, "as facts profiles")
    listed = await request(client, "hiera/listFactsProfiles")
    assert sum(p["name"].startswith("pdb-") for p in listed) == 2
    assert len(fake.requests) == 2  # the names, then their facts


@pytest.mark.asyncio
async def test_a_puppetdb_that_is_down_is_said_and_the_last_nodes_stay(
    client: LanguageClient, fake: FakePuppetDB
) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    await start(client, CONTROL_REPO, {"puppetdb": {"url": url}})
    said = await wait_for_log(client, "hiera-ls: PuppetDB")
    assert said == (
        f"hiera-ls: PuppetDB {url}/pdb/query/v4/inventory: cannot connect to "
        f"{url.removeprefix('http://')}: connection refused (is PuppetDB running there?); "
        "the picker lists none of its nodes"
    )
    listed = await request(client, "hiera/listFactsProfiles")
    assert not any(p["name"].startswith("pdb-") for p in listed)
