"""A file's findings as every caller gives them (the server's publish, ``hiera-ls check``'s
classes of profiles): in file order, each once, only those placed in the file; and whether
a failing lookup's cause is reported where it is (then the failure is one of its
consequences, not a finding of its own)."""

from __future__ import annotations

import os

from hiera_ls.project.workspace import FileKind, Snapshot
from hiera_ls.puppet.errors import Cause
from hiera_ls.source.spans import Problem


def file_order(p: Problem) -> tuple[object, ...]:
    """File order: by start, end, code (plain numbers: compared without Python calls)."""
    span = p.where.span
    return (span.start.line, span.start.column, span.end.line, span.end.column, p.code)


def located_in(found: list[Problem], path: str) -> list[Problem]:
    """The findings placed in ``path``, each once, in the order given."""
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
