"""The differences between the reference Puppets that hiera-ls does not model.

hiera-ls follows one Puppet per target (project/targets.py), and the differential tests run
every target's settings on both reference Puppets. Where a Puppet answers otherwise than
its own release line's target would, and the target does not say so, the difference is
listed here and in docs/differences.md (the anchor), with the case that shows it. A lookup
that differs in a listed way is counted as documented, not failed; the counts are printed
with the run's summary, so a listed difference that no longer occurs is seen.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from hiera_ls.project.targets import Target

DOC = "docs/differences.md"

_LOCATION_ERROR = re.compile(r"^Undefined variable '[^']*' \(file: .*hiera\.yaml, line: \d+\)$")


@dataclass(frozen=True, slots=True)
class KnownDifference:
    anchor: str  # the section of docs/differences.md that explains it
    engine: str  # the reference Puppet that answers otherwise: puppet7, puppet8
    # (target, Puppet's answer, hiera-ls' answer) -> whether this difference explains them
    applies: Callable[[Target, Mapping[str, Any], Mapping[str, Any]], bool]


KNOWN: tuple[KnownDifference, ...] = (
    # Puppet 7 run with strict = error (what the puppet8 target's settings ask of it) fails
    # a lookup whose hierarchy names an undefined variable in a version 5 location; Puppet 8
    # (PUP-11751), and hiera-ls, warn and read '' there. Every lookup of such an
    # environment fails in Puppet 7, whatever hiera-ls answers.
    KnownDifference(
        "puppet-7-with-strict-error-fails-on-undefined-variables-in-hierarchy-paths",
        "puppet7",
        lambda target, puppet, ours: (
            target.strict_errors and bool(_LOCATION_ERROR.match(str(puppet.get("error", ""))))
        ),
    ),
)


def documented(
    engine: str, target: Target, puppet: Mapping[str, Any], ours: Mapping[str, Any]
) -> KnownDifference | None:
    """The listed difference that explains why Puppet and hiera-ls answer otherwise."""
    for known in KNOWN:
        if known.engine == engine and known.applies(target, puppet, ours):
            return known
    return None
