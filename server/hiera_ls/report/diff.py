"""``hiera-ls diff``: what a change of the data does to every node, key by key.

Each side (a revision, or the working tree) is read by the server's own project builder
(:class:`Workspace`); each facts profile gets one :class:`LookupSession` per side, and every
key goes through it, so lookup_options, hierarchies and nested lookups are resolved once per
(side, profile) and data files are parsed once per side.

The facts profiles are the head side's, and the same facts are used at both revisions: the
question is what the data change does to the nodes as they are now, so a change of a facts
file alone is not reported as a data change (and a profile added in the change is compared
too: its "before" is what the old data gives it).

Values are compared as Puppet compares them (``1``, ``1.0`` and ``true`` differ; a hash's
key order does not count).  Values from eyaml are masked for the report: ``ENC[...]``
strings wherever they land, and every scalar of a key that an eyaml level defines.
"""

from __future__ import annotations

import fnmatch
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from hiera_ls.engine.explain import plain_data
from hiera_ls.engine.lookup import LookupSession
from hiera_ls.engine.providers import EYAML
from hiera_ls.project.facts import node_scope
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import NO_PROFILE_CERTNAME, EnvironmentView, Snapshot, Workspace
from hiera_ls.puppet.values import Encrypted
from hiera_ls.report.git_tree import Repository, commit_of, repository_at, write_tree
from hiera_ls.report.redact import report_message
from hiera_ls.report.run import CheckError, _profile_names
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.spans import FileSpan, Problem, Severity, Span

WORKING_TREE = "working tree"
MASKED = "<eyaml value>"
NO_PROFILE = "(no facts profile)"
_ERROR_CODE = "lookup-fails-for-profile"  # its message quotes data: quoted text is masked

Progress = Callable[[int, int], None]  # (lookups done, lookups in all)


@dataclass(frozen=True, slots=True)
class Answer:
    """One lookup's outcome at one side, as the report shows it."""

    state: str  # "value", "missing" or "error"
    shown: object = None  # the value, eyaml masked (plain data), or the error's text
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
        base_envs = _environments(base_snap, base_root)
        head_envs = _environments(head_snap, head_root)
        names = sorted(set(base_envs) | set(head_envs))
        wanted: dict[str, list[str]] = {}
        secret: dict[str, set[str]] = {}
        for env in names:
            defined = _defined_keys(base_snap, base_envs.get(env)) | _defined_keys(
                head_snap, head_envs.get(env)
            )
            wanted[env] = _select_keys(defined, keys)
            secret[env] = _eyaml_keys(base_snap, base_envs.get(env)) | _eyaml_keys(
                head_snap, head_envs.get(env)
            )
        total = sum(len(k) for k in wanted.values()) * len(chosen) * 2
        counter = _Counter(total, progress)
        changes: list[KeyChange] = []
        for env in names:
            before = _answers(
                base_snap, base_envs.get(env), chosen, wanted[env], secret[env], base_root, counter
            )
            after = _answers(
                head_snap, head_envs.get(env), chosen, wanted[env], secret[env], head_root, counter
            )
            for key in wanted[env]:
                groups = _groups(chosen, before[key], after[key])
                if groups:
                    changes.append(KeyChange(env, key, groups))
    return DiffResult(
        base=base,
        head=head if head is not None else WORKING_TREE,
        profiles=tuple(p.name for p in chosen),
        keys=sum(len(k) for k in wanted.values()),
        environments=tuple(names),
        changes=tuple(changes),
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


def _environments(snapshot: Snapshot, root: str) -> dict[str, EnvironmentView]:
    """The environments by their directory relative to the compared directory."""
    return {os.path.relpath(v.env.root, root): v for v in snapshot.environments}


def _defined_keys(snapshot: Snapshot, view: EnvironmentView | None) -> set[str]:
    """Every root key a lookup can find in a data file some level reads."""
    if view is None:
        return set()
    out: set[str] = set()
    for path, info in snapshot.data_files.items():
        if info.view is not view or not info.levels:
            continue
        keys = snapshot.file_keys(path)
        if keys is not None:
            out.update(keys.kept_keys(info.levels[0].layer.module_name))
    return out


def _eyaml_keys(snapshot: Snapshot, view: EnvironmentView | None) -> set[str]:
    if view is None:
        return set()
    out: set[str] = set()
    for path, info in snapshot.data_files.items():
        if info.view is view and info.levels and info.function == EYAML:
            keys = snapshot.file_keys(path)
            if keys is not None:
                out.update(k for k in keys.keys if k != LOOKUP_OPTIONS)
    return out


def _select_keys(defined: Iterable[str], patterns: Sequence[str] | None) -> list[str]:
    keys = {k for k in defined if k != LOOKUP_OPTIONS}
    if not patterns:
        return sorted(keys)
    chosen = {k for k in keys if any(fnmatch.fnmatchcase(k, p) for p in patterns)}
    # a key named exactly is compared even where no data file defines it (a default, say)
    chosen.update(p for p in patterns if not any(c in p for c in "*?[") and p != LOOKUP_OPTIONS)
    return sorted(chosen)


def _answers(
    snapshot: Snapshot,
    view: EnvironmentView | None,
    profiles: Sequence[_Profile],
    keys: Sequence[str],
    secret: set[str],
    root: str,
    counter: _Counter,
) -> dict[str, list[Answer]]:
    """Every key's answer for every profile: one session per profile, all keys through it."""
    out: dict[str, list[Answer]] = {key: [] for key in keys}
    for profile in profiles:
        if view is None:
            for key in keys:
                out[key].append(Answer("missing"))
            counter.step(len(keys))
            continue
        strict = snapshot.settings.strict_variables
        scope = node_scope(profile.facts, profile.certname, view.env.name, strict)
        session = LookupSession(view.env, scope, snapshot.files, snapshot.cache)
        for key in keys:
            outcome = session.lookup(key)
            if outcome.error is not None:
                out[key].append(_error(outcome.error, root))
            elif not outcome.found:
                out[key].append(Answer("missing"))
            else:
                out[key].append(_value(outcome.value, key in secret))
        counter.step(len(keys))
    return out


def _value(value: object, secret: bool) -> Answer:
    return Answer("value", _masked(plain_data(value), value, secret), canonical(value))


def _error(message: str, root: str) -> Answer:
    """Puppet's error, its paths relative to the compared directory (the two sides live in
    different directories), quoted data masked as ``hiera-ls check`` masks it."""
    text = message.replace(root.rstrip(os.sep) + os.sep, "").replace(root, ".")
    problem = Problem(_ERROR_CODE, text, Severity.ERROR, FileSpan("", Span.of(0, 0, 0, 0)))
    return Answer("error", report_message(problem), text)


def _masked(shown: object, value: object, secret: bool) -> object:
    """``shown`` (plain data of ``value``) with eyaml's strings, or every scalar when the key
    comes from an eyaml level, replaced by MASKED."""
    if isinstance(value, dict) and isinstance(shown, dict):
        return {
            k: _masked(s, v, secret)
            for (k, s), v in zip(shown.items(), value.values(), strict=True)
        }
    if isinstance(value, list) and isinstance(shown, list):
        return [_masked(s, v, secret) for s, v in zip(shown, value, strict=True)]
    if isinstance(value, Encrypted) or (isinstance(value, str) and "ENC[" in value):
        return MASKED
    if secret and value is not None:
        return MASKED
    return shown


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
    profiles: Sequence[_Profile], before: Sequence[Answer], after: Sequence[Answer]
) -> tuple[ChangeGroup, ...]:
    found: dict[tuple[object, ...], tuple[list[str], Answer, Answer]] = {}
    for profile, old, new in zip(profiles, before, after, strict=True):
        if (old.state, old.same_as) == (new.state, new.same_as):
            continue
        mark = (old.state, old.same_as, new.state, new.same_as)
        entry = found.setdefault(mark, ([], old, new))
        entry[0].append(profile.name)
    return tuple(ChangeGroup(tuple(names), old, new) for names, old, new in found.values())
