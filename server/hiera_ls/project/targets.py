"""Which Puppet a repository is checked for: the target, named once, and what it decides.

A target is a Puppet release line with its default settings, as the fleet's Puppet runs
them. Everything that differs between them reads this table (docs/differences.md says
what each entry changes and which Puppet it was verified against):

- ``strict``: Puppet's ``strict`` setting. Under ``error`` (Puppet 8) a YAML data file that
  is not a hash fails every lookup that reads it, and a version 3 hiera.yaml in an
  environment or module fails; under ``warning`` (Puppet 7) both are warned of and skipped.
- ``strict_variables``: an undefined variable in an interpolation fails the lookup
  (Puppet 8) instead of giving ``''`` (Puppet 7).
- ``include_legacy_facts``: whether agents send Facter's legacy facts (``osfamily``,
  ``ipaddress_eth0``, ...). Puppet 8 agents do not, so a facts profile written by an older
  Facter is read without them (project/legacy_facts.py holds Facter's table).
- ``environment_data_provider``: environment.conf's ``environment_data_provider`` is read
  (Puppet 7 and 8 and OpenVox 8, deprecated); OpenVox 9 removed the setting, together with
  ``data_binding_terminus`` (which lives in puppet.conf, which hiera-ls does not read).
  A module's ``data_provider`` in metadata.json is still read by OpenVox 9.0.

OpenVox 8 is built from Puppet 8's sources and has Puppet 8's semantics; OpenVox 9 keeps
them but for what it removed. The ``hiera()`` family of functions stays in all four
(deprecated; OpenVox 9 drops only the Puppet 3 parser-function shims, which already fail).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

Strictness = Literal["error", "warning"]


@dataclass(frozen=True, slots=True)
class Target:
    """One Puppet that nodes run, and the defaults of it that lookups depend on."""

    name: str  # what users write: puppet8
    title: str  # what messages say: Puppet 8
    strict: Strictness
    strict_variables: bool
    include_legacy_facts: bool
    environment_data_provider: bool
    verified_against: str  # the Puppet this row was checked against (docs/differences.md)

    @property
    def strict_errors(self) -> bool:
        """What ``strict = error`` fails and ``warning`` only warns of (see module doc)."""
        return self.strict == "error"

    @property
    def undefined_variable(self) -> str:
        """What an undefined variable in data does under this target, in a few words."""
        if self.strict_variables:
            return (
                f"with strict_variables ({self.title}'s default) every lookup that reads this "
                "value fails"
            )
        return f"{self.title} (no strict_variables) warns and writes '' here"


PUPPET7 = Target(
    "puppet7",
    "Puppet 7",
    strict="warning",
    strict_variables=False,
    include_legacy_facts=True,
    environment_data_provider=True,
    verified_against="Puppet 7.23.0 (Debian 12)",
)
PUPPET8 = Target(
    "puppet8",
    "Puppet 8",
    strict="error",
    strict_variables=True,
    include_legacy_facts=False,
    environment_data_provider=True,
    verified_against="Puppet 8.10.0 (Debian 13)",
)
OPENVOX8 = replace(
    PUPPET8,
    name="openvox8",
    title="OpenVox 8",
    verified_against="Puppet 8.10.0 (Debian 13); OpenVox 8 is built from Puppet 8's sources",
)
OPENVOX9 = replace(
    OPENVOX8,
    name="openvox9",
    title="OpenVox 9",
    environment_data_provider=False,
    verified_against="OpenVox 9.0.0-beta2's sources (no build of it runs here)",
)
TARGETS: Mapping[str, Target] = {t.name: t for t in (PUPPET7, PUPPET8, OPENVOX8, OPENVOX9)}
DEFAULT_TARGET = PUPPET8
TARGET_NAMES = tuple(TARGETS)


@dataclass(frozen=True, slots=True)
class TargetChoice:
    """The target a run uses, and what to tell the user about how it was chosen."""

    target: Target
    notes: tuple[str, ...] = ()


def choose_target(
    given: str | None,
    configured: str | None,
    strict_variables: bool | None = None,
    *,
    given_as: str = "--target",
    deprecated_as: str = "--strict-variables",
) -> TargetChoice:
    """The target named on the command line or in the editor's settings (``given``), else
    the deprecated strict-variables switch (``true``: puppet8, ``false``: puppet7, which is
    what it always meant, strict mode included), else the repository's ``.hiera-ls.yaml``
    (``configured``), else puppet8. Names are checked by the caller."""
    notes: list[str] = []
    if strict_variables is not None:
        meant = "puppet8" if strict_variables else "puppet7"
        if given is not None:
            notes.append(f"{deprecated_as} is deprecated and ignored: {given_as} {given} is given")
        else:
            notes.append(
                f"{deprecated_as} is deprecated and will be removed in a later release: "
                f"use {given_as} {meant} (what it means now), or name the target once in "
                ".hiera-ls.yaml (target: puppet7 | puppet8 | openvox8 | openvox9)"
            )
            given = meant
    name = given or configured
    target = TARGETS.get(name, DEFAULT_TARGET) if name else DEFAULT_TARGET
    return TargetChoice(target, tuple(notes))
