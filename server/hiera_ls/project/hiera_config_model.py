"""hiera.yaml's model: a layer's configuration as Puppet builds it, each hierarchy level with
its data provider function and its locations as written."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from hiera_ls.puppet.ruby_text import inspect, ruby_class
from hiera_ls.source.spans import Problem, Span

LayerName = Literal["global", "environment", "module"]
LocationKind = Literal["path", "paths", "glob", "globs", "uri", "uris", "mapped_paths"]

FUNCTION_KEYS = ("data_hash", "lookup_key", "data_dig", "hiera3_backend")
ALL_FUNCTION_KEYS = (*FUNCTION_KEYS, "v4_data_hash")
LOCATION_KEYS: tuple[LocationKind, ...] = (
    "path",
    "paths",
    "glob",
    "globs",
    "uri",
    "uris",
    "mapped_paths",
)
# Functions Puppet ships whose dispatch needs options {'path' => String} and nothing else.
PATH_ONLY_DATA_HASH = frozenset({"yaml_data", "json_data", "hocon_data"})
V4_BACKENDS = {
    "yaml": ("yaml_data", ".yaml"),
    "json": ("json_data", ".json"),
    "hocon": ("hocon_data", ".conf"),
}
NO_SPAN = Span.of(0, 0, 0, 0)
# Hiera 3 backends Puppet reads with its own functions; any other is a custom Hiera 3 backend
V3_BACKENDS = {
    "yaml": ("data_hash", "yaml_data"),
    "json": ("data_hash", "json_data"),
    "hocon": ("data_hash", "hocon_data"),
    "eyaml": ("lookup_key", "eyaml_lookup_key"),
}
# Puppet's default for a backend without :datadir: (its default codedir, as root)
V3_DATADIR = "/etc/puppetlabs/code/environments/%{::environment}/hieradata"


@dataclass(frozen=True, slots=True)
class LocationSpec:
    """The level's location key as written (before interpolation)."""

    kind: LocationKind | None
    values: tuple[str, ...]  # path/glob/uri: one string; mapped_paths: the three strings
    spans: tuple[Span, ...]  # where each string is in hiera.yaml


@dataclass(frozen=True, slots=True)
class HierarchyEntry:
    """One hierarchy level: its function, locations, datadir and options."""

    name: str
    name_span: Span
    span: Span  # the whole level
    function_kind: str  # data_hash | lookup_key | data_dig | hiera3_backend | v4_data_hash
    function_name: str  # e.g. yaml_data
    location: LocationSpec
    datadir: str  # as written: the level's, else defaults', else "data"
    datadir_span: Span | None
    options: Mapping[str, object] | None  # the level's options, else defaults' (never merged)
    # How hiera-ls reads a custom function's level, as the user said (project/backends.py)
    custom_reader: str | None = None

    @property
    def reader(self) -> str | None:
        """How hiera-ls reads the level's files: a built-in function reads its own, a custom
        one the reader the user mapped it to; None: user code, which hiera-ls never runs."""
        if (self.function_kind, self.function_name) in READ_FUNCTIONS:
            return self.function_name
        return self.custom_reader

    # version 3: added to each path (once interpolated) that does not already end with it
    extension: str | None = None
    # where each string option's value is written (the level's, else defaults')
    option_spans: tuple[tuple[str, Span], ...] = ()

    @property
    def read_by_hiera_ls(self) -> bool:
        return self.reader is not None


# (function kind, function name) of the levels whose data files hiera-ls reads
READ_FUNCTIONS = frozenset(
    {
        ("data_hash", "yaml_data"),
        ("data_hash", "json_data"),
        ("data_hash", "hocon_data"),
        ("lookup_key", "eyaml_lookup_key"),
    }
)


@dataclass(frozen=True, slots=True)
class HieraConfig:
    """A hiera.yaml as Puppet reads it: its hierarchies, or why Puppet refuses it."""

    path: str | None  # None for Puppet's built-in default config
    version: int
    hierarchy: tuple[HierarchyEntry, ...]
    default_hierarchy: tuple[HierarchyEntry, ...]
    problems: tuple[Problem, ...]
    # What Puppet raises for every lookup in this layer, in its words (file/line suffix
    # included); None when the configuration is usable.
    error: str | None
    # the levels only Bolt's plans search (Puppet's own lookups never do)
    plan_hierarchy: tuple[HierarchyEntry, ...] = ()


def builtin_default_config() -> HieraConfig:
    """The config Puppet uses when the global hiera.yaml does not exist (Puppet's default
    HieraConfig).

    Its datadir is ``data`` next to where hiera.yaml would be; missing files are dropped.
    """
    common = HierarchyEntry(
        name="Common",
        name_span=NO_SPAN,
        span=NO_SPAN,
        function_kind="data_hash",
        function_name="yaml_data",
        location=LocationSpec("path", ("common.yaml",), (NO_SPAN,)),
        datadir="data",
        datadir_span=None,
        options=None,
    )
    return HieraConfig(None, 5, (common,), (), (), None)


def version_number(value: object) -> int | str:
    """Puppet's ``version.to_i``: an int, or the text of the Ruby exception it raises."""
    if isinstance(value, bool):
        return "undefined method `to_i' for true:TrueClass"  # false never gets here (|| fallback)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (float("inf"), float("-inf")):
            return "Infinity" if value > 0 else "-Infinity"
        return int(value)
    if isinstance(value, str):
        m = re.match(r"[ \t\n\v\f\r]*([+-]?)([0-9]+(?:_[0-9]+)*)", value)
        if m is None:
            return 0
        number = int(m.group(2).replace("_", ""))
        return -number if m.group(1) == "-" else number
    # Ruby 3.1's NoMethodError text (Puppet then adds Ruby's error_highlight lines).
    return f"undefined method `to_i' for {inspect(value)}:{ruby_class(value)}"
