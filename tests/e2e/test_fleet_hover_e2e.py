"""The hover spread and the key view over PuppetDB's nodes, over LSP: 2,000 nodes pulled from
a PuppetDB are grouped in the background, then a hover names what each group of nodes gets,
with counts and a few names, and the key view lists the fleet by answer."""

from __future__ import annotations

import os
import random
import re
import tempfile
from collections.abc import Iterator

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONTROL_REPO,
    READY,
    SERVER_COMMAND,
    hover_text,
    init_params,
    make_client,
    open_document,
    request,
    uri,
    wait_for_log,
)
from tests.fleet.fake_puppetdb import FakePuppetDB, good_row, serving

CACHE = tempfile.mkdtemp(prefix="hiera-ls-e2e-cache-")  # the server's XDG_CACHE_HOME
CONFIG = ClientServerConfig(
    server_command=SERVER_COMMAND,
    client_factory=make_client,
    server_env={**os.environ, "XDG_CACHE_HOME": CACHE},
)
NODES = 2000


def _rows() -> tuple[list[object], int]:
    """The fleet, and how many of its nodes have the role web."""
    rng = random.Random(26)
    rows: list[object] = []
    web = 0
    for i in range(NODES):
        role = rng.choice(["web", "db", "app"])
        web += role == "web"
        release = {"major": rng.choice(["11", "12"])}
        os_facts = {"family": rng.choice(["Debian", "RedHat"]), "release": release}
        facts = {"role": role, "os": os_facts, "datacenters": [rng.choice(["fra2", "ams1"])]}
        rows.append(good_row(f"node{i:04d}.example.com", **facts))
    return rows, web


ROWS, WEB = _rows()


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient):  # type: ignore[no-untyped-def]
    yield
    await lsp_client.shutdown_session()


@pytest.fixture
def fake() -> Iterator[FakePuppetDB]:
    with serving(FakePuppetDB(list(ROWS))) as server:
        yield server


@pytest.mark.asyncio
async def test_a_hover_over_2000_puppetdb_nodes_shows_what_each_group_gets(
    client: LanguageClient, fake: FakePuppetDB
) -> None:
    await client.initialize_session(
        init_params(
            CONTROL_REPO,
            client_capabilities("visual_studio_code"),
            {"hiera": {"puppetdb": {"url": fake.url}, "factsProfile": "web01.example.com"}},
        )
    )
    await wait_for_log(client, READY)
    await wait_for_log(client, f"{NODES} nodes as facts profiles")
    grouped = await wait_for_log(client, f"PuppetDB's {NODES} nodes in")
    groups = int(re.findall(r"in (\d+) groups", grouped)[0])
    assert 1 < groups <= 3 * 2 * 2 * 2  # role x OS family x release x datacenter, at most

    common = CONTROL_REPO / "data" / "common.yaml"
    open_document(client, common)
    text = await hover_text(client, common, "profile::ssh::settings:")
    lines = text.splitlines()
    total = NODES + 3  # the control repository's own three profiles besides
    assert "**Across 3 facts profiles and 2000 PuppetDB nodes:** 2 different answers" in lines
    answers = [line for line in lines if line.startswith("- ") and " of " in line]
    assert len(answers) == 2  # role web's X11Forwarding, and everyone else's
    counts = [int(re.findall(rf" — (\d+) of {total}: ", line)[0]) for line in answers]
    assert sum(counts) == total
    web_line = next(line for line in answers if '=>"yes"' in line)
    assert f" — {WEB + 1} of {total}: " in web_line  # web01.example.com is a web node too
    assert "(this profile)" in web_line
    for line in answers:  # a few names, then how many more
        assert len(re.findall(r"\.example\.com", line)) <= 3 and "more profiles" in line
    assert sum(fake.url in line for line in lines) == 1  # the source said once

    view = await request(
        client, "hiera/keyView", {"key": "profile::ssh::settings", "uri": uri(common)}
    )
    fleet = view["fleet"]
    assert fleet["grouped"] and fleet["nodes"] == NODES and fleet["source"] == fake.url
    assert sorted(g["nodes"] for g in fleet["groups"]) == sorted([WEB, NODES - WEB])
    assert all(len(g["examples"]) == 3 for g in fleet["groups"])
    assert len(view["profiles"]) == 3  # the workspace's own, one by one

    # an edit of a value: the next hover answers the fleet at once, the groups kept
    edited = common.read_text().replace('X11Forwarding: "no"', 'X11Forwarding: "never"')
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(common), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=edited)],
        )
    )
    text = await hover_text(client, common, "profile::ssh::settings:")
    never = next(line for line in text.splitlines() if '=>"never"' in line)
    assert f" — {NODES - WEB + 2} of {total}: " in never
    assert "being grouped" not in text
