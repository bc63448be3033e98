"""YAML's own anchors and aliases over LSP: definition on ``*name`` jumps to its ``&name``,
references of an anchor list its aliases, rename renames the anchor and its aliases (and
refuses a name libyaml would not read), hover on an alias shows the anchored value."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONFIG,
    READY,
    hover_text,
    init_params,
    open_document,
    position_of,
    uri,
    wait_for_log,
)

HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
COMMON = textwrap.dedent(
    """\
    base::defaults: &defaults
      timeout: 30
      retries: 3
    profile::a::settings: *defaults
    profile::b::settings:
      <<: *defaults
      retries: 5
    base::ports: &ports [80, 443]
    other::ports: *ports
    redefined: &defaults {x: 1}
    later: *defaults
    """
)


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient, tmp_path: Path):
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    (tmp_path / "data" / "common.yaml").write_text(COMMON, encoding="utf-8")
    await lsp_client.initialize_session(
        init_params(tmp_path, client_capabilities("visual_studio_code"))
    )
    await wait_for_log(lsp_client, READY)
    open_document(lsp_client, tmp_path / "data" / "common.yaml")
    lsp_client.root = tmp_path  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def _common(client: LanguageClient) -> Path:
    return client.root / "data" / "common.yaml"  # type: ignore[attr-defined,no-any-return]


def _doc(path: Path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri(path))


def _span(location: types.Location) -> tuple[int, int, int]:
    r = location.range
    assert r.start.line == r.end.line
    return (r.start.line, r.start.character, r.end.character)


@pytest.mark.asyncio
async def test_definition_of_an_alias_is_its_anchor(client: LanguageClient) -> None:
    path = _common(client)
    for needle, anchor in (
        ("settings: *defaults", (0, 16, 25)),
        ("<<: *defaults", (0, 16, 25)),
        ("other::ports: *ports", (7, 13, 19)),
        ("later: *defaults", (9, 11, 20)),  # the anchor redefined before it
    ):
        offset = needle.index("*") + 2
        found = await client.text_document_definition_async(
            types.DefinitionParams(
                text_document=_doc(path), position=position_of(path, needle, offset)
            )
        )
        assert isinstance(found, list) and len(found) == 1, (needle, found)
        [where] = found
        assert isinstance(where, types.Location)
        assert where.uri == uri(path)
        assert _span(where) == anchor, needle


@pytest.mark.asyncio
async def test_references_of_an_anchor_are_its_aliases(client: LanguageClient) -> None:
    path = _common(client)
    for include, expected in (
        (False, [(3, 22, 31), (5, 6, 15)]),
        (True, [(0, 16, 25), (3, 22, 31), (5, 6, 15)]),
    ):
        found = await client.text_document_references_async(
            types.ReferenceParams(
                text_document=_doc(path),
                position=position_of(path, "&defaults", 3),
                context=types.ReferenceContext(include_declaration=include),
            )
        )
        assert found is not None
        assert sorted(_span(loc) for loc in found) == expected


@pytest.mark.asyncio
async def test_rename_renames_the_anchor_and_its_aliases(client: LanguageClient) -> None:
    path = _common(client)
    at = position_of(path, "profile::a::settings: *defaults", 25)
    prepared = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(text_document=_doc(path), position=at)
    )
    assert isinstance(prepared, types.PrepareRenamePlaceholder)
    assert prepared.placeholder == "defaults"
    assert (prepared.range.start.line, prepared.range.start.character) == (3, 23)
    answer = await client.text_document_rename_async(
        types.RenameParams(text_document=_doc(path), position=at, new_name="base")
    )
    assert answer is not None and answer.document_changes is not None
    [change] = answer.document_changes
    assert isinstance(change, types.TextDocumentEdit)
    edits = sorted(
        (e.range.start.line, e.range.start.character, e.range.end.character, e.new_text)
        for e in change.edits
    )
    # the anchor and its two aliases; the redefined anchor and its alias are left alone
    assert edits == [(0, 17, 25, "base"), (3, 23, 31, "base"), (5, 7, 15, "base")]
    with pytest.raises(JsonRpcException) as caught:
        await client.text_document_rename_async(
            types.RenameParams(text_document=_doc(path), position=at, new_name="a b")
        )
    assert "not a name libyaml reads" in caught.value.message
    with pytest.raises(JsonRpcException) as caught:
        await client.text_document_rename_async(
            types.RenameParams(text_document=_doc(path), position=at, new_name="ports")
        )
    assert "already" in caught.value.message


@pytest.mark.asyncio
async def test_hover_on_an_alias_shows_the_anchored_value(client: LanguageClient) -> None:
    path = _common(client)
    text = await hover_text(client, path, "other::ports: *ports", 16)
    assert "**YAML alias** `*ports` of the value anchored at line 8" in text
    assert "```yaml\n- 80\n- 443\n```" in text
    text = await hover_text(client, path, "<<: *defaults", 6)
    assert "```yaml\ntimeout: 30\nretries: 3\n```" in text
