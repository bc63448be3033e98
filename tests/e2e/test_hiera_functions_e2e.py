"""The hiera-function hint over LSP: a manifest the editor opens gets its hints and their
quick fixes, and nothing else from hiera-ls but the hover of a key the code looks up
(outline, folding, tokens, completion, lenses and inlay hints are Puppet's own language
server's); data gets the hint for ``%{hiera('k')}``."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import CONFIG, READY, init_params, uri, wait_for_diagnostics, wait_for_log
from tests.e2e.test_code_actions_e2e import actions_for, apply, edits_of

HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
COMMON = """\
lookup_options:
  merged: {merge: deep}
classes: [base]
merged: {a: 1}
motd: "hello from %{hiera('site')}"
site: example
"""
SITE = """\
node default {
  $motd = hiera('motd')
  $merged = hiera('merged')
  $servers = hiera_array('ntp::servers', [])
  hiera_include('classes')
}
"""


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hierafn") / "production"
    files = {
        "hiera.yaml": HIERA,
        "data/common.yaml": COMMON,
        "manifests/site.pp": SITE,
        "modules/base/manifests/init.pp": "class base {}\n",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, repo: Path):
    await lsp_client.initialize_session(
        init_params(repo, client_capabilities("visual_studio_code"))
    )
    await wait_for_log(lsp_client, READY)
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, language: str) -> str:
    doc = uri(path)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=doc, language_id=language, version=1, text=path.read_text(encoding="utf-8")
            )
        )
    )
    return doc


@pytest.mark.asyncio(loop_scope="module")
async def test_an_open_manifest_gets_a_hint_and_its_fix_per_hiera_call(
    client: LanguageClient, repo: Path
) -> None:
    doc = _open(client, repo / "manifests" / "site.pp", "puppet")
    found = await wait_for_diagnostics(client, doc, version=1)
    hints = [d for d in found if d.code == "hiera-function"]
    assert [(d.range.start.line, d.range.start.character) for d in hints] == [
        (1, 10),
        (2, 12),
        (3, 13),
        (4, 2),
    ]
    assert {d.severity for d in found} == {types.DiagnosticSeverity.Hint}
    assert "lookup('merged', {'merge' => 'first'}) gives the same value" in hints[1].message
    fixed = SITE
    for hint, new in zip(
        reversed(hints),
        [
            "lookup('classes', {'merge' => 'unique'}).include",
            "lookup('ntp::servers', {'merge' => 'unique', 'default_value' => []})",
            "lookup('merged', {'merge' => 'first'})",
            "lookup('motd')",
        ],
        strict=True,
    ):
        actions = await actions_for(client, doc, hint)
        assert actions[0].title == f"Replace with {new}"
        assert actions[0].is_preferred
        fixed = apply(fixed, edits_of(actions[0], doc))
    assert "hiera" not in fixed


@pytest.mark.asyncio(loop_scope="module")
async def test_hiera_ls_answers_nothing_else_on_a_manifest(
    client: LanguageClient, repo: Path
) -> None:
    doc = uri(repo / "manifests" / "site.pp")
    here = types.TextDocumentIdentifier(uri=doc)
    at = types.Position(line=1, character=4)  # on $motd, no key
    whole = types.Range(start=types.Position(line=0, character=0), end=at)
    assert not await client.text_document_hover_async(types.HoverParams(here, at))
    # a key the code looks up shows its value, as in every file
    key = types.Position(line=1, character=20)
    shown = await client.text_document_hover_async(types.HoverParams(here, key))
    assert shown is not None and "**`motd`**" in str(shown.contents)
    assert not await client.text_document_document_symbol_async(types.DocumentSymbolParams(here))
    assert not await client.text_document_folding_range_async(types.FoldingRangeParams(here))
    assert not await client.text_document_inlay_hint_async(types.InlayHintParams(here, whole))
    assert not await client.text_document_code_lens_async(types.CodeLensParams(here))
    assert not await client.text_document_document_link_async(types.DocumentLinkParams(here))
    tokens = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(here))
    assert tokens is None or not tokens.data
    completion = await client.text_document_completion_async(types.CompletionParams(here, at))
    items = completion.items if isinstance(completion, types.CompletionList) else completion
    assert not items


@pytest.mark.asyncio(loop_scope="module")
async def test_data_interpolating_hiera_gets_a_hint_and_the_fix_to_lookup(
    client: LanguageClient, repo: Path
) -> None:
    doc = _open(client, repo / "data" / "common.yaml", "yaml")
    found = await wait_for_diagnostics(client, doc, version=1)
    hints = [d for d in found if d.code == "hiera-function"]
    assert len(hints) == 1 and hints[0].range.start == types.Position(line=4, character=18)
    assert hints[0].severity == types.DiagnosticSeverity.Hint
    actions = await actions_for(client, doc, hints[0])
    assert actions[0].title == "Write %{lookup(...)}"
    fixed = apply(COMMON, edits_of(actions[0], doc))
    assert fixed == COMMON.replace("%{hiera('site')}", "%{lookup('site')}")
