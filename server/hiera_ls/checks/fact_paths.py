"""Fact paths no facts profile has, beside a name every profile has: a misspelt fact.

``%{facts.networking.hostnme}`` interpolates to '' for every node (Puppet says nothing:
a missing key of the facts hash is undef, also under strict_variables), so a hierarchy
level reads ``nodes/.yaml`` and a value loses its host name. Only the facts profiles know
which facts exist; a custom fact the profiles lack is not a typo, so a path is reported only
inside a structured fact (``networking``, ``os``: not at the top, where custom facts and the
legacy facts ``puppet facts show`` leaves out live), where its parent is a hash in every
profile and that hash has, in every profile, a near name (the "did you mean"). Without any
profile nothing is said.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from hiera_ls.checks.hiera_yaml import config_strings
from hiera_ls.project.model import Layer
from hiera_ls.project.workspace import Snapshot
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.interpolation import TokenKind, scan
from hiera_ls.source.keys import split_key
from hiera_ls.source.rules import Needs, Rule
from hiera_ls.source.scalars import Locator, StringSite, iter_strings
from hiera_ls.source.spans import Details, Problem, Severity, Span
from hiera_ls.source.text_edits import Fix, edit
from hiera_ls.source.yaml_edits import one_line

Facts = Mapping[str, object]
NEAR = 0.75  # difflib's ratio from which a name is offered as meant


def _did_you_mean(problem: Problem, src: FixSource) -> list[Fix]:
    span = one_line(problem)
    written = src.at(span)
    wrong, right = problem.details.key, problem.details.suggestions
    if not wrong or not right or written.count(wrong) != 1 or not written.startswith("%{"):
        return []
    new = written.replace(wrong, right[0])
    return [Fix(f"Write {right[0]}", edit(span, new), preferred=True)]


UNKNOWN_FACT = Rule(
    "interpolation-unknown-fact",
    Severity.WARNING,
    "%{facts.a.b}: a fact no facts profile has, beside a near name every profile has: it "
    "interpolates to ''",
    needs=Needs.PROFILE,
    fix=_did_you_mean,
)
RULES = (UNKNOWN_FACT,)


@dataclass(frozen=True, slots=True)
class KnownFacts:
    """The facts of every profile that has any, and each fact path's verdict once worked out:
    a fleet's thousands of data files name the same few paths, and a verdict reads every
    profile (2,000 nodes: 27 of a check's 35 s went to asking again)."""

    facts: tuple[Facts, ...]
    verdicts: dict[tuple[str, ...], tuple[int, str] | None] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __len__(self) -> int:
        return len(self.facts)

    def misspelt(self, names: tuple[str, ...]) -> tuple[int, str] | None:
        """:func:`_misspelt` of ``names`` over every profile."""
        if names not in self.verdicts:
            self.verdicts[names] = _misspelt(names, self.facts)
        return self.verdicts[names]


NO_FACTS = KnownFacts(())
_KNOWN_FACTS = "known facts"  # a key of Snapshot.memo


def known_facts(snapshot: Snapshot) -> KnownFacts:
    """The facts of every profile that has any (a misspelt fact is one none of them has),
    shared by every file the snapshot's checks read."""
    known = snapshot.memo.get(_KNOWN_FACTS)
    if not isinstance(known, KnownFacts):
        facts = tuple(e.profile.facts for e in snapshot.profiles if e.profile.error is None)
        known = snapshot.memo[_KNOWN_FACTS] = KnownFacts(facts)
    return known


def check_data_fact_paths(
    path: str, data_file: DataFile, locator: Locator, facts: KnownFacts
) -> list[Problem]:
    """The misspelt fact paths of a data file's strings (values and keys)."""
    if not facts or not locator.may_have_tokens:
        return []
    out: list[Problem] = []
    for site in iter_strings(data_file, locator.lines):
        if not site.alias:
            out.extend(_in_string(path, site, locator, facts))
    return out


def check_config_fact_paths(layer: Layer, text: str, facts: KnownFacts) -> list[Problem]:
    """The misspelt fact paths of a hiera.yaml's datadirs and location templates."""
    config = layer.config
    if not facts or config is None or config.path is None:
        return []
    locator = Locator.of(text)
    out: list[Problem] = []
    for site, _ in config_strings(layer):
        out.extend(_in_string(config.path, site, locator, facts))
    return out


def _in_string(
    path: str, site: StringSite, locator: Locator, facts: KnownFacts
) -> Iterator[Problem]:
    for token in scan(site.value):
        if token.kind is TokenKind.METHOD or token.kind is TokenKind.EMPTY:
            continue
        segments = split_key(token.expression)
        if segments is None or str(segments[0]).removeprefix("::") != "facts":
            continue
        names = [s for s in segments[1:]]
        if not names or not all(isinstance(s, str) for s in names):
            continue
        found = facts.misspelt(tuple(map(str, names)))
        if found is None:
            continue
        depth, meant = found
        written = ".".join(["facts", *map(str, names[: depth + 1])])
        right = ".".join(["facts", *map(str, names[:depth]), meant])
        span: Span = locator.span(site, token.start, token.end)
        yield UNKNOWN_FACT.at(
            f"No facts profile has the fact {written} ({len(facts)} profiles), while every "
            f"one has {right}: did you mean {right}? A fact that does not exist interpolates "
            "to '' without a word",
            path,
            span,
            Details(key=written, suggestions=(right,)),
        )


def _misspelt(names: tuple[str, ...], facts: Sequence[Facts]) -> tuple[int, str] | None:
    """The first segment no profile has where each profile's hash there has a near name they
    all share: (its index, the near name). A top-level fact is not judged."""
    level: list[object] = list(facts)
    for depth, name in enumerate(names):
        if not all(isinstance(h, Mapping) for h in level):
            return None  # an Array or a String inside: not judged
        hashes = [h for h in level if isinstance(h, Mapping)]
        if depth == 0 and not all(name in h for h in hashes):
            return None  # a custom or legacy fact the profiles lack, or a fact of some nodes
        if any(name in h for h in hashes):
            if not all(name in h for h in hashes):
                return None  # some profiles have it: a fact of some nodes only
            level = [h[name] for h in hashes]
            continue
        shared = set.intersection(*(set(map(str, h)) for h in hashes))
        near = difflib.get_close_matches(name, sorted(shared), n=1, cutoff=NEAR)
        return (depth, near[0]) if near else None
    return None
