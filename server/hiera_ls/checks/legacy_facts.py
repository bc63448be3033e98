"""Facter's legacy facts named by data and hierarchy paths, under a target whose agents do
not send them (Puppet 8: ``include_legacy_facts = false``): the migration's silent failure.

Verified on Puppet 8.10 (tests/differential/test_legacy_facts_vs_puppet.py): in a hiera.yaml
path, ``%{osfamily}``, ``%{::osfamily}`` and ``%{facts.osfamily}`` all become ``''``, so the
level matches nothing (the first two with a warning, ``Interpolation failed with
'osfamily', but compilation continuing``, the third without a word); in data,
``%{osfamily}`` and ``%{::osfamily}`` fail the lookup under strict_variables (Undefined
variable) and ``%{facts.osfamily}`` is ``''``.

Each finding names the structured fact that holds the value now (project/legacy_facts.py,
Facter's own table) and the facts profiles whose files still had the legacy fact, with its
value there: their nodes' answer is the one that changes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from hiera_ls.checks import interpolation_fixes
from hiera_ls.project.legacy_facts import LegacyFact, legacy_fact
from hiera_ls.project.profiles import ProfileEntry
from hiera_ls.project.targets import Target
from hiera_ls.puppet.message import Part, Text, as_value
from hiera_ls.puppet.ruby_text import to_s
from hiera_ls.source.keys import Segment
from hiera_ls.source.rules import Payload, Rule
from hiera_ls.source.spans import Severity

LEGACY_FACT = Rule(
    "legacy-fact",
    Severity.WARNING,
    "%{osfamily}, %{::operatingsystem}, %{facts.osfamily}: a legacy fact, which Puppet 8 "
    "agents do not send; the structured fact (%{facts.os.family}) holds its value",
    payload=Payload.VALUES,
    fix=interpolation_fixes.structured_fact,
)
RULES = (LEGACY_FACT,)

_SHOWN_PROFILES = 5


@dataclass(frozen=True, slots=True)
class LegacyFacts:
    """What the check needs: the target (whose agents send no legacy facts), and each facts
    profile whose file had some, with their values there (profile name, name -> value)."""

    target: Target
    had: tuple[tuple[str, Mapping[str, object]], ...] = ()

    @staticmethod
    def of(target: Target, profiles: Sequence[ProfileEntry]) -> LegacyFacts | None:
        """None when the target's agents still send legacy facts (nothing to check)."""
        if target.include_legacy_facts:
            return None
        had = tuple(
            (e.name, dict(zip(e.profile.left_out, e.profile.left_out_values, strict=True)))
            for e in profiles
            if e.profile.left_out
        )
        return LegacyFacts(target, had)

    def resolved(self, name: str) -> LegacyFact | None:
        """The legacy fact ``name`` is: any name of Facter's table; a per-interface (disk,
        zone) name only when a profile's Facter resolved it, since ``network_zone`` may as
        well be a custom fact."""
        fact = legacy_fact(name)
        if fact is None or (fact.per_instance and not any(name in v for _, v in self.had)):
            return None
        return fact

    def finding(
        self, segments: Sequence[Segment], local_variable: str | None, *, config: bool
    ) -> Finding | None:
        """The finding for a variable token's path (``osfamily``, ``::osfamily``,
        ``facts.osfamily``, a ``scope('...')`` argument), None when it names no legacy fact."""
        root = str(segments[0]).removeprefix("::")
        dug = root == "facts" and len(segments) > 1
        if dug:
            name, rest = str(segments[1]), segments[2:]
        elif root == local_variable or "::" in root:
            return None
        else:
            name, rest = root, segments[1:]
        fact = self.resolved(name)
        if fact is None:
            return None
        modern = "%{facts." + ".".join([fact.modern, *(_segment(s) for s in rest)]) + "}"
        return Finding(self._message(fact, str(segments[0]), modern, dug, config), fact, modern)

    def _message(self, fact: LegacyFact, root: str, modern: str, dug: bool, config: bool) -> Text:
        title = self.target.title
        said = (
            f"'{fact.name}' is a legacy fact: {title} agents do not send it "
            "(include_legacy_facts = false): "
        )
        if config and dug:
            said += (
                "this path has '' in its place for every node, so the level matches nothing, "
                "without a word"
            )
        elif config:
            said += (
                "this path has '' in its place for every node, so the level matches nothing "
                f"({title} only warns: Interpolation failed with '{root}', but compilation "
                "continuing)"
            )
        elif dug:
            said += f"facts.{fact.name} is '' for every node"
        elif self.target.strict_variables:
            said += (
                f"with strict_variables ({title}'s default) every lookup that reads this value "
                f"fails (Undefined variable '{root}')"
            )
        else:
            said += f"{title} warns and writes '' here"
        if fact.exact:
            said += f". Its value is in the structured fact {fact.modern}: write {modern}"
        else:
            said += (
                f". The nearest structured fact is {fact.modern} ({fact.differs}): the value "
                "needs converting where it is used"
            )
        parts: list[str | Part] = [said]
        had = [(name, values[fact.name]) for name, values in self.had if fact.name in values]
        if had:
            parts.append(". The facts profiles that had it: ")
            for i, (name, value) in enumerate(had[:_SHOWN_PROFILES]):
                parts.extend([", " if i else "", f"{name} (", as_value(to_s(value)), ")"])
            if len(had) > _SHOWN_PROFILES:
                parts.append(f" and {len(had) - _SHOWN_PROFILES} more")
            parts.append(
                ": under Puppet 7 their nodes had its value in this path"
                if config
                else ": their nodes' value here changes"
            )
        return Text.of(*parts)


@dataclass(frozen=True, slots=True)
class Finding:
    """A token's legacy fact: the message, the fact, and the token to write instead."""

    message: Text
    fact: LegacyFact
    modern: str

    @property
    def suggestions(self) -> tuple[str, ...]:
        """The quick fix's token, when the structured fact holds the very same value."""
        return (self.modern,) if self.fact.exact else ()


def _segment(segment: Segment) -> str:
    text = str(segment)
    return f"'{text}'" if "." in text else text
