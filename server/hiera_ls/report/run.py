"""One run of every check over a repository, for every facts profile, as the server checks.

The rules are the server's: a :class:`Workspace` is built over the given directories with
the server's default settings, and :meth:`Diagnostics.file_problems` (what the server
publishes for a file) is called for every data file, hiera.yaml and facts file.  The
whole-environment index is built first (the server builds it in a worker thread), so the
cross-file checks always run.

A facts profile changes only the lookups' findings, so the other checks run once per file
and the lookups once per class of profiles that get the same answers
(features/class_checks.py), each class's findings given to every profile in it; the passes
are merged: a finding every profile gives is reported once, plainly; a finding some
profiles give (``[name]`` in front, as the editor shows it) is reported once with the
profiles named, a few names and then a count.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from hiera_ls.checks.causes import with_words
from hiera_ls.checks.profile import profile_label
from hiera_ls.features.class_checks import ClassChecks, profile_classes
from hiera_ls.features.diagnostics import Diagnostics, project_paths
from hiera_ls.project.fleet_profiles import FleetProfiles
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Snapshot, Workspace
from hiera_ls.puppet.message import Text
from hiera_ls.report.collector import full_passes_put_off
from hiera_ls.report.node_scope_note import node_scope_notes
from hiera_ls.report.redact import shown
from hiera_ls.report.selection import Selection
from hiera_ls.report.workers import Step, blocks, jobs_for, spread
from hiera_ls.source.loader_rules import WALK_LIMIT, walk_cut
from hiera_ls.source.spans import NO_DETAILS, Consequence, Details, Problem, Severity, Span

UNUSED_SUPPRESSION = "suppression-unused"
KNOWN_SHOWN = 20  # profile names an error lists

Progress = Callable[[int, int], None]  # (files done, files in all)


class CheckError(Exception):
    """A run that cannot start: a path that does not exist, a profile nobody has."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One finding as the reports give it: once, with the profiles that give it."""

    path: str  # absolute
    code: str
    severity: Severity
    message: str  # as reported: data values masked (unless shown); names some profiles
    span: Span  # 0-based, code points
    profiles: tuple[str, ...] = ()  # the profiles that give it; () when it holds for any
    details: Details = NO_DETAILS  # what it is about, as data
    # the lookups it makes fail elsewhere (a cause's), which are not findings of their own
    consequences: tuple[Consequence, ...] = ()
    stem: str = ""  # the message without what it makes fail (stable while those change)


@dataclass(frozen=True, slots=True)
class CheckResult:
    """What ``hiera-ls check`` found, over every file and profile, for its reports."""

    findings: tuple[Finding, ...]
    files: tuple[str, ...]  # every file checked (absolute)
    profiles: tuple[str, ...]  # the profiles checked; () when the repository has none
    notes: tuple[str, ...] = ()  # about the run itself (the target, facts left out ...)


@dataclass(slots=True)
class _Seen:
    """A problem met while merging the passes of the classes of profiles."""

    problem: Problem
    text: Text  # the message, the profile prefix removed
    classes: list[int]  # the classes of profiles that give it (_Run.classes), in order
    tagged: bool  # the message named its profile: a per-profile finding
    count: int = 0  # the profiles that give it


@full_passes_put_off()
def run_check(
    paths: Sequence[str],
    *,
    profiles: Sequence[str] | None = None,
    settings: Settings | None = None,
    selection: Selection | None = None,
    progress: Progress | None = None,
    show_values: bool = False,
    fleet: FleetProfiles | None = None,
    jobs: int = 1,
) -> CheckResult:
    """Check ``paths``: directories, or files (checked in their environment, reported alone).

    ``profiles``: names to check with (None: every profile found, the ``fleet``'s nodes
    too; a pass reads one node's facts at a time); ``show_values``: messages quote the
    data's values (for a person at a terminal), not ``…``; ``jobs``: processes the work
    may be spread over (report/workers.py): each data file's own checks a block of files a
    worker (one worker fewer than ``jobs``), meanwhile every profile's coverage here; then
    the first class here, and the others a block of classes a worker.
    """
    roots, only = check_roots(paths)
    workspace = Workspace(roots, settings)
    workspace.set_fleet(fleet)
    workspace.select_profile(None)  # the profiles are checked class by class, below
    first = workspace.snapshot()
    names = _profile_names(first, profiles)
    files = [p for p in project_paths(first) if not only or p in only]  # every facts file too
    if profiles is not None and list(profiles) != ["all"]:
        workspace.narrow_profiles(names)  # the checks over every profile see these only
        first = workspace.snapshot()
    first.files.hold_stamps()  # the disk as the run began: each file stat once, not per read
    # a pass per class of profiles, merged; the class checks ask what the coverage asked
    diagnostics = Diagnostics(every_profile=False, keep_answers=True)
    diagnostics.rebuild_stale(first, diagnostics.changes, coverage=False)
    if not files:
        where = ", ".join(paths or ["."])
        raise CheckError(
            f"no Hiera data under {where}: no hiera.yaml, data file or facts file was found"
        )
    classes: list[tuple[str, ...]] = profile_classes(first, names) if names else [()]
    checks = ClassChecks(diagnostics, first, many=len(classes) > 1)
    run = _Run(classes, {name: i for i, name in enumerate(names)})
    data = [path for path in files if checks.reads_profile(path)]
    alike = [path for path in files if not checks.reads_profile(path)]
    total = len(alike) + len(data) * len(classes)
    done = 0

    def step(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, total)

    sizes = [len(first.files.read_text(path) or "") for path in data]
    jobs = jobs_for(jobs, _estimate_s(sum(sizes), len(classes)))

    def every_profile() -> None:  # what every profile's lookups make of the environment
        diagnostics.update_coverage(first, diagnostics.changes)

    if jobs > 1:  # each file's own checks first, a block of files a worker; every_profile here
        own = spread(
            blocks(sizes, jobs),
            lambda files, _: [checks.own_checks(data[i]) for i in files],
            jobs - 1,  # this process's core is every_profile's
            meanwhile=every_profile,
        )
        checks.own.update(zip(data, (found for block in own for found in block), strict=True))
    else:
        every_profile()
    for path in alike:  # the same for every profile
        for found in checks.file_problems(path, None):
            run.record(found, None, range(len(classes)))
        step(1)

    def check_classes(numbers: range, step: Step) -> dict[tuple[object, ...], _Seen]:
        """The findings of the classes ``numbers``, a class after another (its lookups shared
        by every file), each once with the classes that give it."""
        part = _Run(classes, run.position)
        for number in numbers:
            members = classes[number]
            entry = first.profile_named(members[0]) if members else None
            for path in data:
                for found in checks.file_problems(path, entry):
                    part.record(found, members[0] if members else None, (number,))
                step(1)
        return part.seen

    # the first class here: the answers it shares (ClassChecks) serve every worker's classes;
    # the others a block of classes a worker (a block's findings come back whole, those of
    # every class alike too: few blocks)
    later = [range(b.start + 1, b.stop + 1) for b in blocks([1] * (len(classes) - 1), jobs, 1)]
    for seen in [check_classes(range(1), step), *spread(later, check_classes, jobs, step)]:
        run.merge(seen)  # in the classes' order, as a pass per class over every file finds them
    wanted = selection or Selection()
    findings = [
        _finding(entry, run, show_values)
        for entry in run.seen.values()
        if wanted.wants(entry.problem.code) and not _used_by_some_profile(entry, run.passes)
    ]
    if wanted.wants(WALK_LIMIT.code):
        cut = first.files.cut_walks
        findings += [_walk_limit(root, why, first.settings.max_files) for root, why in cut.items()]
    findings.sort(key=lambda f: (f.path, f.span.start, f.span.end, f.code, f.message))
    notes = (*first.messages, *node_scope_notes(first)) if names else first.messages
    return CheckResult(tuple(findings), tuple(files), tuple(names), notes)


# measured on gen_repo's 300 nodes (2.5 MB of data): a file's own checks and its first
# class's lookups cost ~0.65 µs a character, each further class ~0.12 µs
FIRST_CLASS_S_PER_CHAR = 0.65e-6
MORE_CLASS_S_PER_CHAR = 0.12e-6


def _estimate_s(characters: int, classes: int) -> float:
    """What checking data files of ``characters`` for ``classes`` classes may cost."""
    return characters * (FIRST_CLASS_S_PER_CHAR + MORE_CLASS_S_PER_CHAR * (classes - 1))


def _walk_limit(root: str, why: str, limit: int) -> Finding:
    message = walk_cut(root, why, limit, "--max-files (the editor's hiera.maxFiles setting)")
    start = Span.of(0, 0, 0, 0)
    return Finding(root, WALK_LIMIT.code, WALK_LIMIT.severity, message, start, stem=message)


def check_roots(paths: Sequence[str]) -> tuple[list[str], set[str]]:
    roots: list[str] = []
    only: set[str] = set()
    cwd = os.getcwd()
    for given in paths or ["."]:
        path = os.path.normpath(os.path.abspath(given))
        if os.path.isdir(path):
            roots.append(path)
        elif os.path.isfile(path):
            only.add(path)
            roots.append(_environment_above(path, cwd))
        else:
            raise CheckError(f"{given}: no such file or directory")
    kept = [
        r
        for r in dict.fromkeys(roots)
        if not any(r != o and r.startswith(o.rstrip(os.sep) + os.sep) for o in roots)
    ]
    # files alone narrow the report to them; with a directory, the directory is checked whole
    return kept, only if len(only) == len(paths) else set()


ENVIRONMENT_MARKS = ("hiera.yaml", "environment.conf")


def _environment_above(path: str, cwd: str) -> str:
    """The directory to check a file in: the topmost directory above it holding a hiera.yaml or
    environment.conf (a module's hiera.yaml is nearer than its control repository's), not
    above the current directory when the file is inside it."""
    inside = path.startswith(cwd.rstrip(os.sep) + os.sep)
    found = directory = os.path.dirname(path)
    while True:
        if any(os.path.isfile(os.path.join(directory, m)) for m in ENVIRONMENT_MARKS):
            found = directory
        parent = os.path.dirname(directory)
        if parent == directory or (inside and directory == cwd):
            return found
        directory = parent


def _profile_names(snapshot: Snapshot, wanted: Sequence[str] | None) -> list[str]:
    available = [entry.name for entry in snapshot.profiles] + snapshot.fleet_names()
    if wanted is None or list(wanted) == ["all"]:
        return available
    out: list[str] = []
    for name in wanted:
        entry = next((e for e in snapshot.profiles if e.name == name), None)
        if entry is None and snapshot.fleet is not None and name in snapshot.fleet:
            if name not in out:
                out.append(name)
            continue
        if entry is None:
            entry = next(
                (
                    e
                    for e in snapshot.profiles
                    if name in (e.profile.path, os.path.basename(e.profile.path))
                    or name == os.path.basename(e.profile.path).rsplit(".", 1)[0]
                ),
                None,
            )
        if entry is None:
            known = ", ".join(available[:KNOWN_SHOWN]) or "none found"
            if len(available) > KNOWN_SHOWN:
                known += f" and {len(available) - KNOWN_SHOWN} more"
            raise CheckError(f"no facts profile named '{name}' (profiles: {known})")
        if entry.name not in out:
            out.append(entry.name)
    return out


@dataclass(slots=True)
class _Run:
    """The findings of every class of profiles, each once with the classes that give it."""

    classes: list[tuple[str, ...]]  # each class's profile names; [()] when there are none
    position: dict[str, int]  # each profile's place in the run's order
    seen: dict[tuple[object, ...], _Seen] = field(default_factory=dict)
    # a finding met again as the same object (a file's findings that no lookup changes are
    # the same list for every class), when no profile's name can start it: its entry
    _met: dict[int, tuple[Problem, _Seen]] = field(default_factory=dict)

    @property
    def passes(self) -> int:
        return len(self.position) or 1

    def record(self, found: Problem, name: str | None, classes: Iterable[int]) -> None:
        """``found`` as the profile ``name`` (a class's first) gives it, for ``classes``."""
        met = self._met.get(id(found))
        if met is not None and met[0] is found:
            entry = met[1]
        else:
            prefix = f"[{name}] " if name is not None else ""
            plain = found.text.plain
            tagged = bool(prefix) and plain.startswith(prefix)
            text = found.text.without_prefix(prefix) if tagged else found.text
            key = (found.where.path, found.code, found.where.span, text, found.severity)
            known = self.seen.get(key)
            if known is None:
                self.seen[key] = known = _Seen(found, text, [], tagged)
            entry = known
            entry.tagged = entry.tagged or tagged
            if not plain.startswith("["):  # tagged by no profile's name: the same entry
                self._met[id(found)] = (found, entry)
        for number in classes:
            if not entry.classes or entry.classes[-1] < number:  # classes come in order
                entry.classes.append(number)
                entry.count += len(self.classes[number])

    def merge(self, seen: dict[tuple[object, ...], _Seen]) -> None:
        """Findings of later classes, recorded apart (by a worker)."""
        for key, other in seen.items():
            entry = self.seen.get(key)
            if entry is None:
                self.seen[key] = other
                continue
            entry.tagged = entry.tagged or other.tagged
            for number in other.classes:
                if entry.classes[-1] < number:
                    entry.classes.append(number)
                    entry.count += len(self.classes[number])

    def names(self, entry: _Seen) -> list[str]:
        """The profiles that give ``entry``, in the run's order."""
        found = [name for number in entry.classes for name in self.classes[number]]
        return sorted(found, key=self.position.__getitem__)


def _used_by_some_profile(entry: _Seen, passes: int) -> bool:
    """A suppression is unused only when it suppresses nothing for every profile: one that
    silences a lookup failure of some profiles is doing its job."""
    return entry.problem.code == UNUSED_SUPPRESSION and 0 < entry.count < passes


def _finding(entry: _Seen, run: _Run, show_values: bool) -> Finding:
    """The report's finding: paths under the current directory relative, data values masked
    (exactly the parts the message marks as values: one pass over the message)."""
    found = entry.problem
    message = shown(entry.text.replace(os.getcwd().rstrip(os.sep) + os.sep, ""), show_values)
    passes = run.passes
    some = entry.tagged or (0 < entry.count < passes)
    profiles = tuple(run.names(entry)) if some else ()
    if profiles:
        message = f"[{profile_label(profiles, passes)}] {message}"
    where = found.where
    stem = message
    items: tuple[Consequence, ...] = ()
    if found.consequences is not None:
        items = found.consequences.items
        message = with_words(message, found.consequences)
    return Finding(
        where.path,
        found.code,
        found.severity,
        message,
        where.span,
        profiles,
        found.details,
        items,
        stem,
    )


SEVERITY_RANK = {
    Severity.HINT: 0,
    Severity.INFORMATION: 0,  # --fail-on info: information and hints
    Severity.WARNING: 1,
    Severity.ERROR: 2,
}
FAIL_ON = {"info": 0, "warning": 1, "error": 2}


def fails(finding: Finding, fail_on: str) -> bool:
    """Whether ``finding`` is at or above ``--fail-on``'s level."""
    return SEVERITY_RANK[finding.severity] >= FAIL_ON[fail_on]
