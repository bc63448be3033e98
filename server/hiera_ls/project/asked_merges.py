"""The merge(s) the Puppet code reads a key with: the one place that says it.

A key's lookup_options choose its merge only when the caller passes none. Code that reads a
key with ``lookup('k', Hash, 'deep')``, ``lookup('k', {merge => ...})``, ``hiera_hash('k')``
or ``hiera_array('k')`` gets that merge instead (``hiera('k')`` asks for a first-found
lookup), so a preview of the key, or a check of which definitions are used, must run the
lookup the code runs. Automatic parameter lookup passes no merge: such a key keeps its
lookup_options. Hover, inlay hints, the spread, the key view and the every-profile checks
all ask :func:`asked_merges`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from hiera_ls.project.code_index import CodeIndex, ParameterRef
from hiera_ls.source.manifest_model import LookupCall, MergeValue


@dataclass(frozen=True, slots=True)
class AskedMerge:
    """One merge the code reads a key with, and who asks for it.

    ``value`` is the merge argument (a strategy name, or options as (key, value) pairs);
    None: the code passes none (the key's lookup_options decide). ``known`` is False for a
    merge the code computes at run time (``lookup('k', Hash, $merge)``): it cannot be
    previewed. ``calls`` are the explicit lookups asking for it, ``parameter`` the class
    parameter automatic lookup sets (it passes no merge)."""

    value: MergeValue | None
    known: bool
    calls: tuple[LookupCall, ...]
    parameter: ParameterRef | None = None

    def argument(self) -> str | dict[str, object] | None:
        """The merge as the engine's ``lookup`` takes it."""
        return merge_argument(self.value)


def merge_argument(value: MergeValue | None) -> str | dict[str, object] | None:
    """A merge value (hashable: options as pairs) as the engine's ``lookup`` takes it."""
    return dict(value) if isinstance(value, tuple) else value


def asked_merges(code: CodeIndex | None, key: str) -> tuple[AskedMerge, ...]:
    """The distinct merges code reads ``key`` (a root key) with: those code asks for itself
    first, in the order of their first call (path, line), then the lookup_options' one (no
    merge passed) when some reader passes none, then merges computed at run time. Empty when
    no reader passes a merge of its own: every preview runs the lookup as it always has.

    Readers are the literal lookups of the key or of a sub key of it (the merge runs on the
    root's values, ``lookup('k.a', Hash, 'deep')`` merges ``k``), the dynamic ones whose key
    may be it (``lookup("${x}::k", ...)``), and automatic parameter lookup; a lookup in the
    default of the very parameter the key sets is not one (Puppet evaluates the default
    only when no data has the key)."""
    if code is None:
        return ()
    parameter = code.parameter_for_key(key)
    calls = [c for c in _readers(code, key) if not _in_own_default(c, parameter)]
    if not any(c.asked_merge is not None for c in calls):
        return ()
    groups: dict[MergeValue, list[LookupCall]] = {}
    computed: dict[str, list[LookupCall]] = {}
    plain: list[LookupCall] = []
    for call in sorted(calls, key=lambda c: (c.path, c.span.start.line, c.span.start.column)):
        asked = call.asked_merge
        if asked is None:
            plain.append(call)
        elif asked.value is None:
            computed.setdefault(asked.text, []).append(call)
        else:
            groups.setdefault(asked.value, []).append(call)
    out = [AskedMerge(value, True, tuple(found)) for value, found in groups.items()]
    if plain or parameter is not None:
        out.append(AskedMerge(None, True, tuple(plain), parameter))
    out.extend(AskedMerge(None, False, tuple(found)) for found in computed.values())
    return tuple(out)


def merge_arguments(code: CodeIndex | None, key: str) -> tuple[object, ...]:
    """The merge arguments a whole-repository check looks ``key`` up with: one per known
    asked merge (None for lookup_options), or just None when the code asks for none."""
    known = [m.argument() for m in asked_merges(code, key) if m.known]
    return tuple(known) if known else (None,)


def _readers(code: CodeIndex, key: str) -> Iterable[LookupCall]:
    seen: set[int] = set()
    for call in (*code.lookups_of_root(key), *code.possible_lookups_of(key)):
        if id(call) not in seen:
            seen.add(id(call))
            yield call


def _in_own_default(call: LookupCall, parameter: ParameterRef | None) -> bool:
    """``$p = lookup('a::p', ...)`` in ``a``'s header: read only when the data lacks the key."""
    p = parameter.parameter if parameter is not None else None
    if parameter is None or p is None or call.key is None or p.default_text is None:
        return False
    own = f"{parameter.definition.name}::{p.name}"
    first = p.span.start.line
    return (
        call.key.removeprefix("::") == own
        and call.path == parameter.definition.path
        and first <= call.span.start.line <= first + p.default_text.count("\n")
    )
