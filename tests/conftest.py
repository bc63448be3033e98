"""Session-wide fixtures shared by every test directory, and the markers of the quick loop.

``python3 -m pytest -q -m "not slow"`` is the quick loop: every test that needs no Puppet or
Ruby, no editor, no VS Code, no server process and no fresh install. The markers say what a
test needs (CONTRIBUTING.md lists them); each of those kinds implies ``slow``, and most are
given here, by directory, by module name and by fixture, so a test file seldom names one
itself.
"""

from __future__ import annotations

import gc
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.examples import SESSION
from tests.oracle.engines import PuppetEngine, chosen_engines
from tests.oracle.puppet import PuppetOracle


@pytest.fixture(scope="session", params=chosen_engines(), ids=lambda engine: engine.name)
def puppet_engine(request: pytest.FixtureRequest) -> PuppetEngine:
    """Each reference Puppet in turn (tests/oracle/engines.py: Puppet 7.23 and 8.10); one that
    is not installed is skipped, except on CI, which installs both."""
    engine: PuppetEngine = request.param
    why = engine.missing()
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {engine.title} cannot run: {why}", pytrace=False)
        pytest.skip(why)
    return engine


@pytest.fixture(scope="session")
def puppet_oracle(puppet_engine: PuppetEngine) -> Iterator[PuppetOracle]:
    """Puppet's own Hiera engine, one process per reference Puppet."""
    with PuppetOracle(puppet_engine) as oracle:
        yield oracle


TESTS = Path(__file__).resolve().parent
# Every test of these kinds is slow: the quick loop leaves them out.
SLOW_KINDS = ("puppet", "editor", "vscode", "lsp_e2e", "install", "puppetdb")
# Every test under tests/<directory> is of this kind.
DIRECTORY_KINDS = {
    "e2e": "lsp_e2e",
    "vscode": "vscode",
    "install": "install",
    "puppetdb": "puppetdb",
    "oracle": "puppet",
}
# Every test in a module whose name holds this (tests/differential/*_vs_puppet*.py) compares
# hiera-ls with Puppet: it is of kind ``puppet``.
PUPPET_MODULES = "_vs_puppet"
# A test that uses this fixture is of this kind.
FIXTURE_KINDS = {
    "puppet_oracle": "puppet",
    "puppet_engine": "puppet",
    "fresh_client": "lsp_e2e",
    "puppetdb": "puppetdb",
}


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path))
        if path.is_relative_to(TESTS):
            kind = DIRECTORY_KINDS.get(path.relative_to(TESTS).parts[0])
            if kind is not None:
                item.add_marker(kind)
        if PUPPET_MODULES in path.name:
            item.add_marker("puppet")
        for fixture, kind in FIXTURE_KINDS.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(kind)
        if any(item.get_closest_marker(kind) for kind in SLOW_KINDS):
            item.add_marker("slow")


def _quick_loop(config: pytest.Config) -> bool:
    return bool(config.getoption("markexpr", "") == "not slow")


# The quick loop's processes, where pytest-xdist is installed (``-n 0`` runs it in one).
QUICK_PROCESSES = 2


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads ``-n``
def pytest_cmdline_main(config: pytest.Config) -> None:
    """The whole quick loop (no paths named) runs its tests on two processes, a 2-core
    machine's, each collecting for itself: about 20% more CPU, done sooner unless the
    machine is busy already. A run of chosen tests, and the whole suite, stay on one process
    (its Puppet oracles and PuppetDB are started once per session, and its editor and VS
    Code tests were never run beside each other)."""
    if (
        _quick_loop(config)
        and config.args_source is pytest.Config.ArgsSource.TESTPATHS
        and config.pluginmanager.hasplugin("xdist")
        and not hasattr(config, "workerinput")  # an xdist worker itself
        and config.getoption("numprocesses", None) is None
        and not config.getoption("collectonly")
        and not config.getoption("usepdb")
    ):
        config.option.numprocesses = QUICK_PROCESSES


# The garbage collector's young generation is collected after this many new objects (Python's
# default: 700), and the full collection comes after this many of the middle one's (10).
YOUNG_OBJECTS = 10_000


def pytest_configure(config: pytest.Config) -> None:
    """Property tests try a share of their examples in the quick loop (tests/examples.py);
    their modules are imported after this, at collection.

    The test process keeps what pytest, its plugins and then every collected module load
    to its end, and each full collection of the garbage collector walked all of it: 5.7 s
    of the quick loop's 46 s of CPU went to collections (a full one took over 0.1 s) that
    found almost nothing. What is loaded is set apart (``gc.freeze``) once loaded, and the
    young generation is collected less often, as the server does (``lsp/serve.py``); no
    test asks when garbage is collected, only what ``gc.collect()`` leaves."""
    SESSION.quick_loop = _quick_loop(config)
    gc.freeze()
    gc.set_threshold(YOUNG_OBJECTS, 10, 10)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection imported (the test modules, the parts of hiera_ls they import) lives
    to the end: the garbage collector need not walk it again (``pytest_configure``)."""
    gc.freeze()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The quick loop does not import the directories and modules whose every test is slow
    (their modules load language-server clients and installers, and the comparisons with
    Puppet assert much: two seconds of the loop, rewriting asserts it would not run)."""
    if not _quick_loop(config) or not collection_path.is_relative_to(TESTS):
        return None
    if collection_path.parent == TESTS and collection_path.name in DIRECTORY_KINDS:
        return True
    if collection_path.suffix == ".py" and PUPPET_MODULES in collection_path.name:
        return True
    return None
