"""When problems are computed and sent: at once for the file being edited, later for the rest.

An edit's file is published at once for its new version: its own checks, carrying the
cross-file findings last shown for it, moved with the edit (features/carried_findings.py),
so nothing flickers away and back and nothing is ``[]`` in between; the full checks that
follow replace them. (Waiting for the full checks instead cost every keystroke the pause in
typing plus the cross-file run: 0.6-0.8 s on an 8,254-line file.) A file opened while full
checks are due gets one publish, complete, when they are done; where they wait for the
index of a big environment, built in the background, its loader's findings come first.
A burst of
edits (a paste, a macro, a client replaying its changes) gets one publish, for its newest
version, not one per edit. Cross-file checks (the key index, every open file's full checks) wait for
a pause in typing (``REBUILD_DELAY_S``) and run in one worker thread on a snapshot, so
typing goes on meanwhile; the worker gives way while a request is answered (``foreground``),
from the moment the request is read (``hold``), and gives up once an edit has made its
snapshot stale, since that edit schedules its own run.
Clients that pull diagnostics are asked to re-pull instead of being pushed to.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.project.workspace import FileKind
from hiera_ls.source.loader_rules import DATA_LARGE_FILE
from hiera_ls.source.spans import Problem, Severity, Span

if TYPE_CHECKING:
    from hiera_ls.features.file_memos import FileMemos
    from hiera_ls.lsp.server import HieraLanguageServer
    from hiera_ls.project.workspace import Snapshot

REBUILD_DELAY_S = 0.3  # pause in typing before cross-file problems are recomputed


MAX_PUBLISHED = 5_000  # diagnostics of one file in one publish


def capped(problems: list[Problem]) -> list[Problem]:
    """At most :data:`MAX_PUBLISHED` problems, the most severe first, then one that says how
    many more there are: 500,000 hints on one file took 1.86 GB to publish, and a 26 MB file
    ran out of memory before any diagnostic arrived."""
    if len(problems) <= MAX_PUBLISHED:
        return problems
    rank = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFORMATION: 2, Severity.HINT: 3}
    kept = sorted(range(len(problems)), key=lambda i: (rank[problems[i].severity], i))
    shown = [problems[i] for i in sorted(kept[:MAX_PUBLISHED])]
    first = problems[0].where
    note = DATA_LARGE_FILE.at(
        f"hiera-ls shows {MAX_PUBLISHED:,} of the {len(problems):,} problems of this file, the "
        "most severe first; hiera-ls check lists them all",
        first.path,
        Span.of(0, 0, 0, 0),
    )
    return [note, *shown]


class DiagnosticsScheduler:
    """Debounce, background full checks, and what was last published to each document."""

    def __init__(self, ls: HieraLanguageServer) -> None:
        self.ls = ls
        self.published: dict[str, list[types.Diagnostic]] = {}  # uri -> last pushed
        self.published_version: dict[str, int | None] = {}  # uri -> version last pushed
        self._converted = lsp_ranges.ConvertedDiagnostics()  # kept from publish to publish
        self._full_pending = False  # full checks are scheduled or running
        self._rebuild: asyncio.TimerHandle | None = None
        # documents edited (True) or opened (False) since their last publish
        self._edited: dict[str, bool] = {}
        self._publish_edited: asyncio.Handle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._idle = threading.Event()  # cleared while the server's thread answers the client
        self._idle.set()
        self._busy = 0  # handlers under way, and messages read but not yet handed to them
        self._busy_lock = threading.Lock()  # (the reader's thread holds too: see hold)
        self._checking = False  # a run of full checks is queued or under way in the worker
        self._check_again = False  # asked for while one was under way (see _rebuild_index)
        # one worker: full checks after a pause in typing never overlap each other
        self._worker = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="hiera-ls-checks"
        )

    @contextlib.contextmanager
    def foreground(self) -> Iterator[None]:
        """While the client waits for an answer, the background checks wait (see pause)."""
        self.hold()
        try:
            yield
        finally:
            self.release()

    def hold(self) -> None:
        """From any thread: the background checks wait at their next pause until
        :meth:`release`. The reader of the client's messages holds as soon as it has read
        a request, before the server's thread gets to it: a check running on meanwhile shared
        the interpreter with every step of the message's way to its handler, and a hover
        waited for it (bench_lsp: 5-35 ms from a hover's arrival to its handler)."""
        with self._busy_lock:
            self._busy += 1
            self._idle.clear()

    def release(self) -> None:
        with self._busy_lock:
            self._busy -= 1
            if not self._busy:
                self._idle.set()

    def diagnostics_for(
        self,
        snapshot: Snapshot,
        path: str,
        quick: bool = False,
        pause: Callable[[], None] | None = None,
        loader: bool = False,
        staged: Staged | None = None,
    ) -> list[types.Diagnostic]:
        """``staged``: a background run's (see :class:`Staged`)."""
        ls = self.ls
        conv = ls.converter(path, snapshot.text(path) or "")  # the snapshot's text, not the latest
        d = ls.diagnostics
        problems = (
            d.loader_problems(snapshot, path)
            if loader
            else d.quick_problems(snapshot, path)
            if quick
            else d.file_problems(snapshot, path, pause, staged.memos if staged else None)
        )
        if pause is not None:
            pause()  # (converting thousands of findings is a stretch of its own)
        hidden = ls.hidden_codes if path.endswith((".yaml", ".yml")) else frozenset()
        shown = capped([p for p in problems if p.code not in hidden] if hidden else problems)
        converted = staged.converted if staged is not None else self._converted
        return converted.diagnostics(path, shown, conv, ls.converter)

    def wait_idle(self) -> None:
        """In a worker: wait while the server's thread answers the client (see foreground)."""
        self._idle.wait()

    @property
    def changes_seen(self) -> int:
        return self.ls.diagnostics.changes

    def data_changed(self) -> None:
        """Diagnose edits at once; rebuild the cross-file index after a pause in typing."""
        self.ls.diagnostics.data_changed()
        self.schedule_full_checks()

    def edited(self, path: str, changed: bool = True) -> None:
        """Publish ``path``'s quick checks once the edits already received are applied.

        The publish waits behind the handlers already queued (a burst of ``didChange``
        notifications read together), so it is computed once, for the newest version.
        """
        self._edited[path] = changed or self._edited.get(path, False)
        if self._publish_edited is not None:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no loop (tests calling handlers directly): publish now
            self._publish_pending()
            return
        self._publish_edited = loop.call_soon(self._publish_pending)

    def _publish_pending(self) -> None:
        self._publish_edited = None
        paths = list(self._edited.items())
        self._edited.clear()
        with self.foreground():
            for path, changed in paths:
                if not changed and self._full_pending:
                    # opened: the full checks under way publish it, complete; where they wait
                    # for a big environment's index (9 s for 2,042 files), what its loader
                    # found is published first (the parse the checks read next)
                    snapshot = self.ls.snapshot()
                    if path in self.ls.uris and self.ls.diagnostics.index_deferred(snapshot, path):
                        found = self.diagnostics_for(snapshot, path, loader=True)
                        self.publish([path], force=path, computed={path: found})
                    continue
                if path not in self.ls.uris:
                    continue
                snapshot = self.ls.snapshot()
                first = not self.ls.diagnostics.indexed_once(snapshot, path)
                if first and self.indexing(snapshot) and snapshot.kind_of(path) is FileKind.DATA:
                    # edited before the start-up checks have built the index: what the
                    # loader found now, the rest when they are done (building the index
                    # here too took 1-3 s on 142 files, racing the worker for the processor);
                    # after that, an older index's findings are carried (nothing flickers)
                    found = self.diagnostics_for(snapshot, path, loader=True)
                    self.publish([path], force=path, computed={path: found})
                    continue
                # the file's own checks now, with the last cross-file findings carried
                self.publish([path], force=path, quick=True)

    def indexing(self, snapshot: Snapshot) -> bool:
        """Whether the background checks are about to build (or building) an index of the
        environment, reading every data file: what a request needs of them is theirs to
        read, not the server thread's too."""
        return self._full_pending and not self.ls.diagnostics.has_index(snapshot)

    def schedule_full_checks(self) -> None:
        if self._rebuild is not None:
            self._rebuild.cancel()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return
        self._full_pending = True
        self._rebuild = loop.call_later(REBUILD_DELAY_S, self._rebuild_index)

    def _rebuild_index(self) -> None:
        """After a pause in typing: cross-file index, then every open file's full checks.

        They run in a worker thread on a snapshot, so typing goes on meanwhile; results for
        a snapshot that an edit has since replaced are dropped (that edit schedules its own).
        One run at a time: a run asked for while one is under way starts when it ends, on
        the newest snapshot. Queued behind each other (when a run takes longer than the
        pauses in typing, as in a big environment on a loaded machine), every run kept its
        snapshot alive and ran on it however stale: the soak's memory grew without bound.
        """
        self._rebuild = None
        self.ls.refresh_inlay_hints(edited=True)
        if self._checking:
            self._check_again = True
            return
        self._checking = True
        snapshot = self.ls.snapshot()
        changes = self.ls.diagnostics.changes
        paths = list(self.ls.uris)
        loop = self._loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._worker, self.full_checks, snapshot, changes, paths)
        future.add_done_callback(functools.partial(self._full_checks_done, snapshot))

    def full_checks(
        self, snapshot: Snapshot, changes: int, paths: list[str]
    ) -> dict[str, list[types.Diagnostic]]:
        """In the worker: gives way to the server's thread, and gives up once an edit came in."""

        def pause() -> None:
            self._idle.wait()
            if self.changes_seen != changes:
                raise _Superseded

        diagnostics = self.ls.diagnostics
        try:
            pause()  # a run superseded while it waited gives up before rebuilding
            # the checks read the Puppet code: waiting here for the server's background read
            # of it (HieraLanguageServer.warm_code) lets that read finish first, for hover
            # and completion, rather than share the processor with the checks
            for view in snapshot.environments:
                snapshot.code_index(view)
            pause()
            diagnostics.rebuild_stale(snapshot, changes, pause, coverage=False)
            # Warm the key index, so the first references request need not parse the project;
            # open files change as the user types, and a big one takes a long stretch without
            # a pause (a hover would wait for it): they are indexed when a request needs them.
            for path in snapshot.data_files:
                if path not in snapshot.files.overlay:
                    snapshot.file_keys(path)
                pause()
            staged = Staged(diagnostics.staged(), self._converted.copy())
            out = self._diagnose(snapshot, paths, pause, staged)
            # every profile's lookups take longest: what is known so far is shown first
            if self._loop is not None and snapshot.profiles:
                self._loop.call_soon_threadsafe(self._publish_partial, snapshot, out)
            diagnostics.update_coverage(snapshot, changes, pause)
            # (each file's own checks are kept)
            return self._diagnose(snapshot, paths, pause, staged)
        except _Superseded:
            return {}

    def _diagnose(
        self, snapshot: Snapshot, paths: list[str], pause: Callable[[], None], staged: Staged
    ) -> dict[str, list[types.Diagnostic]]:
        out: dict[str, list[types.Diagnostic]] = {}
        for path in paths:
            try:
                out[path] = self.diagnostics_for(snapshot, path, pause=pause, staged=staged)
                # what the next edit starts from, once all of it is made (the run may be
                # given up at any pause: an edit then starts from the last publish's)
                self.ls.diagnostics.hand_over(staged.memos, path)
                self._converted.adopt(staged.converted, path)
            except _Superseded:
                raise
            except Exception:
                self.log_threadsafe(
                    f"hiera-ls: diagnostics failed for {path}:\n{traceback.format_exc()}"
                )
        return out

    def _publish_partial(
        self, snapshot: Snapshot, results: dict[str, list[types.Diagnostic]]
    ) -> None:
        """On the server's thread: push the results known before the every-profile findings
        (push clients; a pulling client is asked to re-pull once everything is done)."""
        if self.ls.project.snapshot() is snapshot and not self.ls.pull_diagnostics:
            self.publish(list(results), computed=results)

    def _full_checks_done(
        self, snapshot: Snapshot, future: asyncio.Future[dict[str, list[types.Diagnostic]]]
    ) -> None:
        ls = self.ls
        self._checking = False
        if self._check_again:
            self._check_again = False
            self.schedule_full_checks()
        try:
            results = future.result()
        except Exception:
            ls.log(
                f"hiera-ls: rebuilding the index failed:\n{traceback.format_exc()}",
                types.MessageType.Error,
            )
            self._full_pending = False
            self.publish()  # what the file checks alone find, rather than nothing
            return
        if ls.project.snapshot() is not snapshot:
            self.schedule_full_checks()  # changed meanwhile: these ranges may be stale
            return
        self._full_pending = False
        ls.announce_profile()
        ls.tell_cut_walks(snapshot)
        if ls.pull_diagnostics:
            if ls.refresh_supported:
                ls.workspace_diagnostic_refresh(None)
            return
        self.publish(list(results), computed=results)
        rest = [path for path in ls.uris if path not in results]  # opened meanwhile
        if rest:
            self.publish(rest)

    def log_threadsafe(self, message: str) -> None:
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self.ls.log, message, types.MessageType.Error)

    def publish(
        self,
        paths: Sequence[str] | None = None,
        force: str | None = None,
        quick: bool = False,
        computed: Mapping[str, list[types.Diagnostic]] | None = None,
    ) -> None:
        """Push diagnostics of open documents (push clients only).

        The document just opened or edited (``force``) always gets a publish for its new
        version; the others only when their diagnostics changed, to keep the client quiet.
        ``quick``: right after an edit, where a big file gets its full checks only after
        a pause in typing (see Diagnostics.quick_problems).
        """
        ls = self.ls
        if ls.pull_diagnostics:
            return
        snapshot = ls.snapshot()
        for path in list(paths if paths is not None else ls.uris):
            uri = ls.uris.get(path)
            if uri is None:
                continue
            document = ls.workspace.text_documents.get(uri)
            if document is not None and document.source != snapshot.text(path):
                # pygls holds a newer version than the snapshot: its handler publishes it
                # (these findings, labelled with that version, would be the older text's)
                continue
            try:
                if computed is not None and path in computed:
                    diags = computed[path]
                else:
                    diags = self.diagnostics_for(snapshot, path, quick=quick)
            except Exception:
                ls.log(
                    f"hiera-ls: diagnostics failed for {path}:\n{traceback.format_exc()}",
                    types.MessageType.Error,
                )
                continue
            version = None
            try:
                version = ls.workspace.get_text_document(uri).version
            except Exception:
                version = None
            same_version = self.published_version.get(uri, -1) == version
            last = self.published.get(uri)
            if path != force and same_version and last is not None and _same(last, diags):
                continue
            self.published[uri] = diags
            self.published_version[uri] = version
            ls.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diags)
            )

    def clear(self, uri: str) -> None:
        path = lsp_ranges.path_of(uri)
        if path is not None:
            self._converted.forget(path)
        self.published.pop(uri, None)
        self.published_version.pop(uri, None)
        if not self.ls.pull_diagnostics:
            self.ls.text_document_publish_diagnostics(
                types.PublishDiagnosticsParams(uri=uri, diagnostics=[])
            )

    def refresh(self) -> None:
        """After a profile, settings or cross-file change: re-push, or ask a pulling client to
        re-pull (the full results are computed first, so the pull answers from them)."""
        ls = self.ls
        ls.announce_profile()
        ls.refresh_inlay_hints()
        if not ls.pull_diagnostics:
            self.publish()
            return
        snapshot = ls.snapshot()
        for path in list(ls.uris):
            try:
                ls.diagnostics.file_problems(snapshot, path)
            except Exception:
                ls.log(
                    f"hiera-ls: diagnostics failed for {path}:\n{traceback.format_exc()}",
                    types.MessageType.Error,
                )
        if ls.refresh_supported:
            ls.workspace_diagnostic_refresh(None)


@dataclass(frozen=True, slots=True)
class Staged:
    """What a background run keeps of each file's checks and publish until the file's are all
    made (features/file_memos.py: FileMemos)."""

    memos: FileMemos
    converted: lsp_ranges.ConvertedDiagnostics


class _Superseded(Exception):
    """Raised in the worker: an edit made its snapshot stale, so its results would be dropped."""


def _same(a: Sequence[types.Diagnostic], b: Sequence[types.Diagnostic]) -> bool:
    """Whether two publishes show the same: the same objects (kept from publish to publish:
    features/lsp_ranges.py), or, compared field by field only when they are not, the same
    ranges, messages, codes and severities. (Every publish made a tuple of these for each of
    its 2,371 diagnostics, though the file edited is published whatever they are.)"""
    if len(a) != len(b):
        return False
    return all(x is y or _diag_key(x) == _diag_key(y) for x, y in zip(a, b, strict=True))


def _diag_key(d: types.Diagnostic) -> tuple[Any, ...]:
    r = d.range
    return (
        r.start.line,
        r.start.character,
        r.end.line,
        r.end.character,
        d.message,
        d.code,
        d.severity,
    )


def result_id(items: Sequence[types.Diagnostic]) -> str:
    """A pull client's ``previousResultId``: equal when the diagnostics are."""
    import hashlib  # (pull clients only: not with the server's start)

    digest = hashlib.sha1()
    for d in items:
        digest.update(repr(_diag_key(d)).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()[:16]
