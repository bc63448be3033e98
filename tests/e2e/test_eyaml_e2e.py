"""eyaml over LSP: the encrypt and decrypt code actions, the read-only decrypted view, hover,
and the edit-in-place flow, against a repository with two eyaml levels (two key pairs)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Union

import pytest
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import LanguageClient, client_capabilities

from hiera_ls.lsp.protocol import from_namedtuples
from hiera_ls.source.eyaml_crypto import (
    KeyPair,
    decrypt_value,
    encrypt,
    load_certificate,
    load_private_key,
)
from hiera_ls.source.yaml_loader import load_yaml
from tests.e2e.conftest import (
    READY,
    execute,
    hover_text,
    init_params,
    open_document,
    position_of,
    request,
    uri,
    wait_for_log,
)
from tests.eyaml.support import PRIVATE, PUBLIC, write_repo

SECRET = "db-pässword-1"
TOKEN = "api-token-2"
TEAM = "team-secret-3"


def pair(directory: Path) -> KeyPair:
    return KeyPair(
        load_certificate((directory / PUBLIC).read_bytes()),
        load_private_key((directory / PRIVATE).read_bytes()),
    )


def make_repo(tmp_path: Path) -> Path:
    root = write_repo(tmp_path / "repo", {".hiera-ls/facts/node1.yaml": "os:\n  family: Debian\n"})
    main = pair(root / "keys").certificate
    team = pair(root / "team-keys").certificate
    block = encrypt(SECRET, main)
    block_lines = "\n".join("    " + block[i : i + 60] for i in range(0, len(block), 60))
    (root / "data").mkdir(exist_ok=True)
    (root / "data" / "secrets.eyaml").write_text(
        "---\n"
        f"db_password: >\n{block_lines}\n"
        f"api_token: {encrypt(TOKEN, main)}\n"
        "plain_value: to be encrypted\n"
        "flow: [first, second]\n"
    )
    (root / "data" / "team.eyaml").write_text(f"---\nteam_secret: {encrypt(TEAM, team)}\n")
    (root / "data" / "common.yaml").write_text("---\ncommon: 1\n")
    return root


def pos(path: Path, needle: str, offset: int = 1) -> dict[str, int]:
    p = position_of(path, needle, offset)
    return {"line": p.line, "character": p.character}


def apply(text: str, edits: list[dict[str, Any]]) -> str:
    """LSP TextEdits (ASCII text: UTF-16 columns are code points) applied to ``text``."""
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))

    def offset(p: dict[str, int]) -> int:
        return min(starts[min(p["line"], len(lines))] + p["character"], len(text))

    for edit in sorted(edits, key=lambda e: offset(e["range"]["start"]), reverse=True):
        a, b = offset(edit["range"]["start"]), offset(edit["range"]["end"])
        text = text[:a] + edit["newText"] + text[b:]
    return text


async def start(client: LanguageClient, root: Path, options: dict[str, Any] | None = None) -> None:
    await client.initialize_session(
        init_params(
            root,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "node1", **(options or {})}},
        )
    )
    await wait_for_log(client, READY)


def _command_or_action(obj: Any, _: Any) -> types.Command | types.CodeAction:
    """LSP tells a Command from a CodeAction by whether ``command`` is a string; the test
    client's converter guesses otherwise for an action that carries a command."""
    converter = default_converter()
    if isinstance(obj.get("command"), str):
        return converter.structure(obj, types.Command)
    return converter.structure(obj, types.CodeAction)


async def actions(client: LanguageClient, path: Path, at: dict[str, int]) -> list[dict[str, Any]]:
    client.protocol._converter.register_structure_hook(
        Union[types.Command, types.CodeAction],  # noqa: UP007 (the type lsprotocol registers)
        _command_or_action,
    )
    here = types.Position(line=at["line"], character=at["character"])
    found = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            range=types.Range(start=here, end=here),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    out = default_converter().unstructure(found or [])
    assert isinstance(out, list)
    return out


@pytest.mark.asyncio
async def test_encrypt_the_value_at_the_cursor_with_the_public_key_only(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    root = make_repo(tmp_path)
    keys = pair(root / "keys")
    (root / "keys" / PRIVATE).unlink()  # adding a secret needs no private key
    secrets = root / "data" / "secrets.eyaml"
    await start(fresh_client, root)
    open_document(fresh_client, secrets)
    found = await actions(fresh_client, secrets, pos(secrets, "to be encrypted", 3))
    assert [a["title"] for a in found] == [
        "Encrypt value with eyaml (public key of level 'Secrets')"
    ]
    edits = found[0]["edit"]["changes"][uri(secrets)]
    assert edits[0]["newText"].startswith(">\n  ENC[PKCS7,")
    assert all(len(line) <= 62 for line in edits[0]["newText"].splitlines())
    after = apply(secrets.read_text(), edits)
    value = load_yaml(str(secrets), after).value
    assert isinstance(value, dict)
    assert after.startswith(secrets.read_text().split("plain_value:")[0])  # nothing else moved
    assert "to be encrypted" not in after
    assert decrypt_value(value["plain_value"], [keys]).strip() == "to be encrypted"
    # inside [...] a block scalar cannot stand: the one-line form, quoted (its brackets)
    (flow,) = await actions(fresh_client, secrets, pos(secrets, "second", 2))
    (edit,) = flow["edit"]["changes"][uri(secrets)]
    assert edit["newText"].startswith('"ENC[PKCS7,') and "\n" not in edit["newText"]
    value = load_yaml(str(secrets), apply(secrets.read_text(), [edit])).value
    assert isinstance(value, dict)
    assert decrypt_value(value["flow"][1], [keys]) == "second"


@pytest.mark.asyncio
async def test_decrypt_to_a_read_only_view_only_when_asked(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    root = make_repo(tmp_path)
    secrets = root / "data" / "secrets.eyaml"
    team = root / "data" / "team.eyaml"
    await start(fresh_client, root)
    open_document(fresh_client, secrets)
    open_document(fresh_client, team)
    at = pos(secrets, "db_password", 2)
    found = await actions(fresh_client, secrets, at)
    assert [a["title"] for a in found] == ["Decrypt to a read-only view (key of level 'Secrets')"]
    command = found[0]["command"]
    assert command["command"] == "hiera.eyamlDecrypt"
    assert SECRET not in repr(found)  # the action only names the command
    shown = from_namedtuples(await execute(fresh_client, command["command"], *command["arguments"]))
    # a folded block ends with a newline, which Puppet's eyaml_lookup_key chomps: so does this
    assert shown == {"key": "db_password", "level": "Secrets", "text": SECRET, "error": None}
    # the other level's key pair opens the other file's values
    answer = await request(
        fresh_client, "hiera/eyamlDecrypt", {"uri": uri(team), "position": pos(team, "team_secret")}
    )
    assert answer["text"] == TEAM and answer["level"] == "Team secrets"


@pytest.mark.asyncio
async def test_without_a_readable_private_key_decrypt_is_offered_disabled(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    root = make_repo(tmp_path)
    (root / "team-keys" / PRIVATE).unlink()
    team = root / "data" / "team.eyaml"
    await start(fresh_client, root)
    open_document(fresh_client, team)
    found = await actions(fresh_client, team, pos(team, "team_secret"))
    assert len(found) == 1 and "not readable" in found[0]["disabled"]["reason"]
    answer = await request(
        fresh_client, "hiera/eyamlDecrypt", {"uri": uri(team), "position": pos(team, "team_secret")}
    )
    assert answer["text"] is None and "pkcs7_private_key" in answer["error"]


@pytest.mark.asyncio
async def test_hover_names_the_level_and_shows_plaintext_only_when_enabled(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    root = make_repo(tmp_path)
    secrets = root / "data" / "secrets.eyaml"
    await start(fresh_client, root, {"eyaml": {"decryptInHover": True}})
    open_document(fresh_client, secrets)
    text = await hover_text(fresh_client, secrets, "db_password")
    assert "encrypted (PKCS7, key of level `Secrets`)" in text
    assert SECRET in text and "hiera.eyaml.decryptInHover" in text


@pytest.mark.asyncio
async def test_hover_without_the_setting_never_decrypts(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    root = make_repo(tmp_path)
    secrets = root / "data" / "secrets.eyaml"
    await start(fresh_client, root)
    open_document(fresh_client, secrets)
    text = await hover_text(fresh_client, secrets, "db_password")
    assert "encrypted (PKCS7, key of level `Secrets`)" in text
    assert SECRET not in text


@pytest.mark.asyncio
async def test_edit_in_place_re_encrypts_only_what_changed(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    root = make_repo(tmp_path)
    secrets = root / "data" / "secrets.eyaml"
    original = secrets.read_text()
    await start(fresh_client, root)
    open_document(fresh_client, secrets)
    marked = await request(fresh_client, "hiera/eyamlEditText", {"uri": uri(secrets)})
    assert marked["error"] is None and marked["level"] == "Secrets"
    text = marked["text"]
    assert f"db_password: >\n    DEC(1)::PKCS7[{SECRET}]!\n" in text
    assert f"api_token: DEC(2)::PKCS7[{TOKEN}]!\n" in text
    assert "ENC[" not in text
    edited = text.replace(TOKEN, "rotated-token").replace(
        "plain_value: to be encrypted\n",
        "plain_value: to be encrypted\nnew_secret: >\n  DEC::PKCS7[brand new]!\n",
    )
    answer = await request(
        fresh_client, "hiera/eyamlReencrypt", {"uri": uri(secrets), "text": edited}
    )
    assert answer["error"] is None
    edits = answer["edits"]
    after = apply(original, edits)
    # the unchanged value keeps its exact ciphertext, lines and all; so does every other line
    db_block = original.split("api_token:")[0]
    assert after.startswith(db_block)
    assert "plain_value: to be encrypted\n" in after
    touched = {e["range"]["start"]["line"] for e in edits}
    assert touched and min(touched) >= db_block.count("\n")
    value = load_yaml(str(secrets), after).value
    assert isinstance(value, dict)
    keys = [pair(root / "keys")]
    assert decrypt_value(value["db_password"], keys).strip() == SECRET
    assert decrypt_value(value["api_token"], keys) == "rotated-token"
    assert decrypt_value(value["new_secret"], keys).strip() == "brand new"
    assert "  ENC[PKCS7," in after.split("new_secret: >\n")[1]  # block form kept
