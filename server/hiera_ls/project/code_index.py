"""The Puppet code of one environment, indexed for the questions data files ask of it.

A key ``a::b::c`` sets parameter ``c`` of class ``a::b`` (automatic parameter lookup); a key
may also be read by an explicit ``lookup('k')`` in code. The checks ("no such parameter",
"value does not match the type"), hover, definition, completion, references, rename and the
unused-data hints all ask the same few questions, answered here from per-file
:class:`~hiera_ls.source.manifest_model.ManifestFacts`. The index is a value: a change to one
.pp file gives a new index that shares every other file's facts (:meth:`CodeIndex.replace`).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from hiera_ls.project.environments import ENVIRONMENT_CONF
from hiera_ls.project.model import Environment
from hiera_ls.source.files import UNREAD_CODES, FileAccess, Stamp, walk_files
from hiera_ls.source.keys import split_key
from hiera_ls.source.manifest_model import (
    Definition,
    DefinitionKind,
    Inclusion,
    LookupCall,
    ManifestFacts,
    ManifestProblem,
    Parameter,
)
from hiera_ls.source.spans import Span

_FUNCTIONS = "function names"  # CodeIndex.memo's key for function_names()
_RUBY_FUNCTION = re.compile(
    r"/lib/puppet/functions/(.+)\.rb$|/lib/puppet/parser/functions/([^/]+)\.rb$"
)


@dataclass(frozen=True, slots=True)
class ParameterRef:
    """The class parameter a key sets by automatic parameter lookup."""

    definition: Definition
    parameter: Parameter


_MANIFESTS = "/manifests/"
_KEPT_KEYS = 64  # environments whose keys CodeIndexes keeps
_NODE_VARIABLES = "node-variables"  # CodeIndex.memo's slot
_CLASSES_TAKING = "classes-taking"  # CodeIndex.memo's slot: (module, parameter) -> classes
_AUTOLOAD_TAILS = "autoload-tails"  # CodeIndex.memo's slot


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
    _by_root: Mapping[str, tuple[LookupCall, ...]] = field(init=False, repr=False, compare=False)
    _patterns: tuple[tuple[re.Pattern[str], LookupCall], ...] = field(
        init=False, repr=False, compare=False
    )
    # what the layers above derive from this index (completion's parameter list ...): kept as
    # long as the index, across snapshots, since a data edit keeps the index
    memo: dict[object, object] = field(default_factory=dict, init=False, repr=False, compare=False)

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
        by_root: dict[str, list[LookupCall]] = {}
        for key, calls in lookups.items():
            by_root.setdefault(_root(key), []).extend(calls)
        object.__setattr__(
            self, "_by_root", MappingProxyType({k: tuple(v) for k, v in by_root.items()})
        )

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

    def header_read(self, definition: Definition) -> bool:
        """The reader understood the definition's parameter list: no problem it reported lies
        between the name and the last parameter (a class it half read may have more)."""
        facts = self.files.get(definition.path)
        if facts is None or not facts.problems:
            return True
        start = definition.span.start.line
        end = max([p.span.end.line for p in definition.params] + [start]) + 2
        return not any(start <= p.span.start.line <= end for p in facts.problems)

    def autoload_file_known(self, namespace: str) -> bool:
        """A .pp file where Puppet's autoloader looks for ``namespace`` exists (the reader may
        have failed to read the class in it)."""
        module, _, rest = namespace.partition("::")
        tail = f"/{module}/manifests/{rest.replace('::', '/') if rest else 'init'}.pp"
        if "/" in module:
            return any(p.endswith(tail) for p in self.files)
        return tail in self._autoload_tails()

    def _autoload_tails(self) -> frozenset[str]:
        """Every ``/<module>/manifests/<path>.pp`` a file's path ends with (a module name
        holds no ``/``): asked once per key of every data file, a scan of the files each
        time cost seconds on Wikimedia's 5,000 code files."""
        found = self.memo.get(_AUTOLOAD_TAILS)
        if not isinstance(found, frozenset):
            tails: set[str] = set()
            for path in self.files:
                if not path.endswith(".pp"):
                    continue
                at = path.find(_MANIFESTS)
                while at >= 0:
                    start = path.rfind("/", 0, at)
                    if start >= 0:
                        tails.add(path[start:])
                    at = path.find(_MANIFESTS, at + 1)
            found = self.memo[_AUTOLOAD_TAILS] = frozenset(tails)
        return found

    def classes_taking(self, module: str, name: str) -> tuple[str, ...]:
        """The classes of ``module`` that take a parameter ``name``, by name (worked out once
        per index: a data file may hold hundreds of keys naming no class)."""
        found = self.memo.get(_CLASSES_TAKING)
        if not isinstance(found, Mapping):
            taking: dict[tuple[str, str], list[str]] = {}
            for d in self._by_name.values():
                if d.kind is DefinitionKind.CLASS:
                    owner = d.name.split("::", 1)[0]
                    for p in d.params:
                        taking.setdefault((owner, p.name), []).append(d.name)
            found = {k: tuple(sorted(v)) for k, v in taking.items()}
            self.memo[_CLASSES_TAKING] = found
        names = found.get((module, name), ())
        return names if isinstance(names, tuple) else ()

    def node_variables(self) -> frozenset[str]:
        """The variables node definitions set (node scope), in any file."""
        found = self.memo.get(_NODE_VARIABLES)
        if not isinstance(found, frozenset):
            found = frozenset().union(*(f.node_variables for f in self.files.values()))
            self.memo[_NODE_VARIABLES] = found
        return found

    def lookups_of(self, key: str) -> tuple[LookupCall, ...]:
        """Explicit literal lookups of ``key`` in code."""
        return self._lookups.get(key.removeprefix("::"), ())

    def lookups_of_root(self, root: str) -> tuple[LookupCall, ...]:
        """Explicit literal lookups of ``root`` or of a sub key of it (``lookup('k.a')``):
        every lookup whose merge runs on ``root``'s values."""
        return self._by_root.get(root.removeprefix("::"), ())

    def possible_lookups_of(self, key: str) -> tuple[LookupCall, ...]:
        """Dynamic lookups (``lookup("${x}::port")``) whose key could be ``key``."""
        return tuple(call for rx, call in self._patterns if rx.fullmatch(key))

    def inclusions(self) -> Iterator[Inclusion]:
        for path in sorted(self.files):
            yield from self.files[path].inclusions

    def function_names(self) -> frozenset[str]:
        """Every function the code defines, as Puppet's loaders find them: Puppet-language
        functions by their declared names, Ruby functions by their files' paths
        (``lib/puppet/functions/mymod/my_data.rb`` is ``mymod::my_data``, a 3.x function
        under ``lib/puppet/parser/functions`` its file's name)."""
        found = self.memo.get(_FUNCTIONS)
        if not isinstance(found, frozenset):
            names = {d.name for d in self.definitions() if d.kind is DefinitionKind.FUNCTION}
            for path in self.files:
                m = _RUBY_FUNCTION.search(path.replace(os.sep, "/"))
                if m is not None:
                    names.add((m.group(1) or m.group(2)).replace("/", "::").lower())
            found = frozenset(names)
            self.memo[_FUNCTIONS] = found
        return found


def _root(key: str) -> str:
    """A lookup key's root key (``k`` of ``k.a``); the key itself when it does not split."""
    if "." not in key and "'" not in key and '"' not in key:
        return key
    segments = split_key(key)
    return str(segments[0]) if segments else key


# ------------------------------------------------------------------ building an index

# Where a module keeps code hiera-ls reads: Puppet code (classes, defines, types, functions)
# for definitions and lookups, templates and Ruby functions for lookups only.
PUPPET = (".pp",)
TEMPLATES = (".epp", ".erb")
RUBY = (".rb",)
MODULE_CODE_DIRS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("manifests", PUPPET),
    ("types", PUPPET),
    ("functions", PUPPET),
    ("templates", TEMPLATES),
    (os.path.join("lib", "puppet", "functions"), RUBY),
    (os.path.join("lib", "puppet", "parser", "functions"), RUBY),
)
# Files whose change may change what code reads: never data, so their change keeps data caches.
WATCHED_CODE_SUFFIXES = PUPPET + TEMPLATES + RUBY
DEFAULT_MANIFEST = "manifests"
_MANIFEST_LINE = re.compile(r"^\s*manifest\s*=\s*(.*?)\s*$")
CodeRoot = tuple[str, tuple[str, ...]]  # a directory (or file) and the suffixes read there
# a request waits for a background build with at most this many files left to read (about
# 0.1 s, Wikimedia's files read at ~2.5 per ms): nearly done, worth the wait; a repository
# with fewer code files is always waited for
NEARLY_BUILT_FILES = 250
LISTING_WAIT_S = 2.0  # the longest a request waits for the background build to list files


@dataclass(slots=True)
class ManifestCache:
    """path -> (content stamp, facts): a file is read again only when its stamp changes, so
    rebuilding an index after one file changed costs a listing and a stat per file."""

    _entries: dict[str, tuple[Stamp, ManifestFacts]] = field(default_factory=dict)

    def forget(self, path: str) -> None:
        self._entries.pop(path, None)

    def get(self, files: FileAccess, path: str) -> ManifestFacts | None:
        stamp = files.stamp(path)
        if stamp is None:
            self._entries.pop(path, None)
            return None
        cached = self._entries.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        facts = read_code_file(path, files)
        if facts is not None:
            self._entries[path] = (stamp, facts)
        return facts


def read_code(path: str, text: str) -> ManifestFacts:
    """What one code file holds, read as its suffix says (the readers load with the first
    code file read: the server's start reads none before its first publish)."""
    from hiera_ls.source.manifest_parser import read_manifest
    from hiera_ls.source.template_reader import read_epp_lookups, read_ruby_lookups

    if path.endswith(".epp"):
        return read_epp_lookups(path, text)
    if path.endswith((".erb", ".rb")):
        return read_ruby_lookups(path, text)
    return read_manifest(path, text)


def read_code_file(path: str, files: FileAccess) -> ManifestFacts | None:
    found = files.read(path)
    if found is None:
        return None
    if found.problem is not None and found.problem.code in UNREAD_CODES:
        return ManifestFacts(
            path, problems=(ManifestProblem(path, Span.of(0, 0, 0, 0), found.problem.message),)
        )
    return read_code(path, found.text)


def environment_manifest(env: Environment, files: FileAccess) -> str | None:
    """The environment's main manifest (a file or a directory): ``environment.conf``'s
    ``manifest``, else ``manifests``; None when it lies outside (``$`` settings)."""
    text = files.read_text(os.path.join(env.root, ENVIRONMENT_CONF))
    entry = DEFAULT_MANIFEST
    for line in (text or "").splitlines():
        m = _MANIFEST_LINE.match(line)
        if m:
            entry = m.group(1)
    if not entry or "$" in entry:
        return None
    return os.path.normpath(entry if os.path.isabs(entry) else os.path.join(env.root, entry))


def code_roots(env: Environment, files: FileAccess) -> tuple[CodeRoot, ...]:
    """Every directory (or file) whose code the index reads, with the suffixes read there:
    each module's code directories, then the environment's main manifest."""
    roots: list[CodeRoot] = [
        (os.path.join(layer.root, sub), suffixes)
        for layer in env.modules.values()
        for sub, suffixes in MODULE_CODE_DIRS
    ]
    manifest = environment_manifest(env, files)
    if manifest is not None and all(manifest != r for r, _ in roots):
        roots.append((manifest, PUPPET))
    return tuple(roots)


def list_code_files(roots: Iterable[CodeRoot], files: FileAccess) -> list[str]:
    """The code files under ``roots`` (disk and open buffers), in path order."""
    out: set[str] = set()
    roots = tuple(roots)
    for root, suffixes in roots:
        if os.path.isfile(root):
            if root.endswith(suffixes):
                out.add(root)
            continue
        out.update(p for p in walk_files(root) if p.endswith(suffixes))
    out.update(p for p in files.overlay if _wanted(p, roots))
    return sorted(out)


def _root_of(path: str, roots: Iterable[CodeRoot]) -> CodeRoot | None:
    for root in roots:
        r = root[0]
        if path == r or path.startswith(r.rstrip(os.sep) + os.sep):
            return root
    return None


def _wanted(path: str, roots: Iterable[CodeRoot]) -> bool:
    root = _root_of(path, roots)
    return root is not None and path.endswith(root[1])


@dataclass(slots=True)
class BuildProgress:
    """How far a cold build of one environment's index is: ``listed`` is set once its files
    are listed (``total``) and again when the build ends; ``done`` files are read so far."""

    listed: threading.Event = field(default_factory=threading.Event)
    total: int = -1
    done: int = 0

    def left(self) -> int:
        return self.total - self.done if self.total >= 0 else -1


def build_code_index(
    env: Environment,
    files: FileAccess,
    cache: ManifestCache | None = None,
    progress: BuildProgress | None = None,
) -> CodeIndex:
    """The index of every code file of ``env`` (unchanged files come from ``cache``)."""
    cache = cache if cache is not None else ManifestCache()
    found: dict[str, ManifestFacts] = {}
    paths = list_code_files(code_roots(env, files), files)
    if progress is not None:
        progress.total = len(paths)
        progress.listed.set()
    for path in paths:
        facts = cache.get(files, path)
        if facts is not None:
            found[path] = facts
        if progress is not None:
            progress.done += 1
    return CodeIndex(MappingProxyType(found), frozenset(env.modules))


def update_code_index(
    index: CodeIndex,
    env: Environment,
    changed: Iterable[str],
    files: FileAccess,
    cache: ManifestCache,
) -> CodeIndex:
    """``index`` after ``changed`` paths changed: only those files are read again. A
    directory created or deleted among the code roots lists the files again (still reading
    only what changed)."""
    roots = code_roots(env, files)
    facts: list[ManifestFacts] = []
    removed: list[str] = []
    for path in changed:
        root = _root_of(path, roots)
        if root is None:
            continue
        if not path.endswith(root[1]):
            if os.path.splitext(path)[1] == "":
                return build_code_index(env, files, cache)
            continue
        got = cache.get(files, path) if files.is_file(path) else None
        if got is None:
            cache.forget(path)
            removed.append(path)
        else:
            facts.append(got)
    if not facts and not removed:
        return index
    return index.replace(facts, removed)


@dataclass(slots=True)
class CodeIndexes:
    """The code indexes of one code generation, one per environment, built on first use and
    shared by every snapshot until a code file changes (:meth:`after`); data edits leave
    them alone. The next generation starts from this one's indexes and re-reads only the
    changed files."""

    manifests: ManifestCache = field(default_factory=ManifestCache)
    _built: dict[object, CodeIndex] = field(default_factory=dict)
    _base: CodeIndexes | None = None
    _changed: frozenset[str] = frozenset()
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False, compare=False)
    # environment key -> the cold build under way or claimed (see claim and ready)
    _building: dict[object, BuildProgress] = field(default_factory=dict)
    # id(environment) -> (the environment, its key): asked once per file and profile by a
    # check, the key (every module's name and root, sorted) cost seconds on Wikimedia's
    _keys: dict[int, tuple[Environment, object]] = field(default_factory=dict, repr=False)

    def after(self, changed: Iterable[str], *, rebuild: bool = False) -> CodeIndexes:
        """The next generation, after ``changed`` code files (or directories) changed;
        ``rebuild``: list every file again (an ``environment.conf`` changed)."""
        if rebuild:
            return CodeIndexes(self.manifests)
        if self._built:
            with self._lock:  # the chain stays two long: older indexes are not kept alive
                self._base = None
            return CodeIndexes(self.manifests, _base=self, _changed=frozenset(changed))
        return CodeIndexes(
            self.manifests, _base=self._base, _changed=self._changed | frozenset(changed)
        )

    def index(self, env: Environment, files: FileAccess) -> CodeIndex:
        known = self._keys.get(id(env))
        if known is not None and known[0] is env:  # the object held: its id is not reused
            key = known[1]
        else:
            key = _env_key(env)
            if len(self._keys) >= _KEPT_KEYS:  # environments rebuilt by hiera.yaml edits
                self._keys.clear()
            self._keys[id(env)] = (env, key)
        with self._lock:
            found = self._built.get(key)
            if found is not None:
                return found
            base = self._base._built.get(key) if self._base is not None else None
            progress = self._building.get(key)
            try:
                if base is not None:
                    index = update_code_index(base, env, self._changed, files, self.manifests)
                else:
                    if progress is None:
                        progress = self._building[key] = BuildProgress()
                    index = build_code_index(env, files, self.manifests, progress)
                self._built[key] = index
            finally:
                if progress is not None:
                    self._building.pop(key, None)
                    progress.listed.set()  # a waiter whose build failed asks again itself
            return index

    def claim(self, env: Environment) -> bool:
        """Say that a background build of ``env``'s index is coming (False: not needed, it
        is built, being built, or one file's update of the last generation's index), so
        :meth:`ready` does not build it on the caller's thread meanwhile. The claimer must
        then call :meth:`index`."""
        key = _env_key(env)
        base = self._base
        if key in self._built or key in self._building or (base and key in base._built):
            return False
        self._building[key] = BuildProgress()
        return True

    def ready(
        self, env: Environment, files: FileAccess, near: int | None = None
    ) -> CodeIndex | None:
        """The index if it is built, cheap to bring up to date, or within ``near`` files of
        being built by the background build (then this waits for it); None while a claimed
        cold build has more left, so a request answers at once without the code. Nobody
        building it (``hiera-ls check``, tests): built here, as :meth:`index` does."""
        key = _env_key(env)
        found = self._built.get(key)
        if found is not None:
            return found
        base = self._base
        progress = self._building.get(key)
        if progress is None or (base is not None and key in base._built):
            return self.index(env, files)
        # listing takes a walk of the code directories (Wikimedia's: ~0.1 s); waited for,
        # within a bound in case the claimed build never started
        progress.listed.wait(LISTING_WAIT_S)
        left = progress.left()
        if 0 <= left <= (NEARLY_BUILT_FILES if near is None else near) or key in self._built:
            return self.index(env, files)
        return None


def _env_key(env: Environment) -> object:
    return (env.root, tuple(sorted((name, layer.root) for name, layer in env.modules.items())))
