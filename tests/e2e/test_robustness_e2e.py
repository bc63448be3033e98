"""The server never crashes on user data, and one failing feature never takes it down."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from hiera_ls.lsp.server import HieraLanguageServer, guard
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from tests.e2e.conftest import (
    CONTROL_REPO,
    READY,
    copy_repo,
    hover_text,
    init_params,
    open_document,
    request,
    uri,
    wait_for_diagnostics,
    wait_for_log,
)

HOSTILE = {
    "data/nodes/deep.yaml": "k: " + "[" * 3000 + "]" * 3000 + "\n",
    "data/nodes/binary.yaml": "\x00\x01\x02garbage: [\n\ufffd",
    "data/nodes/alias-bomb.yaml": "a: &a [x, x, x, x, x, x, x, x, x]\n"
    + "".join(
        f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, "
        f"*{chr(97 + i)}]\n"
        for i in range(8)
    ),
    "data/nodes/recursive.yaml": (
        "profile::r1: \"%{lookup('profile::r2')}\"\nprofile::r2: \"%{lookup('profile::r1')}\"\n"
    ),
    ".hiera-ls/facts/broken.json": '{"fqdn": "broken.example.com",',
}


async def everything_at(client: LanguageClient, path: Path, line: int, character: int) -> None:
    doc = types.TextDocumentIdentifier(uri=uri(path))
    pos = types.Position(line=line, character=character)
    await client.text_document_hover_async(types.HoverParams(text_document=doc, position=pos))
    await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=pos)
    )
    await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc,
            position=pos,
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    await request(
        client,
        "hiera/explain",
        {"uri": doc.uri, "position": {"line": line, "character": character}},
    )


@pytest.mark.asyncio
async def test_hostile_files_get_diagnostics_and_answers_not_crashes(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    repo = copy_repo(CONTROL_REPO, tmp_path)
    for rel, text in HOSTILE.items():
        (repo / rel).write_text(text, encoding="utf-8")
    (repo / "site-modules/profile/hiera.yaml").write_text(
        "version: [\n  - nope: {\n", encoding="utf-8"
    )
    await client.initialize_session(
        init_params(
            repo,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    await wait_for_log(client, READY)
    for rel in (*HOSTILE, "site-modules/profile/hiera.yaml"):
        path = repo / rel
        doc = open_document(client, path)
        await wait_for_diagnostics(client, doc, version=1)
        for line in range(2):
            for character in (0, 5):
                await everything_at(client, path, line, character)
    broken_hiera = await wait_for_diagnostics(
        client, uri(repo / "site-modules/profile/hiera.yaml"), version=1
    )
    assert broken_hiera and all(d.source == "hiera-ls" for d in broken_hiera)
    recursive = await wait_for_diagnostics(
        client, uri(repo / "data/nodes/recursive.yaml"), version=1
    )
    assert "reference-cycle" in {d.code for d in recursive}
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri="untitled:Untitled-1", language_id="yaml", version=1, text="a: %{\n"
            )
        )
    )
    await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri="untitled:Untitled-1"),
            position=types.Position(line=0, character=1),
        )
    )
    # still answering, and no feature had to be rescued by the error guard
    classes = await hover_text(client, repo / "data/common.yaml", "classes:")
    assert "```yaml\n- role::web\n- profile::base\n- profile::ssh\n```" in classes
    # the broken module hiera.yaml fails every lookup of that module's keys, in Puppet's words
    port = await hover_text(
        client, repo / "data/nodes/web01.example.com.yaml", "profile::ssh::port"
    )
    assert "**Puppet fails this lookup:**" in port
    assert [m.message for m in client.log_messages if "failed:" in m.message] == []
    facts = await wait_for_diagnostics(client, uri(repo / ".hiera-ls/facts/broken.json"), version=1)
    assert [d.code for d in facts] == ["json-syntax"]
    listed = await request(client, "hiera/listFactsProfiles")
    broken = [p for p in listed if p["path"].endswith("broken.json")]
    assert broken and broken[0]["error"]


def test_a_failing_feature_is_logged_and_answered_with_its_default() -> None:
    ls = HieraLanguageServer()
    logged: list[tuple[str, types.MessageType]] = []
    ls.log = lambda message, kind=types.MessageType.Info: logged.append((message, kind))  # type: ignore[method-assign]

    @guard("hover", lambda: None)
    async def hover(ls: HieraLanguageServer, params: object) -> str:
        raise ValueError("a bug met on some user's data")

    assert asyncio.run(hover(ls, object())) is None
    ((message, kind),) = logged
    assert kind == types.MessageType.Error
    assert message.startswith("hiera-ls: hover failed:\nTraceback")
    assert "ValueError: a bug met on some user's data" in message


def test_background_checks_give_up_when_an_edit_came_in() -> None:
    ls = HieraLanguageServer()
    ls.project = Workspace([str(CONTROL_REPO)], Settings(facts_profile="web01.example.com"))
    common = str(CONTROL_REPO / "data" / "common.yaml")
    snapshot = ls.project.snapshot()
    ls.diagnostics.data_changed()
    current = ls.diagnostics.changes
    assert ls.scheduler.full_checks(snapshot, current, [common]) == {common: []}
    ls.diagnostics.data_changed()  # an edit arrived while the worker ran
    assert ls.scheduler.full_checks(snapshot, current, [common]) == {}
