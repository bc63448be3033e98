"""Every data-file feature over LSP on a ``json_data`` level whose file nests hashes and
arrays: hover, definition, references, rename, completion, workspace symbols, diagnostics,
outline, folding, selection ranges, inlay hints and semantic tokens.

The JSON reader knows where a hash or an array ends only once it has read its children, and
once recorded them before their parent (the node table lists parents first, as the YAML
reader does): these tests pin what users see on the nested nodes of a JSON file."""

from __future__ import annotations

from pathlib import Path

import attrs
import pytest
import pytest_lsp
from lsprotocol import types
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
    wait_for_matching,
)

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: json_data
hierarchy:
  - name: common
    path: common.json
"""
COMMON = """\
{
  "profile::base::domain": "example.com",
  "profile::base::users": {
    "alice": {
      "uid": 1001,
      "home": "/home/%{lookup('profile::base::domain')}"
    },
    "bob": {"uid": 1002, "shell": "/bin/%{lookup('profile::base::shell')}"}
  },
  "profile::base::shell": "zsh",
  "ntp::servers": [
    "0.pool.ntp.org",
    {"host": "ntp.%{lookup('profile::base::domain')}", "tag": "%{nosuch('x')}"}
  ],
  "lookup_options": {
    "profile::base::users": {"merge": {"strategy": "deep", "nosuch_option": true}}
  }
}
"""
FACTS = """\
{
  "certname": "web01.example.com",
  "values": {"hostname": "web01", "fqdn": "web01.example.com"}
}
"""


def rng(line: int, char: int, end_line: int, end_char: int) -> types.Range:
    return types.Range(
        start=types.Position(line=line, character=char),
        end=types.Position(line=end_line, character=end_char),
    )


def capabilities() -> types.ClientCapabilities:
    """VS Code's, with inlay hints (pytest-lsp's copy predates them)."""
    caps = client_capabilities("visual_studio_code")
    assert caps.text_document is not None
    return attrs.evolve(
        caps,
        text_document=attrs.evolve(
            caps.text_document, inlay_hint=types.InlayHintClientCapabilities()
        ),
    )


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("jsondata") / "production"
    (root / "data").mkdir(parents=True)
    (root / ".hiera-ls" / "facts").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    (root / "data" / "common.json").write_text(COMMON, encoding="utf-8")
    (root / ".hiera-ls" / "facts" / "web01.json").write_text(FACTS, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def common(repo: Path) -> Path:
    return repo / "data" / "common.json"


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, repo: Path):
    await lsp_client.initialize_session(
        init_params(repo, capabilities(), {"hiera": {"factsProfile": "web01"}})
    )
    await wait_for_log(lsp_client, READY)
    open_document(lsp_client, repo / "data" / "common.json")
    yield
    await lsp_client.shutdown_session()


def doc(path: Path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri(path))


def line(needle: str) -> int:
    return next(n for n, text in enumerate(COMMON.splitlines()) if needle in text)


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_nested_keys_and_items(client: LanguageClient, common: Path) -> None:
    assert "profile::base::users.alice.uid" in await hover_text(client, common, '"uid": 1001')
    assert "profile::base::users.bob.shell" in await hover_text(client, common, '"shell"')
    assert "ntp::servers.1.host" in await hover_text(client, common, '"host"')


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_and_references_from_a_nested_value(
    client: LanguageClient, common: Path
) -> None:
    at = position_of(common, "profile::base::shell')", 3)
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=doc(common), position=at)
    )
    assert isinstance(found, list)
    assert [(f.uri, f.range.start.line) for f in found if isinstance(f, types.Location)] == [
        (uri(common), line('"profile::base::shell": "zsh"'))
    ]
    refs = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=doc(common),
            position=position_of(common, '"profile::base::domain"', 3),
            context=types.ReferenceContext(include_declaration=True),
        )
    )
    assert refs is not None
    assert sorted(r.range.start.line for r in refs) == [
        line('"profile::base::domain": "example.com"'),
        line('"home"'),
        line('"host"'),
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_rename_reaches_references_in_nested_values(
    client: LanguageClient, common: Path
) -> None:
    answer = await client.text_document_rename_async(
        types.RenameParams(
            text_document=doc(common),
            position=position_of(common, '"profile::base::domain"', 3),
            new_name="profile::base::site_domain",
        )
    )
    assert answer is not None
    edits = [
        (e.range.start.line, e.new_text)
        for change in answer.document_changes or []
        if isinstance(change, types.TextDocumentEdit)
        for e in change.edits
        if isinstance(e, types.TextEdit)
    ] or [(e.range.start.line, e.new_text) for e in (answer.changes or {}).get(uri(common), [])]
    assert sorted(edits) == [
        (line('"profile::base::domain": "example.com"'), '"profile::base::site_domain"'),
        (line('"home"'), "profile::base::site_domain"),
        (line('"host"'), "profile::base::site_domain"),
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_of_keys_inside_a_nested_lookup(
    client: LanguageClient, common: Path
) -> None:
    found = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=doc(common),
            position=position_of(common, "profile::base::shell')", len("profile::base::")),
        )
    )
    assert found is not None
    items = found.items if isinstance(found, types.CompletionList) else found
    labels = {i.label for i in items}
    assert {"profile::base::domain", "profile::base::users", "profile::base::shell"} <= labels


@pytest.mark.asyncio(loop_scope="module")
async def test_workspace_symbols_name_the_json_keys(client: LanguageClient) -> None:
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="profile"))
    assert found is not None
    assert sorted(
        (s.name, s.location.range.start.line)
        for s in found
        if isinstance(s, types.SymbolInformation)
    ) == [
        ("profile::base::domain", line('"profile::base::domain": "example.com"')),
        ("profile::base::shell", line('"profile::base::shell": "zsh"')),
        ("profile::base::users", line('"profile::base::users": {')),
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_diagnostics_sit_on_the_nested_node(client: LanguageClient, common: Path) -> None:
    def both(diagnostics: list[types.Diagnostic]) -> bool:
        text = " ".join(d.message for d in diagnostics)
        return "nosuch_option" in text and "nosuch" in text.replace("nosuch_option", "")

    found = await wait_for_matching(client, uri(common), both)
    lines = {d.range.start.line for d in found}
    assert line('"nosuch_option"') in lines
    assert line("%{nosuch('x')}") in lines
    option = next(d for d in found if d.code == "lookup-options-merge-options")
    assert option.range == rng(
        line('"nosuch_option"'),
        COMMON.splitlines()[line('"nosuch_option"')].index('"nosuch_option"'),
        line('"nosuch_option"'),
        COMMON.splitlines()[line('"nosuch_option"')].index('"nosuch_option"')
        + len('"nosuch_option"'),
    )


@pytest.mark.asyncio(loop_scope="module")
async def test_outline_folding_and_selection_of_nested_nodes(
    client: LanguageClient, common: Path
) -> None:
    result = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(text_document=doc(common))
    )
    assert result is not None
    symbols = [s for s in result if isinstance(s, types.DocumentSymbol)]

    def names(items: list[types.DocumentSymbol]) -> list[object]:
        return [(s.name, names(s.children or [])) for s in items]

    assert names(symbols) == [
        ("profile::base::domain", []),
        (
            "profile::base::users",
            [("alice", [("uid", []), ("home", [])]), ("bob", [("uid", []), ("shell", [])])],
        ),
        ("profile::base::shell", []),
        ("ntp::servers", [("[0]", []), ("[1]", [("host", []), ("tag", [])])]),
        (
            "lookup_options",
            [("profile::base::users", [("merge", [("strategy", []), ("nosuch_option", [])])])],
        ),
    ]
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(text_document=doc(common))
    )
    assert folds is not None
    spans = {(f.start_line, f.end_line) for f in folds}
    assert (line('"alice"'), line('"home"') + 1) in spans or (
        line('"alice"'),
        line('"home"'),
    ) in spans
    chain = await client.text_document_selection_range_async(
        types.SelectionRangeParams(
            text_document=doc(common), positions=[position_of(common, '"uid": 1001', 8)]
        )
    )
    assert chain
    depth = 0
    here: types.SelectionRange | None = chain[0]
    while here is not None:
        depth += 1
        here = here.parent
    assert depth >= 4  # 1001, "uid": 1001, alice's hash, users' hash ...


@pytest.mark.asyncio(loop_scope="module")
async def test_inlay_hints_and_semantic_tokens_in_nested_values(
    client: LanguageClient, common: Path
) -> None:
    result = await client.text_document_inlay_hint_async(
        types.InlayHintParams(text_document=doc(common), range=rng(0, 0, 40, 0))
    )
    labels = {(h.position.line, str(h.label)) for h in result or []}
    assert (line('"home"'), "example.com") in labels
    assert (line('"bob"'), "zsh") in labels
    assert (line('"host"'), "example.com") in labels
    tokens = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=doc(common))
    )
    assert tokens is not None
    lines_with_tokens: set[int] = set()
    at = 0
    for n in range(0, len(tokens.data), 5):
        at += tokens.data[n]
        lines_with_tokens.add(at)
    assert {line('"home"'), line('"bob"'), line('"host"')} <= lines_with_tokens
