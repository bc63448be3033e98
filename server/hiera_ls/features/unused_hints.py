"""The key-unused hints of one data file, and what they are judged against.

The context (an environment's code, the keys its data looks up, the names its code writes
out, the files not judged) is worked out once per cross-file index and code index; each
file's hints are then judged from its current keys, so a key just typed is judged at once.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hiera_ls.project.code_mentions import MentionCache, mentioned
from hiera_ls.project.key_index import FileKeys
from hiera_ls.project.workspace import Snapshot
from hiera_ls.source.spans import Problem

if TYPE_CHECKING:
    from hiera_ls.checks.registry import CrossFileIndex
    from hiera_ls.project.code_index import CodeIndex


@dataclass(frozen=True, slots=True)
class UnusedContext:
    """What the key-unused hints of an environment's files are judged against: its code, the
    keys its data looks up, the names its code writes out, and the files not judged."""

    code: CodeIndex
    data_reads: frozenset[str]
    written: frozenset[str]
    skipped: frozenset[str]
    coded: frozenset[str]  # modules with code (checks/unused_data.py modules_with_code)


def unused_context(
    snapshot: Snapshot,
    index: CrossFileIndex,
    by_file: Mapping[str, Sequence[Problem]],
    code: CodeIndex,
    mentions: MentionCache,
) -> UnusedContext:
    """``by_file``: the whole-workspace checks' findings with ``index``. Not judged: the files
    no level reads (``hiera-data-file-unused`` says so), and those only a custom function
    reads (its file's keys may not be lookup keys: Wikimedia's ``regex.yaml`` holds sections
    of ``wmflib::regex_data``)."""
    from hiera_ls.checks.unused_data import modules_with_code, read_by_data

    skipped = {
        path
        for path, found in by_file.items()
        if any(p.code == "hiera-data-file-unused" for p in found)
    }
    skipped.update(
        path
        for path, info in snapshot.data_files.items()
        if info.custom_file or (info.levels and not any(level.reads_files for level in info.levels))
    )
    return UnusedContext(
        code,
        read_by_data(index),
        mentioned(index.env, snapshot.files, mentions),
        frozenset(skipped),
        modules_with_code(code),
    )


def unused_in(
    context: UnusedContext,
    index: CrossFileIndex,
    path: str,
    keys: FileKeys,
    pause: Callable[[], None] | None,
) -> list[Problem]:
    """The file's hints from its current keys, with the references of its current text."""
    from hiera_ls.checks.unused_data import unused_in_file

    if path in context.skipped:
        return []
    module = index.role(path).module_name
    own = {r.target for r in keys.kept_references(module)}
    reads = context.data_reads | own if own else context.data_reads
    return unused_in_file(
        path, keys, module, context.code, reads, context.written, context.coded, pause
    )
