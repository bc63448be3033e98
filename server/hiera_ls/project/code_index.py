"""The Puppet code of one environment, indexed for the questions data files ask of it.

A key ``a::b::c`` sets parameter ``c`` of class ``a::b`` (automatic parameter lookup); a key
may also be read by an explicit ``lookup('k')`` in code. The checks ("no such parameter",
"value does not match the type"), hover, definition, completion, references, rename and the
unused-data hints all ask the same few questions, answered here from per-file
:class:`~hiera_ls.source.manifest_model.ManifestFacts`. The index is a value: a change to one
.pp file gives a new index that shares every other file's facts (:meth:`CodeIndex.replace`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from hiera_ls.source.manifest_model import (
    Definition,
    DefinitionKind,
    Inclusion,
    LookupCall,
    ManifestFacts,
    Parameter,
)


@dataclass(frozen=True, slots=True)
class ParameterRef:
    """The class parameter a key sets by automatic parameter lookup."""

    definition: Definition
    parameter: Parameter


@dataclass(frozen=True, slots=True)
class CodeIndex:
    """``files`` maps each code file's absolute path to what it holds; ``modules`` names
    every module directory on the environment's modulepath (a key's namespace that is such a
    module is judged, one that is not may belong to code hiera-ls cannot see)."""

    files: Mapping[str, ManifestFacts]
    modules: frozenset[str] = frozenset()
    _by_name: Mapping[str, Definition] = field(init=False, repr=False, compare=False)
    _aliases: Mapping[str, Definition] = field(init=False, repr=False, compare=False)
    _lookups: Mapping[str, tuple[LookupCall, ...]] = field(init=False, repr=False, compare=False)
    _patterns: tuple[tuple[re.Pattern[str], LookupCall], ...] = field(
        init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        by_name: dict[str, Definition] = {}
        aliases: dict[str, Definition] = {}
        lookups: dict[str, list[LookupCall]] = {}
        patterns: list[tuple[re.Pattern[str], LookupCall]] = []
        for path in sorted(self.files):
            facts = self.files[path]
            for d in facts.definitions:  # the first by path wins, as a stable choice
                named = aliases if d.kind is DefinitionKind.TYPE_ALIAS else by_name
                named.setdefault(d.name, d)
            for call in facts.lookups:
                if call.key is not None:
                    lookups.setdefault(call.key, []).append(call)
                elif call.pattern is not None:
                    try:
                        patterns.append((re.compile(call.pattern), call))
                    except re.error:
                        continue
        object.__setattr__(self, "_by_name", MappingProxyType(by_name))
        object.__setattr__(self, "_aliases", MappingProxyType(aliases))
        object.__setattr__(
            self, "_lookups", MappingProxyType({k: tuple(v) for k, v in lookups.items()})
        )
        object.__setattr__(self, "_patterns", tuple(patterns))

    def replace(self, facts: Iterable[ManifestFacts], removed: Iterable[str] = ()) -> CodeIndex:
        """The index after some files changed (``facts``) or were deleted (``removed``)."""
        files = dict(self.files)
        for path in removed:
            files.pop(path, None)
        for f in facts:
            files[f.path] = f
        return CodeIndex(MappingProxyType(files), self.modules)

    def definitions(self) -> Iterator[Definition]:
        for path in sorted(self.files):
            yield from self.files[path].definitions

    def definition(self, name: str) -> Definition | None:
        """A class, defined type or function by name (``::`` prefix and case ignored)."""
        return self._by_name.get(name.lower().removeprefix("::"))

    def type_alias(self, name: str) -> Definition | None:
        return self._aliases.get(name.lower().removeprefix("::"))

    def parameter_for_key(self, key: str) -> ParameterRef | None:
        """The class parameter ``key`` sets (``a::b::c`` → class ``a::b``, parameter ``c``)."""
        namespace, sep, name = key.removeprefix("::").rpartition("::")
        if not sep:
            return None
        d = self.definition(namespace)
        if d is None or d.kind is not DefinitionKind.CLASS:
            return None
        p = d.param(name)
        return None if p is None else ParameterRef(d, p)

    def lookups_of(self, key: str) -> tuple[LookupCall, ...]:
        """Explicit literal lookups of ``key`` in code."""
        return self._lookups.get(key.removeprefix("::"), ())

    def possible_lookups_of(self, key: str) -> tuple[LookupCall, ...]:
        """Dynamic lookups (``lookup("${x}::port")``) whose key could be ``key``."""
        return tuple(call for rx, call in self._patterns if rx.fullmatch(key))

    def inclusions(self) -> Iterator[Inclusion]:
        for path in sorted(self.files):
            yield from self.files[path].inclusions
