"""Differential-test fixtures: session statistics, printed at the end of the run."""

from __future__ import annotations

import pytest

from tests.differential.harness import DiffStats

STATS = pytest.StashKey[DiffStats]()


def pytest_configure(config: pytest.Config) -> None:
    config.stash[STATS] = DiffStats()


@pytest.fixture
def diff_stats(request: pytest.FixtureRequest) -> DiffStats:
    return request.config.stash[STATS]


def pytest_terminal_summary(
    terminalreporter: pytest.TerminalReporter, exitstatus: int, config: pytest.Config
) -> None:
    lines = config.stash[STATS].summary() if STATS in config.stash else []
    if lines:
        terminalreporter.section("hiera-ls vs Puppet")
        for line in lines:
            terminalreporter.write_line(line)
