"""What an answer may be missing: the hierarchy levels hiera-ls skipped, and what each could
change (the value, the key's lookup_options, or both).

A level is skipped when its backend is a custom function with no reader mapped to it
(project/backends.py). It may hold the value when the search reached it; it may hold the
key's lookup_options whenever it is in a layer whose lookup_options the key reads (that read
visits every level). The answer says so once, however many levels and nested lookups.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from hiera_ls.engine.invocation import OPTIONS, VALUE, SkippedLevel

MERGE = "merge strategy"


@dataclass(frozen=True, slots=True)
class Incomplete:
    """The skipped levels in search order, each with what it could change."""

    levels: tuple[tuple[SkippedLevel, tuple[str, ...]], ...]
    merge_given: bool  # the caller chose the merge: lookup_options can only change convert_to

    @property
    def value(self) -> bool:
        return any(VALUE in e for _, e in self.levels)

    @property
    def options(self) -> bool:
        return any(OPTIONS in e for _, e in self.levels)

    def what(self) -> str:
        """What may differ, in a user's words."""
        parts = (["the value"] if self.value else []) + (
            [self._options_words()] if self.options else []
        )
        return " and ".join(parts)

    def _options_words(self) -> str:
        return "the convert_to option" if self.merge_given else "the merge strategy"

    def message(self, hint: str) -> str:
        """One line: which levels, what each could change, and how to have them read."""
        groups: dict[tuple[str, str], list[str]] = {}
        for level, effects in self.levels:
            words = ", ".join(
                "value" if e == VALUE else self._options_words().removeprefix("the ")
                for e in effects
            )
            shown = f'"{level.level}"' + (f" ({words})" if len(self._effect_kinds()) > 1 else "")
            groups.setdefault((level.function_kind, level.function_name), []).append(shown)
        listed = "; ".join(
            f"{kind} '{name}': {', '.join(shown)}" for (kind, name), shown in groups.items()
        )
        count = len(self.levels)
        noun = "level" if count == 1 else "levels"
        return (
            f"{self.what()[0].upper()}{self.what()[1:]} may differ from Puppet's: hiera-ls "
            f"skipped {count} hierarchy {noun} it cannot read ({listed}). {hint}"
        ).rstrip()

    def _effect_kinds(self) -> set[tuple[str, ...]]:
        return {e for _, e in self.levels}

    def as_data(self) -> dict[str, object]:
        """The ``--batch`` field."""
        return {
            "may_differ": [
                k for k, on in (("value", self.value), ("lookup_options", self.options)) if on
            ],
            "levels": [
                {
                    "layer": level.layer,
                    "level": level.level,
                    "function": f"{level.function_kind} {level.function_name}",
                    "may_hold": ["value" if e == VALUE else "lookup_options" for e in effects],
                }
                for level, effects in self.levels
            ],
        }


def incomplete_from(
    skipped: Sequence[tuple[SkippedLevel, str]], merge_given: bool
) -> Incomplete | None:
    """The skipped levels a lookup recorded, each once, in the order first met."""
    if not skipped:
        return None
    order: dict[SkippedLevel, list[str]] = {}
    for level, effect in skipped:
        effects = order.setdefault(level, [])
        if effect not in effects:
            effects.append(effect)
    levels = tuple(
        (level, tuple(e for e in (VALUE, OPTIONS) if e in effects))
        for level, effects in order.items()
    )
    return Incomplete(levels, merge_given)
