"""How many nodes a value has once its shared (YAML-aliased) collections are expanded.

Psych keeps an alias as a second reference to the anchored collection, so nine levels of
nine aliases load as a few dozen objects that stand for 387 million. Anything that walks a
value as Ruby would (``to_s``, ``inspect``, a copy) pays for the expanded size, so such walks
ask first: the count itself visits each distinct collection once, without recursion.
"""

from __future__ import annotations

from collections.abc import Iterable

from hiera_ls.puppet.errors import PuppetError

__all__ = ["MAX_EXPANDED", "ValueTooLarge", "check_text_size", "expanded_size"]

# Nodes a value may hold once its aliases are expanded: a lookup of a bigger top-level value
# fails, and no bigger value is written out as text (interpolated into a string, inspected).
# Psych keeps aliases shared, but Puppet's yaml_data copies the whole file with every alias
# expanded (HieraConfig.symkeys_to_string): Puppet 7.23 loads a file expanding to 5.4 million
# nodes in 2.6 s more than an empty one and interpolates a 5.3-million-node fact (35 MB of
# text) in 24 s; 48 million nodes take it 25 s and 780 MB, 436 million many minutes.
MAX_EXPANDED = 10_000_000
_CAP = 10**18


class ValueTooLarge(PuppetError):
    """A walk refused because the value expands past a limit (its message says which)."""


def expanded_size(value: object) -> int:
    """Nodes of ``value`` with every shared collection counted at each place it appears."""
    if not isinstance(value, (list, dict)):
        return 1
    memo: dict[int, int] = {}
    stack: list[tuple[list[object] | dict[object, object], bool]] = [(value, False)]
    while stack:
        item, finished = stack.pop()
        children: Iterable[object] = item.values() if isinstance(item, dict) else item
        if finished:
            total = 1
            for child in children:
                total += memo.get(id(child), 1) if isinstance(child, (list, dict)) else 1
            memo[id(item)] = min(total, _CAP)
            continue
        if id(item) in memo:
            continue
        memo[id(item)] = 1  # in progress: a cycle counts once
        stack.append((item, True))
        for child in children:
            if isinstance(child, (list, dict)) and id(child) not in memo:
                stack.append((child, False))
    return memo[id(value)]


def check_text_size(value: object, what: str = "this value", limit: int = MAX_EXPANDED) -> None:
    """Raise :class:`ValueTooLarge` when ``value`` is too big to write out as text."""
    if not isinstance(value, (list, dict)):
        return
    size = expanded_size(value)
    if size > limit:
        shown = f"{size:,}" if size < _CAP else f"more than {_CAP:,}"
        raise ValueTooLarge(
            f"hiera-ls: {what} holds {shown} nodes once its YAML aliases are expanded; "
            f"hiera-ls writes out at most {limit:,} as text (Puppet would build a string "
            "of all of them)"
        )
