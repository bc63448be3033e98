"""Ruby-side value kinds that have no Python twin, and Ruby's rendering of values.

Loaded data uses plain Python values (dict, list, str, int, float, bool, None).  Psych can
also produce Ruby Symbols (``:name``); they are kept as :class:`RubySymbol` so that later
layers can do what Puppet does with them (keys become strings, values fail type checks).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RubySymbol:
    name: str

    def __str__(self) -> str:
        return self.name
