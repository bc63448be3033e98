"""The cause before its consequences: a problem that makes lookups fail elsewhere (a data file
Puppet cannot parse, a hiera.yaml it refuses, a bad lookup_options entry) is reported once,
where it is, carrying the lookups it breaks; those are not reported beside it.

The engine says why a lookup failed (``puppet/errors.py``: ``Cause``, a file, or a
lookup_options entry); the every-profile lookups (``profile_coverage.py``) gather each cause's
failed lookups; :func:`fold` hands them to the problem that is the cause.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from hiera_ls.checks.problems import file_order
from hiera_ls.checks.rules import RULES
from hiera_ls.puppet.errors import Cause
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.spans import Consequence, Consequences, Problem

ByCause = Mapping[Cause, Sequence[Consequence]]


def fold(problems: Sequence[Problem], found: ByCause, profiles: int) -> list[Problem]:
    """``problems`` of one file, each cause carrying the lookups it makes fail."""
    if not found:
        return list(problems)
    causes = [p for p in problems if (r := RULES.get(p.code)) is not None and r.cause]
    # the file's first problem that refuses the whole file stands for the file
    whole = [p for p in causes if p.details.key is None]
    first = min(whole, key=file_order) if whole else None
    out: list[Problem] = []
    for problem in problems:
        if problem not in causes:
            out.append(problem)
            continue
        items = {c for cause in _causes_of(problem, problem is first) for c in found.get(cause, ())}
        if items:
            merged = tuple(sorted(items, key=lambda c: (c.where.path, c.where.span.start, c.key)))
            problem = replace(problem, consequences=Consequences(merged, profiles))
        out.append(problem)
    return out


def _causes_of(problem: Problem, whole_file: bool) -> list[Cause]:
    """The causes a problem may be: its file, the key it poisons in its file, or the
    lookup_options entry it is about."""
    path, details = problem.where.path, problem.details
    if details.key is None:
        return [Cause(path)] if whole_file else []
    if details.place[:1] == (LOOKUP_OPTIONS,):
        return [Cause(key=details.key)]
    return [Cause(path, details.key)]


def words(consequences: Consequences) -> str:
    """``and makes 13 lookups fail in 5 files`` (for the profiles some of them are about)."""
    lookups = len(consequences.items)
    files = consequences.files
    text = (
        f"and makes {lookups} lookup{'s' * (lookups != 1)} fail in {files} file{'s' * (files != 1)}"
    )
    names = sorted({p for c in consequences.items for p in c.profiles})
    if names and len(names) < consequences.profiles:
        from hiera_ls.checks.profile import profile_label  # (the engine's lookups, on first use)

        text += f" (for {profile_label(names, consequences.profiles)})"
    return text


def with_words(message: str, consequences: Consequences | None) -> str:
    """The message, and what the problem makes fail when it makes something fail."""
    if consequences is None:
        return message
    return f"{message.rstrip('.')}, {words(consequences)}"
