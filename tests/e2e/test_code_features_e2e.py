"""What the Puppet code adds to hover, definition, references, completion, rename and the
diagnostics of data keys, over LSP on the control repository (its site-modules classes)."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONFIG,
    CONTROL_REPO,
    hover_text,
    init_params,
    line_of,
    open_document,
    position_of,
    uri,
)

DATA = CONTROL_REPO / "data"
COMMON = DATA / "common.yaml"
WEB01 = DATA / "nodes" / "web01.example.com.yaml"
PROFILE = CONTROL_REPO / "site-modules" / "profile"
SSH_PP = PROFILE / "manifests" / "ssh.pp"
BASE_PP = PROFILE / "manifests" / "base.pp"
SITE_PP = CONTROL_REPO / "manifests" / "site.pp"
PROFILE_COMMON = PROFILE / "data" / "common.yaml"


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


def at(
    path: Path, needle: str, offset: int = 1
) -> tuple[types.TextDocumentIdentifier, types.Position]:
    return types.TextDocumentIdentifier(uri=uri(path)), position_of(path, needle, offset)


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_a_key_shows_the_class_parameter_once(client: LanguageClient):
    text = await hover_text(client, COMMON, "profile::ssh::port:")
    assert text.count("**Class parameter** `$port` of `profile::ssh`") == 1
    assert "- Type: `Integer`" in text
    assert "- Default: none: the class fails to compile without a value" in text
    assert "The port sshd listens on." in text
    line = line_of(SSH_PP, "Integer $port") + 1
    assert f"({SSH_PP.resolve().as_uri()}#L{line})" in text


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_names_the_code_that_looks_a_key_up(client: LanguageClient):
    text = await hover_text(client, COMMON, "classes:")
    line = line_of(SITE_PP, "lookup('classes'") + 1
    assert f"`lookup()` in [manifests/site.pp:{line}]" in text


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_a_key_jumps_to_the_parameter(client: LanguageClient):
    doc, pos = at(COMMON, "profile::ssh::port:")
    result = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc, position=pos)
    )
    assert isinstance(result, list) and result
    first = result[0]
    assert isinstance(first, types.Location)
    assert first.uri == uri(SSH_PP)
    assert first.range.start == position_of(SSH_PP, "$port")


@pytest.mark.asyncio(loop_scope="module")
async def test_references_of_a_key_include_lookup_calls_in_manifests(client: LanguageClient):
    doc, pos = at(PROFILE_COMMON, "profile::base::timezone:")
    result = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc,
            position=pos,
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert result is not None
    found = [(loc.uri, loc.range.start, loc.range.end) for loc in result]
    start = position_of(BASE_PP, "profile::base::timezone")
    end = types.Position(
        line=start.line, character=start.character + len("profile::base::timezone")
    )
    assert (uri(BASE_PP), start, end) in found


async def completion_labels(client: LanguageClient, path: Path, text: str, line: int, column: int):
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )
    answer = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            position=types.Position(line=line, character=column),
        )
    )
    assert isinstance(answer, types.CompletionList)
    return answer.items


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_offers_the_parameters_a_file_does_not_set_and_boolean_values(
    client: LanguageClient,
):
    original = WEB01.read_text(encoding="utf-8")
    open_document(client, WEB01)
    lines = len(original.splitlines())
    items = await completion_labels(client, WEB01, original + "profile::ssh::", lines, 14)
    assert [i.label for i in items][:1] == ["profile::ssh::settings"]  # port is set here
    assert items[0].detail == "Hash"
    assert "sshd_config options" in str(items[0].documentation)
    items = await completion_labels(client, WEB01, original + "ntp::iburst: ", lines, 13)
    assert [i.label for i in items] == ["true", "false"]
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri(WEB01)))
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_of_a_class_parameter_key_is_refused(client: LanguageClient):
    doc, pos = at(COMMON, "profile::ssh::port:")
    with pytest.raises(Exception, match=r"sets parameter \$port of class profile::ssh"):
        await client.text_document_rename_async(
            types.RenameParams(text_document=doc, position=pos, new_name="profile::ssh::listen")
        )


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_edits_lookup_calls_in_manifests(client: LanguageClient):
    doc, pos = at(COMMON, "classes:")
    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc, position=pos, new_name="node_classes")
    )
    assert edit is not None and edit.document_changes is not None
    site = [
        c
        for c in edit.document_changes
        if isinstance(c, types.TextDocumentEdit) and c.text_document.uri == uri(SITE_PP)
    ]
    assert len(site) == 1
    (change,) = site[0].edits
    assert change.new_text == "node_classes"
    assert change.range.start == position_of(SITE_PP, "classes'")


@pytest.mark.asyncio(loop_scope="module")
async def test_a_key_nothing_reads_is_a_greyed_out_hint(client: LanguageClient):
    debian = DATA / "os" / "Debian" / "12.yaml"
    text = debian.read_text(encoding="utf-8") + "forgotten_setting: 1\n"
    open_document(client, debian, text=text)
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri(debian)))
    )
    assert isinstance(
        report, types.RelatedFullDocumentDiagnosticReport | types.FullDocumentDiagnosticReport
    )
    (hint,) = [d for d in report.items if d.code == "key-unused"]
    assert hint.message.startswith("Nothing reads 'forgotten_setting'")
    assert list(hint.tags or ()) == [types.DiagnosticTag.Unnecessary]
    assert hint.severity == types.DiagnosticSeverity.Hint
    assert hint.range.start.line == len(text.splitlines()) - 1
