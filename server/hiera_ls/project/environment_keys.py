"""What the data files of one environment define and look up, taken together.

Some checks look past the file at hand: whether a looked-up key is defined anywhere, whether
a lookup_options pattern matches any key, whether interpolations form a cycle some node can
reach.  This view is put together from the key index's per-file entries
(:mod:`hiera_ls.project.key_index`), so no file is scanned again; what decides how Puppet
reads each file (the module whose data provider reads it, its place in the hierarchy) is
given by the caller.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from hiera_ls.project.key_index import FileKeys
from hiera_ls.project.reference_graph import FilePlace, ReferenceGraph
from hiera_ls.puppet.errors import PuppetError
from hiera_ls.puppet.regexp import compile_ruby_regex, regex_search_or

if TYPE_CHECKING:
    from hiera_ls.puppet.regexp import RubyRegex


@dataclass(frozen=True, slots=True)
class PlacedFile:
    """A data file's index entry with how Puppet reads the file."""

    keys: FileKeys
    module_name: str | None  # the module whose data this is: other keys are dropped
    place: FilePlace


@dataclass(frozen=True, slots=True)
class EnvironmentKeys:
    """Every key an environment's data defines, and which files a lookup finds it in."""

    files: Mapping[str, FileKeys]  # every data file indexed
    definitions: Mapping[str, Sequence[str]]  # root key -> the files a lookup finds it in
    defined_keys: frozenset[str]
    graph: ReferenceGraph


def environment_keys(placed: Iterable[PlacedFile]) -> EnvironmentKeys:
    files: dict[str, FileKeys] = {}
    definitions: dict[str, list[str]] = {}
    places: dict[str, FilePlace] = {}
    scopes: dict[str, str | None] = {}
    for item in placed:
        keys = item.keys
        for key in keys.kept_keys(item.module_name):
            definitions.setdefault(key, []).append(keys.path)
        files[keys.path] = keys
        places[keys.path] = item.place
        scopes[keys.path] = item.module_name
    graph = ReferenceGraph.build(
        (r for path, keys in files.items() for r in keys.kept_references(scopes[path])),
        definitions,
        places,
        merged_keys(files.values(), scopes),
    )
    return EnvironmentKeys(files, definitions, frozenset(definitions), graph)


def merged_keys(files: Iterable[FileKeys], scopes: Mapping[str, str | None]) -> MergedKeys:
    """``scopes``: path -> the module whose data the file is (None: not module data)."""
    literal: dict[str | None, set[str]] = {}
    patterns: dict[str | None, list[RubyRegex]] = {}
    for keys in files:
        scope = scopes.get(keys.path)
        for key in keys.merging_options:
            if key.startswith("^"):
                try:
                    patterns.setdefault(scope, []).append(compile_ruby_regex(key))
                except PuppetError:
                    continue
            else:
                literal.setdefault(scope, set()).add(key)
    return MergedKeys(literal, patterns)


@dataclass(frozen=True, slots=True)
class MergedKeys:
    """Whether a key's lookup_options (any layer) give it a merge: then every definition is read."""

    literal: Mapping[str | None, set[str]]
    patterns: Mapping[str | None, Sequence[RubyRegex]]

    def __call__(self, key: str) -> bool:
        module, sep, _ = key.partition("::")
        scopes: list[str | None] = [None, module] if sep and module else [None]
        for scope in scopes:
            if key in self.literal.get(scope, ()):
                return True
            for pattern in self.patterns.get(scope, ()):
                if regex_search_or(pattern, key, True):
                    return True
        return False
