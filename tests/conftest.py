"""Session-wide fixtures shared by every test directory."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

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
