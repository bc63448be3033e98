"""Helpers for end-to-end tests: `hiera-ls serve` in a subprocess, driven over LSP.

The test client records every publishDiagnostics notification (pytest-lsp keeps only the
latest per file, and a waiter can miss one that arrives in the same read as another), so
tests wait for "a publish for this file at this version" instead of sleeping.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from hiera_ls.lsp.protocol import from_namedtuples  # custom-request answers arrive as namedtuples

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
CONTROL_REPO = FIXTURES.parent.parent / "examples" / "control-repo"
BROKEN_REPO = FIXTURES / "broken-repo"
WAIT_LIMIT_S = 60.0  # a safety net against a hung server, never a speed assertion
SERVER_COMMAND = [sys.executable, "-m", "hiera_ls", "serve"]


def _record_diagnostics(ls: LanguageClient, params: types.PublishDiagnosticsParams) -> None:
    ls.diagnostics[params.uri] = params.diagnostics
    published: list[types.PublishDiagnosticsParams] = ls.published  # type: ignore[attr-defined]
    published.append(params)
    ls.published_event.set()  # type: ignore[attr-defined]


def _record_log(ls: LanguageClient, params: types.LogMessageParams) -> None:
    ls.log_messages.append(params)
    ls.published_event.set()  # type: ignore[attr-defined]


def _record_profile(ls: LanguageClient, params: Any) -> None:
    ls.active_profiles.append(from_namedtuples(params)["name"])  # type: ignore[attr-defined]
    ls.published_event.set()  # type: ignore[attr-defined]


def _register_capability(ls: LanguageClient, params: types.RegistrationParams) -> None:
    ls.registrations.extend(params.registrations)  # type: ignore[attr-defined]


def _record_lens_refresh(ls: LanguageClient, params: None) -> None:
    ls.lens_refreshes += 1  # type: ignore[attr-defined]


def _record_inlay_refresh(ls: LanguageClient, params: None) -> None:
    """The server may ask clients that said they can (Neovim 0.11) to ask for hints again."""
    ls.inlay_refreshes.put_nowait(None)  # type: ignore[attr-defined]


def make_client() -> LanguageClient:
    client = LanguageClient(converter_factory=default_converter)
    features = dict(DEFAULT_CLIENT_FEATURES)
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = _record_diagnostics
    features[types.CLIENT_REGISTER_CAPABILITY] = _register_capability
    features[types.WINDOW_LOG_MESSAGE] = _record_log
    features["hiera/activeFactsProfile"] = _record_profile
    features[types.WORKSPACE_CODE_LENS_REFRESH] = _record_lens_refresh
    features[types.WORKSPACE_INLAY_HINT_REFRESH] = _record_inlay_refresh
    register_lsp_features(client, features)
    client.published = []  # type: ignore[attr-defined]
    client.registrations = []  # type: ignore[attr-defined]
    client.active_profiles = []  # type: ignore[attr-defined]
    client.lens_refreshes = 0  # type: ignore[attr-defined]
    client.inlay_refreshes = asyncio.Queue()  # type: ignore[attr-defined]
    client.published_event = asyncio.Event()  # type: ignore[attr-defined]
    return client


CONFIG = ClientServerConfig(server_command=SERVER_COMMAND, client_factory=make_client)


def uri(path: Path) -> str:
    return path.resolve().as_uri()


async def wait_for_diagnostics(
    client: LanguageClient, doc_uri: str, version: int | None = None, after: int = 0
) -> list[types.Diagnostic]:
    """Diagnostics of the first publish for ``doc_uri`` (at ``version``) after index ``after``."""
    published: list[types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]
    event: asyncio.Event = client.published_event  # type: ignore[attr-defined]
    while True:
        for params in published[after:]:
            if params.uri == doc_uri and (version is None or params.version == version):
                return list(params.diagnostics)
        event.clear()
        await asyncio.wait_for(event.wait(), WAIT_LIMIT_S)


async def wait_for_settled(
    client: LanguageClient,
    doc_uri: str,
    wanted: Callable[[list[types.Diagnostic]], bool],
    version: int | None = None,
) -> list[types.Diagnostic]:
    """The diagnostics last published for ``doc_uri`` (at ``version``) once ``wanted`` holds
    for them: an edit's first publish carries the last cross-file findings until the
    background run replaces them. Gives up after WAIT_LIMIT_S with the last ones, for the
    caller's assertion to show."""
    published: list[types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]
    event: asyncio.Event = client.published_event  # type: ignore[attr-defined]
    deadline = asyncio.get_running_loop().time() + WAIT_LIMIT_S
    last: list[types.Diagnostic] = []
    while True:
        for params in reversed(published):
            if params.uri == doc_uri and (version is None or params.version == version):
                last = list(params.diagnostics)
                if wanted(last):
                    return last
                break
        left = deadline - asyncio.get_running_loop().time()
        if left <= 0:
            return last
        event.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), left)


async def wait_for_log(client: LanguageClient, needle: str) -> str:
    """The first window/logMessage containing ``needle`` (the server says it is ready)."""
    event: asyncio.Event = client.published_event  # type: ignore[attr-defined]
    while True:
        for params in client.log_messages:
            if needle in params.message:
                return params.message
        event.clear()
        await asyncio.wait_for(event.wait(), WAIT_LIMIT_S)


async def wait_for_profile(client: LanguageClient, name: str | None, after: int = 0) -> None:
    """Wait until the server announces ``name`` as the active profile (after index ``after``)."""
    event: asyncio.Event = client.published_event  # type: ignore[attr-defined]
    announced: list[str | None] = client.active_profiles  # type: ignore[attr-defined]
    while name not in announced[after:]:
        event.clear()
        await asyncio.wait_for(event.wait(), WAIT_LIMIT_S)


READY = "hiera-ls "  # the server's first log line, sent once settings are read


async def wait_for_matching(
    client: LanguageClient, doc_uri: str, predicate: Callable[[list[types.Diagnostic]], bool]
) -> list[types.Diagnostic]:
    """The first publish for ``doc_uri`` (already received or to come) that ``predicate``
    accepts.
    """
    published: list[types.PublishDiagnosticsParams] = client.published  # type: ignore[attr-defined]
    event: asyncio.Event = client.published_event  # type: ignore[attr-defined]
    seen = 0
    while True:
        for params in published[seen:]:
            if params.uri == doc_uri and predicate(list(params.diagnostics)):
                return list(params.diagnostics)
        seen = len(published)
        event.clear()
        await asyncio.wait_for(event.wait(), WAIT_LIMIT_S)


def mark(client: LanguageClient) -> int:
    """Index to pass as ``after`` so a wait only sees publishes from now on."""
    return len(client.published)  # type: ignore[attr-defined]


def open_document(
    client: LanguageClient, path: Path, version: int = 1, text: str | None = None
) -> str:
    doc_uri = uri(path)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=doc_uri,
                language_id="json" if path.suffix == ".json" else "yaml",
                version=version,
                text=path.read_text(encoding="utf-8") if text is None else text,
            )
        )
    )
    return doc_uri


def line_of(path: Path, needle: str) -> int:
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines()):
        if needle in line:
            return number
    raise AssertionError(f"{needle!r} not in {path}")


def position_of(path: Path, needle: str, offset: int = 0) -> types.Position:
    """The LSP position (UTF-16 units) of ``needle`` plus ``offset`` code points.

    A line that starts with ``needle`` wins over an earlier line that merely contains it.
    """
    lines = path.read_text(encoding="utf-8").splitlines()
    starting = [n for n, line in enumerate(lines) if line.startswith(needle)]
    order = starting + [n for n in range(len(lines)) if n not in starting]
    for number in order:
        line = lines[number]
        col = line.find(needle)
        if col >= 0:
            prefix = line[: col + offset]
            return types.Position(line=number, character=len(prefix.encode("utf-16-le")) // 2)
    raise AssertionError(f"{needle!r} not in {path}")


async def hover_text(client: LanguageClient, path: Path, needle: str, offset: int = 1) -> str:
    result = await client.text_document_hover_async(
        types.HoverParams(
            text_document=types.TextDocumentIdentifier(uri=uri(path)),
            position=position_of(path, needle, offset),
        )
    )
    assert result is not None, f"no hover on {needle!r}"
    contents = result.contents
    assert isinstance(contents, types.MarkupContent)
    return contents.value


def init_params(
    root: Path, capabilities: types.ClientCapabilities, options: dict[str, Any] | None = None
) -> types.InitializeParams:
    return types.InitializeParams(
        capabilities=capabilities,
        root_uri=uri(root),
        workspace_folders=[types.WorkspaceFolder(uri=uri(root), name=root.name)],
        initialization_options=options or {},
    )


def copy_repo(source: Path, tmp_path: Path) -> Path:
    target = tmp_path / source.name
    shutil.copytree(source, target)
    return target


@pytest.fixture
def nvim_capabilities() -> types.ClientCapabilities:
    return client_capabilities("neovim@v0.7.0")


@pytest_lsp.fixture(config=CONFIG)
async def fresh_client(lsp_client: LanguageClient):
    """A started server that each test initializes itself (its own root, options, capabilities)."""
    yield
    await lsp_client.shutdown_session()


async def execute(client: LanguageClient, command: str, *arguments: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments))
    )


async def request(client: LanguageClient, method: str, params: Any = None) -> Any:
    return from_namedtuples(
        await client.protocol.send_request_async(method, params if params is not None else {})
    )
