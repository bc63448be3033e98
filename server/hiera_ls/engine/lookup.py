"""Puppet's ``lookup()``: the public entry of the engine, and the adapter around the layers.

The control flow follows Puppet's own (``pops/lookup/lookup_adapter.rb`` and friends) step
by step, because several user-visible quirks fall out of that shape: which errors get
wrapped as ``Lookup of key 'K' failed``, where recursion is detected, when a lower level
is read at all, and in which order lookup_options patterns are tried. The steps live in
modules named after Puppet's files: :mod:`~hiera_ls.engine.invocation`,
:mod:`~hiera_ls.engine.providers`, :mod:`~hiera_ls.engine.locations` and
:mod:`~hiera_ls.engine.interpolation`.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from hiera_ls.engine.incomplete import Incomplete, incomplete_from
from hiera_ls.engine.invocation import (
    MAX_NESTING,
    MAX_TRACED_LOOKUPS,
    OPTIONS,
    VALUE,
    Invocation,
    SkippedLevel,
    StackTooDeep,
    TraceTooLarge,
    lookup_variants,
)
from hiera_ls.engine.merge import MergeStrategy, parse_merge
from hiera_ls.engine.providers import (
    FIRST,
    HASH,
    Compilation,
    LayerHierarchy,
    layer_hierarchies,
    lookup_default_in_module,
    lookup_global,
    lookup_in_environment,
    lookup_in_module,
    lookup_options_for,
    lookup_options_key,
    options_skipped,
)
from hiera_ls.engine.trace import Event, Kind, NullBuilder, TraceBuilder, TraceNode
from hiera_ls.project.model import Environment
from hiera_ls.project.scope import NodeScope
from hiera_ls.puppet.errors import (
    Cause,
    Failure,
    LookupFailure,
    MergeError,
    PuppetError,
    UndefinedVariable,
)
from hiera_ls.puppet.message import Text, as_value
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.files import FileAccess
from hiera_ls.source.keys import LOOKUP_OPTIONS, LookupKey, NotFound, dig


@dataclass(frozen=True, slots=True)
class LookupOutcome:
    """One answer: a value, not found, or Puppet's error text; with the trace when asked."""

    key: str
    found: bool
    value: object = None
    error: str | None = None  # ``failure``'s plain text
    trace: TraceNode | None = None
    notes: tuple[str, ...] = ()
    # levels hiera-ls skipped that may change this answer (engine/incomplete.py)
    incomplete: Incomplete | None = None
    warnings: tuple[str, ...] = ()  # what Puppet prints as ``Warning: ...``
    # the error as the checks read it: its parts, and the problem elsewhere that made it
    failure: Failure | None = None


NO_DEFAULT = object()
UNDEFINED_KEY = "hiera-ls::undefined"  # a valid key that no data defines (`-` is not a name)


@dataclass(slots=True)
class LookupSession:
    """One compilation's worth of lookups for one node (Puppet caches per compilation)."""

    env: Environment
    scope: NodeScope
    files: FileAccess = field(default_factory=FileAccess)
    cache: DataCache = field(default_factory=DataCache)
    _compilation: Compilation = field(init=False)

    def __post_init__(self) -> None:
        self._compilation = Compilation(self.env, self.files, self.cache)

    def lookup(
        self,
        names: str | Sequence[str],
        merge: object = None,
        default: object = NO_DEFAULT,
        *,
        explain: bool = False,
        override: Mapping[str, object] | None = None,
        default_values: Mapping[str, object] | None = None,
    ) -> LookupOutcome:
        """Puppet's ``lookup()``: never raises for user data; errors come back as text."""
        name_list = [names] if isinstance(names, str) else list(names)
        _deep_enough()
        if explain:
            try:
                return self._lookup(name_list, merge, default, True, override, default_values)
            except TraceTooLarge:
                outcome = self._lookup(name_list, merge, default, False, override, default_values)
                note = (
                    f"hiera-ls: this lookup makes more than {MAX_TRACED_LOOKUPS} nested "
                    "lookups; how each was found is not shown"
                )
                trace = TraceNode(Kind.SCOPE, children=[TraceNode(Kind.TEXT, label=note)])
                return replace(outcome, trace=trace, notes=(*outcome.notes, note))
        return self._lookup(name_list, merge, default, False, override, default_values)

    def hierarchy_files(self) -> frozenset[str] | None:
        """The existing files this node's global and environment hierarchies name: what a
        lookup of a key defined nowhere reads (module layers are resolved per module, so not
        here).  None when the hierarchies cannot be resolved for this node (the error a
        lookup reports)."""
        outcome = self.lookup(UNDEFINED_KEY)
        if outcome.error is not None:
            return None
        return frozenset(
            location.path
            for entries in self._compilation.entries.values()
            for entry in entries
            for location in entry.locations or ()
            if location.exists and not location.is_uri
        )

    def hierarchy(self, key: str) -> list[LayerHierarchy]:
        """Every hierarchy level a lookup of ``key`` may read, resolved for this node: the
        global and environment layers and the key's module (see
        :func:`~hiera_ls.engine.providers.layer_hierarchies`). Empty when the node's scope
        itself is in error (the error every lookup reports)."""
        if self.scope.error is not None:
            return []
        comp = self._compilation
        inv = Invocation(
            self.scope,
            NullBuilder(),
            lambda sub, name: search_and_merge(comp, sub, name, None),
            memo=comp.lookups,
        )
        try:
            module = LookupKey.parse(key).module_name
        except LookupFailure:
            module = None
        return layer_hierarchies(comp, inv, module)

    def explain_options(self, key: str | None) -> LookupOutcome:
        """``puppet lookup --explain-options`` without ``--explain``: how the lookup_options
        that apply to ``key`` (its module's included; none given: every unqualified key's)
        are assembled, a hash merge of ``lookup_options`` over the layers, and nothing else.
        """
        _deep_enough()
        comp = self._compilation
        inv = Invocation(
            self.scope,
            TraceBuilder(),
            lambda sub, name: search_and_merge(comp, sub, name, None),
            memo=None,
        )
        if self.scope.error is not None:
            return _outcome(inv, LOOKUP_OPTIONS, False, None, error=self.scope.error)
        try:
            module = LookupKey.parse(key).module_name if key else None
            lk = LookupKey.parse(LOOKUP_OPTIONS)
            value = _lookup_in_layers(comp, inv.for_key(LOOKUP_OPTIONS, module), lk, HASH)
        except NotFound:
            return _outcome(inv, LOOKUP_OPTIONS, False, None)
        except (LookupFailure, PuppetError, MergeError, UndefinedVariable) as e:
            comp.forget()
            return _outcome(inv, LOOKUP_OPTIONS, False, None, error=e.failure)
        except (RecursionError, StackTooDeep):
            comp.forget()
            return _outcome(inv, LOOKUP_OPTIONS, False, None, error=StackTooDeep.message)
        return _outcome(inv, LOOKUP_OPTIONS, True, value)

    def forget_nested(self) -> None:
        """Drop the values of nested lookups this session keeps: for a caller that changes
        what the files hold between two lookups (a what-if lookup without one definition)."""
        self._compilation.lookups.clear()

    def _lookup(
        self,
        name_list: list[str],
        merge: object,
        default: object,
        explain: bool,
        override: Mapping[str, object] | None,
        default_values: Mapping[str, object] | None,
    ) -> LookupOutcome:
        skipped: list[tuple[SkippedLevel, str]] = []
        outcome = self._lookup_in(
            name_list, merge, default, explain, override, default_values, skipped
        )
        return replace(outcome, incomplete=incomplete_from(skipped, merge is not None))

    def _lookup_in(
        self,
        name_list: list[str],
        merge: object,
        default: object,
        explain: bool,
        override: Mapping[str, object] | None,
        default_values: Mapping[str, object] | None,
        skipped: list[tuple[SkippedLevel, str]],
    ) -> LookupOutcome:
        comp = self._compilation
        inv = Invocation(
            self.scope,
            TraceBuilder() if explain else NullBuilder(),
            lambda sub, name: search_and_merge(comp, sub, name, None),
            memo=None if explain else comp.lookups,
            skipped=skipped,
        )
        override = override or {}
        default_values = default_values or {}
        key = name_list[0] if name_list else ""
        if self.scope.error is not None:
            return _outcome(inv, key, False, None, error=self.scope.error)
        try:
            for name in name_list:
                if name in override:
                    inv.trace.event(Event.FOUND_IN_OVERRIDES, name, override[name])
                    return _outcome(inv, name, True, override[name])
                try:
                    value = search_and_merge(comp, inv, name, None, merge_spec=merge)
                except NotFound:
                    continue
                return _outcome(inv, name, True, value)
            for name in name_list:
                if name in default_values:
                    inv.trace.event(Event.FOUND_IN_DEFAULTS, name, default_values[name])
                    return _outcome(inv, name, True, default_values[name])
            if default is not NO_DEFAULT:
                return _outcome(inv, key, True, default)
            if len(name_list) == 1:
                msg = f"Function lookup() did not find a value for the name '{key}'"
            else:
                joined = ", ".join(f"'{n}'" for n in name_list)
                msg = f"Function lookup() did not find a value for any of the names [{joined}]"
            return _outcome(inv, key, False, None, not_found_message=msg)
        except (LookupFailure, PuppetError, MergeError, UndefinedVariable) as e:
            comp.forget()
            return _outcome(inv, key, False, None, error=e.failure)
        except (RecursionError, StackTooDeep):
            comp.forget()
            return _outcome(inv, key, False, None, error=StackTooDeep.message)
        except TraceTooLarge:
            raise
        except Exception as e:
            comp.forget()
            said = Text.of(f"hiera-ls internal error ({type(e).__name__}: ", as_value(str(e)), ")")
            return _outcome(inv, key, False, None, error=said)


# Python frames one nested lookup takes (about 20), with room for the layers around it.
_FRAMES_PER_NESTING = 40


def _deep_enough() -> None:
    """Python's recursion limit must let MAX_NESTING nested lookups through, as Ruby's
    stack lets Puppet's through (raised once, never lowered)."""
    needed = MAX_NESTING * _FRAMES_PER_NESTING + 1000
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)


def _outcome(
    inv: Invocation,
    key: str,
    found: bool,
    value: object,
    error: str | Text | Failure | None = None,
    not_found_message: str | None = None,
) -> LookupOutcome:
    trace = inv.trace.root if not isinstance(inv.trace, NullBuilder) else None
    if not_found_message is not None and trace is not None:
        trace.children.append(TraceNode(Kind.TEXT, label=not_found_message))
    failure = error if isinstance(error, Failure) or error is None else Failure(Text.of(error))
    plain = failure.text.plain if failure is not None else None
    if plain is not None and trace is not None:
        trace.children.append(TraceNode(Kind.TEXT, label=plain))
    notes = tuple(dict.fromkeys(inv.notes))
    return LookupOutcome(
        key, found, value, plain, trace, notes, warnings=tuple(inv.warnings), failure=failure
    )


def search_and_merge(
    comp: Compilation,
    inv: Invocation,
    name: str,
    merge: MergeStrategy | None,
    merge_spec: object = None,
) -> object:
    """Puppet's LookupAdapter#lookup: one name through all layers; NotFound when absent.

    The merge strategy given wins over the key's lookup_options; the module's
    default_hierarchy is read only when no layer has the key; convert_to applies last.
    A ``merge_spec`` (the caller's merge argument as given) is read once the key's
    lookup_options are known, as Puppet reads it: their errors come first.
    """
    if name == LOOKUP_OPTIONS or name.startswith(LOOKUP_OPTIONS + "."):
        with inv.trace.branch(Kind.INVALID_KEY, LOOKUP_OPTIONS):
            raise NotFound
    lk = LookupKey.parse(name)
    inv = inv.for_key(lk.text, lk.module_name)
    options = lookup_options_for(comp, inv, lk) or {}
    for level in options_skipped(comp, inv, lk.module_name):
        # a nested lookup's options change the value of the key around it
        inv.skip(level, OPTIONS if inv.depth == 0 else VALUE)
    if merge_spec is not None:
        merge = parse_merge(merge_spec)
    strategy: MergeStrategy | None = merge
    if strategy is None and "merge" in options and options["merge"] is not None:
        try:
            strategy = parse_merge(options["merge"])
        except MergeError as e:  # the entry's merge: reported there
            e.cause = Cause(key=lookup_options_key(comp, lk))
            raise
        inv.trace.add(TraceNode(Kind.MERGE_SOURCE, label=LOOKUP_OPTIONS))
    with inv.trace.branch(Kind.ROOT, lk.text):
        try:
            value = _dig(inv, lk, _lookup_in_layers(comp, inv, lk, strategy or FIRST))
        except NotFound:
            value = _dig(inv, lk, lookup_default_in_module(comp, inv, lk))
    return _convert(comp, inv, lk, options, value)


def _lookup_in_layers(
    comp: Compilation, inv: Invocation, lk: LookupKey, strategy: MergeStrategy
) -> object:
    layers = (lookup_global, lookup_in_environment, lookup_in_module)
    return lookup_variants(inv, strategy, layers, lambda layer: layer(comp, inv, lk, strategy))


def _dig(inv: Invocation, lk: LookupKey, value: object) -> object:
    """The key's sub-key segments applied to the root key's value."""
    if not lk.segments:
        return value
    with inv.trace.branch(Kind.SUB_KEY, ".".join(str(s) for s in lk.segments)):
        try:
            result = dig(lk.text, value, lk.segments)
        except NotFound:
            inv.trace.event(Event.NOT_FOUND, lk.segments[-1])
            raise
        inv.trace.event(Event.FOUND, lk.segments[-1], result)
        return result


def _convert(
    comp: Compilation,
    inv: Invocation,
    lk: LookupKey,
    options: Mapping[str, object],
    value: object,
) -> object:
    spec = options.get("convert_to")
    if spec is None:
        return value
    from hiera_ls.engine import convert  # rare: most keys have no convert_to

    result = convert.convert_to(lk.text, spec, value, lambda name: _alias_file(comp, name))
    if result.note:
        inv.notes.append(result.note)
    inv.trace.text(result.explain)
    return result.value


def _alias_file(comp: Compilation, name: str) -> bool:
    """Whether the file Puppet's loader would read for the type alias ``name`` exists:
    ``<module>/types/a/b.pp`` for ``Mod::A::B``, ``<environment>/types/name.pp`` for ``Name``."""
    parts = [p.lower() for p in name.split("::")]
    if len(parts) == 1:
        root = comp.env.root
    else:
        module = comp.env.modules.get(parts[0])
        if module is None:
            return False
        root, parts = module.root, parts[1:]
    return comp.files.exists(os.path.join(root, "types", *parts[:-1], parts[-1] + ".pp"))


__all__ = ["NO_DEFAULT", "LookupOutcome", "LookupSession"]
