"""What every publish of a file goes through (the server's, after an edit or the checks;
``hiera-ls check``'s, per profile): its findings located in it, each once, and whether a
failure's cause is reported where it is. File order itself is checks/problems.file_order."""

from __future__ import annotations

import os
from collections.abc import Iterable

from hiera_ls.project.workspace import FileKind, Snapshot
from hiera_ls.puppet.errors import Cause
from hiera_ls.source.spans import Problem


def located_in(found: Iterable[Problem], path: str) -> list[Problem]:
    """The findings located in ``path``, each once, in the order given."""
    out: list[Problem] = []
    seen: set[Problem] = set()
    for p in found:
        if p.where.path == path and p not in seen:
            seen.add(p)
            out.append(p)
    return out


def reported_where_it_is(snapshot: Snapshot, cause: Cause) -> bool:
    """Whether the problem behind a failure is one of the files the checks report on (a
    lookup_options entry always is): the failure is then folded into it."""
    if cause.path is None:
        return True
    return snapshot.kind_of(os.path.normpath(cause.path)) in (FileKind.DATA, FileKind.HIERA_CONFIG)
