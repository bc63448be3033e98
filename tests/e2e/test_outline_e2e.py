"""The outline (document symbols), folding ranges and selection ranges over LSP, on a data
file with nested keys, a list, an alias, comments and a character outside the BMP, and on a
hiera.yaml (which is not a data file)."""

from __future__ import annotations

from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

from tests.e2e.conftest import CONFIG, READY, init_params, open_document, uri, wait_for_log

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: common
    path: common.yaml
"""
COMMON = """\
# Site-wide defaults.
# Keep keys sorted.
profile::base::motd: "😀 welcome"
profile::base::users: &users
  alice:
    uid: 1001
    shell: /bin/zsh
  bob: {uid: 1002}
profile::base::admins: *users
ntp::servers:
  - 0.pool.ntp.org
  - 1.pool.ntp.org
"""


def rng(line: int, char: int, end_line: int, end_char: int) -> types.Range:
    return types.Range(
        start=types.Position(line=line, character=char),
        end=types.Position(line=end_line, character=end_char),
    )


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("outline") / "production"
    (root / "data").mkdir(parents=True)
    (root / "hiera.yaml").write_text(HIERA)
    (root / "data" / "common.yaml").write_text(COMMON, encoding="utf-8")
    return root


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, repo: Path):
    await lsp_client.initialize_session(
        init_params(repo, client_capabilities("visual_studio_code"))
    )
    await wait_for_log(lsp_client, READY)
    open_document(lsp_client, repo / "data" / "common.yaml")
    yield
    await lsp_client.shutdown_session()


def shape(symbols: list[types.DocumentSymbol]) -> list[object]:
    return [(s.name, s.kind, s.range, s.selection_range, shape(s.children or [])) for s in symbols]


@pytest.mark.asyncio(loop_scope="module")
async def test_document_symbols_are_the_nested_keys(client: LanguageClient, repo: Path) -> None:
    result = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(
            text_document=types.TextDocumentIdentifier(uri=uri(repo / "data" / "common.yaml"))
        )
    )
    assert result is not None
    symbols = [s for s in result if isinstance(s, types.DocumentSymbol)]
    kinds = types.SymbolKind
    assert shape(symbols) == [
        # the quoted "😀 welcome" is 11 code points, 12 UTF-16 units: it ends at 21 + 12
        ("profile::base::motd", kinds.String, rng(2, 0, 2, 33), rng(2, 0, 2, 19), []),
        (
            "profile::base::users",
            kinds.Object,
            rng(3, 0, 7, 18),
            rng(3, 0, 3, 20),
            [
                (
                    "alice",
                    kinds.Object,
                    rng(4, 2, 6, 19),
                    rng(4, 2, 4, 7),
                    [
                        ("uid", kinds.Number, rng(5, 4, 5, 13), rng(5, 4, 5, 7), []),
                        ("shell", kinds.String, rng(6, 4, 6, 19), rng(6, 4, 6, 9), []),
                    ],
                ),
                (
                    "bob",
                    kinds.Object,
                    rng(7, 2, 7, 18),
                    rng(7, 2, 7, 5),
                    [("uid", kinds.Number, rng(7, 8, 7, 17), rng(7, 8, 7, 11), [])],
                ),
            ],
        ),
        # the alias's entries are written at the anchor: the outline shows the key only
        ("profile::base::admins", kinds.Object, rng(8, 0, 8, 29), rng(8, 0, 8, 21), []),
        (
            "ntp::servers",
            kinds.Array,
            rng(9, 0, 11, 18),
            rng(9, 0, 9, 12),
            [
                ("[0]", kinds.String, rng(10, 4, 10, 18), rng(10, 4, 10, 18), []),
                ("[1]", kinds.String, rng(11, 4, 11, 18), rng(11, 4, 11, 18), []),
            ],
        ),
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_hiera_yaml_has_an_outline_too(client: LanguageClient, repo: Path) -> None:
    open_document(client, repo / "hiera.yaml")
    result = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(
            text_document=types.TextDocumentIdentifier(uri=uri(repo / "hiera.yaml"))
        )
    )
    assert result is not None
    symbols = [s for s in result if isinstance(s, types.DocumentSymbol)]
    assert [s.name for s in symbols] == ["version", "defaults", "hierarchy"]
    (level,) = symbols[2].children or []
    assert level.name == "[0]"
    assert [c.name for c in level.children or []] == ["name", "path"]


@pytest.mark.asyncio(loop_scope="module")
async def test_folding_ranges_cover_nested_values_and_comment_blocks(
    client: LanguageClient, repo: Path
) -> None:
    result = await client.text_document_folding_range_async(
        types.FoldingRangeParams(
            text_document=types.TextDocumentIdentifier(uri=uri(repo / "data" / "common.yaml"))
        )
    )
    assert result is not None
    assert sorted((r.start_line, r.end_line, r.kind) for r in result) == [
        (0, 1, types.FoldingRangeKind.Comment),
        (3, 7, None),
        (4, 6, None),
        (9, 11, None),
    ]


@pytest.mark.asyncio(loop_scope="module")
async def test_selection_ranges_grow_from_the_scalar_to_the_top_level_entry(
    client: LanguageClient, repo: Path
) -> None:
    shell_value = types.Position(line=6, character=12)
    outside = types.Position(line=0, character=3)
    result = await client.text_document_selection_range_async(
        types.SelectionRangeParams(
            text_document=types.TextDocumentIdentifier(uri=uri(repo / "data" / "common.yaml")),
            positions=[shell_value, outside],
        )
    )
    assert result is not None and len(result) == 2
    chain = []
    node: types.SelectionRange | None = result[0]
    while node is not None:
        chain.append(node.range)
        node = node.parent
    assert chain == [
        rng(6, 11, 6, 19),  # /bin/zsh
        rng(6, 4, 6, 19),  # shell: /bin/zsh
        rng(4, 2, 6, 19),  # alice: ...
        rng(3, 0, 7, 18),  # profile::base::users: ...
    ]
    assert result[1].range == rng(0, 3, 0, 3) and result[1].parent is None
