"""What ``hiera-ls diff`` found (report/diff.py finds it; report/diff_formats.py writes it):
per changed key, the profiles grouped by the change they see."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from hiera_ls.puppet.values import canonical


@dataclass(frozen=True, slots=True)
class Answer:
    """One lookup's outcome at one side, as the report shows it."""

    state: str  # "value", "missing" or "error"
    shown: object = None  # the value (in a report: plain data, eyaml masked), or the error
    same_as: object = None  # what equality is decided on (see same_as: Puppet's ==, unmasked)

    def as_data(self) -> dict[str, object]:
        if self.state == "value":
            return {"found": True, "value": self.shown}
        if self.state == "error":
            return {"error": self.shown}
        return {"found": False}


# the types whose JSON text says all canonical() says of them (not a str subclass: Encrypted)
_PLAIN = frozenset({str, int, float, bool, type(None)})


def same_as(value: object) -> object:
    """What decides whether two answers' values are the same: equal exactly when their
    :func:`canonical` forms are.  A value of plain data (hashes with String keys, arrays,
    strings, numbers, booleans, undef) is its JSON text with sorted keys: types still count
    (``1``, ``1.0``, ``true`` and ``"1"`` are written apart), a hash's order does not, and
    a string is a fraction of canonical()'s nested tuples and sets to make, to compare and
    to send from a worker.  Any other value (eyaml, a key that is not a String) keeps its
    canonical() form, which no plain value's equals (its tags, ``eyaml`` or a key's
    ``int``, are no plain value's)."""
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        kind = item.__class__
        if kind is dict:
            if any(key.__class__ is not str for key in item):
                return canonical(value)
            stack.extend(item.values())
        elif kind is list or kind is tuple:  # both an array to canonical() and to JSON
            stack.extend(item)
        elif kind not in _PLAIN:
            return canonical(value)
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


@dataclass(frozen=True, slots=True)
class ChangeGroup:
    """Profiles for which one key goes from the same ``before`` to the same ``after``."""

    profiles: tuple[str, ...]
    before: Answer
    after: Answer
    # (variable, value) every one of the profiles has, of those the hierarchy reads
    shared: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class KeyChange:
    """One key whose value changes, grouped by the profiles that see the same change."""

    environment: str  # the environment's directory, relative to the repository ("." for it)
    key: str
    groups: tuple[ChangeGroup, ...]


@dataclass(frozen=True, slots=True)
class DiffResult:
    """What ``hiera-ls diff`` found between two revisions, for its report."""

    base: str  # as the user named it
    head: str
    profiles: tuple[str, ...]  # compared ((NO_PROFILE,) when the repository has none)
    keys: int  # keys compared (over every environment)
    environments: tuple[str, ...]  # compared: a directory, or "base -> head" environments
    changes: tuple[KeyChange, ...]
    # levels that read data from outside the repository, each said once; values from there
    # are masked as eyaml's are (a pull request may name ~/.docker/config.json)
    outside: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # about the run itself (the target, facts left out ...)
