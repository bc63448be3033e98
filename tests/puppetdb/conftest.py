"""One real PuppetDB for the whole test session (tests/puppetdb/service.py), with a fleet
of generated nodes loaded through its command API."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.puppetdb.fleet import Node, fleet
from tests.puppetdb.service import PuppetDB, available, running_puppetdb

FLEET_SIZE = 300  # the nodes every test sees; tests that change nodes add their own


@pytest.fixture(scope="session")
def puppetdb() -> Iterator[PuppetDB]:
    """PuppetDB answering over HTTP and TLS; skipped where it is not installed, except on
    CI, which installs it (.ci/puppetdb-setup.sh)."""
    why = available()
    if why is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI=true but {why}", pytrace=False)
        pytest.skip(why)
    with running_puppetdb() as pdb:
        pdb.replace_facts((n.certname, n.values) for n in base_fleet())
        yield pdb


def base_fleet() -> list[Node]:
    return list(fleet(FLEET_SIZE))
