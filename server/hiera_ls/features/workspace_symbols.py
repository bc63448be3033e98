"""Workspace symbols: every key of the repository's data, with its file and hierarchy level.

The query matches a key as a substring (case-insensitive) or, failing that, as a
subsequence of its characters (``pbd`` finds ``profile::base::domain``); exact names come
first, then prefixes, substrings, subsequences, each group by name and file.  At most
:data:`MAX_SYMBOLS` are answered: a query of one letter on a repository of 40,000 keys is
not a list anyone reads, and the editor asks again as the query grows.

Keys come from ``project/key_index.py``'s entries (built once per content stamp, and by
the background checks anyway), so a query reads no file that did not change.
"""

from __future__ import annotations

from dataclasses import dataclass

from hiera_ls.project.workspace import DataFileInfo, Snapshot
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.spans import Span

MAX_SYMBOLS = 500


@dataclass(frozen=True, slots=True)
class KeySymbol:
    name: str
    path: str
    span: Span
    container: str  # "<level name> (<environment>)": where a lookup finds it


def container_of(info: DataFileInfo) -> str:
    """The file's hierarchy level and environment ("Per-node data (production)"); a module's
    data names its module; a file no level reads says so."""
    env = info.view.env.name
    for level in info.levels:
        module = level.layer.module_name
        where = f"module {module}, {env}" if module else env
        return f"{level.entry.name} ({where})"
    return f"read by no level ({env})"


def _rank(name: str, query: str) -> int | None:
    """0 exact, 1 prefix, 2 substring, 3 subsequence; None: no match (query lower case)."""
    lower = name.lower()
    if not query:
        return 2
    i = lower.find(query)
    if i == 0:
        return 0 if len(lower) == len(query) else 1
    if i > 0:
        return 2
    pos = 0
    for ch in query:
        pos = lower.find(ch, pos) + 1
        if pos == 0:
            return None
    return 3


def workspace_symbols(snapshot: Snapshot, query: str) -> list[KeySymbol]:
    wanted = query.strip().lower()
    found: list[tuple[int, str, str, KeySymbol]] = []
    for path, info in snapshot.data_files.items():
        keys = snapshot.file_keys(path)
        if keys is None:
            continue
        container: str | None = None
        for key, kd in keys.keys.items():
            if key == LOOKUP_OPTIONS:
                continue
            rank = _rank(key, wanted)
            if rank is None:
                continue
            if container is None:
                container = container_of(info)
            found.append((rank, key, path, KeySymbol(key, path, kd.key_span, container)))
    found.sort(key=lambda item: item[:3])
    return [item[3] for item in found[:MAX_SYMBOLS]]
