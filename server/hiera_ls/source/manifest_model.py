"""What hiera-ls knows of Puppet code: the values the manifest reader yields.

Hiera keys mostly exist to set class parameters through automatic parameter lookup, so the
checks, hover, definition, completion and rename need each class's parameters (name, type
text, default text, documentation, position) and every explicit lookup of a key in code.
These are plain values, shared by the parser (``source/manifest_parser.py``), the index over
an environment's modulepath (``project/code_index.py``) and everything above them; nothing
here parses or reads files.

Positions are 0-based code points, as everywhere in hiera-ls (:mod:`hiera_ls.source.spans`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from hiera_ls.source.spans import Position, Span


class DefinitionKind(Enum):
    CLASS = "class"
    DEFINE = "define"  # a defined type: its parameters are not set by automatic lookup
    TYPE_ALIAS = "type alias"
    FUNCTION = "function"  # a function written in the Puppet language


@dataclass(frozen=True, slots=True)
class Parameter:
    """One parameter of a class, defined type or function.

    ``type_text`` and ``default_text`` are the source text as written (``None`` when absent:
    no type means ``Any``, no default means the parameter is required), so messages and
    hover show what the author wrote; :func:`hiera_ls.puppet.type_parser.parse_type` turns
    ``type_text`` into a type when a check needs one.
    """

    name: str  # without the ``$``
    span: Span  # the ``$name`` token
    type_text: str | None
    default_text: str | None
    doc: str | None  # the puppet-strings ``@param`` text, when the definition has one


@dataclass(frozen=True, slots=True)
class Definition:
    """A class, defined type, type alias or Puppet-language function, as the file declares it.

    ``name`` is lower-case and fully qualified without a leading ``::`` (``profile::web``),
    as Puppet resolves it. ``parent`` is a class's ``inherits`` target. ``alias_text`` is a
    type alias's right-hand side as written.
    """

    kind: DefinitionKind
    name: str
    path: str  # absolute path of the .pp file
    span: Span  # the name token in the header
    params: tuple[Parameter, ...]
    doc: str | None = None  # the puppet-strings summary text above the header
    parent: str | None = None
    alias_text: str | None = None

    def param(self, name: str) -> Parameter | None:
        for p in self.params:
            if p.name == name:
                return p
        return None


class LookupFunction(Enum):
    LOOKUP = "lookup"
    HIERA = "hiera"
    HIERA_ARRAY = "hiera_array"
    HIERA_HASH = "hiera_hash"
    HIERA_INCLUDE = "hiera_include"


MergeValue = str | tuple[tuple[str, object], ...]


@dataclass(frozen=True, slots=True)
class MergeArg:
    """The merge a call asks for: ``lookup``'s third argument or its options' ``merge``
    (``lookup('k', Hash, 'deep')``, ``lookup('k', {merge => {strategy => deep}})``), or the
    one a ``hiera_*`` function passes. ``value`` is a strategy name or an options hash as
    (key, value) pairs (hashable); None when the code computes it (``lookup('k', Hash,
    $merge)``). ``text`` is how the code says it, for a person."""

    value: MergeValue | None
    text: str


# what the hiera_* functions pass as the merge (Hiera::PuppetFunction#merge_type): hiera()
# asks for a first-found lookup, whatever the key's lookup_options say
IMPLIED_MERGES = {
    LookupFunction.HIERA: "first",
    LookupFunction.HIERA_ARRAY: "unique",
    LookupFunction.HIERA_HASH: "hash",
    LookupFunction.HIERA_INCLUDE: "unique",
}


@dataclass(frozen=True, slots=True)
class LookupCall:
    """An explicit lookup of a key in code (manifest, template or Ruby function).

    ``key`` is the literal key when the first argument is a plain string; ``pattern`` is set
    instead when the key is built at run time (``lookup("${x}::port")``): a regular expression
    (Python ``re`` syntax, anchored) matching every key the call could read, so such keys are
    "possibly used", never unused. ``span`` covers the key argument (for rename and
    references), or the call when the key is dynamic. ``merge`` is the merge the call passes
    (None: none, so the key's lookup_options decide); :attr:`asked_merge` adds the one a
    ``hiera_*`` function implies.
    """

    function: LookupFunction
    path: str
    span: Span
    key: str | None
    pattern: str | None = None
    merge: MergeArg | None = None

    @property
    def asked_merge(self) -> MergeArg | None:
        if self.merge is not None:
            return self.merge
        implied = IMPLIED_MERGES.get(self.function)
        return MergeArg(implied, f"{self.function.value}()") if implied is not None else None


@dataclass(frozen=True, slots=True)
class HieraCall:
    """A call of a ``hiera*()`` function as written, for the hint that rewrites it with
    ``lookup()`` (checks/hiera_functions.py).

    ``span`` runs from the function's name (a method call's receiver: ``'k'.hiera_array``)
    to its closing parenthesis; a lambda after it is not part of it (``block`` says there
    is one; ``lambda_end`` is where its closing brace ends, ``lambda_text`` its text from
    the parenthesis on, when the reader found them). ``args`` are the arguments' source
    texts, a method call's receiver first; ``key`` the literal key when the first one is a
    plain string or bare word."""

    function: LookupFunction
    path: str
    span: Span
    args: tuple[str, ...]
    key: str | None
    block: bool = False
    lambda_end: Position | None = None
    lambda_text: str = ""


@dataclass(frozen=True, slots=True)
class Inclusion:
    """A class a manifest includes by name (``include x``, ``contain x``, ``require x``,
    ``class { 'x': }``), so a role's classes are known without compiling a catalog."""

    name: str  # lower-case, no leading ``::``
    path: str
    span: Span


@dataclass(frozen=True, slots=True)
class ManifestProblem:
    """A part of a .pp file the reader could not understand: said once, where and why; the
    rest of the file is still read."""

    path: str
    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class ManifestFacts:
    """Everything hiera-ls takes from one code file (.pp, .epp, .erb or .rb)."""

    path: str
    definitions: tuple[Definition, ...] = ()
    lookups: tuple[LookupCall, ...] = ()
    inclusions: tuple[Inclusion, ...] = ()
    problems: tuple[ManifestProblem, ...] = ()
    hiera_calls: tuple[HieraCall, ...] = ()  # the deprecated hiera*() calls, as written
    # the variables a node definition sets (``node default { $role = ... }``): node scope,
    # which a lookup's ``%{role}`` reads from a class the node declares, and ``%{::role}``
    # (top scope) does not
    node_variables: frozenset[str] = frozenset()
