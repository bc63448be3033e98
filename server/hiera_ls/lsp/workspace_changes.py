"""Changes outside the editor: files changed on disk (watched by the client for us) and
workspace folders added or removed."""

from __future__ import annotations

import os

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.lsp.server import HieraLanguageServer, handler, none
from hiera_ls.project.repo_config import CONFIG_NAME
from hiera_ls.project.workspace import Workspace


@handler(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, none)
async def workspace_did_change_watched_files(
    ls: HieraLanguageServer, params: types.DidChangeWatchedFilesParams
) -> None:
    repo_config = False
    for change in params.changes:
        path = lsp_ranges.path_of(change.uri)
        if path is None:
            continue
        ls.project.disk_changed(path, change.type is not types.FileChangeType.Changed)
        repo_config = repo_config or os.path.basename(path) == CONFIG_NAME
    if repo_config:  # its puppetdb: may name another PuppetDB (used only if allowed)
        ls.fleet.update()
    ls.scheduler.data_changed()
    ls.scheduler.refresh()
    if ls.lens_refresh_supported:  # a saved file: its change lenses are gone
        ls.workspace_code_lens_refresh(None)


@handler(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS, none)
async def workspace_did_change_workspace_folders(
    ls: HieraLanguageServer, params: types.DidChangeWorkspaceFoldersParams
) -> None:
    roots = [r for r in ls.project.roots]
    for folder in params.event.removed:
        path = lsp_ranges.path_of(folder.uri)
        if path in roots:
            roots.remove(path)
    for folder in params.event.added:
        path = lsp_ranges.path_of(folder.uri)
        if path and path not in roots:
            roots.append(path)
    old = ls.project
    ls.project = Workspace(roots, old.settings)
    ls.project.selected_profile = old.selected_profile
    ls.project.set_fleet(old.fleet)
    for path, text in old.buffers.items():
        ls.project.open_buffer(path, text)
    ls.diagnostics = Diagnostics(inline_coverage=False)
    ls.fleet.update()
    ls.scheduler.refresh()
