"""``initialize`` and ``initialized``: what the client can do, where the workspace is, and
the file watching the server asks for."""

from __future__ import annotations

import contextlib
import logging

from lsprotocol import types

from hiera_ls import __version__
from hiera_ls.features import lsp_ranges
from hiera_ls.lsp.configuration import hidden_codes, reload_settings
from hiera_ls.lsp.protocol import from_namedtuples
from hiera_ls.lsp.server import HieraLanguageServer, handler, none
from hiera_ls.lsp.transport import ANSWER_HOLD
from hiera_ls.project.settings import parse_settings
from hiera_ls.project.workspace import Workspace

# .hiera-ls.yaml is named too: a client's `*` may skip names starting with a dot
# Puppet code (.pp) feeds the code index; templates and Ruby functions hold lookups too.
# A HOCON data file (.conf) includes .conf, .json and .properties files.
WATCH_GLOBS = (
    "**/*.{yaml,yml,json,conf,properties}",
    "**/.hiera-ls.yaml",
    "**/*.{pp,epp,erb,rb}",
)

log = logging.getLogger(__name__)


@handler(types.INITIALIZE, none)
async def initialize(ls: HieraLanguageServer, params: types.InitializeParams) -> None:
    caps = params.capabilities
    ls.pull_diagnostics = bool(caps.text_document and caps.text_document.diagnostic)
    hover_caps = caps.text_document.hover if caps.text_document else None
    formats = hover_caps.content_format if hover_caps else None
    ls.hover_markdown = not formats or types.MarkupKind.Markdown in formats
    ls.configuration_supported = bool(caps.workspace and caps.workspace.configuration)
    ls.refresh_supported = bool(
        caps.workspace and caps.workspace.diagnostics and caps.workspace.diagnostics.refresh_support
    )
    ls.lens_refresh_supported = bool(
        caps.workspace and caps.workspace.code_lens and caps.workspace.code_lens.refresh_support
    )
    ls.inlay_refresh_supported = bool(
        caps.workspace and caps.workspace.inlay_hint and caps.workspace.inlay_hint.refresh_support
    )
    options = from_namedtuples(params.initialization_options)
    ls.hidden_codes = hidden_codes(options)
    parsed = parse_settings(options, ls.init_settings)  # (serve --target)
    for message in parsed.messages:
        ls.log(message, types.MessageType.Warning)
    ls.init_settings = parsed.settings
    ls.project = Workspace(_roots(params), parsed.settings)
    _read_once_answered(ls.project)


def _read_once_answered(project: Workspace) -> None:
    """The workspace read (its environments, data files and facts profiles: 40 ms of CPU on
    bench_lsp's 2,042 files) as soon as the answer to ``initialize`` is written, while the
    client takes it in, rather than after its ``initialized``, which finds it read (unless
    the settings the client then gives change what was read)."""
    hold = ANSWER_HOLD.get()
    if hold is None:  # (a handler called without the transport: tests)
        return

    def read() -> None:
        try:
            project.snapshot()
        except Exception:  # read again by ``initialized``, whose guard tells the user
            log.debug("hiera-ls: reading the workspace failed", exc_info=True)

    once_answered = contextlib.ExitStack()
    once_answered.callback(read)
    hold.keep(once_answered)


@handler(types.INITIALIZED, none, foreground=False)
async def initialized(ls: HieraLanguageServer, params: types.InitializedParams) -> None:
    caps = ls.client_capabilities
    watched = caps.workspace.did_change_watched_files if caps.workspace else None
    if watched is not None and watched.dynamic_registration:
        options = types.DidChangeWatchedFilesRegistrationOptions(
            watchers=[types.FileSystemWatcher(glob_pattern=g) for g in WATCH_GLOBS]
        )
        registration = types.Registration(
            id="hiera-ls-watch",
            method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=options,
        )
        try:
            await ls.client_register_capability_async(
                types.RegistrationParams(registrations=[registration])
            )
        except Exception as e:
            ls.log(
                f"hiera-ls: the client did not accept file watching: {e}",
                types.MessageType.Warning,
            )
    if ls.configuration_supported:
        await reload_settings(ls)
    ls.fleet.update()
    snap = ls.snapshot()
    envs = ", ".join(
        f"{v.env.name} ({v.env.root}, {len(v.env.modules)} modules)" for v in snap.environments
    )
    ls.log(
        f"hiera-ls {__version__}: environments: {envs or 'none'}; facts profiles: "
        f"{len(snap.profiles)}"
    )
    ls.scheduler.refresh()


def _roots(params: types.InitializeParams) -> list[str]:
    roots: list[str] = []
    for folder in params.workspace_folders or []:
        path = lsp_ranges.path_of(folder.uri)
        if path:
            roots.append(path)
    if not roots and params.root_uri:
        path = lsp_ranges.path_of(params.root_uri)
        if path:
            roots.append(path)
    if not roots and params.root_path:
        roots.append(params.root_path)
    return roots
