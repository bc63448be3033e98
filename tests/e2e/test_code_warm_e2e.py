"""Right after start-up the server reads the Puppet code in the background: a hover sent at
once answers (with the class parameter, or saying the code is still being read, never that
there is none), and a later one shows the class parameter; completion likewise."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from hiera_ls.features.hover import READING_CODE
from tests.e2e.conftest import WAIT_LIMIT_S, hover_text, init_params, open_document, uri

HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
COMMON = "profile::web::port: 8080\n"
WEB = "class profile::web (Integer $port = 80) {}\n"
PARAMETER = "**Class parameter** `$port` of `profile::web`"
FILLERS = 400  # more code files than a request waits for (NEARLY_BUILT_FILES)


def write_repo(root: Path) -> Path:
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    common = root / "data" / "common.yaml"
    common.write_text(COMMON, encoding="utf-8")
    manifests = root / "modules" / "profile" / "manifests"
    manifests.mkdir(parents=True)
    (manifests / "web.pp").write_text(WEB, encoding="utf-8")
    for i in range(FILLERS):
        (manifests / f"f{i}.pp").write_text(
            f"class profile::f{i} (String $name_{i} = 'x') {{\n  notice($name_{i})\n}}\n",
            encoding="utf-8",
        )
    return common


async def until(check: object, limit_s: float = WAIT_LIMIT_S) -> None:
    """Poll ``check`` (an async callable answering a bool); the limit is a safety net
    against a hung server, never a speed assertion."""
    loop = asyncio.get_running_loop()
    end = loop.time() + limit_s
    while not await check():  # type: ignore[operator]
        assert loop.time() < end, "the class parameter never showed"
        await asyncio.sleep(0.05)


@pytest.mark.asyncio
async def test_a_hover_right_after_start_up_answers_and_a_later_one_has_the_parameter(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    common = write_repo(tmp_path / "production")
    await fresh_client.initialize_session(
        init_params(common.parent.parent, client_capabilities("visual_studio_code"))
    )
    open_document(fresh_client, common)
    first = await hover_text(fresh_client, common, "profile::web::port:")
    assert "8080" in first
    assert (PARAMETER in first) != (READING_CODE in first)  # one or the other, said once

    async def shows_parameter() -> bool:
        text = await hover_text(fresh_client, common, "profile::web::port:")
        return PARAMETER in text and READING_CODE not in text

    await until(shows_parameter)


@pytest.mark.asyncio
async def test_completion_right_after_start_up_is_incomplete_or_has_the_parameters(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    common = write_repo(tmp_path / "production")
    await fresh_client.initialize_session(
        init_params(common.parent.parent, client_capabilities("visual_studio_code"))
    )
    open_document(fresh_client, common)
    fresh_client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(common), version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text=COMMON + "profile::f399::n")
            ],
        )
    )
    params = types.CompletionParams(
        text_document=types.TextDocumentIdentifier(uri=uri(common)),
        position=types.Position(line=1, character=16),
    )

    async def labels() -> tuple[bool, list[str]]:
        found = await fresh_client.text_document_completion_async(params)
        if found is None:
            return False, []
        assert isinstance(found, types.CompletionList)
        return found.is_incomplete, [i.label for i in found.items]

    incomplete, first = await labels()
    assert incomplete or "profile::f399::name_399" in first  # never an empty, final answer

    async def has_parameter() -> bool:
        return "profile::f399::name_399" in (await labels())[1]

    await until(has_parameter)
