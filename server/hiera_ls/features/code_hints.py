"""What diagnostics say about Puppet code: the hiera*() hints of a manifest or EPP template.

hiera-ls reads the environment's code for what its data is for (the code index); the one
finding it reports in the code itself is ``hiera-function`` (checks/hiera_functions.py),
a hint, so an editor that also runs Puppet's own language server shows it beside that
server's findings without contradicting them. ``hiera-ls check`` reports it for the code
files that call hiera*() (:func:`project_paths`), the server for an open one.
"""

from __future__ import annotations

from hiera_ls.checks.cross_file import CrossFileIndex
from hiera_ls.checks.hiera_functions import PUPPET_CODE, code_problems
from hiera_ls.checks.policy import COMPLETE, PARTIAL, Coverage
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.source.spans import Problem

__all__ = ["PUPPET_CODE", "code_hints", "project_paths"]


def code_hints(
    snapshot: Snapshot, view: EnvironmentView, path: str, index: CrossFileIndex | None
) -> tuple[list[Problem], Coverage]:
    """``path``'s hints, and whether they were checked: they need the environment's index
    (which keys lookup_options merge: without it, the hint's lookup() is not known), and
    the file must be one of the environment's code (a module's manifests, its site
    manifest), as Puppet loads it."""
    code = snapshot.code_index(view) if index is not None else None
    facts = code.files.get(path) if code is not None else None
    if index is None or facts is None:
        return [], PARTIAL
    merged = index.keys.graph.merged
    any_merged = any(keys.merging_options for keys in index.files.values())
    return code_problems(facts.hiera_calls, view.env, snapshot.target, merged, any_merged), COMPLETE


def project_paths(snapshot: Snapshot) -> list[str]:
    """Every file diagnostics can speak about: data files, hiera.yaml files, facts files, the
    .hiera-ls.yaml that applies, and the Puppet code that calls hiera*()."""
    paths: list[str] = list(snapshot.data_files)
    for view in snapshot.environments:
        paths.extend(p for p in view.configs if p not in paths)
    paths.extend(e.profile.path for e in snapshot.profiles if e.profile.path not in paths)
    paths.extend(c.path for _, c in snapshot.configs if c.path is not None and c.path not in paths)
    listed = set(paths)
    for view in snapshot.environments:
        code = snapshot.code_index(view).files
        paths.extend(p for p in sorted(code) if code[p].hiera_calls and p not in listed)
    return paths
