"""What an edit's publish of a file starts from, kept from publish to publish by the server:
the file's last full result and what an edit moves of it, the last unused-key hints' pass,
the cross-file findings carried (features/diagnostics.py reads and writes them)."""

from __future__ import annotations

from dataclasses import dataclass, field

from hiera_ls.checks.policy import Coverage
from hiera_ls.checks.problems import file_order
from hiera_ls.features.carried_findings import CarriedFindings, FileOrdered
from hiera_ls.features.said_once import SaidOnce
from hiera_ls.source.loader_rules import YAML11_BOOLEAN
from hiera_ls.source.spans import Problem

JUDGED_LOADER_CODES = frozenset({YAML11_BOOLEAN.code})  # loader notes the checks may rejudge


@dataclass(frozen=True, slots=True)
class FullResult:
    """The last full result for one file, with what it was computed from."""

    text: str
    loader: frozenset[Problem]  # the loader's own findings at that time
    problems: tuple[Problem, ...]  # as the checks found them, before the repository's policy
    cost_s: float  # processor time of the checks (on the thread that ran them)
    checked: Coverage
    context: tuple[object, ...] = ()  # what else they read (see Diagnostics._context)
    every: bool = True  # every profile's lookups (not the active one's alone: a big file)


@dataclass(frozen=True, slots=True)
class Movable:
    """What an edit moves of a last full result (Diagnostics.quick_problems), worked out by
    the server's background run that made it (``hand_over``; a command-line run never
    needs it), else on the first edit after it: the checks' own findings in file order, and
    the loader notes the checks judged."""

    full: FullResult
    kept: FileOrdered
    overridden: tuple[Problem, ...]

    @classmethod
    def of(cls, full: FullResult) -> Movable:
        loader = full.loader
        kept = sorted((p for p in full.problems if p not in loader), key=file_order)
        judged = frozenset(full.problems)
        overridden = (p for p in loader if p.code in JUDGED_LOADER_CODES and p not in judged)
        return cls(full, FileOrdered.of(kept), tuple(overridden))


@dataclass(slots=True)
class FileMemos:
    """What an edit's publish of a file starts from: the file's last full result and what an
    edit moves of it, the last unused-key hints' pass, the cross-file findings carried.

    The server's background run works on a copy (``staged``) and hands each file's over
    once all of it is made (``adopt``): the first edit after a pause in typing met a run
    stopped half-way (a new full result, the last publish's pass), and compared thousands of
    equal findings value by value, sorted them and converted them again (15-25 ms)."""

    full: dict[str, FullResult] = field(default_factory=dict)
    movable: dict[str, Movable] = field(default_factory=dict)  # per file, its last FullResult's
    said: SaidOnce = field(default_factory=SaidOnce)  # the server's last publish of each file
    carried: CarriedFindings = field(default_factory=CarriedFindings)  # (open files)

    def staged(self) -> FileMemos:
        return FileMemos(dict(self.full), dict(self.movable), self.said.copy(), self.carried.copy())

    def adopt(self, staged: FileMemos, path: str) -> None:
        """``staged``'s entries for ``path`` become these (what the next edit starts from)."""
        full = staged.full.get(path)
        if full is not None:
            self.full[path] = full
        movable = staged.movable.get(path)
        if movable is not None:
            self.movable[path] = movable
        self.said.adopt(staged.said, path)
        self.carried.adopt(staged.carried, path)

    def forget(self, path: str) -> None:
        self.said.forget(path)
        self.full.pop(path, None)
        self.movable.pop(path, None)
        self.carried.forget(path)


def movable_of(memos: FileMemos, path: str, last: FullResult) -> Movable:
    movable = memos.movable.get(path)
    if movable is None or movable.full is not last:
        movable = memos.movable[path] = Movable.of(last)
    return movable
