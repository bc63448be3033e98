"""Keys whose answer cannot differ between the two revisions a ``hiera-ls diff`` compares, for
any node: they are compared without a lookup.

A key's lookup reads the hierarchies (every layer's hiera.yaml, the readers the repository
maps levels to), the node's scope (the same facts at both revisions, the same environment
name and target), the key's own definitions in the data files the levels read, the
lookup_options entries that apply to it, and the answers of the keys its definitions look
up (``%{lookup('k')}``, ``%{alias('k')}``, ``%{hiera('k')}``).  When the hierarchies are the
same at both revisions, a key none of whose definitions or lookup_options entries differs
(value for value, type for type, key order included) and that looks up no key whose answer
may differ gets the same answer at both, errors included: its lookup is not run at all.

Whatever this cannot judge makes every key it may touch looked up, as before: a level read
by anything but ``yaml_data``, ``json_data`` or eyaml (HOCON includes, expand_path, custom
readers), a differing file that fails to load, a value of an eyaml file (its keys are files
of their own), an interpolation calling another function, lookup_options that interpolate
lookups or differ in a module, a hiera.yaml in error; a key with a ``convert_to`` option is
always looked up (a type alias it names is a file of the revision).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from hiera_ls.engine.key_classes import reads_of
from hiera_ls.engine.providers import EYAML
from hiera_ls.project.hiera_config_model import HieraConfig
from hiera_ls.project.model import Layer
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.puppet.errors import LookupFailure, PuppetError
from hiera_ls.puppet.regexp import compile_ruby_regex, regex_search_or
from hiera_ls.puppet.values import strings_in
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.keys import LOOKUP_OPTIONS, KeySyntaxError, LookupKey

# the readers whose files are read whole, as data: a key's definition is its entry
_FILE_READERS = frozenset({"yaml_data", "json_data", EYAML})
_LEVEL_READERS = _FILE_READERS | {None}  # None: a level hiera-ls skips reads nothing
_PATTERN = "^"  # a lookup_options entry named by a pattern
_ABSENT = object()


@dataclass(frozen=True, slots=True)
class Revision:
    """One environment at one revision: its snapshot, the compared directory, the view, and
    the data files the compared nodes' lookups can read (every one a level reads, but node
    files of no compared node)."""

    snapshot: Snapshot
    root: str
    view: EnvironmentView
    files: Collection[str]


def unchanged_keys(base: Revision, head: Revision, keys: Collection[str]) -> frozenset[str]:
    """Those of ``keys`` whose every node gets the same answer at ``base`` and ``head``."""
    if not same_hierarchies(base, head):
        return frozenset()
    changes = _Changes()
    base_files, head_files = _data_files(base), _data_files(head)
    if base_files is None or head_files is None:
        return frozenset()
    for rel in base_files.keys() | head_files.keys():
        if not changes.compare(rel, base, base_files.get(rel), head, head_files.get(rel)):
            return frozenset()
    graph = _Graph()
    for side, files, only_changed in ((head, head_files, False), (base, base_files, True)):
        for rel, path in files.items():
            if only_changed and rel not in changes.differing:
                continue
            df = side.snapshot.data_file(path)
            if df is not None and not graph.add(df.data):
                return frozenset()
    # a convert_to may name a type alias, whose file may come or go with the revision
    changes.keys.update(n for n in graph.converted if not _is_pattern(n))
    changes.patterns.update(n for n in graph.converted if _is_pattern(n))
    if not changes.any():
        return frozenset(keys)
    return frozenset(k for k in keys if not changes.touches(k, graph))


def relative_name(path: str, root: str) -> str:
    """``path`` as both revisions name it: relative inside the compared directory."""
    inside = path == root or path.startswith(root.rstrip(os.sep) + os.sep)
    return os.path.relpath(path, root) if inside else path


def same_hierarchies(base: Revision, head: Revision) -> bool:
    env_b, env_h = base.view.env, head.view.env
    if (env_b.name, relative_name(env_b.root, base.root)) != (
        env_h.name,
        relative_name(env_h.root, head.root),
    ):
        return False
    if base.snapshot.target != head.snapshot.target or env_b.off_modulepath != env_h.off_modulepath:
        return False
    layers_b, layers_h = env_b.layers, env_h.layers
    return len(layers_b) == len(layers_h) and all(
        _same_layer(a, base.root, b, head.root) for a, b in zip(layers_b, layers_h, strict=True)
    )


def _same_layer(a: Layer, root_a: str, b: Layer, root_h: str) -> bool:
    if (a.kind, a.module_name, a.data_provider, relative_name(a.root, root_a)) != (
        b.kind,
        b.module_name,
        b.data_provider,
        relative_name(b.root, root_h),
    ):
        return False
    return _same_config(a.config, root_a, b.config, root_h)


def _same_config(a: HieraConfig | None, root_a: str, b: HieraConfig | None, root_b: str) -> bool:
    if a is None or b is None:
        return a is b
    if a.error is not None or b.error is not None:
        return False
    levels = (*a.hierarchy, *a.default_hierarchy, *a.plan_hierarchy)
    if any(level.reader not in _LEVEL_READERS for level in levels):
        return False
    readers = [level.reader for level in levels]
    other = [level.reader for level in (*b.hierarchy, *b.default_hierarchy, *b.plan_hierarchy)]
    if readers != other:
        return False
    if a.path is None or b.path is None:  # Puppet's built-in default
        return a == b
    same_name = relative_name(a.path, root_a) == relative_name(b.path, root_b)
    return same_name and _bytes(a.path) == _bytes(b.path)


def _bytes(path: str) -> bytes | None:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def _data_files(side: Revision) -> dict[str, str] | None:
    """Each data file a level of the environment reads, by the name both revisions give it;
    None when one is read by a reader judged no further here."""
    out: dict[str, str] = {}
    for path in side.files:
        if side.snapshot.data_files[path].function not in _FILE_READERS:
            return None
        out[relative_name(path, side.root)] = path
    return out


class _Changes:
    """What differs between the revisions' data files: root keys, literal lookup_options
    entries, lookup_options patterns."""

    def __init__(self) -> None:
        self.keys: set[str] = set()
        self.patterns: set[str] = set()
        self.differing: set[str] = set()  # the files that differ, by their relative name

    def any(self) -> bool:
        return bool(self.keys or self.patterns)

    def compare(
        self, rel: str, base: Revision, path_b: str | None, head: Revision, path_h: str | None
    ) -> bool:
        """Records what differs in data file ``rel``; False when that cannot be judged."""
        eyaml = any(
            p is not None and s.snapshot.data_files[p].function == EYAML
            for s, p in ((base, path_b), (head, path_h))
        )
        if not eyaml and path_b is not None and path_h is not None:
            text = _bytes(path_b)
            if text is not None and text == _bytes(path_h):
                return True
        self.differing.add(rel)
        df_b = base.snapshot.data_file(path_b) if path_b is not None else None
        df_h = head.snapshot.data_file(path_h) if path_h is not None else None
        if any(df is not None and df.failure is not None for df in (df_b, df_h)):
            return False
        data_b, data_h = _data(df_b), _data(df_h)
        for key in data_b.keys() | data_h.keys():
            if not isinstance(key, str):
                continue  # no lookup reads a key that is not a string
            if key == LOOKUP_OPTIONS:
                continue
            old, new = data_b.get(key, _ABSENT), data_h.get(key, _ABSENT)
            if eyaml or not _same(old, new) or _key_error(df_b, key) or _key_error(df_h, key):
                self.keys.add(key)
        options = (data_b.get(LOOKUP_OPTIONS, _ABSENT), data_h.get(LOOKUP_OPTIONS, _ABSENT))
        if _same(*options):
            return True
        infos = [s.snapshot.data_files[p] for s, p in ((base, path_b), (head, path_h)) if p]
        if any(info.levels[0].layer.module_name for info in infos):
            return False  # a module's lookup_options are validated against its name
        return self._options(*options)

    def _options(self, old: object, new: object) -> bool:
        old = {} if old is _ABSENT else old
        new = {} if new is _ABSENT else new
        if not isinstance(old, dict) or not isinstance(new, dict):
            return False
        order = ([n for n in old if _is_pattern(n)], [n for n in new if _is_pattern(n)])
        if order[0] != order[1]:  # the first pattern that matches a key wins
            self.patterns.update(*order)
        for name in old.keys() | new.keys():
            if not isinstance(name, str):
                return False
            was, now = old.get(name, _ABSENT), new.get(name, _ABSENT)
            if _same(was, now):
                continue
            if any("%{" in s for v in (was, now) for s in strings_in(v, keys=True)):
                return False
            if _is_pattern(name):
                self.patterns.add(name)
            else:
                self.keys.add(name)
        return True

    def touches(self, key: str, graph: _Graph) -> bool:
        """Whether ``key``'s answer may differ between the revisions."""
        if key in self.keys:
            return True
        try:
            root = LookupKey.parse(key).root
        except KeySyntaxError:
            return True
        return graph.reaches(root, self._differs)

    def _differs(self, root: str) -> bool:
        if root in self.keys:
            return True
        for source in self.patterns:
            try:
                pattern = compile_ruby_regex(source)
            except (LookupFailure, PuppetError):
                return True
            if regex_search_or(pattern, root, True):
                return True
        return False


def _is_pattern(name: object) -> bool:
    return isinstance(name, str) and name.startswith(_PATTERN)


def _data(df: DataFile | None) -> Mapping[object, object]:
    return df.data if df is not None else {}


def _key_error(df: DataFile | None, key: str) -> bool:
    return df is not None and key in df.key_errors


def _same(a: object, b: object) -> bool:
    """Equal value for value, type for type, hash keys in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return (
            len(a) == len(b)
            and all(_same(x, y) for x, y in zip(a, b, strict=True))
            and all(_same(x, y) for x, y in zip(a.values(), b.values(), strict=True))
        )
    if isinstance(a, list | tuple):
        assert isinstance(b, list | tuple)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, float):
        return repr(a) == repr(b)
    return bool(a == b)


class _Graph:
    """Which root keys each definition looks up, over every data file of a revision."""

    def __init__(self) -> None:
        self.looks_up: dict[str, set[str]] = {}
        self.unknown: set[str] = set()  # a definition whose interpolation cannot be read
        self.converted: set[str] = set()  # lookup_options entries with a convert_to
        self._memo: dict[str, bool] = {}

    def add(self, data: Mapping[object, object]) -> bool:
        """Records a file's definitions; False when its lookup_options look keys up."""
        options = data.get(LOOKUP_OPTIONS)
        if isinstance(options, dict):
            for name, entry in options.items():
                if isinstance(entry, dict) and "convert_to" in entry:
                    self.converted.add(str(name))
        for key, value in data.items():
            texts = [s for s in strings_in(value, keys=True) if "%{" in s]
            if not texts:
                continue
            reads = reads_of(texts)
            if key == LOOKUP_OPTIONS:
                if reads is None or reads.keys:
                    return False
            elif not isinstance(key, str):
                continue
            elif reads is None:
                self.unknown.add(key)
            elif reads.keys:
                self.looks_up.setdefault(key, set()).update(reads.keys)
        return True

    def reaches(self, root: str, differs: Callable[[str], bool]) -> bool:
        """Whether ``root`` differs, reads something unknown, or looks up (through any
        chain) a key that does."""
        seen: set[str] = set()
        todo = [root]
        while todo:
            key = todo.pop()
            if key in seen:
                continue
            seen.add(key)
            known = self._memo.get(key)
            if known is not None:
                if known:
                    return True
                continue
            if key in self.unknown or differs(key):
                self._memo[root] = True
                return True
            todo.extend(self.looks_up.get(key, ()))
        # nothing reachable from any key seen differs
        self._memo.update(dict.fromkeys(seen, False))
        return False
