"""Session-wide fixtures shared by every test directory, and the markers of the quick loop.

``python3 -m pytest -q -m "not slow"`` is the quick loop: every test that needs no Puppet or
Ruby, no editor, no VS Code, no server process and no fresh install. The markers say what a
test needs (CONTRIBUTING.md lists them); each of those kinds implies ``slow``, and most are
given here, by directory and by fixture, so a test file seldom names one itself.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

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


TESTS = Path(__file__).resolve().parent
# Every test of these kinds is slow: the quick loop leaves them out.
SLOW_KINDS = ("puppet", "editor", "vscode", "lsp_e2e", "install", "puppetdb")
# Every test under tests/<directory> is of this kind.
DIRECTORY_KINDS = {
    "e2e": "lsp_e2e",
    "vscode": "vscode",
    "install": "install",
    "puppetdb": "puppetdb",
}
# A test that uses this fixture is of this kind.
FIXTURE_KINDS = {"puppet_oracle": "puppet", "fresh_client": "lsp_e2e", "puppetdb": "puppetdb"}


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        path = Path(str(item.path))
        if path.is_relative_to(TESTS):
            kind = DIRECTORY_KINDS.get(path.relative_to(TESTS).parts[0])
            if kind is not None:
                item.add_marker(kind)
        for fixture, kind in FIXTURE_KINDS.items():
            if fixture in getattr(item, "fixturenames", ()):
                item.add_marker(kind)
        if any(item.get_closest_marker(kind) for kind in SLOW_KINDS):
            item.add_marker("slow")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """The quick loop does not import the directories whose every test is slow (their
    modules load language-server clients and installers: a second of the loop)."""
    quick = config.getoption("markexpr", "") == "not slow"
    if quick and collection_path.parent == TESTS and collection_path.name in DIRECTORY_KINDS:
        return True
    return None
