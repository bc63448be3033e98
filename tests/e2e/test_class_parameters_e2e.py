"""Data against the Puppet code, over LSP, on the fixture control repository
(tests/fixtures/code-repo, copied: one test edits a manifest) with web01 active: each planted
finding on its key with Puppet's words, the "did you mean" quick fix, a .pp change re-judging the
open data, the profile findings named once, and the clean twin giving none."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONFIG,
    FIXTURES,
    READY,
    init_params,
    mark,
    open_document,
    uri,
    wait_for_diagnostics,
    wait_for_log,
    wait_for_matching,
)

WEB01 = "web01.example.com"


def classes(diagnostics: list[types.Diagnostic]) -> list[tuple[int, str, str]]:
    return sorted(
        (d.range.start.line, str(d.code), d.message)
        for d in diagnostics
        if str(d.code).startswith("class-")
    )


async def start(client: LanguageClient, root: Path) -> None:
    await client.initialize_session(
        init_params(
            root, client_capabilities("visual_studio_code"), {"hiera": {"factsProfile": WEB01}}
        )
    )
    await wait_for_log(client, READY)


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    target = tmp_path / "code-repo"
    shutil.copytree(FIXTURES / "code-repo", target)
    return target


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient):
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_each_finding_on_its_key_and_the_did_you_mean_fix(
    client: LanguageClient, repo: Path
) -> None:
    await start(client, repo)
    web = repo / "data" / "roles" / "web.yaml"
    doc = open_document(client, web)
    found = await wait_for_diagnostics(client, doc, version=1)
    assert classes(found) == [
        (
            3,
            "class-parameter-type-mismatch",
            f"[{WEB01}] Class[Profile::Web]: parameter 'port' expects a Profile::Port = "
            "Integer[1, 65535] value, got String (the value this node gets from this file)",
        ),
        (
            4,
            "class-parameter-unknown",
            "Class 'profile::web' has no parameter 'prot', and no code looks 'profile::web::prot' "
            "up: Puppet never reads this key. Did you mean 'port'?",
        ),
    ]
    unknown = next(d for d in found if d.code == "class-parameter-unknown")
    assert unknown.severity == types.DiagnosticSeverity.Warning
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=doc),
            range=unknown.range,
            context=types.CodeActionContext(diagnostics=[unknown]),
        )
    )
    actions = [a for a in result or [] if isinstance(a, types.CodeAction)]
    assert [a.title for a in actions] == [
        "Write profile::web::port",
        "Disable class-parameter-unknown on this line",
    ]
    assert actions[0].is_preferred
    assert actions[0].edit is not None and actions[0].edit.changes is not None
    [edit] = actions[0].edit.changes[doc]
    assert isinstance(edit, types.TextEdit)
    assert (edit.range.start.line, edit.new_text) == (4, "profile::web::port")

    # the class gains the parameter on disk: the open file is judged again
    since = mark(client)
    manifest = repo / "site-modules" / "profile" / "manifests" / "web.pp"
    docroot = "  String $docroot"
    manifest.write_text(manifest.read_text().replace(docroot, f"  Integer $prot = 1,\n{docroot}"))
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(manifest), type=types.FileChangeType.Changed)]
        )
    )
    again = await wait_for_matching(
        client, doc, lambda ds: not any(d.code == "class-parameter-unknown" for d in ds)
    )
    assert [code for _, code, _ in classes(again)] == ["class-parameter-type-mismatch"]
    assert mark(client) > since


@pytest.mark.asyncio
async def test_profile_findings_name_their_profiles(client: LanguageClient, repo: Path) -> None:
    await start(client, repo)
    db = repo / "data" / "roles" / "db.yaml"
    doc = open_document(client, db)
    found = await wait_for_matching(
        client, doc, lambda ds: any(d.code == "class-parameter-missing" for d in ds)
    )
    assert classes(found) == [
        (
            2,
            "class-parameter-missing",
            "[db01.example.com] Class 'profile::db' (included by 'role::db') has no default for "
            "parameter 'password' and no data gives 'profile::db::password' for this node: "
            "Puppet fails with \"Class[Profile::Db]: expects a value for parameter 'password'\"",
        )
    ]
    common = repo / "data" / "common.yaml"
    common_doc = open_document(client, common)
    found = await wait_for_diagnostics(client, common_doc, version=1)
    assert [(line, code) for line, code, _ in classes(found)] == [
        (12, "class-not-found"),
        (13, "class-parameter-of-define"),
        (14, "class-parameter-type-mismatch"),
    ]
    assert next(d for d in found if d.code == "class-parameter-type-mismatch").severity == (
        types.DiagnosticSeverity.Error
    )


@pytest.mark.asyncio
async def test_the_clean_twin_gives_no_finding(client: LanguageClient) -> None:
    root = FIXTURES / "code-repo-clean"
    await start(client, root)
    for rel in (
        "data/common.yaml",
        "data/roles/web.yaml",
        "data/roles/db.yaml",
        "data/nodes/web01.example.com.yaml",
    ):
        doc = open_document(client, root / rel)
        assert await wait_for_diagnostics(client, doc, version=1) == [], rel
