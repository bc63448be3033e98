"""Completion and semantic tokens over LSP on the control repository example, as VS Code
and Neovim capabilities ask: keys in ``%{lookup('``, facts after ``%{facts.``, functions
after ``%{``, lookup_options strategies and options, hiera.yaml keys from the schema; the
pieces of each ``%{...}`` as semantic tokens, decoded."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import (
    CONFIG,
    CONTROL_REPO,
    READY,
    init_params,
    open_document,
    uri,
    wait_for_log,
)

COMMON = CONTROL_REPO / "data" / "common.yaml"
HIERA = CONTROL_REPO / "hiera.yaml"
ROLE_WEB = CONTROL_REPO / "data" / "roles" / "web.yaml"


@pytest_lsp.fixture(config=CONFIG, scope="module", params=["visual_studio_code", "neovim@v0.7.0"])
async def client(lsp_client: LanguageClient, request: pytest.FixtureRequest):
    result = await lsp_client.initialize_session(
        init_params(
            CONTROL_REPO,
            client_capabilities(request.param),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    lsp_client.server_capabilities = result.capabilities  # type: ignore[attr-defined]
    await wait_for_log(lsp_client, READY)
    yield
    await lsp_client.shutdown_session()


def edit(client: LanguageClient, path: Path, text: str, version: int) -> None:
    """The buffer now holds ``text`` (nothing is written to disk)."""
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def complete_at(
    client: LanguageClient, path: Path, text: str, version: int
) -> list[types.CompletionItem]:
    """Completion where ``§`` stands in ``text`` (the buffer gets ``text`` without it)."""
    before, _, after = text.partition("§")
    edit(client, path, before + after, version)
    line = before.count("\n")
    column = len(before.rsplit("\n", 1)[-1].encode("utf-16-le")) // 2
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            position=types.Position(line=line, character=column),
        )
    )
    if result is None:
        return []
    return result.items if isinstance(result, types.CompletionList) else list(result)


def by_label(items: list[types.CompletionItem]) -> dict[str, types.CompletionItem]:
    return {i.label: i for i in items}


def edit_range(item: types.CompletionItem) -> tuple[int, int, int]:
    te = item.text_edit
    assert isinstance(te, types.TextEdit)
    return te.range.start.line, te.range.start.character, te.range.end.character


@pytest.mark.asyncio(loop_scope="module")
async def test_server_advertises_completion_and_a_semantic_tokens_legend(
    client: LanguageClient,
) -> None:
    caps: types.ServerCapabilities = client.server_capabilities  # type: ignore[attr-defined]
    assert caps.completion_provider is not None
    assert "{" in (caps.completion_provider.trigger_characters or [])
    assert caps.completion_provider.resolve_provider
    tokens = caps.semantic_tokens_provider
    assert tokens is not None and tokens.full and tokens.range
    assert list(tokens.legend.token_types) == ["operator", "function", "variable", "parameter"]


@pytest.mark.asyncio(loop_scope="module")
async def test_keys_inside_lookup_replace_the_typed_part_and_resolve_to_the_profile_value(
    client: LanguageClient,
) -> None:
    original = COMMON.read_text(encoding="utf-8")
    open_document(client, COMMON)
    text = original + "é😀: \"%{lookup('profile::base::do§')}\"\n"
    items = await complete_at(client, COMMON, text, 2)
    found = by_label(items)
    assert "profile::base::domain" in found
    assert "profile::ssh::port" in found  # defined only in nodes/web01: every key of the env
    assert "lookup_options" not in found
    item = found["profile::base::domain"]
    line = original.count("\n")
    # "é😀: \"%{lookup('" is 16 UTF-16 units; the typed 'profile::base::do' is replaced
    assert edit_range(item) == (line, 16, 16 + len("profile::base::do"))
    assert item.kind == types.CompletionItemKind.Field
    resolved = await client.completion_item_resolve_async(item)
    assert resolved.detail == '"example.com"'
    # alias( and hiera( too, with double quotes
    items = await complete_at(client, COMMON, original + 'x: "%{alias("§")}"\n', 3)
    assert "profile::ssh::port" in by_label(items)
    items = await complete_at(client, COMMON, original + "x: \"%{hiera('§\n", 4)
    assert "classes" in by_label(items)
    # as VS Code leaves it inside a string: brace and parenthesis closed, the quote not
    items = await complete_at(client, COMMON, original + 'x: "%{lookup(\'cla§)}"\n', 5)
    item = by_label(items)["classes"]
    assert item.text_edit.new_text == "classes'"  # type: ignore[union-attr]
    assert edit_range(item) == (line, len("x: \"%{lookup('"), len("x: \"%{lookup('cla"))


@pytest.mark.asyncio(loop_scope="module")
async def test_fact_paths_level_by_level_with_values(client: LanguageClient) -> None:
    original = ROLE_WEB.read_text(encoding="utf-8")
    open_document(client, ROLE_WEB)
    items = await complete_at(client, ROLE_WEB, original + 'x: "%{facts.§}"\n', 2)
    found = by_label(items)
    assert found["role"].detail == '"web"'
    assert found["os"].text_edit.new_text == "os."  # type: ignore[union-attr]
    assert found["os"].command is not None  # asks again for the next level
    items = await complete_at(client, ROLE_WEB, original + 'x: "%{facts.os.re§}"\n', 3)
    found = by_label(items)
    assert set(found) == {"family", "name", "release"}
    line = original.count("\n")
    assert edit_range(found["family"]) == (line, len('x: "%{facts.os.'), len('x: "%{facts.os.re'))
    items = await complete_at(client, ROLE_WEB, original + 'x: "%{trusted.§}"\n', 4)
    assert by_label(items)["certname"].detail == '"web01.example.com"'
    items = await complete_at(client, ROLE_WEB, original + 'x: "%{::§}"\n', 5)
    found = by_label(items)
    assert found["kernel"].detail == '"Linux"'
    assert "facts" not in found
    # a legacy fact of the profile is no variable of a Puppet 8 node (the default target)
    assert "hostname" not in found and "networking" in found


@pytest.mark.asyncio(loop_scope="module")
async def test_functions_after_an_opening_brace(client: LanguageClient) -> None:
    original = ROLE_WEB.read_text(encoding="utf-8")
    open_document(client, ROLE_WEB, version=10)
    items = await complete_at(client, ROLE_WEB, original + 'x: "%{§}"\n', 11)
    found = by_label(items)
    assert {"lookup", "hiera", "alias", "literal", "scope", "facts.", "trusted.", "::"} <= set(
        found
    )
    assert found["lookup"].text_edit.new_text == "lookup('"  # type: ignore[union-attr]
    assert found["lookup"].kind == types.CompletionItemKind.Function


@pytest.mark.asyncio(loop_scope="module")
async def test_lookup_options_strategies_and_option_names(client: LanguageClient) -> None:
    original = COMMON.read_text(encoding="utf-8")
    open_document(client, COMMON, version=20)
    head = "lookup_options:\n  classes:\n"
    rest = original.split("    merge: unique\n", 1)[1]
    items = await complete_at(client, COMMON, head + "    merge: §\n" + rest, 21)
    assert [i.label for i in sorted(items, key=lambda i: i.sort_text or "")] == [
        "first",
        "unique",
        "hash",
        "deep",
    ]
    items = await complete_at(client, COMMON, head + "    §\n" + rest, 22)
    assert set(by_label(items)) == {"merge", "convert_to"}
    items = await complete_at(
        client, COMMON, head + "    merge:\n      strategy: deep\n      §\n" + rest, 23
    )
    assert {"knockout_prefix", "merge_hash_arrays", "sort_merged_arrays"} <= set(by_label(items))
    items = await complete_at(client, COMMON, head + "    merge:\n      strategy: d§\n" + rest, 24)
    deep = by_label(items)["deep"]
    assert edit_range(deep) == (3, len("      strategy: "), len("      strategy: d"))
    # an entry's name: the keys of the environment
    items = await complete_at(client, COMMON, "lookup_options:\n  profile::ssh::p§\n" + rest, 25)
    port = by_label(items)["profile::ssh::port"]
    assert port.text_edit.new_text == "profile::ssh::port:"  # type: ignore[union-attr]
    assert edit_range(port) == (1, 2, len("  profile::ssh::p"))
    # outside lookup_options, a top-level key: the class parameters the file does not set
    items = await complete_at(client, COMMON, original + "ntp::§\n", 26)
    assert list(by_label(items)) == ["ntp::config_file", "ntp::iburst", "ntp::service_name"]


@pytest.mark.asyncio(loop_scope="module")
async def test_hiera_yaml_keys_and_backends_from_the_schema(client: LanguageClient) -> None:
    original = HIERA.read_text(encoding="utf-8")
    open_document(client, HIERA)
    items = await complete_at(client, HIERA, original + "§\n", 2)
    assert {"version", "defaults", "hierarchy", "default_hierarchy"} <= set(by_label(items))
    items = await complete_at(client, HIERA, original + "  - name: x\n    §\n", 3)
    level = set(by_label(items))
    assert {"path", "paths", "glob", "mapped_paths", "data_hash", "lookup_key", "datadir"} <= level
    defaults = original.replace("  data_hash: yaml_data\n", "  data_hash: §\n")
    items = await complete_at(client, HIERA, defaults, 4)
    assert set(by_label(items)) == {"yaml_data", "json_data", "hocon_data"}
    items = await complete_at(client, HIERA, original.replace("  datadir: data\n", "  §\n"), 5)
    assert {"datadir", "options", "lookup_key"} <= set(by_label(items))
    assert "hierarchy" not in by_label(items)
    # interpolation in hiera.yaml: variables, but no functions (Puppet refuses them there)
    items = await complete_at(client, HIERA, original + '  - name: y\n    path: "%{§}"\n', 6)
    assert "facts." in by_label(items) and "lookup" not in by_label(items)


def decode(data: list[int], lines: list[str]) -> list[tuple[str, str]]:
    legend = ["operator", "function", "variable", "parameter"]
    out: list[tuple[str, str]] = []
    line = start = 0
    for i in range(0, len(data), 5):
        dl, ds, length, kind, _ = data[i : i + 5]
        line += dl
        start = start + ds if dl == 0 else ds
        units = lines[line].encode("utf-16-le")
        out.append((units[2 * start : 2 * (start + length)].decode("utf-16-le"), legend[kind]))
    return out


@pytest.mark.asyncio(loop_scope="module")
async def test_semantic_tokens_colour_each_part_of_an_interpolation(
    client: LanguageClient,
) -> None:
    text = (
        "---\n"
        "a: \"root@%{lookup('profile::base::domain')}\"\n"
        "# %{lookup('in_a_comment')}\n"
        "é😀: '%{facts.os.family}-%{::hostname}'\n"
        "c: '%{scope(\"fqdn\")}%{}'\n"
    )
    open_document(client, ROLE_WEB, version=30)
    edit(client, ROLE_WEB, text, 31)
    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri(ROLE_WEB)))
    )
    assert result is not None
    assert decode(result.data, text.split("\n")) == [
        ("%{", "operator"),
        ("lookup", "function"),
        ("profile::base::domain", "parameter"),
        ("}", "operator"),
        ("%{", "operator"),
        ("facts.os.family", "variable"),
        ("}", "operator"),
        ("%{", "operator"),
        ("::hostname", "variable"),
        ("}", "operator"),
        ("%{", "operator"),
        ("scope", "function"),
        ("fqdn", "variable"),
        ("}", "operator"),
        ("%{", "operator"),
        ("}", "operator"),
    ]
    ranged = await client.text_document_semantic_tokens_range_async(
        types.SemanticTokensRangeParams(
            text_document=types.TextDocumentIdentifier(uri=uri(ROLE_WEB)),
            range=types.Range(
                start=types.Position(line=3, character=0), end=types.Position(line=4, character=0)
            ),
        )
    )
    assert ranged is not None
    assert [t for t, _ in decode(ranged.data, text.split("\n"))][:2] == ["%{", "facts.os.family"]
    assert len(ranged.data) == 6 * 5


@pytest.mark.asyncio(loop_scope="module")
async def test_semantic_tokens_in_hiera_yaml_paths(client: LanguageClient) -> None:
    text = HIERA.read_text(encoding="utf-8")
    open_document(client, HIERA, version=40)
    edit(client, HIERA, text, 41)
    result = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=types.TextDocumentIdentifier(uri=uri(HIERA)))
    )
    assert result is not None
    variables = [t for t, kind in decode(result.data, text.split("\n")) if kind == "variable"]
    assert variables[:2] == ["trusted.certname", "facts.role"]
    assert "facts.os.release.major" in variables


@pytest.mark.asyncio
async def test_a_big_key_list_is_cut_to_what_matches_and_asked_again(
    fresh_client: LanguageClient, tmp_path: Path
) -> None:
    root = tmp_path / "production"
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text("version: 5\n")
    keys = [f"app::k{i:03d}" for i in range(250)] + [f"db::port{i}" for i in range(3)]
    common = root / "data" / "common.yaml"
    common.write_text("".join(f"{k}: {i}\n" for i, k in enumerate(keys)))
    await fresh_client.initialize_session(
        init_params(root, client_capabilities("visual_studio_code"))
    )
    await wait_for_log(fresh_client, READY)
    text = common.read_text() + "x: \"%{lookup('')}\"\n"
    open_document(fresh_client, common, text=text)
    line = len(keys)
    position = types.Position(line=line, character=len("x: \"%{lookup('"))
    result = await fresh_client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(common)), position=position
        )
    )
    assert isinstance(result, types.CompletionList)
    assert result.is_incomplete and len(result.items) == 100
    edit(fresh_client, common, text.replace("lookup('", "lookup('db::"), 2)
    position.character += len("db::")
    result = await fresh_client.text_document_completion_async(
        types.CompletionParams(
            text_document=types.TextDocumentIdentifier(uri=uri(common)), position=position
        )
    )
    assert isinstance(result, types.CompletionList)
    assert [i.label for i in result.items] == ["db::port0", "db::port1", "db::port2"]
