"""What ``hiera-ls diff`` found (report/diff.py finds it; report/diff_formats.py writes it):
per changed key, the profiles grouped by the change they see."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Answer:
    """One lookup's outcome at one side, as the report shows it."""

    state: str  # "value", "missing" or "error"
    shown: object = None  # the value (in a report: plain data, eyaml masked), or the error
    same_as: object = None  # what equality is decided on (Puppet's ==, unmasked)

    def as_data(self) -> dict[str, object]:
        if self.state == "value":
            return {"found": True, "value": self.shown}
        if self.state == "error":
            return {"error": self.shown}
        return {"found": False}


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
