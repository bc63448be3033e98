"""``hiera-ls check --fix``: the editor's safe quick fixes, applied to the files on disk.

The edits are the ones the editor's code actions make (checks/fixes.py, each rule's record
says whether its fix is safe): they
make a file Puppet refuses say what it evidently meant, or change no value. A fix may reveal
what its problem hid (a file that parses again shows its other problems), so the files are
re-checked and fixed again until nothing changes, a few rounds at most. Only files whose text
changed are written, byte for byte as before outside the edited ranges.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hiera_ls.checks.fixes import fixed_text, safe_codes
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import FileKind, Snapshot, Workspace

MAX_ROUNDS = 5  # each round fixes what the previous one revealed; two are usual


@dataclass(frozen=True, slots=True)
class FixResult:
    fixes: int  # problems the quick fixes applied fixed, over every round
    files: tuple[str, ...]  # files written (absolute)


def fix_files(
    roots: Sequence[str], only: Sequence[str] = (), settings: Settings | None = None
) -> FixResult:
    """Apply the safe fixes to every data file and hiera.yaml under ``roots`` (or to the files
    in ``only``); writes the files it fixes."""
    applied = 0
    written: dict[str, None] = {}
    safe = safe_codes()
    for _ in range(MAX_ROUNDS):
        snapshot = Workspace(list(roots), settings).snapshot()
        diagnostics = Diagnostics(every_profile=False)  # fixes need no other profile
        diagnostics.rebuild_stale(snapshot, diagnostics.changes)
        changed = False
        for path in _fixable(snapshot, only):
            text = snapshot.files.read_text(path)
            if not text:
                continue
            problems = [p for p in diagnostics.file_problems(snapshot, path) if p.code in safe]
            fixed, fixes, count = fixed_text(path, text, problems)
            if not fixes or fixed == text:
                continue
            with open(path, "w", encoding="utf-8", newline="") as out:
                out.write(fixed)
            applied += count
            written[path] = None
            changed = True
        if not changed:
            break
    return FixResult(applied, tuple(written))


def _fixable(snapshot: Snapshot, only: Sequence[str]) -> list[str]:
    paths = [*snapshot.data_files]
    for view in snapshot.environments:
        paths.extend(p for p in view.configs if p not in paths)
    kinds = (FileKind.DATA, FileKind.HIERA_CONFIG)
    return [p for p in paths if (not only or p in only) and snapshot.kind_of(p) in kinds]
