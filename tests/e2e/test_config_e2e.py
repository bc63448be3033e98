""".hiera-ls.yaml and suppression comments over LSP: what is published changes with them."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from tests.e2e.conftest import mark, open_document, uri, wait_for_diagnostics, wait_for_matching
from tests.e2e.test_diagnostics_e2e import change, start

HIERA = """\
version: 5
defaults: {datadir: data, data_hash: yaml_data}
hierarchy:
  - {name: common, path: common.yaml}
"""
COMMON = "enabled: yes\nmode: 0644\n"


def shown(diagnostics: list[types.Diagnostic]) -> list[tuple[str, int, int | None]]:
    return [(str(d.code), d.range.start.line, d.severity) for d in diagnostics]


W, INFO = types.DiagnosticSeverity.Warning, types.DiagnosticSeverity.Information


def whole(text: str, doc: str, version: int) -> types.DidChangeTextDocumentParams:
    return types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=doc, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
    )


@pytest.mark.asyncio
async def test_configuration_and_suppressions_change_what_is_published(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    client = fresh_client
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA)
    (tmp_path / "data/common.yaml").write_text(COMMON)
    config = tmp_path / ".hiera-ls.yaml"
    config.write_text("ignore: [yaml11-octal]\nseverity: {yaml11-boolean: warning}\n")
    await start(client, tmp_path)

    # a disabled code is not published, an overridden severity is
    common = tmp_path / "data/common.yaml"
    doc = open_document(client, common)
    assert shown(await wait_for_diagnostics(client, doc, version=1)) == [("yaml11-boolean", 0, W)]

    # editing .hiera-ls.yaml in the editor republishes the other open files, and its own
    # problems are published on it
    config_doc = open_document(client, config)
    assert await wait_for_diagnostics(client, config_doc, version=1) == []
    since = mark(client)
    client.text_document_did_change(whole("ignore: []\ncolour: red\n", config_doc, 2))
    (unknown,) = await wait_for_diagnostics(client, config_doc, version=2, after=since)
    assert unknown.code == "config-unknown-setting"
    assert unknown.range.start == types.Position(line=1, character=0)
    assert shown(await wait_for_matching(client, doc, lambda ds: len(ds) == 2)) == [
        ("yaml11-boolean", 0, INFO),
        ("yaml11-octal", 1, INFO),
    ]

    # a suppression comment removes the diagnostic; one that suppresses nothing is reported
    since = mark(client)
    change(client, doc, 2, (0, 12), (0, 12), "  # hiera-ls: disable-line=yaml11-boolean")
    assert shown(await wait_for_diagnostics(client, doc, version=2, after=since)) == [
        ("yaml11-octal", 1, INFO)
    ]
    since = mark(client)
    change(client, doc, 3, (1, 10), (1, 10), "  # hiera-ls: disable-line=yaml11-binary")
    unused = await wait_for_diagnostics(client, doc, version=3, after=since)
    assert shown(unused) == [("yaml11-octal", 1, INFO), ("suppression-unused", 1, W)]
    assert "yaml11-binary" in unused[1].message

    # the file changed on disk (the buffer closed): the server reloads it and republishes
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=config_doc))
    )
    config.write_text("ignore: [suppression-*, yaml11-*]\n")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=uri(config), type=types.FileChangeType.Changed)]
        )
    )
    assert await wait_for_matching(client, doc, lambda ds: ds == []) == []
