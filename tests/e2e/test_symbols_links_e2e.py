"""Workspace symbols (every data key, with file and level) and document links (hiera.yaml
locations to the data files they read) over LSP."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from hiera_ls.features.workspace_symbols import MAX_SYMBOLS
from tests.e2e.conftest import (
    CONFIG,
    CONTROL_REPO,
    READY,
    init_params,
    line_of,
    uri,
    wait_for_log,
)

HIERA = CONTROL_REPO / "hiera.yaml"
COMMON = CONTROL_REPO / "data" / "common.yaml"


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        init_params(
            CONTROL_REPO,
            client_capabilities("visual_studio_code"),
            {"hiera": {"factsProfile": "web01.example.com"}},
        )
    )
    await wait_for_log(lsp_client, READY)
    yield
    await lsp_client.shutdown_session()


async def symbols(client: LanguageClient, query: str) -> list[types.SymbolInformation]:
    found = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=query))
    assert found is not None
    return [s for s in found if isinstance(s, types.SymbolInformation)]


def where(symbol: types.SymbolInformation) -> tuple[str, str, int, str | None]:
    path = Path(symbol.location.uri.removeprefix("file://")).relative_to(CONTROL_REPO)
    return symbol.name, path.as_posix(), symbol.location.range.start.line, symbol.container_name


@pytest.mark.asyncio(loop_scope="module")
async def test_workspace_symbols_name_file_and_level(client: LanguageClient):
    found = [where(s) for s in await symbols(client, "servers")]
    env = found[0][3].split("(")[1] if found else ""
    assert found == [
        (
            "ntp::servers",
            "data/common.yaml",
            COMMON.read_text(encoding="utf-8").splitlines().index("ntp::servers:"),
            f"Common data ({env}",
        ),
        ("ntp::servers", "data/datacenter/ams1.yaml", 1, f"Per-datacenter data ({env}"),
        ("ntp::servers", "data/datacenter/fra2.yaml", 1, f"Per-datacenter data ({env}"),
        ("ntp::servers", "modules/ntp/data/common.yaml", 1, f"common (module ntp, {env[:-1]})"),
        *[f for f in found[4:] if f[0] != "ntp::servers"],
    ]
    assert all(s.kind == types.SymbolKind.Key for s in await symbols(client, "servers"))
    # exact names first, then prefixes, substrings and subsequences
    names = [s.name for s in await symbols(client, "profile::base::domain")]
    assert names[0] == "profile::base::domain"
    fuzzy = [s.name for s in await symbols(client, "pbdomain")]
    assert "profile::base::domain" in fuzzy
    assert await symbols(client, "no-such-key-anywhere") == []
    assert "lookup_options" not in {s.name for s in await symbols(client, "lookup")}


@pytest.mark.asyncio(loop_scope="module")
async def test_document_links_follow_the_active_profile(client: LanguageClient):
    links = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=uri(HIERA)))
    )
    assert links is not None
    found = {
        link.range.start.line: (
            Path((link.target or "").removeprefix("file://")).relative_to(CONTROL_REPO).as_posix(),
            link.tooltip,
        )
        for link in links
    }
    assert found[line_of(HIERA, "nodes/%{trusted.certname}")] == (
        "data/nodes/web01.example.com.yaml",
        "Reads data/nodes/web01.example.com.yaml for profile web01.example.com",
    )
    assert found[line_of(HIERA, "mapped_paths")][0] == "data/datacenter/ams1.yaml"
    assert found[line_of(HIERA, '"os/%{facts.os.family}.yaml"')][0] == "data/os/Debian.yaml"
    assert found[line_of(HIERA, '"common.yaml"')][0] == "data/common.yaml"
    # a data file has no links
    none = await client.text_document_document_link_async(
        types.DocumentLinkParams(text_document=types.TextDocumentIdentifier(uri=uri(COMMON)))
    )
    assert not none


GLOB_HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: teams
    glob: "teams/*.yaml"
  - name: nothing
    path: "missing/%{facts.nope}.yaml"
"""


@pytest.fixture
def many(tmp_path: Path) -> Path:
    root = tmp_path / "production"
    (root / "data" / "teams").mkdir(parents=True)
    (root / "hiera.yaml").write_text(GLOB_HIERA, encoding="utf-8")
    for team in ("a", "b", "c"):
        keys = "".join(f"team_{team}::key_{i}: {i}\n" for i in range(300))
        (root / "data" / "teams" / f"{team}.yaml").write_text(keys, encoding="utf-8")
    return root


@pytest_lsp.fixture(config=CONFIG)
async def glob_client(lsp_client: LanguageClient, many: Path):
    await lsp_client.initialize_session(
        init_params(many, client_capabilities("visual_studio_code"))
    )
    await wait_for_log(lsp_client, READY)
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio
async def test_glob_links_to_the_first_file_and_counts_them_and_symbols_are_capped(
    glob_client: LanguageClient, many: Path
):
    links = await glob_client.text_document_document_link_async(
        types.DocumentLinkParams(
            text_document=types.TextDocumentIdentifier(uri=uri(many / "hiera.yaml"))
        )
    )
    assert links is not None and len(links) == 1  # the missing level reads no file: no link
    (link,) = links
    assert link.target == uri(many / "data" / "teams" / "a.yaml")
    assert link.tooltip == (
        "Reads 3 files for some node (no facts profile) (link: the first): "
        "data/teams/a.yaml, data/teams/b.yaml, data/teams/c.yaml"
    )
    found = await symbols(glob_client, "key")
    assert len(found) == MAX_SYMBOLS
    assert [s.name for s in found[:2]] == ["team_a::key_0", "team_a::key_1"]
    names = [s.name for s in await symbols(glob_client, "team_b::key_29")]
    assert names[0] == "team_b::key_29"  # exact, then the prefixes _290 ... _299
    assert all(n.startswith("team_b::key_29") for n in names[1:11])
    assert names[11] == "team_b::key_129"  # then subsequences
