"""pyproject.toml's runtime dependencies and the lowest versions CI tests them with agree."""

from __future__ import annotations

import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.docs.markdown import ROOT


def test_the_lowest_constraints_pin_each_dependency_at_an_allowed_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    wanted = {canonicalize_name(r.name): r for r in map(Requirement, project["dependencies"])}
    pinned: dict[str, Version] = {}
    for line in (ROOT / ".ci" / "lowest-constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pinned[canonicalize_name(name)] = Version(version)
    assert sorted(pinned) == sorted(wanted)
    for name, version in pinned.items():
        assert version in wanted[name].specifier, (name, version)
        # the lowest: the bound itself, or the first release of it that was not withdrawn
        (lower,) = [s for s in wanted[name].specifier if s.operator == ">="]
        bound = Version(lower.version).release
        assert version.release[: len(bound)] == bound, (name, version)
