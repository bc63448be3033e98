"""What every facts profile makes of the whole environment: definitions and files none needs.

A facts profile is a node the user gave hiera-ls the facts of; together they are the nodes
this repository is checked for.  For each profile the real engine looks up every key the
files it reads define (explained, so the trace says which file each value came from), and:

- ``profile-shadowed-definition``: a file some profile reads defines a key, but for every
  profile that reads the file the lookup never takes this definition (a higher level wins,
  with a first-found merge).  Not for a module's own data: its defaults are there for every
  environment using the module, and the environment overriding them is the usual pattern;
- ``profile-redundant-override``: the definition is taken for at least one profile, and for
  every such profile the lookup with this one definition removed (the same engine, the file
  read without that key) gives the same value, hash order included: interpolation, merge
  strategies from lookup_options, knockout prefixes and convert_to all act as Puppet's do;
- ``profile-unread-data-file``: a data file some level can read for some node, read by no
  profile (a node file for a certname no profile has).  A file no level can read at all is
  ``hiera-data-file-unused``'s, never reported twice.

Findings are about root keys as written in a file; ``lookup_options`` is not judged (its
entries are options, merged by another rule), nor a key whose lookup fails for a profile
that reads the file (``lookup-fails-for-profile`` says why), nor keys that need quoting to be
looked up (``"a.b"``), nor a key of a module missing from the modulepath (its lookup_options,
unknown, may merge it).  Without any profile nothing is reported: which nodes exist is then
unknown.  The cost is a lookup of every key per profile plus one per definition taken,
so the language server runs this in its background worker (``pause`` lets it give way).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from hiera_ls.checks.cross_file import CrossFileIndex
from hiera_ls.checks.profile import bottom_up
from hiera_ls.checks.same_file_levels import LevelLocations, check_same_file_levels, level_locations
from hiera_ls.engine.lookup import LookupOutcome, LookupSession
from hiera_ls.engine.trace import Event, Kind, TraceNode
from hiera_ls.project.backends import EXPAND_PATH
from hiera_ls.project.key_index import LARGE_FILE_CHARS
from hiera_ls.project.level_files import LevelRef
from hiera_ls.project.model import Environment
from hiera_ls.project.scope import NodeScope
from hiera_ls.puppet.errors import Cause
from hiera_ls.puppet.ruby import eql_key, ruby_equal
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.files import FileAccess, Stamp
from hiera_ls.source.keys import LOOKUP_OPTIONS, LookupKey, split_key
from hiera_ls.source.rules import Needs, Rule
from hiera_ls.source.spans import Consequence, Details, FileSpan, Problem, Severity, Span

# every facts profile's lookups over the whole environment
_EVERY_PROFILE = Needs.INDEX | Needs.PROFILE
REDUNDANT_OVERRIDE = Rule(
    "profile-redundant-override",
    Severity.INFORMATION,
    "A definition that changes nothing: without it every facts profile gets the same value",
    needs=_EVERY_PROFILE,
)
SHADOWED_DEFINITION = Rule(
    "profile-shadowed-definition",
    Severity.INFORMATION,
    "A definition no facts profile uses: a higher level wins for every profile reading it",
    needs=_EVERY_PROFILE,
)
UNREAD_DATA_FILE = Rule(
    "profile-unread-data-file",
    Severity.HINT,
    "A data file some level can read, but for none of the facts profiles' nodes",
    needs=_EVERY_PROFILE,
)
RULES = (REDUNDANT_OVERRIDE, SHADOWED_DEFINITION, UNREAD_DATA_FILE)

PROBE_KEY = "__hiera_ls_probe__"  # a key no file defines: its trace lists every file read
SHOWN_NAMES = 3  # profile names in a message before "and N more"


@dataclass(frozen=True, slots=True)
class NodeProfile:
    """One facts profile as the lookups see it."""

    name: str
    scope: NodeScope
    # profiles with the same non-None ``share`` get the same answer to every lookup (a class
    # of engine/node_classes.py): their keys are looked up once, for the first of them
    share: Hashable | None = None
    # a key's signature: profiles whose signatures of a key are equal get the same answer to
    # it, looked up once for the first of them (None: the profile's own)
    key_share: Callable[[str], Hashable | None] | None = None


class _WithoutKey(DataCache):
    """The shared cache, except that one file is read without one root key: the lookup
    Puppet would make if that definition were deleted, without writing or re-parsing."""

    def __init__(self, base: DataCache) -> None:
        super().__init__()
        self.base = base
        self.removed: tuple[str, str] | None = None
        self._copies: dict[tuple[str, str, int], DataFile] = {}

    def get(self, files: FileAccess, path: str, function: str) -> DataFile | None:
        found = self.base.get(files, path, function)
        removed = self.removed
        if found is None or removed is None or removed[0] != path or removed[1] not in found.data:
            return found
        key = (path, removed[1], id(found))
        copy = self._copies.get(key)
        if copy is None:
            data = {k: v for k, v in found.data.items() if k != removed[1]}
            copy = replace(found, data=data, problems=(), document=None)
            self._copies = {key: copy}  # one at a time: the next lookup removes another key
        return copy


class _Once:
    """What one run works out once for every profile: the files with their strings blanked
    (:class:`_Shallow`), and the keys each file defines that are judged here."""

    def __init__(self, shallow: _Shallow) -> None:
        self.shallow = shallow
        self.keys: dict[tuple[str, bool], list[str]] = {}
        self.file_per_key: bool | None = None  # see _single_definitions


class _Shallow(DataCache):
    """Another cache's files with every string value blanked (lookup_options kept): a lookup
    through it visits the same files and merges as the real one, but interpolates nothing, so
    its explained trace (which files the value was taken from) costs no nested lookups."""

    def __init__(self, base: DataCache) -> None:
        super().__init__()
        self.base = base
        self._copies: dict[str, tuple[DataFile, DataFile]] = {}

    def get(self, files: FileAccess, path: str, function: str) -> DataFile | None:
        found = self.base.get(files, path, function)
        if found is None:
            return None
        kept = self._copies.get(path)
        if kept is not None and kept[0] is found:
            return kept[1]
        data = {k: v if k == LOOKUP_OPTIONS else _blank(v) for k, v in found.data.items()}
        copy = replace(found, data=data, problems=(), document=None)
        self._copies[path] = (found, copy)
        return copy


def _blank(value: object) -> object:
    if isinstance(value, str):
        return ""
    if isinstance(value, list):
        return [_blank(v) for v in value]
    if isinstance(value, dict):
        return {k: _blank(v) for k, v in value.items()}
    return value


@dataclass(slots=True)
class _Seen:
    """One profile's answer for one key."""

    taken: list[str]  # files whose definition the lookup took, highest priority first
    failed: bool = False
    cause: Cause | None = None  # what made it fail, when a problem elsewhere did
    same_without: dict[str, str | None] = field(default_factory=dict)  # file -> source without


Deps = tuple[tuple[str, Stamp | None], ...]  # every file location looked at, as it was then


@dataclass(slots=True)
class _ProfileRun:
    """One profile's answers, and every file location its hierarchies look at: any lookup
    for this node (nested ones included) reads only those, so while none changed, none of
    its answers can have."""

    reads: set[str]
    known: bool
    deps: Deps
    answers: dict[str, _Seen]
    levels: list[LevelLocations]  # the files each level names for this node


@dataclass(slots=True)
class CoverageMemo:
    """Answers kept from one run to the next, per profile: after an edit only the profiles
    whose nodes read the edited file look their keys up again.

    ``context``: what every answer also depends on (the environment, the profiles, the file
    listing: a new file a glob level matches is in no earlier trace); when it changes, all
    is forgotten.
    """

    context: tuple[object, ...] = ()
    runs: dict[str, _ProfileRun] = field(default_factory=dict)
    lookups: int = 0  # lookups the last run made (what the memo saves shows here)
    # each profile's answers looked up as automatic parameter lookup does (no merge given),
    # by (profile, key), kept for a caller that asks them again (``hiera-ls check``'s class
    # checks: features/class_checks.py); None: not kept (the server's memo)
    answers: dict[tuple[str, str], LookupOutcome] | None = None

    def start(self, context: tuple[object, ...]) -> None:
        """Begin a run; ``context``'s objects are compared by identity (they are immutable
        snapshots' parts: a new object is a change)."""
        same = len(context) == len(self.context) and all(
            a is b for a, b in zip(context, self.context, strict=True)
        )
        if not same:
            self.context = context
            self.runs.clear()
            if self.answers is not None:
                self.answers.clear()
        self.lookups = 0


@dataclass(frozen=True, slots=True)
class CoverageResult:
    """The findings by the file they are about, and every lookup a problem elsewhere makes
    fail, by that problem (its consequences: checks/causes.py)."""

    by_file: dict[str, list[Problem]]
    consequences: dict[Cause, list[Consequence]] = field(default_factory=dict)


def check_profile_coverage(
    env: Environment,
    index: CrossFileIndex,
    profiles: Sequence[NodeProfile],
    files: FileAccess,
    cache: DataCache,
    levels_by_file: Mapping[str, Sequence[LevelRef]],
    pause: Callable[[], None] | None = None,
    memo: CoverageMemo | None = None,
    merges: Callable[[str], Sequence[object]] | None = None,
) -> CoverageResult:
    """The findings, by the file they are about.  ``levels_by_file``: every data file of the
    environment with the levels that can read it for some node (the workspace's listing).
    ``memo``: answers of the last run (see :class:`CoverageMemo`; its context is the caller's).
    ``merges``: the merge arguments code reads a key with (project/asked_merges.py's
    ``merge_arguments``; None for the key's lookup_options); a definition one of them takes
    is used. Without it, every key is looked up as automatic parameter lookup does.
    """
    if not profiles:
        return CoverageResult({})
    asked = merges if merges is not None else _lookup_options_only
    memo = memo if memo is not None else CoverageMemo()
    step = pause or (lambda: None)
    stamps: dict[str, Stamp | None] = {}

    def fresh(deps: Deps) -> bool:
        for path, stamp in deps:
            if path not in stamps:
                stamps[path] = files.stamp(path)
            if stamps[path] != stamp:
                return False
        return True

    reads: dict[str, set[str]] = {}  # profile -> files it reads
    levels: dict[str, list[LevelLocations]] = {}  # profile -> the files each level names
    complete = True  # every profile's hierarchies could be worked out
    seen: dict[tuple[str, str], _Seen] = {}  # (profile, key) -> what its lookup took
    shared: dict[Hashable, _ProfileRun] = {}  # a class's first run
    judged: dict[Hashable, _Seen] = {}  # a key's answer, by its signature
    once = _Once(_Shallow(cache))
    for profile in profiles:
        run = memo.runs.get(profile.name)
        if run is None or not fresh(run.deps):
            same = shared.get(profile.share) if profile.share is not None else None
            run = _member_run(env, profile, files, cache, step, memo, same) if same else None
            if run is None:
                run = _profile_run(
                    env, index, profile, files, cache, step, memo, asked, judged, once
                )
            memo.runs[profile.name] = run
        if profile.share is not None:
            shared.setdefault(profile.share, run)
        reads[profile.name] = run.reads
        levels[profile.name] = run.levels
        complete = complete and run.known
        for key, answer in run.answers.items():
            seen[(profile.name, key)] = answer
    by_file = _findings(
        env, index, profiles, reads, seen, levels_by_file if complete else {}, files
    )
    if complete:
        for path, found in check_same_file_levels(env, levels).items():
            by_file.setdefault(path, []).extend(found)
    return CoverageResult(by_file, _consequences(index, profiles, seen, files))


def _consequences(
    index: CrossFileIndex,
    profiles: Sequence[NodeProfile],
    seen: Mapping[tuple[str, str], _Seen],
    files: FileAccess,
) -> dict[Cause, list[Consequence]]:
    """Each cause's failed lookups, placed on every file that defines the key (as each
    file's own lookups would have failed), with the profiles they fail for."""
    failed: dict[Cause, dict[str, list[str]]] = {}
    by_name: dict[str, list[tuple[str, Cause]]] = {}  # each profile's failures, in order
    for (name, key), answer in seen.items():
        if answer.cause is not None:
            by_name.setdefault(name, []).append((key, answer.cause))
    for profile in profiles:  # (a scan of every answer per profile took 19 s for 500)
        for key, cause in by_name.get(profile.name, ()):
            failed.setdefault(cause, {}).setdefault(key, []).append(profile.name)
    if not failed:
        return {}
    out: dict[Cause, list[Consequence]] = {}
    for path, entry in sorted(index.files.items()):
        role = index.role(path)
        if role.read_by_no_level or _large(files, path):
            continue  # a file no level reads takes no part in any lookup
        kept = set(entry.kept_keys(role.module_name))
        for cause, keys in failed.items():
            if cause.path == path and cause.key is None:
                continue  # the refused file's own keys: it is the finding
            for key, names in keys.items():
                if key in kept:
                    where = FileSpan(path, entry.keys[key].key_span)
                    out.setdefault(cause, []).append(Consequence(key, where, tuple(names)))
    return out


def _member_run(
    env: Environment,
    profile: NodeProfile,
    files: FileAccess,
    cache: DataCache,
    step: Callable[[], None],
    memo: CoverageMemo,
    same: _ProfileRun,
) -> _ProfileRun | None:
    """The run of a profile of ``same``'s class: its own levels (the locations they name
    differ with the node's name, the files they find do not), ``same``'s answers; None when
    its hierarchies find other files after all."""
    session = LookupSession(env, profile.scope, files, cache)

    def explained(key: str) -> LookupOutcome:
        step()
        memo.lookups += 1
        return session.lookup(key, None, explain=True)

    read, known, deps, levels = _files_read(explained, env, files)
    if read != same.reads or known != same.known:
        return None
    return _ProfileRun(read, known, deps, same.answers, levels)


def _profile_run(
    env: Environment,
    index: CrossFileIndex,
    profile: NodeProfile,
    files: FileAccess,
    cache: DataCache,
    step: Callable[[], None],
    memo: CoverageMemo,
    merges: Callable[[str], Sequence[object]],
    judged: dict[Hashable, _Seen],
    once: _Once,
) -> _ProfileRun:
    """Every key the profile's files define, looked up three ways: as Puppet does (the
    value), through blanked strings and explained (which files it was taken from), and with
    each taken definition removed (whether it changes the value); each way once per merge
    the code reads the key with (``merges``)."""
    session = LookupSession(env, profile.scope, files, cache)
    shallow = LookupSession(env, profile.scope, files, once.shallow)
    without = _WithoutKey(cache)
    removal = LookupSession(env, profile.scope, files, without)
    shallow_removal = LookupSession(env, profile.scope, files, _Shallow(without))

    def lookup(
        on: LookupSession, key: str, explain: bool = False, merge: object = None
    ) -> LookupOutcome:
        step()
        memo.lookups += 1
        return on.lookup(key, merge, explain=explain)

    def plain(key: str, merge: object = None) -> LookupOutcome:
        """The value's lookup, kept for the caller when asked (CoverageMemo.answers)."""
        outcome = lookup(session, key, merge=merge)
        if merge is None and memo.answers is not None:
            memo.answers[(profile.name, key)] = outcome
        return outcome

    def judge(key: str, merge: object) -> _Seen:
        """What the lookup with ``merge`` takes, and which definitions change nothing."""
        outcome = plain(key, merge)
        found = outcome.found and not outcome.error
        if found and key in single:  # its one definition is taken, and nothing else has it
            return _Seen([single[key]])
        traced = lookup(shallow, key, True, merge) if found else None
        taken = _taken(traced.trace, key) if traced is not None and traced.trace else []
        if not taken:  # failed, or unknown (a trace too large to keep is empty)
            return _Seen([], failed=True, cause=_cause(outcome))
        entry = _Seen(taken)
        for path in taken:
            without.removed = (path, key)
            removal.forget_nested()  # values kept with another definition removed
            other = lookup(removal, key, merge=merge)
            if other.error is None and other.found and _same(other.value, outcome.value):
                shown = lookup(shallow_removal, key, True, merge).trace
                source = _taken(shown, key) if shown is not None else []
                entry.same_without[path] = source[0] if source else None
            without.removed = None
        return entry

    explained = functools.partial(lookup, session, explain=True)
    read, known, deps, levels = _files_read(explained, env, files)
    single = _single_definitions(env, index, read, files, once) if known else {}
    answers: dict[str, _Seen] = {}
    references = [
        r for path in sorted(read) if path in index.files for r in index.files[path].references
    ]
    # keys before the keys whose tokens look them up: a chain of a thousand keys costs a
    # thousand lookups (each nested one already known to the session), not 500,000
    for key in bottom_up(_keys_defined(index, read, files, once), references):
        token = profile.key_share(key) if profile.key_share is not None else None
        same = judged.get(token) if token is not None else None
        if same is None:
            same = _combined([judge(key, merge) for merge in merges(key)])
            if token is not None:
                judged[token] = same
        answers[key] = same
    # the keys not judged above are looked up too, for what makes them fail: a problem
    # elsewhere that breaks lookups (then every key of the environment is, so its
    # consequences are counted wherever a file defines them)
    broken = not known or any(a.cause is not None for a in answers.values())
    for key in _keys_defined(index, index.files if broken else read, files, once, every=True):
        if key not in answers:
            outcome = plain(key)
            cause = _cause(outcome)
            if cause is not None:
                answers[key] = _Seen([], failed=True, cause=cause)
    return _ProfileRun(read, known, deps, answers, levels)


def _single_definitions(
    env: Environment, index: CrossFileIndex, read: Iterable[str], files: FileAccess, once: _Once
) -> dict[str, str]:
    """Each key exactly one of the files the profile reads defines, with that file: a lookup
    that finds it took that definition alone (whatever the merge), and without it finds
    nothing.  Empty when a file read is not indexed, or a level reads a file per key
    (expand_path: the files read were found with another key)."""
    if once.file_per_key is None:
        layers = [env.global_layer, env.environment_layer, *env.modules.values()]
        once.file_per_key = any(
            entry.reader == EXPAND_PATH
            for layer in layers
            if layer.config is not None
            for entry in (*layer.config.hierarchy, *layer.config.default_hierarchy)
        )
    if once.file_per_key:
        return {}
    owner: dict[str, str | None] = {}
    for path in read:
        entry = index.files.get(path)
        if entry is None or _large(files, path):
            return {}
        for key in entry.keys:
            owner[key] = path if key not in owner else None
    return {key: path for key, path in owner.items() if path is not None}


def _lookup_options_only(key: str) -> Sequence[object]:
    return (None,)


def _combined(seen: Sequence[_Seen]) -> _Seen:
    """One key's answers under several merges as one: a definition any of them takes is
    taken, and changes nothing only when it changes nothing under each merge taking it; a
    failing lookup leaves the key unjudged (its failure is another rule's)."""
    if len(seen) == 1:
        return seen[0]
    failed = next((s for s in seen if s.failed), None)
    if failed is not None:
        return failed
    taken = list(dict.fromkeys(path for s in seen for path in s.taken))
    entry = _Seen(taken)
    for path in taken:
        takers = [s for s in seen if path in s.taken]
        if all(path in s.same_without for s in takers):
            entry.same_without[path] = takers[0].same_without[path]
    return entry


def _cause(outcome: LookupOutcome) -> Cause | None:
    """The problem elsewhere that made a lookup fail (its file's path as the checks name it)."""
    failure = outcome.failure
    cause = failure.cause if failure is not None else None
    if cause is None or cause.path is None:
        return cause
    return Cause(os.path.normpath(cause.path), cause.key)


def _files_read(
    lookup: Callable[[str], LookupOutcome], env: Environment, files: FileAccess
) -> tuple[set[str], bool, Deps, list[LevelLocations]]:
    """Every existing file the profile's hierarchies read (global, environment, modules),
    whether that is all of them (a hierarchy that fails for the profile hides the rest),
    every location they look at (found or not, lookup_options' included), and the locations
    of each level."""
    keys = [PROBE_KEY]
    keys.extend(
        f"{name}::{PROBE_KEY}"
        for name, layer in sorted(env.modules.items())
        if layer.config is not None and layer.config.path is not None
    )
    out: set[str] = set()
    looked: set[str] = set()
    known = True
    levels: list[LevelLocations] = []
    for key in keys:
        outcome = lookup(key)
        known = known and outcome.error is None and outcome.trace is not None
        if outcome.trace is None:
            continue
        levels.extend(level_locations(outcome.trace))
        for node in outcome.trace.walk():
            if node.kind is Kind.PATH:
                path = os.path.normpath(node.label)
                looked.add(path)
                if node.exists:
                    out.add(path)
    return out, known, tuple((path, files.stamp(path)) for path in sorted(looked)), levels


def _keys_defined(
    index: CrossFileIndex, read: Iterable[str], files: FileAccess, once: _Once, every: bool = False
) -> list[str]:
    """The keys the files define that are judged here (``every``: also those of modules
    missing from the modulepath, whose lookups fail like any other's)."""
    keys: dict[str, None] = {}
    for path in sorted(read):
        slot = (path, every)
        found = once.keys.get(slot)
        if found is None:
            found = once.keys[slot] = _file_keys(index, path, files, every)
        keys.update(dict.fromkeys(found))
    return list(keys)


def _file_keys(index: CrossFileIndex, path: str, files: FileAccess, every: bool) -> list[str]:
    entry = index.files.get(path)
    if entry is None or _large(files, path):
        return []
    kept = entry.kept_keys(index.role(path).module_name)
    return [key for key in kept if _judged(index.env, key) or (every and _named(key))]


def _large(files: FileAccess, path: str) -> bool:
    """Past the size where the checks skip each key's lookup (``data-large-file``): its keys
    are neither looked up nor judged here either (a file's size in bytes bounds its characters).
    """
    text = files.overlay.get(path)
    if text is not None:
        return len(text) > LARGE_FILE_CHARS
    try:
        return os.stat(path).st_size > LARGE_FILE_CHARS
    except OSError:
        return False


def _judged(env: Environment, key: str) -> bool:
    """A key a lookup names as written (``"a.b"`` would need quoting to be found), of no
    module missing from the modulepath: a missing module's lookup_options are unknown (a
    clone whose modules r10k has not deployed), and they may merge the key."""
    if not _named(key):
        return False
    module = LookupKey.parse(key).module_name
    return module is None or module in env.modules


def _named(key: str) -> bool:
    """A key a lookup names as written (``"a.b"`` would need quoting to be found)."""
    if key == LOOKUP_OPTIONS or not key:
        return False
    segments = split_key(key)
    return segments is not None and len(segments) == 1 and segments[0] == key


def _taken(trace: TraceNode, key: str) -> list[str]:
    """Files whose value of ``key`` the lookup took, in the order it took them (the values
    that nested lookups of interpolations read are not this key's)."""
    out: list[str] = []

    def walk(node: TraceNode) -> None:
        for child in node.children:
            if child.kind in (Kind.INTERPOLATE, Kind.META):
                continue
            if child.kind is Kind.PATH:
                if child.event is Event.FOUND and child.key == key:
                    path = os.path.normpath(child.label)
                    if path not in out:
                        out.append(path)
                continue
            walk(child)

    walk(trace)
    return out


def _same(a: object, b: object) -> bool:
    """Equal as Ruby compares, and hashes in the same order (iteration order shows)."""
    return ruby_equal(a, b) and _order(a) == _order(b)


def _order(value: object) -> object:
    if isinstance(value, dict):
        return tuple((eql_key(k), _order(v)) for k, v in value.items())
    if isinstance(value, list):
        return tuple(_order(v) for v in value)
    return None


def _findings(
    env: Environment,
    index: CrossFileIndex,
    profiles: Sequence[NodeProfile],
    reads: Mapping[str, set[str]],
    seen: Mapping[tuple[str, str], _Seen],
    levels_by_file: Mapping[str, Sequence[LevelRef]],
    files: FileAccess,
) -> dict[str, list[Problem]]:
    out: dict[str, list[Problem]] = {}
    names = [p.name for p in profiles]
    readers: dict[str, list[str]] = {}
    for name in names:
        for path in reads[name]:
            readers.setdefault(path, []).append(name)
    for path, entry in sorted(index.files.items()):
        who = readers.get(path)
        if who and _large(files, path):
            continue
        if not who:
            levels = [lv for lv in levels_by_file.get(path, ()) if lv.reads_files]
            if levels:
                out.setdefault(path, []).append(_unread(env, path, levels, names, entry.first_line))
            continue
        for key in entry.kept_keys(index.role(path).module_name):
            answers = [seen.get((name, key)) for name in who]
            if not _judged(env, key) or any(a is None or a.failed for a in answers):
                continue
            span = entry.keys[key].key_span
            taking = [(n, a) for n, a in zip(who, answers, strict=True) if a and path in a.taken]
            if not taking:
                if index.role(path).module_name is not None:
                    continue  # a module's defaults serve environments hiera-ls does not see
                winners = [(n, a.taken[0]) for n, a in zip(who, answers, strict=True) if a]
                out.setdefault(path, []).append(_shadowed(env, path, span, key, winners))
            elif all(path in a.same_without for _, a in taking):
                sources = [(n, a.same_without[path]) for n, a in taking]
                out.setdefault(path, []).append(_redundant(env, path, span, key, sources))
    return out


def _listed(items: Sequence[str]) -> str:
    shown = ", ".join(items[:SHOWN_NAMES])
    more = len(items) - SHOWN_NAMES
    return f"{shown} and {more} more" if more > 0 else shown


def _shown(env: Environment, path: str | None) -> str:
    if path is None:
        return "no file"
    rel = os.path.relpath(path, env.root)
    return path if rel.startswith("..") else rel


def _by_source(env: Environment, pairs: Sequence[tuple[str, str | None]]) -> str:
    """``a, b: x.yaml; c: y.yaml``: the profiles grouped by the file named for them."""
    groups: dict[str | None, list[str]] = {}
    for name, source in pairs:
        groups.setdefault(source, []).append(name)
    parts = [f"{_shown(env, source)} for {_listed(who)}" for source, who in groups.items()]
    return "; ".join(parts[:SHOWN_NAMES]) + ("; ..." if len(parts) > SHOWN_NAMES else "")


def _shadowed(
    env: Environment, path: str, span: Span, key: str, winners: Sequence[tuple[str, str]]
) -> Problem:
    return SHADOWED_DEFINITION.at(
        f"'{key}' here is never used: for every facts profile that reads this file a higher "
        f"level wins ({_by_source(env, winners)})",
        path,
        span,
        Details(key=key),
    )


def _redundant(
    env: Environment, path: str, span: Span, key: str, sources: Sequence[tuple[str, str | None]]
) -> Problem:
    return REDUNDANT_OVERRIDE.at(
        f"'{key}' here changes nothing: without it every facts profile that takes it gets the "
        f"same value ({_by_source(env, sources)})",
        path,
        span,
        Details(key=key),
    )


def _unread(
    env: Environment, path: str, levels: Sequence[LevelRef], names: Sequence[str], width: int
) -> Problem:
    level_names = list(dict.fromkeys(f'"{lv.entry.name}" ({lv.template})' for lv in levels))
    which = "level" if len(level_names) == 1 else "levels"
    verb = "reads" if len(level_names) == 1 else "read"
    return UNREAD_DATA_FILE.at(
        f"No facts profile reads this file ({len(names)}: {_listed(list(names))}); "
        f"{which} {_listed(level_names)} {verb} it only for other nodes",
        path,
        Span.of(0, 0, 0, width),
    )
