"""The side view's request over LSP: ``hiera/keyView`` answers, for the key under the cursor,
every facts profile's value and the active profile's hierarchy level by level.

On the shipped example (examples/control-repo, three profiles), on the spread fixture (five
profiles, two of which fail a lookup), and on an eyaml repository (values masked unless
``hiera.eyaml.decryptInHover`` is on).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from hiera_ls.source.eyaml_crypto import encrypt, load_certificate
from tests.e2e.conftest import (
    CONFIG,
    CONTROL_REPO,
    FIXTURES,
    READY,
    init_params,
    open_document,
    position_of,
    request,
    uri,
    wait_for_log,
    wait_for_profile,
)
from tests.eyaml.support import PUBLIC, write_repo

COMMON = CONTROL_REPO / "data" / "common.yaml"
SPREAD = FIXTURES / "spread-repo"
KEY_VIEW = "hiera/keyView"


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        init_params(
            CONTROL_REPO,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    await wait_for_profile(lsp_client, "web01.example.com")
    open_document(lsp_client, COMMON)
    yield
    await lsp_client.shutdown_session()


async def view_at(client: LanguageClient, path: Path, needle: str) -> dict[str, Any]:
    here = position_of(path, needle, 1)
    answer = await request(
        client,
        KEY_VIEW,
        {"uri": uri(path), "position": {"line": here.line, "character": here.character}},
    )
    assert isinstance(answer, dict), f"no key view at {needle!r}"
    return answer


def levels(answer: dict[str, Any]) -> list[tuple[str, str, list[tuple[str, bool, bool, Any]]]]:
    """(level, layer, [(path, exists, holds key, value)]) for each level."""
    return [
        (
            level["name"],
            level["layer"],
            [(p["shown"], p["exists"], p["holds_key"], p["value"]) for p in level["paths"]],
        )
        for level in answer["hierarchy"]
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_every_profile_value_and_the_active_profiles_levels(client: LanguageClient) -> None:
    answer = await view_at(client, COMMON, "profile::ssh::port:")
    assert answer["key"] == "profile::ssh::port"
    assert answer["profile"] == "web01.example.com"
    assert [(p["name"], p["active"], p["value"], p["error"]) for p in answer["profiles"]] == [
        ("db01.example.com", False, "22", None),
        ("web01.example.com", True, "2222", None),
        ("debian11.example.com", False, "22", None),
    ]
    assert levels(answer) == [
        (
            "Per-node data",
            "environment",
            [("data/nodes/web01.example.com.yaml", True, True, "2222")],
        ),
        ("Per-role data", "environment", [("data/roles/web.yaml", True, False, None)]),
        ("Per-datacenter data", "environment", [("data/datacenter/ams1.yaml", True, False, None)]),
        (
            "Per-OS data",
            "environment",
            [
                ("data/os/Debian/12.yaml", True, False, None),
                ("data/os/Debian.yaml", True, False, None),
            ],
        ),
        ("Common data", "environment", [("data/common.yaml", True, True, "22")]),
        (
            "Profile OS family defaults",
            "module",
            [("site-modules/profile/data/os/Debian.yaml", False, False, None)],
        ),
        (
            "Profile defaults",
            "module",
            [("site-modules/profile/data/common.yaml", True, False, None)],
        ),
    ]
    node = answer["hierarchy"][0]["paths"][0]
    assert node["path"] == str(CONTROL_REPO / "data" / "nodes" / "web01.example.com.yaml")
    assert node["line"] == 1  # where the key is, for the view to open the file there
    assert answer["notes"] == []


@pytest.mark.asyncio(loop_scope="module")
async def test_a_key_of_another_module_lists_that_modules_levels(client: LanguageClient) -> None:
    answer = await view_at(client, COMMON, "ntp::servers:")
    module_levels = [(name, layer) for name, layer, _ in levels(answer) if layer == "module"]
    assert module_levels and all(layer == "module" for _, layer in module_levels)
    assert {level["module"] for level in answer["hierarchy"] if level["layer"] == "module"} == {
        "ntp"
    }
    values = {p["name"]: p["value"] for p in answer["profiles"]}
    assert values["web01.example.com"].startswith('["ntp1.ams1.example.com"')


@pytest.mark.asyncio(loop_scope="module")
async def test_a_named_key_and_a_place_without_a_key(client: LanguageClient) -> None:
    named = await request(client, KEY_VIEW, {"key": "profile::base::domain", "uri": uri(COMMON)})
    assert {p["value"] for p in named["profiles"]} == {'"example.com"'}
    empty = await request(
        client, KEY_VIEW, {"uri": uri(COMMON), "position": {"line": 0, "character": 0}}
    )
    assert empty is None
    assert await request(client, KEY_VIEW, {"uri": 42}) is None  # what does not fit is absent


@pytest.mark.asyncio
async def test_failing_and_missing_profiles_are_each_marked(
    fresh_client: LanguageClient,
) -> None:
    client = fresh_client
    await client.initialize_session(
        init_params(
            SPREAD,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "bare1.example.com"}},
        )
    )
    await wait_for_profile(client, "bare1.example.com")
    common = SPREAD / "data" / "common.yaml"
    open_document(client, common)
    motd = await view_at(client, common, "motd:")
    rows = {p["name"]: p for p in motd["profiles"]}
    assert len(rows) == 5
    assert rows["web01.example.com"]["value"] == '"Serving as web"'
    assert rows["bare1.example.com"]["active"] is True
    assert rows["bare1.example.com"]["value"] is None
    assert "Undefined variable '::role'" in rows["bare1.example.com"]["error"]
    # the level shows the value as written, and the role level resolves without a role
    assert levels(motd) == [
        ("Per-role data", "environment", [("data/roles/.yaml", False, False, None)]),
        (
            "Common data",
            "environment",
            [("data/common.yaml", True, True, '"Serving as %{::role}"')],
        ),
    ]
    port = await view_at(client, SPREAD / "data" / "roles" / "web.yaml", "port:")
    assert {p["name"]: p["value"] for p in port["profiles"]} == {
        "web01.example.com": "8080",
        "web02.example.com": "8080",
        "db01.example.com": "5432",
        "bare1.example.com": "80",
        "bare2.example.com": "80",
    }
    # an unsaved edit: the next answer reads the buffer (the cached answers were dropped)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(common), version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(
                    text=common.read_text(encoding="utf-8").replace("port: 80", "port: 81")
                )
            ],
        )
    )
    edited = await request(client, KEY_VIEW, {"key": "port", "uri": uri(common)})
    assert {p["name"]: p["value"] for p in edited["profiles"]}["bare1.example.com"] == "81"
    assert levels(edited)[-1] == (
        "Common data",
        "environment",
        [("data/common.yaml", True, True, "81")],
    )
    missing = await request(client, KEY_VIEW, {"key": "no::such::key", "uri": uri(common)})
    assert {(p["found"], p["value"], p["error"]) for p in missing["profiles"]} == {
        (False, None, None)
    }
    assert not any(p["holds_key"] for level in missing["hierarchy"] for p in level["paths"])


def eyaml_repo(tmp_path: Path) -> Path:
    root = write_repo(tmp_path / "repo", {".hiera-ls/facts/node1.yaml": "os:\n  family: Debian\n"})
    cert = load_certificate((root / "keys" / PUBLIC).read_bytes())
    (root / "data").mkdir(exist_ok=True)
    (root / "data" / "secrets.eyaml").write_text(f"---\ndb_password: {encrypt('s3cr3t-x', cert)}\n")
    (root / "data" / "team.eyaml").write_text("---\nteam: plain\n")
    (root / "data" / "common.yaml").write_text("---\ndb_password: not-a-secret\n")
    return root


@pytest.mark.parametrize("decrypt", [False, True])
@pytest.mark.asyncio
async def test_eyaml_values_are_masked_unless_decryption_in_hover_is_on(
    fresh_client: LanguageClient, tmp_path: Path, decrypt: bool
) -> None:
    client = fresh_client
    root = eyaml_repo(tmp_path)
    options = {"factsProfile": "node1", "eyaml": {"decryptInHover": decrypt}}
    await client.initialize_session(
        init_params(root, client_capabilities("visual_studio_code"), {"hiera": options})
    )
    await wait_for_log(client, READY)
    secrets = root / "data" / "secrets.eyaml"
    open_document(client, secrets)
    answer = await view_at(client, secrets, "db_password:")
    (profile,) = answer["profiles"]
    secret_level, _, common = answer["hierarchy"]
    assert profile["encrypted"] is True
    assert secret_level["paths"][0]["encrypted"] is True
    assert common["paths"][0] == {
        **common["paths"][0],
        "holds_key": True,
        "value": '"not-a-secret"',
        "encrypted": False,
    }
    for shown in (profile["value"], secret_level["paths"][0]["value"]):
        if decrypt:
            assert shown == '"s3cr3t-x"'
        else:
            assert "s3cr3t" not in shown
            assert shown.startswith('"ENC[PKCS7,')
    assert answer["notes"] == []


@pytest.mark.asyncio
async def test_without_facts_profiles_the_levels_are_the_node_without_facts(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    root = tmp_path / "repo"
    (root / "data" / "nodes").mkdir(parents=True)
    (root / "hiera.yaml").write_text(
        "version: 5\nhierarchy:\n"
        '  - name: Node\n    path: "nodes/%{trusted.certname}.yaml"\n'
        "  - name: Common\n    path: common.yaml\n"
    )
    common = root / "data" / "common.yaml"
    common.write_text("---\nkey: 1\n")
    await client.initialize_session(init_params(root, client_capabilities("visual_studio_code")))
    await wait_for_log(client, READY)
    open_document(client, common)
    answer = await view_at(client, common, "key:")
    assert answer["profile"] is None
    assert answer["profiles"] == []
    assert levels(answer) == [
        ("Node", "environment", [("data/nodes/localhost.yaml", False, False, None)]),
        ("Common", "environment", [("data/common.yaml", True, True, "1")]),
    ]
