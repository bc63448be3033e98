"""Which facts profiles get the same answer to every lookup: a class key per node.

engine/node_classes.py's classifier says when two nodes' lookups must agree (the same files
read with the same options, the same values of every variable the data interpolates).  The
checks judge one thing more: a value looked up through a variable the node lacks is not
judged (checks/class_parameters.py), and the hierarchy's paths interpolate variables too, so
the key here also says which of those variables the node has.  And one thing less: the
options a level takes for the node (Wikimedia's regex level takes its fqdn), which no
answer reads.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Hashable
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, replace

from hiera_ls.engine.lookup import LookupSession
from hiera_ls.engine.node_classes import (
    MISSING,
    Classifier,
    LevelReads,
    config_variables,
    hierarchy_reads,
    interpolated_variables,
    location_variables,
    values_of,
    variable,
)
from hiera_ls.engine.providers import EYAML
from hiera_ls.project.backends import EXPAND_PATH, expand_path_file
from hiera_ls.project.scope import NodeScope
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.puppet.values import strings_in
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.keys import LOOKUP_OPTIONS, KeySyntaxError, LookupKey

# the readers that take nothing from a level's options; a level hiera-ls skips (None) reads
# nothing at all
OPTIONLESS_READERS = frozenset({None, "yaml_data", "json_data", "hocon_data", EXPAND_PATH})


class ProfileSignatures:
    """Class keys of nodes against one snapshot (what each file interpolates read once)."""

    def __init__(self, snapshot: Snapshot) -> None:
        self._snapshot = snapshot
        self._classifier = Classifier(snapshot)
        self._views: dict[str, _ViewFacts] = {}  # environment root -> its hierarchies
        # (environment root, module) -> what the module's hiera.yaml and data interpolate
        self._modules: dict[tuple[str, str], frozenset[str]] = {}
        self._reads: dict[tuple[str, str | None, str], object] = {}  # see reads_for
        self._nested: dict[tuple[str, str, str], bool] = {}  # see module_nested
        self._under: dict[str, frozenset[str]] = {}  # a directory -> its files' variables
        self._files_of: dict[str, dict[str, list[str]]] = {}  # see _module_files
        self._files: dict[tuple[str, str], tuple[DataFile | None, object]] = {}  # see _file
        self._parts: dict[tuple[int, str], _Part | None] = {}  # see level_part
        # (level number, root) -> the keys its definitions there look up (see level_part)
        self._refers: dict[tuple[int, str], frozenset[str]] = {}
        self._plain: dict[int, tuple[_Part, frozenset[object]] | None] = {}  # see plain_part
        self._groups: dict[tuple[str, tuple[str, ...]], _Group | None] = {}  # see group
        self._group_parts: dict[tuple[int, int], _GroupPart | None] = {}
        self._ids: dict[Hashable, int] = {}  # see number_of
        self._roots: dict[str, tuple[str, str | None] | None] = {}  # see root_of
        # (environment, root key, which levels read it) -> its parts and variables
        self._shaped: dict[tuple[str, str, tuple[int, ...]], _Shaped | None] = {}
        self._numbers: dict[tuple[str, LevelReads], int] = {}  # see level_number
        self._defining: dict[object, set[int]] = {}  # a root -> the levels defining it (plain)

    def of(self, view: EnvironmentView, scope: NodeScope) -> Hashable | None:
        """The node's key in ``view``'s environment: nodes with equal keys get the same
        answers and the same findings; None: the node is a class of its own."""
        found = self._classifier.signature(view, scope)
        if found is None:
            return None
        reads, values = found
        facts = self._view(view)
        # a level's options change no answer (the engine interpolates them, and reads no
        # file by them): nodes that differ only there (Wikimedia's regex level takes the
        # node's fqdn) share a class, unless eyaml's keys may one day be read from them
        reads = tuple(r if _options_matter(facts, r) else replace(r, options=None) for r in reads)
        # an expand_path level names a directory: what its files interpolate counts too
        under: set[str] = set()
        for r in reads:
            kind = facts.levels.get((r.layer, r.name))
            if kind is not None and kind.reader == EXPAND_PATH:
                for path in r.files:
                    under |= self._variables_under(path)
        presence = tuple(_presence(scope, name) for name in facts.variables)
        return (reads, values, values_of(scope, sorted(under)), presence)

    def keys(
        self, view: EnvironmentView, scope: NodeScope, session: LookupSession | None = None
    ) -> KeySignatures | None:
        """The node's signature of each key (None: its scope or hierarchy is in error);
        ``session``: one already answering for the node, whose hierarchy is resolved."""
        snapshot = self._snapshot
        if session is None:
            session = LookupSession(view.env, scope, snapshot.files, snapshot.cache)
        reads = hierarchy_reads(session)
        if reads is None:
            return None
        presence = tuple(_presence(scope, name) for name in self._view(view).variables)
        return KeySignatures(self, view, scope, reads, presence)

    def shares(
        self, view: EnvironmentView, scope: NodeScope
    ) -> tuple[Hashable | None, Callable[[str], Hashable | None] | None]:
        """The node's class key and key signatures (checks/profile_coverage.NodeProfile)."""
        keys = self.keys(view, scope)
        return self.of(view, scope), keys.of if keys is not None else None

    def levels(self, view: EnvironmentView) -> dict[tuple[str, str], _Level]:
        return self._view(view).levels

    def module_variables(self, view: EnvironmentView, module: str | None) -> frozenset[str]:
        """What ``module``'s hiera.yaml and data files interpolate: a lookup of one of its
        keys reads them (its hierarchy is resolved per key); a key of no module, or of
        another module, never does (Puppet consults only the key's own module)."""
        if module is None:
            return frozenset()
        slot = (view.env.root, module)
        found = self._modules.get(slot)
        if found is None:
            layer = view.env.modules.get(module)
            variables = config_variables(layer.config) if layer is not None else set()
            for path in self._module_files(view).get(module, ()):
                variables |= self._classifier.file_variables(path)
            found = self._modules[slot] = frozenset(variables)
        return found

    def reads_for(self, path: str, reader: str, root: str) -> object:
        """Whether a lookup of ``root`` depends on ``path`` (it defines the key or
        lookup_options, or fails to load): None when not, else the variables its
        definitions interpolate, a :class:`_Refers` when they also look keys up by name
        (``%{lookup('k')}``), or _NESTED when they interpolate some other way."""
        slot = (path, reader, root)
        if slot not in self._reads:
            df, options = self._file(path, reader)
            found: object = None
            if df is None:
                found = None  # the engine finds nothing there, whatever the node
            elif df.failure is not None or root in df.key_errors:
                found = frozenset()
            elif root in df.data or LOOKUP_OPTIONS in df.data:
                own = _variables(df.data.get(root), None)
                if not isinstance(options, frozenset):  # lookup_options that look keys up
                    found = _NESTED
                elif isinstance(own, _Refers):
                    found = _Refers(own.variables | options, own.keys)
                else:
                    found = _NESTED if own is _NESTED else own | options  # type: ignore[operator]
            self._reads[slot] = found
        return self._reads[slot]

    def _file(self, path: str, reader: str) -> tuple[DataFile | None, object]:
        """The file as ``reader`` reads it, and what its lookup_options interpolate (read
        once per run: every key of every node asks)."""
        slot = (path, reader)
        found = self._files.get(slot)
        if found is None:
            snapshot = self._snapshot
            df = snapshot.cache.get(snapshot.files, path, reader)
            options = _variables(None, df.data.get(LOOKUP_OPTIONS)) if df is not None else None
            found = self._files[slot] = (df, options)
        return found

    def level_number(self, view: EnvironmentView, level: LevelReads) -> int:
        """A number for each level as resolved for some node (equal levels, equal numbers):
        what :meth:`level_part` keeps its answers by (a level's hash is not cheap)."""
        slot = (view.env.root, level)
        found = self._numbers.get(slot)
        if found is None:
            found = self._numbers[slot] = len(self._numbers)
        return found

    def level_part(
        self, view: EnvironmentView, level: LevelReads, number: int, root: str
    ) -> _Part | None:
        """What a lookup of ``root`` reads at one level as resolved for a node (the files
        there that define it, hold lookup_options or fail to load) and the variables those
        definitions interpolate; None when it is not judged here (a level read some other
        way, a definition that looks other keys up).  The same for every node whose level
        finds the same files: worked out once per run, not once per node."""
        slot = (number, root)
        if slot in self._parts:
            return self._parts[slot]
        kind = self.levels(view).get((level.layer, level.name))
        found: _Part | None = None
        if kind is None or (
            kind.reader is not None
            and kind.reader not in _FILE_READERS
            and kind.reader != EXPAND_PATH
        ):
            found = None  # a level read some other way: not judged here
        elif kind.reader is None:  # skipped by hiera-ls: it reads nothing
            found = ((level.layer, level.name, level.uris), frozenset())
        else:
            candidates = level.files
            if kind.reader == EXPAND_PATH:
                candidates = tuple(
                    dict.fromkeys(
                        expand_path_file(f, name)
                        for f in level.files
                        for name in (root, LOOKUP_OPTIONS)
                    )
                )
            kept: list[str] = []
            variables: set[str] = set()
            refers: set[str] = set()
            nested = False
            for path in candidates:
                reads = self.reads_for(path, kind.reader, root)
                if reads is _NESTED:
                    nested = True
                    break
                if isinstance(reads, _Refers):
                    refers.update(reads.keys)
                    reads = reads.variables
                if reads is not None:
                    kept.append(path)
                    variables.update(reads)  # type: ignore[arg-type]
            if not nested:
                options = level.options if kind.options_matter else None
                part = (level.layer, level.name, tuple(kept), level.uris, options)
                found = (part, frozenset(variables))
                if refers:
                    self._refers[slot] = frozenset(refers)
        self._parts[slot] = found
        return found

    def plain_part(
        self, view: EnvironmentView, level: LevelReads, number: int
    ) -> tuple[_Part, frozenset[object]] | None:
        """:meth:`level_part` of every root but a few, and those few (the keys the level's
        files define): a root none of them defines reads nothing there, whatever it is.
        None when every root must be asked (a file that fails to load or holds
        lookup_options, a level read some other way or per key)."""
        if number in self._plain:
            return self._plain[number]
        kind = self.levels(view).get((level.layer, level.name))
        found: tuple[_Part, frozenset[object]] | None = None
        if kind is not None and kind.reader is None:
            found = (((level.layer, level.name, level.uris), frozenset()), frozenset())
        elif kind is not None and kind.reader in _FILE_READERS:
            defined: set[object] = set()
            every = False
            for path in level.files:
                df = self._file(path, kind.reader)[0]
                if df is None:
                    continue
                if df.failure is not None or LOOKUP_OPTIONS in df.data:
                    every = True
                    break
                defined.update(df.data)
                defined.update(df.key_errors)
            if not every:
                options = level.options if kind.options_matter else None
                part = (level.layer, level.name, (), level.uris, options)
                found = ((part, frozenset()), frozenset(defined))
                for root in defined:
                    self._defining.setdefault(root, set()).add(number)
        self._plain[number] = found
        return found

    def levels_defining(self, root: str) -> AbstractSet[int]:
        """The levels (by number) with a plain part whose files define ``root``."""
        return self._defining.get(root, _NONE)

    def root_of(self, key: str) -> tuple[str, str | None] | None:
        """The key's root and module (None: it does not parse), parsed once per run: every
        node's signatures ask."""
        if key in self._roots:
            return self._roots[key]
        found: tuple[str, str | None] | None = None
        try:
            parsed = LookupKey.parse(key)
        except KeySyntaxError:
            pass
        else:
            found = (parsed.root, parsed.module_name)
        self._roots[key] = found
        return found

    def number_of(self, value: Hashable) -> int:
        """A number for each value (equal values, equal numbers): compared and hashed at
        once, where the value is a tree of tuples."""
        found = self._ids.get(value)
        if found is None:
            found = self._ids[value] = len(self._ids)
        return found

    def group(self, view: EnvironmentView, keys: tuple[str, ...]) -> _Group | None:
        """``keys`` as :meth:`KeySignatures.of_keys` reads them: their roots, and what their
        modules interpolate; None when some key's answer is the node's own (a key that does
        not parse, a module definition that looks other keys up)."""
        slot = (view.env.root, keys)
        if slot in self._groups:
            return self._groups[slot]
        roots: dict[str, None] = {}
        variables: set[str] = set()
        found: _Group | None = None
        for key in keys:
            try:
                parsed = LookupKey.parse(key)
            except KeySyntaxError:
                break
            root, module = parsed.root, parsed.module_name
            if module is not None and self.module_nested(view, module, root):
                break
            roots[root] = None
            variables.update(self.module_variables(view, module))
        else:
            found = _Group(len(self._groups), tuple(roots), frozenset(variables), frozenset(roots))
        self._groups[slot] = found
        return found

    def group_part(
        self,
        view: EnvironmentView,
        level: LevelReads,
        number: int,
        plain: tuple[_Part, frozenset[object]] | None,
        group: _Group,
    ) -> _GroupPart | None:
        """:meth:`level_part` of each of the group's roots, as one number, the variables
        they interpolate and the keys they look up; None when one is not judged.  Kept per
        level and group: every node whose level is the same asks it."""
        slot = (number, group.number)
        if slot in self._group_parts:
            return self._group_parts[slot]
        parts: list[Hashable] = []
        variables: set[str] = set()
        refers: set[str] = set()
        found: _GroupPart | None = None
        for root in group.roots:
            if plain is not None and root not in plain[1]:
                parts.append(plain[0][0])
                continue
            part = self.level_part(view, level, number, root)
            if part is None:
                break
            parts.append(part[0])
            variables.update(part[1])
            refers.update(self._refers.get((number, root), ()))
        else:
            found = (self.number_of(tuple(parts)), frozenset(variables), frozenset(refers))
        self._group_parts[slot] = found
        return found

    def module_nested(self, view: EnvironmentView, module: str, root: str) -> bool:
        """Whether the module's data defines ``root`` with a value that looks keys up."""
        slot = (view.env.root, module, root)
        if slot not in self._nested:
            snapshot = self._snapshot
            nested = False
            for path in self._module_files(view).get(module, ()):
                df = snapshot.data_file(path)
                if df is not None and not isinstance(
                    _variables(df.data.get(root), None), frozenset
                ):
                    nested = True
            self._nested[slot] = nested
        return self._nested[slot]

    def _module_files(self, view: EnvironmentView) -> dict[str, list[str]]:
        """Each module's data files in ``view``'s environment (listed once, not per key)."""
        found = self._files_of.get(view.env.root)
        if found is None:
            found = self._files_of[view.env.root] = {}
            for path, info in self._snapshot.data_files.items():
                module = info.levels[0].layer.module_name if info.levels else None
                if info.view is view and module:
                    found.setdefault(module, []).append(path)
        return found

    def _variables_under(self, directory: str) -> frozenset[str]:
        found = self._under.get(directory)
        if found is None:
            inside = directory.rstrip(os.sep) + os.sep
            found = frozenset().union(
                *(
                    self._classifier.file_variables(path)
                    for path in self._snapshot.data_files
                    if path.startswith(inside) or path == f"{directory}.yaml"
                )
            )
            self._under[directory] = found
        return found

    def _view(self, view: EnvironmentView) -> _ViewFacts:
        found = self._views.get(view.env.root)
        if found is None:
            found = self._views[view.env.root] = _view_facts(view)
        return found


@dataclass(frozen=True, slots=True)
class _ViewFacts:
    """What an environment's hierarchies read of a node, to tell which profiles agree."""

    variables: tuple[str, ...]  # what the global and environment hierarchies interpolate
    levels: dict[tuple[str, str], _Level]  # by (layer, name), as LevelReads names them


def _view_facts(view: EnvironmentView) -> _ViewFacts:
    found: dict[str, None] = {}
    levels: dict[tuple[str, str], _Level] = {}
    for layer in (view.env.global_layer, view.env.environment_layer):
        config = layer.config
        if config is None:
            continue
        for default, entries in ((False, config.hierarchy), (True, config.default_hierarchy)):
            for entry in entries:
                found.update(dict.fromkeys(location_variables(entry)))
                options = strings_in(entry.options, True)
                found.update(dict.fromkeys(interpolated_variables(options)))
                name = (f"{layer.kind.value}{'-default' * default}", entry.name)
                level = _Level(entry.reader, entry.reader not in OPTIONLESS_READERS)
                if name in levels and levels[name] != level:  # two levels of one name
                    level = _Level("", True)  # read some other way: never shared
                levels[name] = level
    return _ViewFacts(tuple(found), levels)


def _options_matter(facts: _ViewFacts, level: LevelReads) -> bool:
    kind = facts.levels.get((level.layer, level.name))
    return kind is None or kind.options_matter


def _variables(value: object, options: object) -> object:
    """What a definition (and the file's lookup_options) interpolates; a :class:`_Refers`
    when it also looks keys up by name (``lookup``, ``hiera``, ``alias``), or _NESTED when
    it calls anything else (``literal('%')`` makes a token the answer interpolates again)."""
    texts = [*strings_in(value, keys=True), *strings_in(options, keys=True)]
    refers: set[str] = set()
    for text in texts:
        for match in _TOKEN.finditer(text):
            inner = match.group(1).strip()
            if "(" in inner and not inner.startswith("scope("):
                call = _LOOKUP_CALL.match(inner)
                if call is None:
                    return _NESTED
                refers.add(call.group(1) or call.group(2))
    variables = frozenset(interpolated_variables(texts))
    return _Refers(variables, frozenset(refers)) if refers else variables


def _presence(scope: NodeScope, name: str) -> str:
    value = variable(scope, name)
    return "absent" if value is MISSING else "undef" if value is None else "set"


_Part = tuple[Hashable, frozenset[str]]  # a level's part of a key signature, its variables
# readers of plain data files (a level's files, each read whole); expand_path reads one file
# of a directory per key
_FILE_READERS = frozenset({"yaml_data", "json_data", "hocon_data", EYAML})
_TOKEN = re.compile(r"%\{([^}]*)\}")
_NESTED = object()  # a definition that interpolates a call: its answer is the node's own
_NONE: frozenset[int] = frozenset()
# a key looked up by name, as source/interpolation.py's METHOD_RE reads the call; a key
# holding ``%`` or a quote is left to the node's own answer
_LOOKUP_CALL = re.compile(r"""^(?:lookup|hiera|alias)\((?:"([^"'%]+)"|'([^"'%]+)')\)$""")


@dataclass(frozen=True, slots=True)
class _Refers:
    """What a definition interpolates, and the keys it looks up by name: its answer is made
    of theirs, so two nodes' signatures of it are equal when those keys' are too."""

    variables: frozenset[str]
    keys: frozenset[str]


# a level's part of a group of keys (a number), their variables, the keys they look up
_GroupPart = tuple[int, frozenset[str], frozenset[str]]
# a key's parts, its variables, the keys its definitions look up
_Shaped = tuple[tuple[Hashable, ...], tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True, slots=True)
class _Group:
    """Keys whose lookups are signed together (KeySignatures.of_keys)."""

    number: int
    roots: tuple[str, ...]
    variables: frozenset[str]  # what the keys' modules interpolate
    root_set: frozenset[str]  # the roots again, for telling a level defines none of them


@dataclass(frozen=True, slots=True)
class _Level:
    """What a hierarchy level is, as :class:`LevelReads` names it."""

    reader: str | None
    options_matter: bool


class KeySignatures:
    """One node's key signatures in one environment: two nodes whose signatures of a key are
    equal get the same answer to its lookup, though their hierarchies read other files
    (each its own node file, say): the files their levels read that define the key, hold
    lookup_options or fail to load, level by level, and the values of the variables those
    definitions and the key's own module (its hiera.yaml and data; no other module is ever
    consulted) interpolate, and the signatures of the keys those definitions look up by
    name (``%{lookup('k')}``, ``%{alias('k')}``: their answers, the node's, make its
    answer).  None for a key whose definitions interpolate any other call (``literal()``
    writes a token such a lookup interpolates again), or look keys up in a loop: its answer
    is the node's own."""

    def __init__(
        self,
        owner: ProfileSignatures,
        view: EnvironmentView,
        scope: NodeScope,
        reads: tuple[LevelReads, ...],
        presence: tuple[str, ...],
    ) -> None:
        self._owner = owner
        self._view = view
        self._scope = scope
        self._reads = reads
        self._presence = presence
        self._known: dict[str, Hashable | None] = {}
        self._keys: dict[str, Hashable | None] = {}  # by the key as asked
        self._values: dict[tuple[str, ...], Hashable] = {}  # the node's values, by names
        self._levels = tuple(owner.level_number(view, level) for level in reads)
        self._plain = tuple(
            owner.plain_part(view, level, number)
            for level, number in zip(reads, self._levels, strict=True)
        )
        # each level's plain part as a number below 0, where levels are numbered from 0
        self._marks = tuple(
            -1 - owner.number_of(plain[0][0]) if plain is not None else 0 for plain in self._plain
        )
        # a key no level with a plain part defines: each level's mark, or its number where
        # every root is asked; and where each level sits (its number -> its places)
        self._base = tuple(
            number if plain is None else mark
            for number, plain, mark in zip(self._levels, self._plain, self._marks, strict=True)
        )
        self._places: dict[int, list[int]] = {}
        for place, (number, plain) in enumerate(zip(self._levels, self._plain, strict=True)):
            if plain is not None:
                self._places.setdefault(number, []).append(place)

    def of_keys(self, keys: tuple[str, ...]) -> Hashable | None:
        """One signature of the lookups of all of ``keys``: two nodes' are equal exactly
        when their signatures (:meth:`of`) of each key are; None when one has none.  Worked
        out level by level for the keys together, each level's part kept across nodes: a
        node pays a few lookups per level, not a signature per key."""
        owner = self._owner
        group = owner.group(self._view, keys)
        if group is None:
            return None
        variables = set(group.variables)
        refers: set[str] = set()
        parts: list[int] = []
        for level, number, plain in zip(self._reads, self._levels, self._plain, strict=True):
            if plain is not None and plain[1].isdisjoint(group.root_set):
                # no root is read there: the level's part of each is its plain part
                parts.append(self._marks[len(parts)])
                continue
            found = owner.group_part(self._view, level, number, plain, group)
            if found is None:
                return None
            parts.append(found[0])
            variables.update(found[1])
            refers.update(found[2])
        names = tuple(sorted(variables))
        values = self._values.get(names)
        if values is None:
            values = self._values[names] = values_of(self._scope, names)
        if not refers:
            return owner.number_of((group.number, tuple(parts), values, self._presence))
        nested: list[Hashable] = []  # what the keys looked up by the keys' definitions get
        for key in sorted(refers):
            signature = self.of(key)
            if signature is None:
                return None
            nested.append(signature)
        return owner.number_of((group.number, tuple(parts), values, self._presence, *nested))

    def of(self, key: str) -> Hashable | None:
        """The signature of the lookup of ``key`` (its root key's), as a number (equal
        signatures, equal numbers: a tree of tuples hashed once, not at every use)."""
        if key in self._keys:
            return self._keys[key]
        parsed = self._owner.root_of(key)
        if parsed is None:
            self._keys[key] = None
            return None
        root, module = parsed
        if root not in self._known:
            signature = self._signature(root, module)
            self._known[root] = None if signature is None else self._owner.number_of(signature)
        found = self._keys[key] = self._known[root]
        return found

    def _signature(self, root: str, module: str | None) -> Hashable | None:
        """The key's parts level by level, worked out once per run for each way the levels
        read it: a level that does not define it counts by its plain part alone."""
        owner = self._owner
        shape = self._base  # a level whose files define the key: its number, else its mark
        defining = owner.levels_defining(root)
        if defining:
            places = self._places
            hits = [n for n in defining if n in places] if len(defining) < len(places) else None
            if hits is None:
                hits = [n for n in places if n in defining]
            if hits:
                marked = list(shape)
                for number in hits:
                    for place in places[number]:
                        marked[place] = number
                shape = tuple(marked)
        slot = (self._view.env.root, root, shape)
        if slot in owner._shaped:
            shaped = owner._shaped[slot]
        else:
            shaped = owner._shaped[slot] = self._shaped(root, module)
        if shaped is None:
            return None
        parts, names, refers = shaped
        values = self._values.get(names)
        if values is None:
            values = self._values[names] = values_of(self._scope, names)
        if not refers:
            return (root, parts, values, self._presence)
        nested = self._referred(root, refers)
        return None if nested is None else (root, parts, values, self._presence, nested)

    def _referred(self, root: str, refers: tuple[str, ...]) -> tuple[Hashable, ...] | None:
        """The signatures of the keys ``root``'s definitions look up: its answer is made of
        their answers (looked up for the same node).  None when one has none, or when they
        come back to ``root`` (a loop: Puppet's error, the node's own)."""
        self._known[root] = None  # while its keys are signed: a way back here has none
        found: list[Hashable] = []
        for key in refers:
            signature = self.of(key)
            if signature is None:
                return None
            found.append(signature)
        return tuple(found)

    def _shaped(self, root: str, module: str | None) -> _Shaped | None:
        owner = self._owner
        variables: set[str] = set(owner.module_variables(self._view, module))
        refers: set[str] = set()
        parts: list[Hashable] = []
        for level, number, plain in zip(self._reads, self._levels, self._plain, strict=True):
            if plain is not None and root not in plain[1]:
                parts.append(plain[0][0])  # reads nothing there: no variable either
                continue
            found = owner.level_part(self._view, level, number, root)
            if found is None:
                return None
            parts.append(found[0])
            variables.update(found[1])
            refers.update(owner._refers.get((number, root), ()))
        if module is not None and owner.module_nested(self._view, module, root):
            return None
        return tuple(parts), tuple(sorted(variables)), tuple(sorted(refers))
