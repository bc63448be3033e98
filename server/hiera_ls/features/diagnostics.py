"""The problems to show for one file: its loader's findings plus the Puppet-aware checks.

The checks (``hiera_ls.checks.registry``) read a :class:`CrossFileIndex` of the whole
environment (which keys exist, who references whom).  Building it reads every data file's
entry in the key index, so it is not rebuilt on each keystroke: an edit is diagnosed
against the index as it was (the edited file's own references are always fresh), and the
index is rebuilt when the server asks (after a pause in typing), which may change other
files' problems.

Typing in a big file must not wait for every check (the profile check looks up every key
of the file).  :meth:`Diagnostics.quick_problems` runs the full checks when they were cheap
last time for that file; otherwise it returns the loader's findings for the new text (one
parse) plus the previous full result's other problems, moved with the lines around the
edit (those inside the edited lines are dropped until the full checks run again).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from hiera_ls.checks.causes import ByCause, fold
from hiera_ls.checks.cross_file import DataSource
from hiera_ls.checks.policy import (
    COMPLETE,
    PARTIAL,
    Coverage,
    apply_policy,
    config_code_problems,
    coverage,
)
from hiera_ls.checks.problems import file_order
from hiera_ls.checks.suppressions import MARK, may_hold_suppressions
from hiera_ls.features.carried_findings import move_with_lines
from hiera_ls.features.check_profiles import node_profiles, profile_lookups
from hiera_ls.features.code_hints import PUPPET_CODE, code_hints
from hiera_ls.features.code_hints import project_paths as project_paths  # report/run.py's
from hiera_ls.features.file_memos import JUDGED_LOADER_CODES, FileMemos, FullResult, movable_of
from hiera_ls.features.file_order import located_in, reported_where_it_is
from hiera_ls.features.said_once import SaidOnce, without_said
from hiera_ls.features.unused_hints import UnusedContext, unused_context, unused_in
from hiera_ls.project.code_mentions import MentionCache
from hiera_ls.project.key_index import LARGE_FILE_CHARS, FileKeys
from hiera_ls.project.workspace import EnvironmentView, FileKind, Snapshot
from hiera_ls.source.files import Stamp
from hiera_ls.source.spans import Problem

# The checks' implementations (checks/registry.py and the families behind it), the engine's
# lookups and the profiles' classes are imported by the methods that run them: a file opened
# in a big environment is first published with its loader's findings, which need none of
# them (tests/lsp/test_start_imports.py).
if TYPE_CHECKING:
    from hiera_ls.checks.profile_coverage import CoverageMemo
    from hiera_ls.checks.registry import CrossFileIndex
    from hiera_ls.engine.lookup import LookupOutcome
    from hiera_ls.project.code_index import CodeIndex


@dataclass(slots=True)
class _Built:
    """One environment's cross-file index, and what the whole-workspace checks found with it."""

    index: CrossFileIndex
    by_file: dict[str, list[Problem]]  # check_workspace's findings
    changes: int  # the data-change count the index includes
    generation: int = 0  # which build this is (a file's full result names the one it used)
    # what this index's files' key-unused hints are judged against (with its code index)
    unused: UnusedContext | None = None


Pause = Callable[[], None]
SYNC_INDEX_FILES = 300  # environments with more data files get their index in the background
FAST_BUDGET_S = 0.03  # full checks that took less than this last time run on every keystroke
FOREGROUND_LOOKUPS = 2_000  # keys x profiles the server's thread looks up for one file


@dataclass(frozen=True, slots=True)
class _EveryProfile:
    """Every profile's findings over one environment (checks/profile_coverage.py)."""

    context: tuple[object, ...]  # what they were computed from (see Diagnostics._coverage_key)
    by_file: dict[str, list[Problem]]
    stamps: dict[str, Stamp | None]  # each file with findings or consequences, as it was then
    consequences: ByCause = field(default_factory=dict)  # the lookups each cause breaks


@dataclass(slots=True)
class Diagnostics:
    """Per-server cache of the checks' indexes (one per environment), not global state.

    ``inline_coverage``: whether :meth:`file_problems` may run the every-profile lookups of
    the whole environment itself when they are missing (a command-line run); the language
    server says no, and runs them in :meth:`rebuild_stale`, in its background worker.
    """

    _built: dict[str, _Built] = field(default_factory=dict)
    changes: int = 0  # data changes seen (the server's thread counts; a worker reads)
    _builds: int = 0
    inline_coverage: bool = True
    _coverage: dict[str, _EveryProfile] = field(default_factory=dict)
    _coverage_memo: dict[str, CoverageMemo] = field(default_factory=dict)
    # the coverage keeps each profile's plain answers for the checks that ask them again
    # (``hiera-ls check``: :meth:`kept_answer`); the server keeps none
    keep_answers: bool = False
    _mentions: MentionCache = field(default_factory=MentionCache)  # names code writes out
    # the lookups' findings for every facts profile, each once with the profiles named;
    # False: the active profile's only (``hiera-ls check`` runs a pass per profile)
    every_profile: bool = True
    # the classes the code declares resource-like, for the code index they were read from
    _declared: tuple[CodeIndex, frozenset[str]] | None = None
    # the server's open files: cross-file findings shown until the checks after an edit run
    _memos: FileMemos = field(default_factory=FileMemos)

    def data_changed(self) -> None:
        """Some data file changed: the indexes are out of date (kept until rebuilt)."""
        self.changes += 1

    def rebuild_stale(
        self,
        snapshot: Snapshot,
        changes: int,
        pause: Pause | None = None,
        coverage: bool = True,
    ) -> None:
        """Rebuild indexes older than ``changes`` (the count when ``snapshot`` was taken),
        then (``coverage``) every profile's findings where they are out of date.

        May run in a worker thread while the server thread keeps counting changes; ``pause``
        is called between lookups (see :meth:`file_problems`).
        """
        for view in snapshot.environments:
            built = self._built.get(view.env.root)
            if built is None or built.changes < changes or built.index.env is not view.env:
                built = self._build(snapshot, view, changes, pause)
                if pause is not None:
                    pause()
            # what key-unused and the class checks read (the code index, the names the code
            # writes out): costly the first time (seconds on a big repository), so here rather
            # than on a keystroke
            self._unused_context(snapshot, built, snapshot.code_index(view))
        if coverage:
            self.update_coverage(snapshot, changes, pause)

    def update_coverage(self, snapshot: Snapshot, changes: int, pause: Pause | None = None) -> None:
        """Every profile's findings over each environment, where out of date (the costly
        part: the server's worker runs it after publishing the other checks' results)."""
        for view in snapshot.environments:
            self._profile_coverage(snapshot, view, changes, pause)

    def _coverage_key(self, snapshot: Snapshot, view: EnvironmentView) -> tuple[object, ...]:
        built = self._built.get(view.env.root)
        generation = built.generation if built is not None and built.index.env is view.env else 0
        # a code change (a lookup asking for another merge) is a new generation of code
        # indexes; its id first, so comparing keys never compares two generations' contents
        code = snapshot.code
        return (generation, view, snapshot.profiles, snapshot.settings, id(code), code)

    def _profile_coverage(
        self, snapshot: Snapshot, view: EnvironmentView, changes: int, pause: Pause | None
    ) -> _EveryProfile | None:
        """The environment's every-profile findings, computed unless they are current."""
        from hiera_ls.checks.profile_coverage import CoverageMemo, CoverageResult
        from hiera_ls.checks.registry import check_profile_coverage
        from hiera_ls.project.asked_merges import merge_arguments

        key = (changes, *self._coverage_key(snapshot, view))
        last = self._coverage.get(view.env.root)
        if last is not None and last.context == key:
            return last
        built = self._built.get(view.env.root)
        if built is None or built.index.env is not view.env:
            return None
        profiles = node_profiles(snapshot, view)
        levels = {p: info.levels for p, info in snapshot.data_files.items() if info.view is view}
        code = snapshot.code_index(view)  # the merges code reads keys with
        kept: dict[tuple[str, str], LookupOutcome] | None = {} if self.keep_answers else None
        memo = self._coverage_memo.setdefault(view.env.root, CoverageMemo(answers=kept))
        memo.start((view, snapshot.profiles, snapshot.settings, snapshot.data_files, code))
        paused: list[BaseException] = []

        def step() -> None:
            if pause is not None:
                try:
                    pause()
                except BaseException as given_up:
                    paused.append(given_up)
                    raise

        try:
            result = check_profile_coverage(
                view.env,
                built.index,
                profiles,
                snapshot.files,
                snapshot.cache,
                levels,
                step,
                memo,
                functools.partial(merge_arguments, code),
            )
        except Exception:
            if paused:
                raise  # the caller gave up (an edit came in): not a failure of the checks
            # a bug must not cost the other checks: no findings of this kind until data changes
            memo.start(())
            result = CoverageResult({})
        by_file, consequences = result.by_file, result.consequences
        about = {*by_file, *(c.path for c in consequences if c.path is not None)}
        stamps = {path: snapshot.files.stamp(path) for path in about}
        done = _EveryProfile(key, by_file, stamps, consequences)
        self._coverage[view.env.root] = done
        return done

    def kept_answer(self, view: EnvironmentView, profile: str, key: str) -> LookupOutcome | None:
        """The answer the coverage's lookups gave ``profile`` for ``key`` (no merge given),
        handed out once; None when not kept (see ``keep_answers``)."""
        memo = self._coverage_memo.get(view.env.root)
        answers = memo.answers if memo is not None else None
        return answers.pop((profile, key), None) if answers is not None else None

    def _coverage_for(
        self, snapshot: Snapshot, view: EnvironmentView, path: str
    ) -> tuple[_EveryProfile | None, bool]:
        """The last every-profile findings, and whether they hold for this file: current
        ones; else (the server, until its worker recomputes them) if this file is unchanged."""
        if not snapshot.profiles:
            return None, True
        key = (self.changes, *self._coverage_key(snapshot, view))
        last = self._coverage.get(view.env.root)
        if (last is None or last.context != key) and self.inline_coverage:
            last = self._profile_coverage(snapshot, view, self.changes, None)
        if last is None:
            return None, False
        holds = last.context == key or last.stamps.get(path) == snapshot.files.stamp(path)
        return last, holds

    def _carry(
        self,
        snapshot: Snapshot,
        what: str,
        path: str,
        text: str | None,
        found: Sequence[Problem],
        holds: bool,
        memos: FileMemos,
    ) -> list[Problem] | None:
        """Cross-file findings of kind ``what`` to show for ``path``: ``found`` when they hold
        for its text (kept, for a file open in the server); else the last ones kept, moved
        with the edits since (features/carried_findings.py); None when none were kept."""
        kept = not self.inline_coverage and text is not None and path in snapshot.files.overlay
        if holds:
            if kept and text is not None:
                memos.carried.keep(what, path, text, found)
            return list(found)
        return memos.carried.moved(what, path, text) if kept and text is not None else None

    def source(self, snapshot: Snapshot, path: str) -> DataSource | None:
        """The file's text and parse; the text is read on each call, not kept (an open file's
        comes from its buffer; thousands of disk texts would be megabytes)."""
        stamp = snapshot.files.stamp(path)
        df = snapshot.data_file(path)
        text = snapshot.files.read_text(path) if stamp is not None else None
        if df is None or text is None:
            return None
        return DataSource(path, text, df)

    def _build(
        self,
        snapshot: Snapshot,
        view: EnvironmentView,
        changes: int | None = None,
        pause: Pause | None = None,
    ) -> _Built:
        from hiera_ls.checks.registry import build_index, check_workspace

        indexed: list[FileKeys] = []
        for path, info in snapshot.data_files.items():
            if info.view is view:
                if pause is not None:
                    pause()  # (the server's background run: an edit or a request goes first)
                # kept per content version: unchanged files cost nothing
                keys = snapshot.file_keys(path)
                if keys is not None:
                    indexed.append(keys)
        index = build_index(view.env, indexed, snapshot.files)
        if pause is not None:
            pause()  # (each of these two steps takes tens of milliseconds on a big file)
        workspace_found = check_workspace(index)
        self._builds += 1
        built = _Built(
            index,
            workspace_found,
            self.changes if changes is None else changes,
            self._builds,
        )
        self._built[view.env.root] = built
        return built

    def built(self, snapshot: Snapshot, view: EnvironmentView) -> _Built | None:
        """The environment's index, built at once when the environment is small enough.

        A big environment (thousands of files to parse) would block the server for seconds:
        its index is left to :meth:`rebuild_stale` (a worker thread); until then the checks
        that need the whole environment are skipped.
        """
        built = self._built.get(view.env.root)
        if built is not None and built.index.env is view.env:
            return built
        size = _file_count(snapshot, view)
        return self._build(snapshot, view) if size <= SYNC_INDEX_FILES else None

    def index_deferred(self, snapshot: Snapshot, path: str) -> bool:
        """Whether ``path`` is a data file whose environment has no index yet and gets it in
        the background (:meth:`built`): its complete checks are seconds away."""
        view = snapshot.environment_for(path)
        if view is None or snapshot.kind_of(path) is not FileKind.DATA:
            return False
        built = self._built.get(view.env.root)
        if built is not None and built.index.env is view.env:
            return False
        return _file_count(snapshot, view) > SYNC_INDEX_FILES

    def indexed_once(self, snapshot: Snapshot, path: str) -> bool:
        """Whether ``path``'s environment has had an index, perhaps of an older state: its
        findings are carried over an edit until the new one is built."""
        view = snapshot.environment_for(path)
        return view is not None and view.env.root in self._built

    def has_index(self, snapshot: Snapshot) -> bool:
        return all(
            (b := self._built.get(v.env.root)) is not None and b.index.env is v.env
            for v in snapshot.environments
        )

    def quick_problems(self, snapshot: Snapshot, path: str) -> list[Problem]:
        """What to show right after an edit: full checks if cheap, else loader + moved problems."""
        memos = self._memos
        last = memos.full.get(path)
        if (
            last is None
            or last.cost_s < FAST_BUDGET_S
            or snapshot.kind_of(path) is not FileKind.DATA
        ):
            return self.file_problems(snapshot, path)
        source = self.source(snapshot, path)
        if source is None:
            return self.file_problems(snapshot, path)
        if source.text == last.text:
            found = self.with_coverage(snapshot, path, source.text, list(last.problems))
            return self.policy(snapshot, path, source.text, found, last.checked, self._said_memo)
        movable = movable_of(memos, path, last)
        moved = movable.kept.moved(last.text, source.text)  # in file order, each once
        # loader notes the checks judged (a yaml11-boolean a class parameter's type silenced
        # or made a warning) stay judged until the full checks run again
        stale = frozenset(move_with_lines(last.text, source.text, movable.overridden))
        fresh = [p for p in source.data.problems if p not in stale]
        found = located_in(sorted([*fresh, *moved], key=file_order), path) if fresh else moved
        found = self.with_coverage(snapshot, path, source.text, found)
        return self.policy(snapshot, path, source.text, found, PARTIAL, self._said_memo)

    def staged(self) -> FileMemos:
        """A copy of what each file's publish starts from, for a background run (see
        :class:`FileMemos`); ``hand_over`` gives back each file's once it is done."""
        return self._memos.staged()

    def hand_over(self, staged: FileMemos, path: str) -> None:
        """``path``'s checks and publish in ``staged`` become what the next edit starts from,
        with what that edit moves of its full result worked out now (left to that edit, it
        cost the first keystroke after each pause a sort of every finding: 2,371 on a
        10,000-line file)."""
        last = staged.full.get(path)
        if last is not None and last.cost_s >= FAST_BUDGET_S:
            movable_of(staged, path, last)
        self._memos.adopt(staged, path)

    def loader_problems(self, snapshot: Snapshot, path: str) -> list[Problem]:
        """What the file's loader found (its YAML as Puppet reads it), under the repository's
        policy: a data file opened before its environment's index is built shows these at
        once; the checks, which read the same parse, add theirs once the index is there."""
        source = self.source(snapshot, path)
        if source is None:
            return []
        found = located_in(sorted(source.data.problems, key=file_order), path)
        # not the notes the checks may judge by a class parameter's type: they would go away
        found = [
            p
            for p in found
            if p.code not in JUDGED_LOADER_CODES or not source.data.on_parameter_value(p.where.span)
        ]
        return self.policy(snapshot, path, source.text, found, PARTIAL)

    def file_problems(
        self,
        snapshot: Snapshot,
        path: str,
        pause: Pause | None = None,
        staged: FileMemos | None = None,
    ) -> list[Problem]:
        """Problems located in ``path``, in file order, without duplicates (every check).

        ``pause`` is called before each lookup the profile check makes: a background caller
        uses it to let the server's thread go first, or to give up (by raising); ``staged``:
        where that caller keeps what it found (see :class:`FileMemos`).
        """
        found, checked, text = self.checked(snapshot, path, pause, staged)
        found = self.with_coverage(snapshot, path, text, found, staged)
        said = staged.said if staged is not None else self._said_memo
        return self.policy(snapshot, path, text, found, checked, said)

    def with_coverage(
        self,
        snapshot: Snapshot,
        path: str,
        text: str | None,
        found: list[Problem],
        staged: FileMemos | None = None,
    ) -> list[Problem]:
        """The file's problems plus its every-profile findings, each cause with the lookups it
        makes fail (kept apart from the file's own result: a new run of those does not make
        every open file's checks run again)."""
        kind = snapshot.kind_of(path)
        info = snapshot.data_files.get(path)
        view = info.view if info is not None else snapshot.environment_for(path)
        if view is None or kind not in (FileKind.DATA, FileKind.HIERA_CONFIG):
            return found
        last, holds = self._coverage_for(snapshot, view, path)
        if kind is FileKind.DATA:
            current = last.by_file.get(path, []) if last is not None else []
            memos = staged if staged is not None else self._memos
            extra = self._carry(snapshot, "profiles", path, text, current, holds, memos) or []
            if extra:
                found = located_in(sorted([*found, *extra], key=file_order), path)
        if last is None:
            return found
        if kind is FileKind.HIERA_CONFIG and holds and last.by_file.get(path):
            # its levels that only read files levels above it read
            found = located_in(sorted([*found, *last.by_file[path]], key=file_order), path)
        return fold(found, last.consequences, len(snapshot.profiles))

    def checked(
        self, snapshot: Snapshot, path: str, pause: Pause | None, staged: FileMemos | None = None
    ) -> tuple[list[Problem], Coverage, str | None]:
        """Every check but the every-profile findings, before the repository's policy; reused
        while nothing it read changed. With what the checks covered, and the text checked."""
        context = self._context(snapshot, path)
        every = self._every(snapshot, path, pause)
        memos = staged if staged is not None else self._memos
        last = memos.full.get(path)
        if (
            context
            and last is not None
            and last.context == context
            and (last.every or not every)  # a result for every profile serves the active one
            and snapshot.files.read_text(path) == last.text
        ):
            return list(last.problems), last.checked, last.text
        # the processor time of the checks, not their wall time: the background run's
        # included its waits at each pause while edits were published, and on a loaded
        # machine a cheap file's measured 30-45 ms, so its edits took the moved findings
        # one time and ran the checks the next, by the load of the moment
        started = time.thread_time()
        changes = self.changes
        found, source, checked = self._file_problems(snapshot, path, pause, every, memos)
        cost = time.thread_time() - started
        if staged is not None:
            found = staged.said.reuse(path, found, pause)
        if source is not None:
            if not context and self.changes == changes:  # the checks built the index just now
                context = self._context(snapshot, path)
            memos.full[path] = FullResult(
                source.text,
                frozenset(source.data.problems),
                tuple(found),
                cost,
                checked,
                context,
                every,
            )
        return found, checked, source.text if source is not None else None

    @staticmethod
    def policy(
        snapshot: Snapshot,
        path: str,
        text: str | None,
        found: Sequence[Problem],
        checked: Coverage,
        said: SaidOnce | None = None,
    ) -> list[Problem]:
        """The repository's configuration and the file's suppression comments, applied in
        the one place every caller (server, ``hiera-ls check``) goes through; ``said``: the
        server's last publishes, which an edit's publish starts from."""
        config = snapshot.config_for(path)
        if not config.has_rules and not may_hold_suppressions(path, text or MARK):
            kept = list(found)
            return said.without_said(path, kept) if said is not None else without_said(kept, kept)
        if text is None:
            text = snapshot.text(path)
        return without_said(found, apply_policy(config, path, text, found, checked))

    def _context(self, snapshot: Snapshot, path: str) -> tuple[object, ...]:
        """Everything a data file's full checks read besides its own text: the data of the
        other files (any change counts in ``changes``), the cross-file index they used, the
        environment, the profiles and the settings.  A file whose text and context are
        those of its last full result gets that result again: the background checks after each
        of a thousand files opened recheck only the new ones, not every open file each time.
        """
        from hiera_ls.features.puppet_code import code_index

        info = snapshot.data_files.get(path)
        if info is None or snapshot.kind_of(path) is not FileKind.DATA:
            return ()
        view = info.view
        built = self._built.get(view.env.root)
        generation = built.generation if built is not None and built.index.env is view.env else 0
        if not generation and _file_count(snapshot, view) <= SYNC_INDEX_FILES:
            return ()  # the checks build the index first: the context is known only after
        # the profiles: every profile's lookups are checked, so a facts edit counts
        profiles = snapshot.profiles if self.every_profile else ()
        # a .pp change can make a key used or unused, a class parameter known or not; a big
        # environment's code is indexed by the background rebuild (with the data's index),
        # never first on the server's thread
        code = code_index(snapshot, view) if generation else None
        return (self.changes, generation, view, snapshot.active, profiles, snapshot.settings, code)

    def _every(self, snapshot: Snapshot, path: str, pause: Pause | None) -> bool:
        """Whether this run looks every profile up: not on the server's thread (no ``pause``)
        for a file where that is too much (:meth:`profiles_deferred`)."""
        return self.every_profile and (
            pause is not None or not self.profiles_deferred(snapshot, path)
        )

    def profiles_deferred(self, snapshot: Snapshot, path: str) -> bool:
        """Whether looking every key of ``path`` up for every profile is too much for the
        server's thread: it then checks the active profile only, and the background checks
        (which give way to the editor) add the other profiles' findings."""
        if not self.every_profile or len(snapshot.profiles) < 2:
            return False
        df = snapshot.data_file(path)
        keys = len(df.data) if df is not None else 0
        return keys * len(snapshot.profiles) > FOREGROUND_LOOKUPS

    def declared(self, snapshot: Snapshot, code: CodeIndex) -> frozenset[str]:
        """The classes ``code`` declares resource-like, read once per code index."""
        from hiera_ls.checks.required_parameters import declared_with_parameters

        known = self._declared
        if known is None or known[0] is not code:
            known = (code, declared_with_parameters(code, snapshot.files.read_text))
            self._declared = known
        return known[1]

    @property
    def _said_memo(self) -> SaidOnce | None:
        """What the policy keeps of each publish: the server's, whose files are edited."""
        return None if self.inline_coverage else self._memos.said

    def _unused_context(self, snapshot: Snapshot, built: _Built, code: CodeIndex) -> UnusedContext:
        """Worked out once per index and code index."""
        if built.unused is None or built.unused.code is not code:
            built.unused = unused_context(
                snapshot, built.index, built.by_file, code, self._mentions
            )
        return built.unused

    def forget(self, path: str) -> None:
        self._memos.forget(path)

    def _file_problems(
        self, snapshot: Snapshot, path: str, pause: Pause | None, every: bool, memos: FileMemos
    ) -> tuple[list[Problem], DataSource | None, Coverage]:
        """The problems, for a data file the text and parse they were found in, and which
        codes the checks looked for (so a suppression is called unused only when it is)."""
        from hiera_ls.checks.fact_paths import known_facts
        from hiera_ls.checks.registry import LegacyFacts, check_data_file, check_hiera_config
        from hiera_ls.features.puppet_code import code_index

        view = snapshot.environment_for(path)
        kind = snapshot.kind_of(path)
        found: list[Problem] = []
        source: DataSource | None = None
        checked = COMPLETE
        if kind is FileKind.REPO_CONFIG:
            config = snapshot.config_for(path)
            found = sorted([*config.problems, *config_code_problems(config)], key=file_order)
        elif kind is FileKind.FACTS:
            entry = snapshot.profile_at(path)
            found = list(entry.profile.problems) if entry is not None else []
        elif view is not None and kind is FileKind.HIERA_CONFIG:
            layer = view.configs[path]
            text = snapshot.text(path) or ""
            built = self.built(snapshot, view)
            code = code_index(snapshot, view) if built is not None else None
            index = built.index if built is not None else None
            facts = known_facts(snapshot)
            legacy = LegacyFacts.of(snapshot.target, snapshot.profiles)
            found = check_hiera_config(layer, text, snapshot.files, index, code, facts, legacy)
            checked = coverage(index=built is not None, profile=True, code=code is not None)
        elif view is not None and kind is FileKind.DATA:
            source = self.source(snapshot, path)
            checked = PARTIAL
            if source is not None:
                # the key index's entry for this text: the references requests will read it too
                keys = snapshot.key_index.get(snapshot.files, source.data, source.text)
                source = replace(source, keys=keys)
                built = self.built(snapshot, view)
                index = built.index if built is not None else None
                profiles = profile_lookups(snapshot, view, pause, every)
                code = code_index(snapshot, view) if built is not None else None
                found = check_data_file(
                    index,
                    source,
                    profiles,
                    view.env,
                    code,
                    lambda: self.declared(snapshot, code) if code is not None else frozenset(),
                    lambda cause: reported_where_it_is(snapshot, cause),
                    known_facts(snapshot),
                    LegacyFacts.of(snapshot.target, snapshot.profiles),
                    pause,
                )
                if pause is not None:
                    pause()  # (the lookups' findings, then the index's and the hints)
                large = len(source.text) > LARGE_FILE_CHARS
                if built is not None:
                    # the index's findings; after an edit, until the index is rebuilt, those
                    # last shown, moved with the edit
                    index_found = built.by_file.get(path, [])
                    holds = built.changes == self.changes
                    carried = self._carry(
                        snapshot, "index", path, source.text, index_found, holds, memos
                    )
                    found.extend(index_found if carried is None else carried)
                    if code is not None and not large:
                        # a hint per key: past the large-file size skipped, as the other
                        # per-key checks are (500,000 hints on a 10 MB file took 1.86 GB)
                        context = self._unused_context(snapshot, built, code)
                        # (those on a key a stronger finding marks go once the policy has
                        # said which findings are reported: see features/said_once.py)
                        if pause is not None:
                            pause()
                        hints = unused_in(context, built.index, path, source.file_keys(), pause)
                        found.extend(hints)
                    # in file order, as an edit's publish has them (moved, in quick_problems):
                    # in the checks' order, the first edit after each run took nothing from
                    # this run's publish (features/said_once.py, lsp_ranges.py)
                    found.sort(key=file_order)
                loaded = source.data.error is None and not large
                checked = coverage(
                    index=index is not None,
                    profile=bool(profiles),
                    loaded=loaded,
                    code=code is not None,
                )
        elif view is not None and path.endswith(PUPPET_CODE):
            built = self.built(snapshot, view)
            found, checked = code_hints(snapshot, view, path, built.index if built else None)
        else:
            checked = PARTIAL  # a file no check reads: its suppressions are not judged
        return located_in(found, path), source, checked


def _file_count(snapshot: Snapshot, view: EnvironmentView) -> int:
    """The environment's data files, counted once per snapshot (each file opened asks)."""
    key = ("data-file-count", view.env.root)
    count = snapshot.memo.get(key)
    if not isinstance(count, int):
        count = sum(1 for info in snapshot.data_files.values() if info.view is view)
        snapshot.memo[key] = count
    return count
