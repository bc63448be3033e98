"""What one lookup carries down through layers, levels and locations (Puppet's Invocation).

As in ``pops/lookup/invocation.rb``: the node scope, the explainer (our trace), the name
stack that detects recursion, and the key (with its module) being looked up. A nested
lookup (``%{lookup('k')}`` in a value, the lookup_options retrieval) runs on a child
invocation that shares the name stack, the trace and the notes with its parent, so
recursion is caught across them and every step lands in one trace.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypeVar

from hiera_ls.engine.merge import MergeStrategy, convert_first, merge_pair, merge_single
from hiera_ls.engine.trace import NO_VALUE, Kind, NullBuilder, TraceBuilder
from hiera_ls.project.scope import NodeScope
from hiera_ls.puppet.errors import LookupFailure, MergeError, PuppetError, RegexpError
from hiera_ls.source.keys import NotFound

T = TypeVar("T")

# Lookups nested in interpolations (``k1: '%{lookup("k2")}'``, k2 -> k3 ...).  Puppet 7.23
# resolves a chain of 155 keys (one level each) and fails the 156th with Ruby's
# ``stack level too deep``: its only limit is Ruby's stack.  Ours is fixed and higher.
MAX_NESTING = 256


# A traced lookup (hover, explain) records every nested lookup, so each key interpolating
# the next twice would record 2**n of them; past this many it is made again untraced.
MAX_TRACED_LOOKUPS = 2_000


class TraceTooLarge(Exception):
    """More than MAX_TRACED_LOOKUPS nested lookups in one traced lookup."""


class StackTooDeep(Exception):
    """More than MAX_NESTING nested lookups: Puppet's ``stack level too deep``."""

    message = "stack level too deep"

    def __str__(self) -> str:
        return self.message


# Puppet's ``Lookup.lookup`` as interpolation calls it: a full lookup of a key from the top,
# raising NotFound. The lookup module provides it (interpolation cannot import that module).
SearchAndMerge = Callable[["Invocation", str], object]


@dataclass(frozen=True, slots=True)
class SkippedLevel:
    """A hierarchy level a lookup would have read but hiera-ls could not (a custom function
    with no reader mapped to it, project/backends.py)."""

    layer: str  # "global", "environment", or the module's name
    level: str  # the hierarchy entry's name
    function_kind: str  # data_hash | lookup_key | data_dig | hiera3_backend
    function_name: str


VALUE = "value"  # the skipped level might hold the key's value
OPTIONS = "options"  # the skipped level might hold the key's lookup_options

# A nested lookup's answer kept for the compilation: (value or a marker, the scope, the depth
# of its own lookups, the levels it skipped)
Memo = tuple[object, NodeScope, int, tuple[tuple[SkippedLevel, str], ...]]


@dataclass(frozen=True, slots=True)
class Invocation:
    """What one top-level lookup carries through its nested lookups: scope, trace, guards."""

    scope: NodeScope
    trace: TraceBuilder
    search_and_merge: SearchAndMerge
    notes: list[str] = field(default_factory=list)  # shown to the user beside the answer
    stack: list[str] = field(default_factory=list)  # names being looked up (recursion guard)
    top_key: str = ""
    module_name: str | None = None
    depth: int = 0  # lookups nested by interpolation around this one
    # Values of nested lookups already made in this compilation and scope (untraced only):
    # (key, id(scope)) -> (value or a marker for not found, scope, depth of its own lookups)
    memo: dict[tuple[str, int], Memo] | None = None
    reached: list[int] = field(default_factory=lambda: [0])  # deepest nesting reached
    nested_count: list[int] = field(default_factory=lambda: [0])  # traced lookups only
    # Puppet's warnings for this lookup (Puppet 7's defaults), each once, in its words
    warnings: list[str] = field(default_factory=list)
    # the data files whose reading Puppet has warned about (it reads each once a run)
    warned_files: set[str] = field(default_factory=set)
    # levels skipped on the way, with what they might change (VALUE or OPTIONS)
    skipped: list[tuple[SkippedLevel, str]] = field(default_factory=list)

    def nested(self) -> Invocation:
        """The invocation of a lookup an interpolation makes; Ruby's stack overflows at a
        depth of about 155 such lookups (``stack level too deep``), ours at MAX_NESTING."""
        if self.depth >= MAX_NESTING:
            raise StackTooDeep
        return replace(self, depth=self.depth + 1)

    def for_key(self, top_key: str, module_name: str | None) -> Invocation:
        """Puppet's Invocation#lookup: the same guard and trace, now about ``top_key``."""
        return replace(self, top_key=top_key, module_name=module_name)

    def untraced(self) -> Invocation:
        """Puppet's explain output does not show how hiera.yaml itself was interpolated."""
        return replace(self, trace=NullBuilder())

    def with_local(self, name: str, value: object) -> Invocation:
        """The binding a ``mapped_paths`` entry makes while one of its paths is interpolated."""
        return replace(self, scope=self.scope.with_local(name, value))

    def skip(self, level: SkippedLevel, effect: str) -> None:
        """A level this lookup could not read; the answer says so once, whatever the count."""
        if (level, effect) not in self.skipped:
            self.skipped.append((level, effect))

    def warn(self, text: str, traced: bool = True) -> None:
        """A warning Puppet prints (``Warning: ...`` on stderr), also shown in the trace."""
        if traced:
            self.trace.text(f"Warning: {text}")
        if text not in self.warnings:
            self.warnings.append(text)

    def warn_reading(self, path: str, texts: list[str]) -> None:
        """What Puppet warns when it reads a data file: once a run per file (it keeps the
        file's data), each text as often as Puppet prints it (once per offending key)."""
        if path not in self.warned_files:
            self.warned_files.add(path)
            self.warnings.extend(texts)

    def note(self, text: str) -> None:
        """A note for the user that the explain output shows at this step too."""
        self.notes.append(text)
        self.trace.text(text)

    def check(self, name: str, fn: Callable[[], T]) -> T:
        """Puppet's Invocation#check: the recursion guard around every provider lookup.

        Puppet errors raised inside become lookup failures (Ruby errors such as RegexpError
        stay as they are), which decides how the global layer words them later.
        """
        stack = self.stack
        if name in stack:
            raise LookupFailure(f"Recursive lookup detected in [{', '.join(stack)}]")
        stack.append(name)
        try:
            return fn()
        except LookupFailure:
            raise
        except MergeError as e:
            if not e.puppet_error:
                raise
            raise LookupFailure(e.text, cause=e.cause) from e
        except PuppetError as e:
            if isinstance(e, RegexpError):
                raise
            raise LookupFailure(e.text, cause=e.cause) from e
        finally:
            stack.pop()


def lookup_variants(
    inv: Invocation, strategy: MergeStrategy, variants: Sequence[T], fn: Callable[[T], object]
) -> object:
    """Puppet's MergeStrategy#lookup: ``fn`` over one level's variants (layers, hierarchy
    entries, locations), merged by ``strategy``; NotFound when no variant has the key.

    ``first`` stops at the first variant that has the key; the others read every variant and
    show the merge in the trace only when there are two or more.
    """
    if strategy.name == "first":
        for v in variants:
            try:
                return fn(v)
            except NotFound:
                continue
        raise NotFound
    if not variants:
        raise NotFound
    if len(variants) == 1:
        return merge_single(strategy, fn(variants[0]))
    with inv.trace.branch(Kind.MERGE, strategy.name, merge=strategy):
        memo: object = NO_VALUE
        for v in variants:
            try:
                value = fn(v)
            except NotFound:
                continue
            memo = (
                convert_first(strategy, value)
                if memo is NO_VALUE
                else merge_pair(strategy, memo, value)
            )
        if memo is NO_VALUE:
            raise NotFound
        inv.trace.result(memo)
        return memo
