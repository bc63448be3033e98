"""Rename a key over LSP: prepareRename, the workspace edit applied as a client applies it,
sent back with didChange and re-checked (the diagnostics are the ones before, names
aside; references are found by the new name), and every refusal's error."""

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
    CONTROL_REPO,
    READY,
    copy_repo,
    init_params,
    open_document,
    position_of,
    uri,
    wait_for_diagnostics,
    wait_for_log,
    wait_for_settled,
)
from tests.e2e.test_code_actions_e2e import apply, brief

REQUEST_FAILED = types.LSPErrorCodes.RequestFailed.value


def _doc(path: Path) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri(path))


async def prepare(
    client: LanguageClient, path: Path, needle: str, offset: int = 1
) -> types.PrepareRenamePlaceholder:
    answer = await client.text_document_prepare_rename_async(
        types.PrepareRenameParams(
            text_document=_doc(path), position=position_of(path, needle, offset)
        )
    )
    assert isinstance(answer, types.PrepareRenamePlaceholder)
    return answer


async def rename(
    client: LanguageClient, path: Path, needle: str, new: str, offset: int = 1
) -> dict[str, list[types.TextEdit]]:
    """uri -> the edits of the rename's documentChanges."""
    answer = await client.text_document_rename_async(
        types.RenameParams(
            text_document=_doc(path), position=position_of(path, needle, offset), new_name=new
        )
    )
    assert answer is not None and answer.document_changes is not None
    assert answer.changes is None
    out: dict[str, list[types.TextEdit]] = {}
    for change in answer.document_changes:
        assert isinstance(change, types.TextDocumentEdit)
        out[change.text_document.uri] = [e for e in change.edits if isinstance(e, types.TextEdit)]
    return out


async def refused(
    client: LanguageClient, path: Path, needle: str, new: str | None, offset: int = 1
) -> str:
    """The message of the RequestFailed error a refused prepareRename (new None) or rename
    answers with."""
    position = position_of(path, needle, offset)
    with pytest.raises(JsonRpcException) as caught:
        if new is None:
            await client.text_document_prepare_rename_async(
                types.PrepareRenameParams(text_document=_doc(path), position=position)
            )
        else:
            await client.text_document_rename_async(
                types.RenameParams(text_document=_doc(path), position=position, new_name=new)
            )
    assert caught.value.code == REQUEST_FAILED
    return caught.value.message


# ---------------------------------------------------------------- the control repository


@pytest_lsp.fixture(config=CONFIG)
async def control(lsp_client: LanguageClient, tmp_path: Path):
    repo = copy_repo(CONTROL_REPO, tmp_path)
    lsp_client.result = await lsp_client.initialize_session(  # type: ignore[attr-defined]
        init_params(
            repo,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    await wait_for_log(lsp_client, READY)
    lsp_client.repo = repo  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


def data_files(repo: Path) -> list[Path]:
    return sorted(
        p
        for p in repo.rglob("*")
        if p.suffix in (".yaml", ".json")
        and p.name != "hiera.yaml"
        and "data" in p.relative_to(repo).parts
        and ".hiera-ls" not in p.parts
    )


@pytest.mark.asyncio
async def test_rename_applied_and_rechecked_on_the_control_repo(control: LanguageClient):
    client = control
    repo: Path = client.repo  # type: ignore[attr-defined]
    common = repo / "data" / "common.yaml"
    web = repo / "data" / "roles" / "web.yaml"
    files = data_files(repo)
    before: dict[str, list[tuple[str, str]]] = {}
    for path in files:
        open_document(client, path)
    for path in files:  # each version's first publish is complete (diagnostics_scheduler)
        before[uri(path)] = brief(await wait_for_diagnostics(client, uri(path), 1))

    placeholder = await prepare(client, common, "profile::base::domain:")
    assert placeholder.placeholder == "profile::base::domain"
    assert placeholder.range.start == position_of(common, "profile::base::domain:", 0)
    # on a reference: the key's part of the token
    inside = await prepare(client, common, "lookup('profile::base::domain')", 10)
    assert inside.placeholder == "profile::base::domain"
    assert inside.range.start == position_of(common, "profile::base::domain')", 0)

    edits = await rename(client, common, "profile::base::domain:", "profile::base::fqdn")
    assert set(edits) == {uri(common), uri(web)}
    assert all(e.new_text == "profile::base::fqdn" for es in edits.values() for e in es)
    # the key, the lookup in admin_email, the lookup after the emoji in motd::banner
    assert len(edits[uri(common)]) == 3

    for path in (common, web):
        text = apply(path.read_text(encoding="utf-8"), edits[uri(path)])
        assert "profile::base::domain" not in text
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=2),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )
    new_text = apply(common.read_text(encoding="utf-8"), edits[uri(common)])
    assert (
        "Bienvenue sur l'hôte 🖥 %{facts.networking.hostname} (%{lookup('profile::base::fqdn')})"
        in (new_text)
    )

    def renamed(found: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return sorted(
            (c, m.replace("profile::base::domain", "profile::base::fqdn")) for c, m in found
        )

    for path in files:  # the edited files at version 2, the others as the run republishes
        want = renamed(before[uri(path)])
        version = 2 if path in (common, web) else None
        found_now = await wait_for_settled(
            client, uri(path), lambda d, want=want: brief(d) == want, version
        )
        assert brief(found_now) == want, path.name

    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=_doc(common),
            position=types.Position(line=placeholder.range.start.line, character=3),
            context=types.ReferenceContext(include_declaration=False),
        )
    )
    assert found is not None
    assert sorted({loc.uri for loc in found}) == sorted({uri(common), uri(web)})
    assert len(found) == 3


@pytest.mark.asyncio
async def test_refusals_on_the_control_repo(control: LanguageClient):
    client = control
    repo: Path = client.repo  # type: ignore[attr-defined]
    common = repo / "data" / "common.yaml"
    open_document(client, common)
    capabilities = client.result.capabilities  # type: ignore[attr-defined]
    assert capabilities.rename_provider == types.RenameOptions(prepare_provider=True)
    assert capabilities.workspace_symbol_provider
    assert capabilities.document_link_provider is not None
    assert "value" in await refused(client, common, "  - vim", None, 5)
    assert "lookup_options is Hiera's own key" in await refused(
        client, common, "lookup_options", None
    )
    assert "regex lookup_options pattern" in await refused(client, common, '"^profile::ssh', None)
    assert "lookup_options entry of 'classes'" in await refused(
        client, common, "    merge: unique", None, 5
    )
    entry = await prepare(client, common, "  ntp::servers:", 3)  # a literal entry: its key
    assert entry.placeholder == "ntp::servers"
    site = repo / "manifests" / "site.pp"
    assert "not a valid key" in await refused(client, common, "profile::ssh::port", "ssh port")
    assert "already a key in data/common.yaml line 16" in await refused(
        client, common, "profile::ssh::port", "classes"
    )
    message = await refused(client, common, "profile::ssh::settings:", "profile::ssh::config")
    assert "'^profile::ssh::(settings|options)$' in data/common.yaml line 11" in message
    assert "matches 'profile::ssh::settings' but not 'profile::ssh::config'" in message
    message = await refused(client, common, "profile::base::users:", "profile::ssh::options")
    assert "matches 'profile::ssh::options' but not 'profile::base::users'" in message
    message = await refused(client, common, "ntp::servers:", "chrony::servers")
    assert "module ntp's data (modules/ntp/data/common.yaml)" in message
    # from a lookup() call in a manifest: the key's characters in the string
    entry = await prepare(client, site, "lookup('classes'", 9)
    assert entry.placeholder == "classes"


# ---------------------------------------------------------------- quoting, JSON, sub keys

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: nodes
    glob: "nodes/*.yaml"
  - name: json nodes
    glob: "nodes/*.json"
    data_hash: json_data
  - name: common
    path: common.yaml
"""
MODULE_HIERA = """\
version: 5
hierarchy:
  - name: common
    path: common.yaml
"""
COMMON = textwrap.dedent(
    """\
    lookup_options:
      'app::port':
        merge: first
    'app::port': 8080
    app::host: "%{lookup('app::port')}:%{hiera('app::port')}"
    app::settings:
      tls: true
    app::tls: "%{lookup('app::settings.tls')}"
    app::copy: '%{alias("app::port")}'
    flag: 1
    flag_user: "%{lookup('flag')}"
    """
)
NODE_YAML = '"app::port": 1\n'
NODE_JSON = '{\n  "app::port": 9090,\n  "x": "%{lookup(\'app::port\')}"\n}\n'
MODULE_DATA = "app::port: 80\nother::port: 1\n"


@pytest.fixture
def small(tmp_path: Path) -> Path:
    root = tmp_path / "production"
    files = {
        "hiera.yaml": HIERA,
        "data/common.yaml": COMMON,
        "data/nodes/a.yaml": NODE_YAML,
        "data/nodes/b.json": NODE_JSON,
        "modules/app/hiera.yaml": MODULE_HIERA,
        "modules/app/data/common.yaml": MODULE_DATA,
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return root


@pytest_lsp.fixture(config=CONFIG)
async def fixture_client(lsp_client: LanguageClient, small: Path):
    await lsp_client.initialize_session(
        init_params(small, client_capabilities("visual_studio_code"))
    )
    await wait_for_log(lsp_client, READY)
    yield
    await lsp_client.shutdown_session()


def applied(root: Path, edits: dict[str, list[types.TextEdit]]) -> dict[str, str]:
    out: dict[str, str] = {}
    for doc, es in edits.items():
        path = Path(doc.removeprefix("file://"))
        out[path.relative_to(root).as_posix()] = apply(path.read_text(encoding="utf-8"), es)
    return out


@pytest.mark.asyncio
async def test_rename_keeps_quotes_renames_json_module_data_and_references(
    fixture_client: LanguageClient, small: Path
):
    lsp_client = fixture_client
    common = small / "data" / "common.yaml"
    open_document(lsp_client, common)
    texts = applied(small, await rename(lsp_client, common, "'app::port': 8080", "app::listen"))
    assert texts["data/common.yaml"] == COMMON.replace("app::port", "app::listen")
    assert texts["data/nodes/a.yaml"] == '"app::listen": 1\n'
    assert texts["data/nodes/b.json"] == NODE_JSON.replace("app::port", "app::listen")
    assert texts["modules/app/data/common.yaml"] == "app::listen: 80\nother::port: 1\n"


@pytest.mark.asyncio
async def test_sub_key_reference_renames_the_root_and_a_plain_key_is_quoted_when_needed(
    fixture_client: LanguageClient, small: Path
):
    lsp_client = fixture_client
    common = small / "data" / "common.yaml"
    open_document(lsp_client, common)
    texts = applied(
        small, await rename(lsp_client, common, "lookup('app::settings.tls')", "app::web", 10)
    )
    assert "app::web:\n  tls: true" in texts["data/common.yaml"]
    assert "app::tls: \"%{lookup('app::web.tls')}\"" in texts["data/common.yaml"]
    texts = applied(small, await rename(lsp_client, common, "flag: 1", "yes"))
    assert "\n'yes': 1\nflag_user: \"%{lookup('yes')}\"\n" in texts["data/common.yaml"]
    assert "module app" in await refused(lsp_client, common, "'app::port': 8080", "web::port")
    assert "lookup_options is Hiera's own key" in await refused(
        lsp_client, common, "flag: 1", "lookup_options"
    )
    module_data = small / "modules" / "app" / "data" / "common.yaml"
    open_document(lsp_client, module_data)
    assert "outside module app's namespace" in await refused(
        lsp_client, module_data, "other::port", "other::p"
    )
