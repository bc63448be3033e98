"""Session-wide fixtures shared by every test directory."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.oracle.puppet import PuppetOracle, puppet_available


@pytest.fixture(scope="session")
def puppet_oracle() -> Iterator[PuppetOracle]:
    """Puppet's own Hiera engine; skipped without Puppet, except on CI, which installs it."""
    if not puppet_available():
        if os.environ.get("CI") == "true":
            pytest.fail(
                "CI=true but `puppet` (Debian's puppet-agent) is not installed", pytrace=False
            )
        pytest.skip("`puppet` is not installed")
    with PuppetOracle() as oracle:
        yield oracle
