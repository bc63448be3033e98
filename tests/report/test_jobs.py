"""``check`` and ``diff`` with ``--jobs N``: the report, the exit status and the notes on
stderr are the same for any N, on random repositories and fleets and on the shipped
example; a worker's failure is the user's message, and no worker outlives the run.

Work this small is done in-process unless told otherwise: the tests lower the threshold to
nothing, and check that workers did run.  The quick loop runs one random repository of
``check``; ``diff``, the example, the revisions, the other seeds and the failures run with
the slow tests."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.report import workers
from hiera_ls.report.run import CheckError
from tests.engine.test_node_classes import _env, _env_with_module
from tests.report.diff_fixture import planted_repo
from tests.report.test_check_classes import _fleet

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "control-repo"

Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def spread_always(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """Workers for any work, however small; the pids of the workers started."""
    monkeypatch.setattr(workers, "MIN_SPREAD_S", 0.0)
    started: list[int] = []
    real = workers._in_workers

    def spy(*args: object, **kwargs: object) -> object:
        started.append(len(started))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(workers, "_in_workers", spy)
    yield started


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    def go(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return go


def _same_for_any_jobs(run: Run, *argv: str) -> tuple[int, str, str]:
    one = run(*argv, "--jobs", "1")
    two = run(*argv, "--jobs", "2")
    assert two == one
    return one


# one seed in the quick loop, the others with the slow tests
SEEDS = [0, *(pytest.param(s, marks=pytest.mark.slow) for s in range(1, 4))]


@pytest.mark.parametrize("seed", SEEDS)
def test_check_reports_the_same_for_any_number_of_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run, spread_always: list[int], seed: int
) -> None:
    _fleet(tmp_path, seed, 24)
    monkeypatch.chdir(tmp_path)
    code, out, err = _same_for_any_jobs(run, "check", "--format", "json", ".")
    assert spread_always  # workers did the work of --jobs 2
    assert code == 1 and json.loads(out)["findings"]
    assert err.count("note:") == len(set(err.splitlines()))  # each note once, not per worker


@pytest.mark.slow
def test_check_of_the_example_is_the_same_with_workers(
    monkeypatch: pytest.MonkeyPatch, run: Run, spread_always: list[int]
) -> None:
    monkeypatch.chdir(EXAMPLE)
    for format in ("json", "text", "sarif"):
        _same_for_any_jobs(run, "check", "--format", format)
    assert spread_always


def test_check_of_the_example_starts_no_worker(monkeypatch: pytest.MonkeyPatch, run: Run) -> None:
    """Work that takes a blink is done in-process: a worker would cost more than it saves."""
    started: list[object] = []
    monkeypatch.setattr(workers, "_in_workers", lambda *a, **k: started.append(a))
    monkeypatch.chdir(EXAMPLE)
    code, _, _ = run("check", "--jobs", "8")
    assert (code, started) == (0, [])


def _fleet_environments(root: Path, seed: int, with_module: bool) -> None:
    """test_node_classes.py's random environments "base" and "head" and their nodes."""
    rng = random.Random(seed)
    nodes = [f"n{i}.example.com" for i in range(24)]
    for side in ("base", "head"):
        (_env_with_module if with_module else _env)(root / "environments" / side, rng, nodes)
    for name in nodes:
        facts = {
            "clientcert": name,
            "networking": {"hostname": name.split(".")[0]},
            "role": rng.choice(["web", "db"]),
            "os": {"family": rng.choice(["Debian", "RedHat"])},
            "dc": rng.choice(["fra", "ams"]),
        }
        path = root / ".hiera-ls" / "facts" / f"{name}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(facts))


@pytest.mark.slow  # the quick loop compares check's reports (above)
@pytest.mark.parametrize("seed", range(3))
def test_diff_of_a_fleet_reports_the_same_for_any_number_of_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run, spread_always: list[int], seed: int
) -> None:
    _fleet_environments(tmp_path, seed, with_module=seed % 2 == 1)
    monkeypatch.chdir(tmp_path)
    sides = ("--base-environment", "base", "--head-environment", "head")
    for format in ("text", "json", "markdown"):
        code, out, _ = _same_for_any_jobs(run, "diff", *sides, "--format", format)
        assert code == 1 and out
    assert spread_always


@pytest.mark.slow
def test_diff_between_revisions_is_the_same_with_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run, spread_always: list[int]
) -> None:
    before, after = planted_repo(tmp_path)
    monkeypatch.chdir(tmp_path)
    for format in ("text", "json", "markdown"):
        code, out, _ = _same_for_any_jobs(
            run, "diff", "--base", before, "--head", after, "--format", format
        )
        assert code == 1 and "app::port" in out
    code, _, _ = _same_for_any_jobs(run, "diff")  # the working tree against HEAD
    assert code == 0
    assert spread_always


@pytest.mark.parametrize("value", ["0", "-1", "two", "1.5"])
def test_a_bad_number_of_jobs_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], value: str
) -> None:
    for command in ("check", "diff"):
        with pytest.raises(SystemExit) as stopped:
            main([command, f"--jobs={value}"])
        assert stopped.value.code == 2
        err = capsys.readouterr().err
        assert f"hiera-ls {command}: error: argument --jobs/-j: give a whole number of " in err
        assert f"1 or more: '{value}'" in err


def test_the_default_is_the_usable_cores() -> None:
    from hiera_ls.cli import build_parser

    args = build_parser("check").parse_args(["check"])
    assert args.jobs == workers.usable_cores() >= 1


@pytest.mark.skipif(not workers.can_fork(), reason="workers are forks")
def test_work_beside_this_process_takes_one_worker_for_one_job(worker_pids: list[int]) -> None:
    """With work of its own (``meanwhile``), one job is one worker beside this process (the
    process's core is the meanwhile work's): every unit there, in the units' order."""
    here: list[int] = []
    done = workers.spread(
        [range(0, 2), range(2, 5), range(5, 6)],
        lambda unit, _: (os.getpid(), list(unit)),
        1,
        meanwhile=lambda: here.append(os.getpid()),
    )
    assert here == [os.getpid()]
    assert len(worker_pids) == 1
    assert done == [(worker_pids[0], [0, 1]), (worker_pids[0], [2, 3, 4]), (worker_pids[0], [5])]
    assert workers.spread([range(1), range(1)], lambda unit, _: os.getpid(), 1) == [os.getpid()] * 2


def _checked_in_a_worker(monkeypatch: pytest.MonkeyPatch, fail: Callable[[], None]) -> None:
    """Make the lookups of the check's first class call ``fail`` in the worker only."""
    from hiera_ls.features import class_checks

    real = class_checks.ClassChecks.file_problems
    parent = os.getpid()

    def failing(self: object, path: str, entry: object) -> object:
        if os.getpid() != parent and entry is not None:
            fail()
        return real(self, path, entry)  # type: ignore[arg-type]

    monkeypatch.setattr(class_checks.ClassChecks, "file_problems", failing)


def _children_gone(pids: list[int]) -> bool:
    for _ in range(50):
        if not any(Path(f"/proc/{pid}").exists() for pid in pids):
            return True
        time.sleep(0.05)
    return False


@pytest.fixture
def worker_pids(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    import multiprocessing.process

    pids: list[int] = []
    real = multiprocessing.process.BaseProcess.start

    def start(self: multiprocessing.process.BaseProcess) -> None:
        real(self)
        assert self.pid is not None
        pids.append(self.pid)

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", start)
    return pids


@pytest.mark.slow
def test_a_users_error_in_a_worker_is_said_as_in_process(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    run: Run,
    spread_always: list[int],
    worker_pids: list[int],
) -> None:
    _fleet(tmp_path, 0, 24)
    monkeypatch.chdir(tmp_path)

    def fail() -> None:
        raise CheckError("data/common.yaml: cannot be read")

    _checked_in_a_worker(monkeypatch, fail)
    code, out, err = run("check", "--jobs", "2", ".")
    assert (code, out) == (2, "")
    assert err.endswith("hiera-ls check: error: data/common.yaml: cannot be read\n")
    assert worker_pids and _children_gone(worker_pids)


@pytest.mark.slow
def test_a_worker_killed_is_an_error_and_the_others_are_stopped(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    run: Run,
    spread_always: list[int],
    worker_pids: list[int],
) -> None:
    _fleet(tmp_path, 0, 24)
    monkeypatch.chdir(tmp_path)
    _checked_in_a_worker(monkeypatch, lambda: os.kill(os.getpid(), signal.SIGKILL))
    code, out, err = run("check", "--jobs", "2", ".")
    assert (code, out) == (2, "")
    assert err.endswith(
        "hiera-ls check: error: a worker process ended (killed by SIGKILL) before its work "
        "was done; try again with --jobs 1\n"
    )
    assert worker_pids and _children_gone(worker_pids)


INTERRUPTED = """\
import os, sys, time
from hiera_ls.report import workers
from hiera_ls.features import class_checks
workers.MIN_SPREAD_S = 0.0
parent = os.getpid()
real = class_checks.ClassChecks.file_problems
def slow(self, path, entry):
    if os.getpid() != parent:
        print("working", flush=True)
        time.sleep(60)
    return real(self, path, entry)
class_checks.ClassChecks.file_problems = slow
from hiera_ls.cli import main
raise SystemExit(main(["check", "--jobs", "2", "."]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("command", ["check", "diff"])
def test_ctrl_c_stops_every_worker_without_a_traceback(tmp_path: Path, command: str) -> None:
    """Ctrl-C at a terminal signals the whole process group, workers included."""
    if command == "check":
        _fleet(tmp_path, 0, 24)
        script = INTERRUPTED
    else:
        _fleet_environments(tmp_path, 0, with_module=False)
        script = INTERRUPTED.replace("class_checks.ClassChecks.file_problems", "diff._Side._answer")
        script = script.replace("from hiera_ls.features import class_checks", "")
        script = script.replace(
            "import os, sys, time", "import os, sys, time\nfrom hiera_ls.report import diff"
        )
        script = script.replace("def slow(self, path, entry):", "def slow(self, session, key):")
        script = script.replace("real(self, path, entry)", "real(self, session, key)")
        script = script.replace(
            '["check", "--jobs", "2", "."]',
            '["diff", "--jobs", "2", "--base-environment", "base", "--head-environment", "head"]',
        )
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "server"), str(ROOT)])}
    process = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(script)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job
    )
    try:
        assert process.stdout is not None
        assert "working" in process.stdout.readline()  # a worker has started (or both)
        os.killpg(process.pid, signal.SIGINT)
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    # check returns 130; diff removes its checkouts, then dies of the signal, as it always has
    assert process.returncode == (130 if command == "check" else -signal.SIGINT)
    assert "Traceback" not in err
    for _ in range(50):  # no process of the group is left
        try:
            os.killpg(process.pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail("a worker outlived the run")


@pytest.mark.slow
def test_diff_of_a_repository_without_hiera_data_compares_nothing_with_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run
) -> None:
    (tmp_path / "README").write_text("no data here\n")
    for command in (["init", "-q"], ["add", "README"], ["commit", "-qm", "x"]):
        subprocess.run(
            ["git", "-c", "user.email=a@b", "-c", "user.name=a", *command],
            cwd=tmp_path,
            check=True,
        )
    monkeypatch.chdir(tmp_path)
    code, out, _ = run("diff", "--jobs", "2")
    assert (code, out) == (
        0,
        "No changes: 0 of 0 keys change for 1 profile (HEAD -> working tree)\n",
    )
