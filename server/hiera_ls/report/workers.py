"""Independent units of work spread over worker processes (``check`` and ``diff``'s
``--jobs N``).

The workers are forks of the process that has already built the workspace, its indexes and
its classes: nothing is imported or built again, and a unit's result comes back pickled
through a pipe.  The results are handed back in the units' order whatever finished first,
so a report is the same for any number of workers.

A pool costs a fork and the copying of the pages each worker writes (tens of milliseconds):
work estimated below ``MIN_SPREAD_S`` is done in-process, as ``--jobs 1`` does (on this
repository's example, ``check`` never starts a worker).  Where ``fork`` is not there
(Windows; macOS, whose system libraries may not survive one), everything runs in-process.

A worker ignores Ctrl-C: the process that started it stops the run (its
``KeyboardInterrupt``, or the signal handler of ``diff``) and kills its workers on the way
out; a worker also dies with it (``PR_SET_PDEATHSIG`` on Linux, else it notices between
units), so no worker outlives a run.  An exception a unit raises is raised again in the
process that started it, the user-facing ones (a ``CheckError``) as themselves.
"""

from __future__ import annotations

import gc
import os
import signal
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:  # multiprocessing is imported only when workers are started (40 ms)
    import ctypes
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess
    from multiprocessing.synchronize import Lock

U = TypeVar("U")
R = TypeVar("R")

MIN_SPREAD_S = 0.25  # work estimated below this is done in-process (a worker costs ~20 ms)
BLOCKS_PER_JOB = 4  # work cut in this many blocks per worker: a slow one is not waited for

Step = Callable[[int], None]  # n more steps of a unit done (for a progress bar)


def usable_cores() -> int:
    """The cores this process may run on (a container's or ``taskset``'s limit counts)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def can_fork() -> bool:
    """Whether workers can be forks (not on macOS, whose system libraries may not survive
    one, nor on Windows)."""
    return hasattr(os, "fork") and sys.platform != "darwin"


class WorkerDied(Exception):
    """A worker ended without its results (killed: out of memory, a signal)."""


class _Failed(Exception):
    """A unit failed in a worker with an exception that cannot be sent as itself."""


class _InWorker(Exception):
    """Where a unit failed in a worker: its traceback there (the ``__cause__`` of the
    exception raised again)."""


def jobs_for(jobs: int, estimate_s: float) -> int:
    """The processes to use for work estimated at ``estimate_s`` seconds: one when it is
    too little to pay for starting workers (or they cannot be forks)."""
    return jobs if jobs > 1 and estimate_s >= MIN_SPREAD_S and can_fork() else 1


def blocks(weights: Sequence[float], jobs: int, per_job: int = BLOCKS_PER_JOB) -> list[range]:
    """The indexes of ``weights`` cut in contiguous blocks of about equal weight: one for
    one job, else about ``per_job`` per job (a worker takes the next block when it is
    free, so one slow block is not waited for long; fewer when each block's result is
    big)."""
    number = 1 if jobs <= 1 else min(len(weights), jobs * per_job)
    if number <= 1:
        return [range(len(weights))]
    total = sum(weights) or 1.0
    out: list[range] = []
    first, acc = 0, 0.0
    for i, weight in enumerate(weights):
        acc += weight
        if acc >= total * (len(out) + 1) / number and i + 1 < len(weights):
            out.append(range(first, i + 1))
            first = i + 1
    out.append(range(first, len(weights)))
    return out


def spread(
    units: Sequence[U],
    work: Callable[[U, Step], R],
    jobs: int,
    progress: Step | None = None,
    meanwhile: Callable[[], None] | None = None,
) -> list[R]:
    """``work(unit, step)`` for every unit, in the units' order, over up to ``jobs`` forked
    processes (in-process for one); the steps a unit reports reach ``progress`` (from a
    worker, when the unit is done).  ``meanwhile``: work of this process's own, done while
    the workers work (first, in-process); with it, ``jobs`` counts the workers beside this
    process (one is a worker)."""
    step = progress if progress is not None else _no_step
    workers = jobs > 1 or (jobs == 1 and meanwhile is not None)
    if workers and len(units) > 1 and can_fork():
        return _in_workers(units, work, jobs, step, meanwhile)
    if meanwhile is not None:
        meanwhile()
    return [work(unit, step) for unit in units]


def _no_step(n: int) -> None:
    pass


def _in_workers(
    units: Sequence[U],
    work: Callable[[U, Step], R],
    jobs: int,
    step: Step,
    meanwhile: Callable[[], None] | None,
) -> list[R]:
    """The units in forked workers (each takes the next unit when it is free), gathered
    by this process, or (with ``meanwhile``) by a thread of it while it does that work."""
    import multiprocessing
    import threading
    from multiprocessing.connection import Connection, wait

    context = multiprocessing.get_context("fork")
    shared = _Shared(units, work, context.RawValue("q", 0), context.Lock(), os.getpid())
    got: dict[int, R] = {}
    workers: list[BaseProcess] = []
    readers: dict[Connection, BaseProcess] = {}
    for stream in (sys.stdout, sys.stderr):  # nothing buffered is written twice
        stream.flush()
    gc.freeze()  # a worker's collections would touch (and copy) every page of the parent
    try:
        for _ in range(min(jobs, len(units))):
            reader, writer = context.Pipe(duplex=False)
            started: BaseProcess = context.Process(target=_work, args=(shared, writer), daemon=True)
            # a Ctrl-C while the child is being made would reach it before it ignores the
            # signal (a traceback from the fork's own hooks): it waits, blocked, until then
            signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                started.start()
            finally:
                signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
            writer.close()
            workers.append(started)
            readers[reader] = started

        def gather(step: Step) -> None:
            while readers:
                for ready in wait(list(readers)):
                    assert isinstance(ready, Connection)
                    _take(ready, readers, got, step)

        if meanwhile is None:
            gather(step)
        else:
            failed: list[BaseException] = []
            steps: list[int] = []

            def in_thread() -> None:
                try:
                    gather(steps.append)  # a progress bar is drawn by the main thread only
                except BaseException as e:  # raised again in the main thread
                    failed.append(e)

            gatherer = threading.Thread(target=in_thread, name="hiera-ls workers")
            gatherer.start()
            try:
                meanwhile()
            except BaseException:
                for worker in workers:
                    worker.kill()  # the thread sees the pipes close, and ends
                raise
            finally:
                gatherer.join()
            if failed:
                raise failed[0]
            for n in steps:
                step(n)
    finally:
        for worker in workers:
            if worker.is_alive():
                worker.kill()
        for worker in workers:
            worker.join()
        gc.unfreeze()
    return [got[i] for i in range(len(units))]


def _take(
    ready: Connection, readers: dict[Connection, BaseProcess], got: dict[int, R], step: Step
) -> None:
    """One message of a worker: a unit's result, its failure, or the end of its work."""
    try:
        message = ready.recv()
    except EOFError:
        dead = readers.pop(ready)
        dead.join()
        raise WorkerDied(
            f"a worker process ended ({_how(dead.exitcode)}) before its work was done; "
            "try again with --jobs 1"
        ) from None
    if message is None:  # the worker has no units left
        readers.pop(ready).join()
        return
    i, steps, ok, value = message
    if not ok:
        error, where = value
        raise error from _InWorker(where)
    got[i] = value
    step(steps)


def _how(code: int | None) -> str:
    if code is not None and code < 0:
        return f"killed by {signal.Signals(-code).name}"
    return f"exit status {code}"


@dataclass(frozen=True, slots=True)
class _Shared(Generic[U, R]):
    """What every worker reads: inherited through the fork, never pickled."""

    units: Sequence[U]
    work: Callable[[U, Step], R]
    next_unit: ctypes.c_longlong  # the first unit no worker has taken (shared memory)
    lock: Lock
    parent: int  # the process that gathers

    def claim(self) -> int | None:
        """The next unit no worker has taken."""
        with self.lock:
            taken = self.next_unit.value
            self.next_unit.value = taken + 1
        return taken if taken < len(self.units) else None


def _work(shared: _Shared[U, R], writer: Connection) -> None:
    """A worker's life: units until none is left, each result sent as it is done."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the run and kills it
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})  # blocked by the parent
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_DFL)  # not the parent's handler (diff's clean-up)
    _die_with_parent()
    steps = [0]

    def step(n: int) -> None:
        steps[0] += n

    while (i := shared.claim()) is not None:
        if os.getppid() != shared.parent:
            os._exit(1)
        steps[0] = 0
        try:
            result = shared.work(shared.units[i], step)
        except Exception as e:
            import traceback

            where = "".join(traceback.format_exception(e))
            writer.send((i, steps[0], False, (_sendable(e, where), where)))
            return
        writer.send((i, steps[0], True, result))
    writer.send(None)


def _sendable(error: Exception, where: str) -> Exception:
    """``error`` itself when it survives pickling, else its text and traceback."""
    import pickle

    try:
        pickle.loads(pickle.dumps(error))
    except Exception:
        return _Failed(where)
    return error


def _die_with_parent() -> None:
    """Linux kills this worker when the process that started it dies (even by SIGKILL)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
