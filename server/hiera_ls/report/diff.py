"""``hiera-ls diff``: what a change of the data does to every node, key by key.

Each side (a revision, or the working tree) is read by the server's own project builder
(:class:`Workspace`); each facts profile gets one :class:`LookupSession` per side, and every
key goes through it, so lookup_options, hierarchies and nested lookups are resolved once per
(side, profile) and data files are parsed once per side.  The keys compared are those of the
files some profile's hierarchy names (and of modules' data): a node file of no profile is
never parsed, and a key only it defines could not change for any profile compared.

The facts profiles are the head side's, and the same facts are used at both revisions: the
question is what the data change does to the nodes as they are now, so a change of a facts
file alone is not reported as a data change (and a profile added in the change is compared
too: its "before" is what the old data gives it).

Values are compared as Puppet compares them (``1``, ``1.0`` and ``true`` differ; a hash's
key order does not count).  Values from eyaml are masked for the report (:class:`Masker`).
A facts profile whose file cannot be read is left out (``hiera-ls check`` reports it).
"""

from __future__ import annotations

import fnmatch
import os
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from hiera_ls.engine.explain import plain_data
from hiera_ls.engine.lookup import LookupSession
from hiera_ls.engine.providers import EYAML
from hiera_ls.project.facts import node_scope
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import NO_PROFILE_CERTNAME, Snapshot, Workspace
from hiera_ls.puppet.message import Text
from hiera_ls.puppet.values import Encrypted
from hiera_ls.report.git_tree import Repository, commit_of, repository_at, write_tree
from hiera_ls.report.redact import shown, strings_in
from hiera_ls.report.run import CheckError, _profile_names
from hiera_ls.source.keys import LOOKUP_OPTIONS

WORKING_TREE = "working tree"
MASKED = "<eyaml value>"
OUTSIDE = "<read from outside the repository>"
NO_PROFILE = "(no facts profile)"

Progress = Callable[[int, int], None]  # (lookups done, lookups in all)


@dataclass(frozen=True, slots=True)
class Answer:
    """One lookup's outcome at one side, as the report shows it."""

    state: str  # "value", "missing" or "error"
    shown: object = None  # the value (in a report: plain data, eyaml masked), or the error
    same_as: object = None  # what equality is decided on (Puppet's ==, unmasked)

    def as_data(self) -> dict[str, object]:
        if self.state == "value":
            return {"found": True, "value": self.shown}
        if self.state == "error":
            return {"error": self.shown}
        return {"found": False}


@dataclass(frozen=True, slots=True)
class ChangeGroup:
    """Profiles for which one key goes from the same ``before`` to the same ``after``."""

    profiles: tuple[str, ...]
    before: Answer
    after: Answer


@dataclass(frozen=True, slots=True)
class KeyChange:
    environment: str  # the environment's directory, relative to the repository ("." for it)
    key: str
    groups: tuple[ChangeGroup, ...]


@dataclass(frozen=True, slots=True)
class DiffResult:
    base: str  # as the user named it
    head: str
    profiles: tuple[str, ...]  # compared ((NO_PROFILE,) when the repository has none)
    keys: int  # keys compared (over every environment)
    environments: tuple[str, ...]
    changes: tuple[KeyChange, ...]
    # levels that read data from outside the repository, each said once; values from there
    # are masked as eyaml's are (a pull request may name ~/.docker/config.json)
    outside: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()  # about the run itself (the target, facts left out ...)


@dataclass(frozen=True, slots=True)
class _Profile:
    name: str
    facts: Mapping[str, object]
    certname: str


def run_diff(
    path: str,
    base: str = "HEAD",
    head: str | None = None,
    *,
    profiles: Sequence[str] | None = None,
    keys: Sequence[str] | None = None,
    settings: Settings | None = None,
    progress: Progress | None = None,
) -> DiffResult:
    """Compare every key for every profile between ``base`` and ``head`` (None: the files on
    disk) of the git repository holding ``path`` (the control repository or environment
    directory).  Raises GitError or CheckError for what the user must fix."""
    root = os.path.realpath(path)
    if not os.path.isdir(root):
        raise CheckError(f"{path}: no such directory")
    repo = repository_at(root)
    rel = os.path.relpath(root, repo.top)
    base_commit = commit_of(repo, base)
    head_commit = commit_of(repo, head) if head is not None else None
    with tempfile.TemporaryDirectory(prefix="hiera-ls-diff-") as tmp:
        base_root = _tree(repo, base_commit, os.path.join(tmp, "base"), rel)
        head_root = (
            _tree(repo, head_commit, os.path.join(tmp, "head"), rel)
            if head_commit is not None
            else root
        )
        base_snap = Workspace([base_root], settings).snapshot()
        head_snap = Workspace([head_root], settings).snapshot()
        chosen = _profiles(head_snap, profiles)
        base_top = os.path.join(tmp, "base", "tree")
        head_top = os.path.join(tmp, "head", "tree") if head_commit is not None else repo.top
        sides = (
            _Side(base_snap, base_root, chosen, base_top),
            _Side(head_snap, head_root, chosen, head_top),
        )
        names = sorted(set(sides[0].views) | set(sides[1].views))
        wanted = {
            env: _select_keys(set().union(*(s.defined_keys(env) for s in sides)), keys)
            for env in names
        }
        total = sum(len(k) for k in wanted.values()) * len(chosen) * 2
        counter = _Counter(total, progress)
        changes: list[KeyChange] = []
        for env in names:
            mask = Masker(
                frozenset().union(*(s.eyaml_keys(env) for s in sides)),
                frozenset().union(*(s.eyaml_strings(env) for s in sides)),
                outside_keys=frozenset().union(*(s.outside_keys(env) for s in sides)),
                outside_strings=frozenset().union(*(s.outside_strings(env) for s in sides)),
            )
            before, after = (s.answers(env, wanted[env], counter) for s in sides)
            for key in wanted[env]:
                groups = _groups(chosen, before[key], after[key], mask.for_key(key))
                if groups:
                    changes.append(KeyChange(env, key, groups))
    return DiffResult(
        base=base,
        head=head if head is not None else WORKING_TREE,
        profiles=tuple(p.name for p in chosen),
        keys=sum(len(k) for k in wanted.values()),
        environments=tuple(names),
        changes=tuple(changes),
        outside=tuple(dict.fromkeys(note for side in sides for note in side.outside_notes())),
        notes=head_snap.messages,
    )


def _tree(repo: Repository, commit: str, dest: str, rel: str) -> str:
    write_tree(repo, commit, dest)
    root = os.path.normpath(os.path.join(dest, "tree", rel))
    os.makedirs(root, exist_ok=True)  # the directory is new in the other revision
    return root


class _Counter:
    def __init__(self, total: int, progress: Progress | None) -> None:
        self.total, self.done, self.progress = total, 0, progress

    def step(self, n: int) -> None:
        self.done += n
        if self.progress is not None:
            self.progress(self.done, self.total)


def _profiles(snapshot: Snapshot, wanted: Sequence[str] | None) -> list[_Profile]:
    names = _profile_names(snapshot, wanted)
    if not names:
        return [_Profile(NO_PROFILE, {}, NO_PROFILE_CERTNAME)]
    by_name = {e.name: e for e in snapshot.profiles}
    return [
        _Profile(n, by_name[n].profile.facts, by_name[n].profile.name)
        for n in names
        if by_name[n].profile.error is None
    ]


class _Side:
    """One revision as the server's project builder reads it: its environments by their
    directory relative to the compared directory, and a lookup session per environment and
    profile (made first, as they also say which files each node's hierarchy reads)."""

    def __init__(
        self, snapshot: Snapshot, root: str, profiles: Sequence[_Profile], top: str
    ) -> None:
        self.snapshot, self.root, self.profiles = snapshot, root, profiles
        real_top = os.path.realpath(top).rstrip(os.sep) + os.sep
        # data files some level reads from outside the repository (a symlink out counts)
        self.outside = {
            path: info
            for path, info in snapshot.data_files.items()
            if info.levels and not os.path.realpath(path).startswith(real_top)
        }
        self.views = {os.path.relpath(v.env.root, root): v for v in snapshot.environments}
        self.sessions: dict[str, list[LookupSession]] = {}
        self.read: dict[str, frozenset[str] | None] = {}
        for env, view in self.views.items():
            target = snapshot.target
            sessions = [
                LookupSession(
                    view.env,
                    node_scope(p.facts, p.certname, view.env.name, target),
                    snapshot.files,
                    snapshot.cache,
                )
                for p in profiles
            ]
            self.sessions[env] = sessions
            paths: set[str] = set()
            for session in sessions:
                named = session.hierarchy_files()
                if named is None:  # this node's lookups fail: every file may matter
                    self.read[env] = None
                    break
                paths |= named
            else:
                self.read[env] = frozenset(paths)

    def _data_files(self, env: str, function: str | None = None) -> Iterator[tuple[str, str]]:
        """(path, module name or "") of each data file some profile's lookups can read: a
        module's, or one the profiles' hierarchies name (a node file of no profile is not
        read, nor parsed)."""
        view = self.views.get(env)
        read = self.read.get(env)
        for path, info in self.snapshot.data_files.items():
            if info.view is not view or not info.levels:
                continue
            module = info.levels[0].layer.module_name
            if module is None and read is not None and path not in read:
                continue
            if function is None or info.function == function:
                yield path, module or ""

    def _root_keys(self, path: str, module: str) -> Iterator[str]:
        df = self.snapshot.data_file(path)
        data = df.data if df is not None else None
        if isinstance(data, dict):
            prefix = f"{module}::"
            for key in data:
                kept = not module or (isinstance(key, str) and key.startswith(prefix))
                if isinstance(key, str) and key != LOOKUP_OPTIONS and kept:
                    yield key

    def defined_keys(self, env: str) -> set[str]:
        """Every root key a lookup of some profile can find."""
        return {k for path, module in self._data_files(env) for k in self._root_keys(path, module)}

    def eyaml_keys(self, env: str) -> set[str]:
        return {
            k
            for path, module in self._data_files(env, EYAML)
            for k in self._root_keys(path, module)
        }

    def outside_keys(self, env: str) -> set[str]:
        return {
            k
            for path, module in self._data_files(env)
            if path in self.outside
            for k in self._root_keys(path, module)
        }

    def outside_strings(self, env: str) -> set[str]:
        out: set[str] = set()
        for path, _ in self._data_files(env):
            df = self.snapshot.data_file(path) if path in self.outside else None
            if df is not None:
                out.update(strings_in(df.data))
        return out

    def outside_notes(self) -> list[str]:
        notes = []
        for path, info in sorted(self.outside.items()):
            names = ", ".join(dict.fromkeys(f"'{level.entry.name}'" for level in info.levels))
            env = os.path.relpath(info.view.env.root, self.root)
            where = "" if env == "." else f" (environment {env})"
            notes.append(
                f"hierarchy level {names}{where} reads {path}, outside the repository: "
                "its values are masked"
            )
        return notes

    def eyaml_strings(self, env: str) -> set[str]:
        out: set[str] = set()
        for path, _ in self._data_files(env, EYAML):
            df = self.snapshot.data_file(path)
            if df is not None:
                out.update(strings_in(df.data))
        return out

    def answers(self, env: str, keys: Sequence[str], counter: _Counter) -> dict[str, list[Answer]]:
        """Every key's answer for every profile: all keys through the profile's one session
        (lookup_options, hierarchies and nested lookups resolved once)."""
        out: dict[str, list[Answer]] = {key: [] for key in keys}
        sessions: Sequence[LookupSession | None] = self.sessions.get(env) or [None] * len(
            self.profiles
        )
        for session in sessions:
            for key in keys:
                if session is None:  # the environment is not there at this revision
                    out[key].append(Answer("missing"))
                    continue
                outcome = session.lookup(key)
                if outcome.error is not None:
                    assert outcome.failure is not None
                    out[key].append(_error(outcome.failure.text, self.root))
                elif not outcome.found:
                    out[key].append(Answer("missing"))
                else:
                    out[key].append(Answer("value", outcome.value, canonical(outcome.value)))
            counter.step(len(keys))
        return out


def _select_keys(defined: Iterable[str], patterns: Sequence[str] | None) -> list[str]:
    keys = {k for k in defined if k != LOOKUP_OPTIONS}
    if not patterns:
        return sorted(keys)
    chosen = {k for k in keys if any(fnmatch.fnmatchcase(k, p) for p in patterns)}
    # a key named exactly is compared even where no data file defines it (a default, say)
    chosen.update(p for p in patterns if not any(c in p for c in "*?[") and p != LOOKUP_OPTIONS)
    return sorted(chosen)


def _error(message: Text, root: str) -> Answer:
    """Puppet's error, its paths relative to the compared directory (the two sides live in
    different directories), its data values masked as ``hiera-ls check`` masks them."""
    text = message.replace(root.rstrip(os.sep) + os.sep, "").replace(root, ".")
    return Answer("error", shown(text), text.plain)


MIN_MASKED_PART = 4  # an eyaml level's string this long is masked inside other strings too


@dataclass(frozen=True, slots=True)
class Masker:
    """What of a value came from eyaml: ``ENC[...]`` strings anywhere; every scalar of a key
    an eyaml level defines; and any string holding a string of an eyaml level (interpolated
    into another key: ``db://%{lookup('db::user')}``)."""

    keys: frozenset[str]
    strings: frozenset[str]
    whole: bool = False
    # the same for data read from outside the repository (masked with OUTSIDE)
    outside_keys: frozenset[str] = frozenset()
    outside_strings: frozenset[str] = frozenset()
    whole_outside: bool = False

    def for_key(self, key: str) -> Masker:
        return replace(self, whole=key in self.keys, whole_outside=key in self.outside_keys)

    def shown(self, value: object) -> object:
        """``value`` as plain data with what came from eyaml replaced by MASKED, and what
        came from outside the repository by OUTSIDE (a whole value: its hash keys too)."""
        if self.whole_outside and value is not None:
            return OUTSIDE
        return self._walk(
            value, plain_data(value), _inside(self.strings), _inside(self.outside_strings)
        )

    def _walk(
        self,
        value: object,
        shown: object,
        inside: re.Pattern[str] | None,
        outside: re.Pattern[str] | None,
    ) -> object:
        if isinstance(value, dict) and isinstance(shown, dict):
            return {
                k: self._walk(v, s, inside, outside)
                for (k, s), v in zip(shown.items(), value.values(), strict=True)
            }
        if isinstance(value, list) and isinstance(shown, list):
            return [self._walk(v, s, inside, outside) for v, s in zip(value, shown, strict=True)]
        if self.whole and value is not None:
            return MASKED
        if isinstance(value, str) and (
            value in self.outside_strings or (outside is not None and outside.search(value))
        ):
            return OUTSIDE
        if isinstance(value, str) and (
            isinstance(value, Encrypted)
            or "ENC[" in value
            or value in self.strings
            or (inside is not None and inside.search(value))
        ):
            return MASKED
        return shown


def _inside(strings: frozenset[str]) -> re.Pattern[str] | None:
    """Any of ``strings`` long enough to be masked inside another string."""
    parts = sorted((s for s in strings if len(s) >= MIN_MASKED_PART), key=len)
    return re.compile("|".join(re.escape(s) for s in reversed(parts))) if parts else None


def canonical(value: object) -> object:
    """A hashable form in which ``==`` is Puppet's ``==`` on the values: types count
    (``1``, ``1.0``, ``true``, ``'1'`` differ), a hash's order does not."""
    if value is None:
        return ("undef",)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return ("int", value)
    if isinstance(value, float):
        return ("float", repr(value))
    if isinstance(value, Encrypted):
        return ("eyaml", str(value))
    if isinstance(value, str):
        return ("string", value)
    if isinstance(value, list):
        return ("array", tuple(canonical(v) for v in value))
    if isinstance(value, dict):
        return ("hash", frozenset((canonical(k), canonical(v)) for k, v in value.items()))
    return (type(value).__name__, repr(value))


def _groups(
    profiles: Sequence[_Profile],
    before: Sequence[Answer],
    after: Sequence[Answer],
    mask: Masker,
) -> tuple[ChangeGroup, ...]:
    found: dict[tuple[object, ...], tuple[list[str], Answer, Answer]] = {}
    for profile, old, new in zip(profiles, before, after, strict=True):
        if (old.state, old.same_as) == (new.state, new.same_as):
            continue
        mark = (old.state, old.same_as, new.state, new.same_as)
        entry = found.setdefault(mark, ([], _shown(old, mask), _shown(new, mask)))
        entry[0].append(profile.name)
    return tuple(ChangeGroup(tuple(names), old, new) for names, old, new in found.values())


def _shown(answer: Answer, mask: Masker) -> Answer:
    if answer.state != "value":
        return answer
    return Answer("value", mask.shown(answer.shown), answer.same_as)
