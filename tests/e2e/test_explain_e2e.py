"""`hiera/explain`: the `puppet lookup --explain` text for the key under the cursor or a named
key.
"""

from __future__ import annotations

import pytest
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONTROL_REPO,
    READY,
    execute,
    init_params,
    open_document,
    position_of,
    request,
    uri,
    wait_for_log,
)

COMMON = CONTROL_REPO / "data" / "common.yaml"


@pytest.mark.asyncio
async def test_explain_the_key_under_the_cursor_and_a_named_key(
    fresh_client: LanguageClient,
) -> None:
    client = fresh_client
    await client.initialize_session(
        init_params(
            CONTROL_REPO,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    await wait_for_log(client, READY)
    open_document(client, COMMON)
    pos = position_of(COMMON, "profile::base::users:", 2)
    answer = await request(
        client,
        "hiera/explain",
        {"uri": uri(COMMON), "position": {"line": pos.line, "character": pos.character}},
    )
    assert answer["key"] == "profile::base::users"
    assert answer["profile"] == "web01.example.com"
    assert answer["found"] is True and answer["error"] is None
    text = answer["text"]
    assert text.startswith('Searching for "lookup_options"\n')
    assert (
        '\nUsing merge options from "lookup_options" hash\nSearching for "profile::base::users"\n'
        "  Merge strategy deep\n" in text
    )
    assert f'      Using configuration "{CONTROL_REPO}/hiera.yaml"' in text
    assert f'Path "{CONTROL_REPO}/data/nodes/web01.example.com.yaml"' in text
    assert 'Original path: "nodes/%{trusted.certname}.yaml"' in text

    named = await request(client, "hiera/explain", {"key": "ntp::service_name"})
    assert named["key"] == "ntp::service_name"
    assert (
        'Found key: "ntp::service_name" value: "ntpsec"' in named["text"]
    )  # data/os/Debian/12.yaml

    command = await execute(client, "hiera.explain", {"key": "nosuch::key"})
    assert command["found"] is False
    assert "Function lookup() did not find a value for the name 'nosuch::key'" in command["text"]
    assert (
        await request(
            client, "hiera/explain", {"uri": uri(COMMON), "position": {"line": 0, "character": 0}}
        )
        is None
    )
