"""Provenance of a lookup: the tree ``puppet lookup --explain`` prints, with source ranges.

The engine records every step while it searches (like Puppet's explainer), so hover,
definition, explain and checks are all views of one trace.  Nodes are built once by
:class:`TraceBuilder` and only read afterwards.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from enum import Enum

from hiera_ls.source.spans import FileSpan


class NoValue:
    """Marks 'no value' where None (Ruby nil) is a real value."""

    _instance: NoValue | None = None

    def __new__(cls) -> NoValue:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NO_VALUE"


NO_VALUE = NoValue()


class Kind(Enum):
    ROOT = "root"  # Searching for "KEY"
    MERGE = "merge"  # Merge strategy NAME (only with two or more branches)
    DATA_PROVIDER = "data_provider"  # Global/Environment/Module "m" Data Provider
    HIERARCHY_ENTRY = "hierarchy_entry"  # Hierarchy entry "NAME"
    PATH = "path"  # Path "..." (a data file location)
    URI = "uri"
    INTERPOLATE = "interpolate"  # Interpolation on "..."
    SCOPE = "scope"  # Global Scope / Searching default_hierarchy ... / free-form scope label
    SUB_KEY = "sub_key"  # Sub key: "a.b"
    SEGMENT = "segment"
    META = "meta"  # lookup_options retrieval
    INVALID_KEY = "invalid_key"
    TEXT = "text"  # free text, e.g. a skipped custom backend
    MODULE_NOT_FOUND = "module_not_found"
    MODULE_PROVIDER_NOT_FOUND = "module_provider_not_found"
    MERGE_SOURCE = "merge_source"  # Using merge options from "lookup_options" hash


class Event(Enum):
    FOUND = "found"
    NOT_FOUND = "not_found"
    RESULT = "result"
    LOCATION_NOT_FOUND = "location_not_found"
    FOUND_IN_OVERRIDES = "found_in_overrides"
    FOUND_IN_DEFAULTS = "found_in_defaults"


@dataclass(slots=True)
class TraceNode:
    """One step of a lookup as ``--explain`` shows it; hover and definition read it too."""

    kind: Kind
    label: str = ""  # key, entry name, path, expression, text ...
    children: list[TraceNode] = field(default_factory=list)
    event: Event | None = None
    key: object = None  # the key an event is about
    value: object = NO_VALUE  # found / result value
    where: FileSpan | None = None  # where a found value sits in its file
    original: str | None = None  # Original path (uninterpolated) for PATH/URI nodes
    exists: bool | None = None  # for PATH nodes
    version: int | None = None  # hiera.yaml version for DATA_PROVIDER
    config_path: str | None = None  # Using configuration "..." for DATA_PROVIDER
    merge: object = None  # MergeStrategy for MERGE nodes
    layer: str | None = None  # global | environment | module, for DATA_PROVIDER
    module: str | None = None

    def walk(self) -> Iterator[TraceNode]:
        yield self
        for c in self.children:
            yield from c.walk()

    def found_values(self) -> Iterator[TraceNode]:
        """Every value read from a data file, in search order (hover lists these)."""
        for n in self.walk():
            if n.kind is Kind.PATH and n.event is Event.FOUND:
                yield n


class TraceBuilder:
    """Collects the tree while the engine runs; a no-op variant keeps lookups fast."""

    def __init__(self) -> None:
        self.root = TraceNode(Kind.SCOPE, label="")
        self._stack: list[TraceNode] = [self.root]

    @property
    def current(self) -> TraceNode:
        return self._stack[-1]

    @contextmanager
    def branch(self, kind: Kind, label: str = "", **attrs: object) -> Iterator[TraceNode]:
        node = TraceNode(kind, label)
        for k, v in attrs.items():
            setattr(node, k, v)
        self.current.children.append(node)
        self._stack.append(node)
        try:
            yield node
        finally:
            self._stack.pop()

    def event(
        self, event: Event, key: object, value: object = NO_VALUE, where: FileSpan | None = None
    ) -> None:
        node = self.current
        # A location or provider node takes its outcome directly, as Puppet prints it.
        if node.event is None and node.kind in (Kind.PATH, Kind.URI, Kind.SEGMENT):
            node.event, node.key, node.value, node.where = event, key, value, where
            return
        self.current.children.append(
            TraceNode(Kind.TEXT, event=event, key=key, value=value, where=where)
        )

    def result(self, value: object) -> None:
        node = self.current
        node.event = Event.RESULT
        node.value = value

    def text(self, text: str) -> None:
        self.current.children.append(TraceNode(Kind.TEXT, label=text))

    def add(self, node: TraceNode) -> None:
        self.current.children.append(node)


class NullBuilder(TraceBuilder):
    """Records nothing: used for plain lookups where nobody reads the trace."""

    def __init__(self) -> None:
        super().__init__()
        self._branch = _NullBranch(self.root)

    def branch(  # type: ignore[override]
        self, kind: Kind, label: str = "", **attrs: object
    ) -> AbstractContextManager[TraceNode]:
        # one context for every branch, not a generator-made one each: a 2,000-node diff
        # entered 777,502 of them
        return self._branch

    def event(
        self, event: Event, key: object, value: object = NO_VALUE, where: FileSpan | None = None
    ) -> None:
        return None

    def result(self, value: object) -> None:
        return None

    def text(self, text: str) -> None:
        return None

    def add(self, node: TraceNode) -> None:
        return None


class _NullBranch(AbstractContextManager[TraceNode]):
    """A branch that records nothing: enters to the root, lets every exception through."""

    __slots__ = ("_root",)

    def __init__(self, root: TraceNode) -> None:
        self._root = root

    def __enter__(self) -> TraceNode:
        return self._root

    def __exit__(self, *exc: object) -> None:
        return None
