"""Lookups that fail for the active facts profile, reported on the keys of the file at hand.

Only a real lookup knows whether a merge meets mismatched types, a variable is undefined
for this node, or a chain of interpolations loops; the engine gives Puppet's message.  To
stay cheap, only the root keys of the checked file are looked up (merge=None, as Puppet's
automatic parameter lookup does), plus the keys its ``%{lookup()}`` tokens embed in text,
to see whether they interpolate a collection.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from typing import cast

from hiera_ls.checks.interpolation import COLLECTION_IN_STRING
from hiera_ls.engine.lookup import LookupOutcome
from hiera_ls.project.key_index import Reference
from hiera_ls.puppet.errors import Cause, Failure
from hiera_ls.puppet.message import Text, as_key, as_value
from hiera_ls.puppet.ruby_text import to_s
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.keys import LOOKUP_OPTIONS, split_key
from hiera_ls.source.rules import Needs, Payload, Rule
from hiera_ls.source.spans import Details, Problem, Severity

LOOKUP_FAILS = Rule(
    "lookup-fails-for-profile",
    Severity.ERROR,
    "Looking up this key fails for the active facts profile; the message is Puppet's",
    needs=Needs.PROFILE,
    payload=Payload.VALUES,
)
RULES = (LOOKUP_FAILS,)

MAX_EMBED_LOOKUPS = 50
# Whether the problem that causes a failure is reported where it is (then the failure is
# one of its consequences, not a finding of its own: checks/causes.py).
Folded = Callable[[Cause], bool]
NAMED_PROFILES = 3  # profiles named in a message before "and N more"


@dataclass(frozen=True, slots=True)
class ProfileLookup:
    """The active profile: its name and ``lookup(key) -> LookupOutcome`` with merge=None."""

    name: str
    lookup: Callable[[str], LookupOutcome]
    # the same lookup with its trace (where each part of the value came from), for the few
    # keys a finding must place; None: not available
    explain: Callable[[str], LookupOutcome] | None = None
    # what the checks worked out from this profile's answers, by what they asked (valid as
    # long as the lookups: a ProfileLookup is made for one snapshot)
    memo: dict[object, object] = field(default_factory=dict, compare=False)
    # a key's signature: profiles whose signatures of a key are equal get the same answer
    # (features/profile_signature.py), and share what was worked out from it in ``shared``
    share: Callable[[str], Hashable | None] | None = None
    shared: dict[object, object] = field(default_factory=dict, compare=False)

    def memo_for(self, what: str, key: str) -> tuple[dict[object, object], object]:
        """Where to keep what the checks work out from ``key``'s answer, and under what."""
        token = self.share(key) if self.share is not None else None
        return (self.memo, (what, key)) if token is None else (self.shared, (what, token))


def key_text(root: str) -> str | None:
    """The lookup key that names exactly the root key ``root`` (quoted when it has dots)."""
    if split_key(root) == [root]:
        return root
    for quote in ('"', "'"):
        if quote not in root:
            text = f"{quote}{root}{quote}"
            if split_key(text) == [root]:
                return text
    return None


def check_profile(
    profile: ProfileLookup,
    path: str,
    data_file: DataFile,
    *,
    module_name: str | None = None,
    references: Sequence[Reference] = (),
    folded: Folded | None = None,
) -> list[Problem]:
    out: list[Problem] = []
    first_key_of: dict[str, tuple[str, int]] = {}  # error without key names -> (key, count)
    failures: list[tuple[str, Failure]] = []
    keys, order = _lookup_order(profile, path, data_file, module_name, references)
    outcomes = {key: profile.lookup(text) for key, text in order}
    for key in keys:
        outcome = outcomes[key]
        failure = outcome.failure
        if failure is None or (failure.cause and folded is not None and folded(failure.cause)):
            continue
        failures.append((key, failure))
        shape = _without_key(failure.text.plain, key)
        first, count = first_key_of.get(shape, (key, 0))
        first_key_of[shape] = (first, count + 1)
    for key, failure in failures:
        first, count = first_key_of[_without_key(failure.text.plain, key)]
        if first != key:
            continue
        spans = data_file.nodes.get((key,))
        if spans is None:
            continue
        more = f" (the same error for {count - 1} more keys of this file)" if count > 1 else ""
        message = Text.of(
            f"[{profile.name}] Looking up '", as_key(key), "' fails: ", failure.text, more
        )
        out.append(LOOKUP_FAILS.at(message, path, spans.key or spans.value, Details(key=key)))
    out.extend(_embedded_collections(profile, path, references))
    return out


def _lookup_order(
    profile: ProfileLookup,
    path: str,
    data_file: DataFile,
    module_name: str | None,
    references: Sequence[Reference],
) -> tuple[list[str], list[tuple[str, str]]]:
    """The file's keys a lookup can name, and (key, the text naming it) in the order they
    are looked up: the same for every profile (worked out once, kept with what the profiles
    share)."""
    slot = ("lookup-order", path, module_name)
    known = profile.shared.get(slot)
    if isinstance(known, tuple) and known[0] is data_file and known[1] == references:
        return cast(tuple[list[str], list[tuple[str, str]]], known[2])
    prefix = f"{module_name}::" if module_name is not None else None
    keys: list[str] = []
    for key in data_file.data:
        if not isinstance(key, str) or key == LOOKUP_OPTIONS:
            continue
        if prefix is not None and not key.startswith(prefix):
            continue  # Puppet drops it from module data (module-data-unqualified-key)
        if key_text(key) is not None:
            keys.append(key)
    # Looked up in the order of their references, so each nested lookup is already known
    # to the session: a chain of a thousand keys costs a thousand lookups, not 500,000.
    order = [(key, key_text(key) or key) for key in bottom_up(keys, references)]
    profile.shared[slot] = (data_file, references, (keys, order))
    return keys, order


def check_profiles(
    profiles: Sequence[ProfileLookup],
    path: str,
    data_file: DataFile,
    *,
    module_name: str | None = None,
    references: Sequence[Reference] = (),
    folded: Folded | None = None,
) -> list[Problem]:
    """:func:`check_profile` for every profile, each finding reported once with the
    profiles that give it named (``[web01, db01 and 4 more profiles] ...``), as
    ``hiera-ls check`` labels its per-profile passes."""
    return per_profile(
        profiles,
        lambda profile: check_profile(
            profile,
            path,
            data_file,
            module_name=module_name,
            references=references,
            folded=folded,
        ),
    )


def per_profile(
    profiles: Sequence[ProfileLookup], run: Callable[[ProfileLookup], list[Problem]]
) -> list[Problem]:
    """``run`` for every profile (its findings start with ``[name] ``), each finding reported
    once with the profiles that give it named."""
    if len(profiles) == 1:
        return run(profiles[0])
    merged: dict[tuple[object, ...], tuple[Problem, Text, list[str]]] = {}
    for profile in profiles:
        prefix = f"[{profile.name}] "
        for found in run(profile):
            rest = found.text.without_prefix(prefix)
            slot = (found.code, found.where, found.severity, rest)
            merged.setdefault(slot, (found, rest, []))[2].append(profile.name)
    return [
        replace(found, text=Text.of(f"[{profile_label(names, len(profiles))}] ", rest))
        for found, rest, names in merged.values()
    ]


def bottom_up(keys: Sequence[str], references: Sequence[Reference]) -> list[str]:
    """``keys`` with every key after the keys of ``keys`` its tokens look up (cycles broken
    anywhere), by a depth-first walk without recursion."""
    targets: dict[str, list[str]] = {}
    for ref in references:
        targets.setdefault(ref.source, []).append(ref.target)
    wanted = set(keys)
    seen: set[str] = set()
    order: list[str] = []
    for root in keys:
        if root in seen:
            continue
        seen.add(root)
        stack = [(root, iter(targets.get(root, ())))]
        while stack:
            key, pending = stack[-1]
            target = next(pending, None)
            if target is None:
                stack.pop()
                order.append(key)
            elif target in wanted and target not in seen:
                seen.add(target)
                stack.append((target, iter(targets.get(target, ()))))
    return order


def _without_key(error: str, key: str) -> str:
    # a plain replace: a pattern per key filled the regex cache (seconds on Wikimedia)
    return error.replace(f"'{key}'", "'…'")


def _embedded_collections(
    profile: ProfileLookup, path: str, references: Sequence[Reference]
) -> list[Problem]:
    """``%{lookup('k')}`` where k is an Array or Hash: Puppet writes Ruby's text of it."""
    out: list[Problem] = []
    asked: dict[str, LookupOutcome] = {}
    for ref in references:
        if ref.path != path or ref.method == "alias" or ref.source == LOOKUP_OPTIONS:
            continue
        if ref.key_text not in asked:
            if len(asked) >= MAX_EMBED_LOOKUPS:
                break
            asked[ref.key_text] = profile.lookup(ref.key_text)
        outcome = asked[ref.key_text]
        value = outcome.value
        if not outcome.found or outcome.error is not None or not isinstance(value, (list, dict)):
            continue
        kind = "an Array" if isinstance(value, list) else "a Hash"
        shown = to_s(value)
        if len(shown) > 60:
            shown = shown[:57] + "..."
        fix = (
            f"make the whole value \"%{{alias('{ref.key_text}')}}\" to keep the "
            f"{kind[kind.index(' ') + 1 :]}"
            if ref.whole
            else "interpolate a single element or value instead"
        )
        message = Text.of(
            f"[{profile.name}] '",
            as_key(ref.key_text),
            f"' is {kind}: Puppet puts Ruby's text of it",
            as_value(f" ({shown})", masked=""),
            f" into this string; {fix}",
        )
        out.append(COLLECTION_IN_STRING.at(message, path, ref.span, Details(key=ref.target)))
    return out


def profile_label(names: Sequence[str], total: int) -> str:
    """``web01``, ``web01, db01 and 4 more profiles``, ``all 6 profiles``: the one way a
    finding, a hover or a lens names the profiles it holds for."""
    if len(names) == total and total > 1:
        return f"all {total} profiles"
    shown = ", ".join(names[:NAMED_PROFILES])
    rest = len(names) - NAMED_PROFILES
    return f"{shown} and {rest} more profiles" if rest > 0 else shown
