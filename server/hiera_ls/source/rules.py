"""A rule: one diagnostic code and everything the tool knows about it, in one record.

A code is forever: users silence and search for it, and docs/diagnostics.md explains it. Its
record is written once, in the module of the family that finds it (beside the check, with its
fix builder), and ``checks/rules.py`` gathers every family's records into the one catalog the
checks' policy, the reports, redaction and the editor's code actions read. A problem is made
from its record (:meth:`Rule.at`), so no code can be emitted without one.

This module lives in ``source/``, the lowest layer that finds problems (the YAML and JSON
loaders); the layers above declare their own families' records with it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum, Flag, auto
from typing import TYPE_CHECKING

from hiera_ls.puppet.message import Text
from hiera_ls.source.spans import Details, FileSpan, Problem, Severity, Span

if TYPE_CHECKING:
    from hiera_ls.source.fix_source import FixSource
    from hiera_ls.source.text_edits import Fix

# A rule's quick fixes for one problem, from the problem and the file's text alone.
FixBuilder = Callable[[Problem, "FixSource"], "list[Fix]"]


class Needs(Flag):
    """What a rule's check needs besides the file itself; without it the check does not run,
    so a suppression of the rule's code is not judged unused."""

    FILE = 0  # the file alone
    INDEX = auto()  # the whole environment (every data file's keys, every level)
    CODE = auto()  # the environment's Puppet code (classes, parameters, lookups)
    PROFILE = auto()  # a facts profile: the rule runs real lookups for its node


class Payload(Enum):
    """How a rule's message reaches a report that leaves the machine."""

    NAMES = "names"  # keys, paths, hiera.yaml fields, types, classes, strategies: shown as is
    VALUES = "values"  # it also quotes data values: masked unless ``check --show-values``


@dataclass(frozen=True, slots=True)
class Rule:
    """One diagnostic code.

    ``cause``: a problem of this rule makes lookups fail elsewhere (a file Puppet cannot
    parse, a hiera.yaml it refuses, a bad lookup_options entry): those failures are folded
    into it as its consequences. ``unnecessary``: it marks something that does nothing, which
    editors grey out. ``fix_safe``: ``check --fix`` applies the fix unasked (it keeps every
    value and key order Puppet reads, or makes a file Puppet refuses read as evidently meant).
    """

    code: str
    severity: Severity
    summary: str
    needs: Needs = Needs.FILE
    payload: Payload = Payload.NAMES
    fix: FixBuilder | None = None
    fix_safe: bool = False
    cause: bool = False
    unnecessary: bool = False

    @property
    def anchor(self) -> str:
        """The documentation section: ``docs/diagnostics.md#<anchor>``, as GitHub's markdown
        renderer names the heading ``### `code` (severity)``."""
        return heading_anchor(f"`{self.code}` ({self.severity.value})")

    def at(
        self,
        message: str | Text,
        path: str,
        span: Span,
        details: Details | None = None,
    ) -> Problem:
        """A problem of this rule at ``path``:``span``; ``message`` a :class:`Text` when it
        quotes data values (a plain string holds names and fixed words only)."""
        text = message if isinstance(message, Text) else Text.of(message)
        if details is None:
            return Problem(self.code, text, self.severity, FileSpan(path, span))
        return Problem(self.code, text, self.severity, FileSpan(path, span), details)


def heading_anchor(heading: str) -> str:
    """GitHub's anchor of a markdown heading: lower case, punctuation other than ``-`` and
    ``_`` dropped, spaces as ``-``."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def table(*families: Iterable[Rule]) -> dict[str, Rule]:
    """Records by code; a code given twice is a programming error, caught at import."""
    out: dict[str, Rule] = {}
    for family in families:
        for rule in family:
            if rule.code in out:
                raise ValueError(f"diagnostic code {rule.code} has two records")
            out[rule.code] = rule
    return out
