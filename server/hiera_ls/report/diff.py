"""``hiera-ls diff``: what a change of the data does to every node, key by key.

Each side (a revision, or the working tree) is read by the server's own project builder
(:class:`Workspace`); each facts profile gets one :class:`LookupSession` per side, and every
key goes through it, so lookup_options, hierarchies and nested lookups are resolved once per
(side, profile), and a data file is parsed once (at both sides when its bytes are the same:
report/twin_cache.py).  A key whose every definition and lookup_options entry is the same at
both sides, and that looks up no key that differs, is not looked up at all: its answer
cannot differ (report/unchanged_keys.py).  The keys compared are those of the
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
import tempfile
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from hiera_ls.engine.key_classes import KeyClasses
from hiera_ls.engine.lookup import LookupSession
from hiera_ls.engine.node_classes import Classifier, NodeClasses
from hiera_ls.engine.providers import EYAML
from hiera_ls.features.profile_signature import KeySignatures, ProfileSignatures
from hiera_ls.project.facts import node_scope
from hiera_ls.project.fleet_profiles import FleetProfiles
from hiera_ls.project.scope import NodeScope
from hiera_ls.project.settings import Settings
from hiera_ls.project.targets import PUPPET7
from hiera_ls.project.workspace import (
    NO_PROFILE_CERTNAME,
    Snapshot,
    Workspace,
)
from hiera_ls.puppet.message import Text
from hiera_ls.puppet.values import strings_in
from hiera_ls.report import twin_cache
from hiera_ls.report.collector import full_passes_put_off
from hiera_ls.report.diff_mask import Masker
from hiera_ls.report.diff_result import Answer, ChangeGroup, DiffResult, KeyChange, same_as
from hiera_ls.report.git_tree import Repository, commit_of, repository_at, write_tree
from hiera_ls.report.node_traits import Splitter, hierarchy_variables, traits
from hiera_ls.report.redact import shown
from hiera_ls.report.run import CheckError, _profile_names
from hiera_ls.report.stopped_lookups import Nodes, stopped_alike
from hiera_ls.report.twin_cache import TwinCache, Twins
from hiera_ls.report.unchanged_keys import Revision, unchanged_keys
from hiera_ls.report.workers import Step, blocks, jobs_for, spread
from hiera_ls.source.keys import LOOKUP_OPTIONS

WORKING_TREE = "working tree"
NO_PROFILE = "(no facts profile)"
# a lookup per key and class of nodes, measured on bench_fleet_diff's 10,000 nodes (with the
# per-key split of the classes): what makes starting workers worth it
LOOKUP_S = 0.5e-3
PARSE_S = 2e-3  # a node file of bench_diff's (6 KB) parsed for its values

Progress = Callable[[int, int], None]  # (lookups done, lookups in all)


@dataclass(frozen=True, slots=True)
class _Profile:
    """A facts profile as one side of the diff looks keys up for it."""

    name: str
    facts: Mapping[str, object]
    certname: str


@full_passes_put_off()
def run_diff(
    path: str,
    base: str = "HEAD",
    head: str | None = None,
    *,
    profiles: Sequence[str] | None = None,
    keys: Sequence[str] | None = None,
    settings: Settings | None = None,
    progress: Progress | None = None,
    fleet: FleetProfiles | None = None,
    environments: tuple[str, str] | None = None,
    jobs: int = 1,
) -> DiffResult:
    """Compare every key for every profile between ``base`` and ``head`` (None: the files on
    disk) of the git repository holding ``path`` (the control repository or environment
    directory); or, with ``environments`` (base, head), between two environments of the
    files on disk, no git needed.  ``fleet``: PuppetDB's nodes, compared beside the
    repository's profiles; ``jobs``: processes the lookups may be spread over
    (report/workers.py).  Raises GitError or CheckError for what the user must fix."""
    root = os.path.realpath(path)
    if not os.path.isdir(root):
        raise CheckError(f"{path}: no such directory")
    if environments is not None:
        return _diff_environments(
            root, path, environments, profiles, keys, settings, progress, fleet, jobs
        )
    repo = repository_at(root)
    rel = os.path.relpath(root, repo.top)
    base_commit = commit_of(repo, base)
    head_commit = commit_of(repo, head) if head is not None else None
    with tempfile.TemporaryDirectory(prefix="hiera-ls-diff-") as tmp:
        twins: Twins = {}  # the files both revisions hold, parsed once

        def workspace(root: str) -> Workspace:
            made = Workspace([root], settings)
            # the report shows no position in a data file: values alone where a file loads
            # cleanly (source/data_file.load_yaml_values)
            made.cache = TwinCache(twins=twins, positions=False)
            return made

        head_root = (
            _tree(repo, head_commit, os.path.join(tmp, "head"), rel)
            if head_commit is not None
            else root
        )
        head_workspace = workspace(head_root)
        head_workspace.set_fleet(fleet)
        head_snap = head_workspace.snapshot()
        chosen = _profiles(head_snap, profiles)
        head_top = os.path.join(tmp, "head", "tree") if head_commit is not None else repo.top
        head_side = _Side(head_snap, head_root, chosen, head_top)
        base_sides: list[_Side] = []

        def base_side() -> None:
            base_root = _tree(repo, base_commit, os.path.join(tmp, "base"), rel, profiles=False)
            base_snap = workspace(base_root).snapshot()
            base_top = os.path.join(tmp, "base", "tree")
            base_sides.append(_Side(base_snap, base_root, chosen, base_top))

        # the head's data files parsed over the workers while this process writes out the
        # base revision and reads its hierarchies (the files both hold are parsed once)
        _parse_ahead([(head_side, env) for env in head_side.views], jobs, base_side)
        sides = (base_sides[0], head_side)
        names = sorted(set(sides[0].views) | set(sides[1].views))
        pairs = [_Pair(env, (sides[0], env), (sides[1], env)) for env in names]
        return _compare(
            pairs,
            chosen,
            keys,
            progress,
            (base, head if head is not None else WORKING_TREE),
            head_snap.messages,
            jobs,
        )


def _diff_environments(
    root: str,
    path: str,
    environments: tuple[str, str],
    profiles: Sequence[str] | None,
    keys: Sequence[str] | None,
    settings: Settings | None,
    progress: Progress | None,
    fleet: FleetProfiles | None,
    jobs: int,
) -> DiffResult:
    """One node's or the fleet's data in one environment against another (a branch about to
    be promoted, say), both as they are on disk."""
    workspace = Workspace([root], settings)
    workspace.set_fleet(fleet)
    snap = workspace.snapshot()
    chosen = _profiles(snap, profiles)
    side = _Side(snap, root, chosen, root)
    base_env, head_env = (_environment_named(side, name, path) for name in environments)
    label = f"{environments[0]} -> {environments[1]}"
    pair = _Pair(label, (side, base_env), (side, head_env))
    return _compare(
        [pair],
        chosen,
        keys,
        progress,
        (f"environment {environments[0]}", f"environment {environments[1]}"),
        snap.messages,
        jobs,
    )


def _environment_named(side: _Side, name: str, path: str) -> str:
    for key, view in side.views.items():
        if name in (key, view.env.name):
            return key
    known = ", ".join(sorted(v.env.name for v in side.views.values())) or "none"
    raise CheckError(f"{path}: no environment named {name!r} (environments: {known})")


@dataclass(frozen=True, slots=True)
class _Pair:
    """What is compared: an environment of the base side against one of the head side."""

    label: str
    base: tuple[_Side, str]
    head: tuple[_Side, str]


def _compare(
    pairs: Sequence[_Pair],
    chosen: Sequence[_Profile],
    keys: Sequence[str] | None,
    progress: Progress | None,
    revisions: tuple[str, str],
    notes: tuple[str, ...],
    jobs: int = 1,
) -> DiffResult:
    """``revisions``: what the base and the head are, as the report names them; ``notes``:
    about the run itself (the target, facts left out), from the head side."""
    base, head = revisions
    wanted = {
        pair.label: _select_keys(
            set().union(*(side.defined_keys(env) for side, env in (pair.base, pair.head))), keys
        )
        for pair in pairs
    }
    total = sum(len(k) for k in wanted.values()) * len(chosen) * 2
    counter = _Counter(total, progress)
    # keys whose every definition is the same at both revisions: no lookup can differ
    unchanged = {pair.label: _unchanged(pair, wanted[pair.label]) for pair in pairs}
    counter.step(sum(len(s) for s in unchanged.values()) * len(chosen) * 2)
    looked_up = {
        label: [k for k in chosen_keys if k not in unchanged[label]]
        for label, chosen_keys in wanted.items()
    }
    # nodes whose lookup of a key stops at the same definition at both: no lookup either
    alike = {pair.label: _stopped(pair, looked_up[pair.label]) for pair in pairs}
    answers = _every_answer(pairs, looked_up, alike, counter, jobs)
    changes: list[KeyChange] = []
    for pair, (before, after) in zip(pairs, answers, strict=True):
        both = (pair.base, pair.head)
        mask = Masker(
            frozenset().union(*(side.eyaml_keys(env) for side, env in both)),
            frozenset().union(*(side.eyaml_strings(env) for side, env in both)),
            outside_keys=frozenset().union(*(side.outside_keys(env) for side, env in both)),
            outside_strings=frozenset().union(*(side.outside_strings(env) for side, env in both)),
        )
        splitter = _splitter(pair, chosen)
        # profiles by (class before, class after): a few dozen couples for a whole fleet,
        # made again only for a key that splits a class
        bases = tuple(side.classes_of(env) for side, env in both)
        shared = _couples(*bases)
        for key in looked_up[pair.label]:
            (old_of, old), (new_of, new) = before[key], after[key]
            same = old_of is bases[0] and new_of is bases[1]
            couples = shared if same else _couples(old_of, new_of)
            found = _groups(chosen, couples, old, new, mask.for_key(key), splitter)
            if found:
                changes.append(KeyChange(pair.label, key, found))
    sides = dict.fromkeys(side for pair in pairs for side, _ in (pair.base, pair.head))
    return DiffResult(
        base=base,
        head=head,
        profiles=tuple(p.name for p in chosen),
        keys=sum(len(k) for k in wanted.values()),
        environments=tuple(pair.label for pair in pairs),
        changes=tuple(changes),
        outside=tuple(dict.fromkeys(note for side in sides for note in side.outside_notes())),
        notes=notes,
    )


def _parse_ahead(
    sides: Sequence[tuple[_Side, str]], jobs: int, meanwhile: Callable[[], None] | None = None
) -> None:
    """With more than one job, the data files ``sides`` read, parsed over the workers first
    (report/twin_cache.py), while this process does ``meanwhile``: they are most of what
    the run does before its lookups, and done here they would keep a core idle."""
    todo: dict[str, tuple[twin_cache.TwinCache, str]] = {}  # text -> a cache and path of it
    for side, env in sides:
        cache = side.snapshot.cache
        if not isinstance(cache, twin_cache.TwinCache):  # (not TwinCache: tests replace it)
            continue
        for path, _ in side._data_files(env):
            info = side.snapshot.data_files[path]
            text = cache.ahead(side.snapshot.files, path, info.function)
            if text is not None and text not in todo:
                todo[text] = (cache, path)
    jobs = jobs_for(jobs, len(todo) * PARSE_S)
    if jobs <= 1:
        if meanwhile is not None:
            meanwhile()
        return
    texts = list(todo)
    units = blocks([len(t) for t in texts], jobs)

    def parse(block: range, step: Step) -> list[Mapping[object, object] | None]:
        return [twin_cache.clean_values(todo[texts[i]][1], texts[i]) for i in block]

    # ``jobs`` workers beside this process (check's own checks take one fewer): writing out
    # the base revision mostly waits on git, and one worker fewer measured no faster
    # (11.2 against 11.3 s, bench_diff's 3,000 profiles, 4 runs each)
    parsed = spread(units, parse, jobs, meanwhile=meanwhile)
    for block, found in zip(units, parsed, strict=True):
        for i, values in zip(block, found, strict=True):
            if values is not None:
                cache, path = todo[texts[i]]
                cache.seed(path, texts[i], values)


# per key: each profile's class for it (None: as the classes of the environment), and each
# class's answer (_Side.answers)
Answers = dict[str, tuple[list[int | None] | None, list[Answer]]]
Found = dict[str, tuple[list[int | None], list[Answer]]]


def _every_answer(
    pairs: Sequence[_Pair],
    wanted: Mapping[str, Sequence[str]],
    alike: Mapping[str, Mapping[str, frozenset[int]]],
    counter: _Counter,
    jobs: int,
) -> list[tuple[Found, Found]]:
    """Each pair's answers at its base and its head, over up to ``jobs`` processes (a block of
    keys of one side a unit, so a worker's sessions serve the keys of a module together)."""
    sides = [(n, side, env) for n, pair in enumerate(pairs) for side, env in (pair.base, pair.head)]
    lookups = sum(len(wanted[pairs[n].label]) * side.class_count(env) for n, side, env in sides)
    jobs = jobs_for(jobs, lookups * LOOKUP_S)
    # a side's sessions and per-node reads serve all its keys: as few blocks as keep every
    # worker busy (a side each, with two workers)
    per_side = max(1, -(-jobs // max(1, len(sides))))
    units = [
        (i, block)
        for i, (n, _, _) in enumerate(sides)
        for block in blocks([1] * len(wanted[pairs[n].label]), per_side, 1)
    ]

    def answer(unit: tuple[int, range], step: Step) -> Answers:
        i, block = unit
        n, side, env = sides[i]
        keys = wanted[pairs[n].label]
        label = pairs[n].label
        return side.answers(env, [keys[k] for k in block], step, jobs > 1, alike[label])

    out: list[Found] = [{} for _ in sides]
    for (i, _), got in zip(units, spread(units, answer, jobs, counter.step), strict=True):
        _, side, env = sides[i]
        base = side.classes_of(env)
        out[i].update({key: (base if of is None else of, a) for key, (of, a) in got.items()})
    return [(out[2 * n], out[2 * n + 1]) for n in range(len(pairs))]


def _revisions(pair: _Pair) -> tuple[Revision, Revision] | None:
    (base, base_env), (head, head_env) = pair.base, pair.head
    views = base.views.get(base_env), head.views.get(head_env)
    if views[0] is None or views[1] is None:
        return None
    return (
        Revision(base.snapshot, base.root, views[0], [p for p, _ in base._data_files(base_env)]),
        Revision(head.snapshot, head.root, views[1], [p for p, _ in head._data_files(head_env)]),
    )


def _unchanged(pair: _Pair, keys: Sequence[str]) -> frozenset[str]:
    revisions = _revisions(pair)
    return unchanged_keys(*revisions, keys) if revisions is not None else frozenset()


def _stopped(pair: _Pair, keys: Sequence[str]) -> dict[str, frozenset[int]]:
    revisions = _revisions(pair)
    if revisions is None:
        return {}
    nodes = tuple(side.nodes(env) for side, env in (pair.base, pair.head))
    return stopped_alike(*revisions, (nodes[0], nodes[1]), keys)


def _couples(
    before: Sequence[int | None], after: Sequence[int | None]
) -> dict[tuple[int | None, int | None], list[int]]:
    couples: dict[tuple[int | None, int | None], list[int]] = {}
    for i, couple in enumerate(zip(before, after, strict=True)):
        couples.setdefault(couple, []).append(i)
    return couples


def _splitter(pair: _Pair, chosen: Sequence[_Profile]) -> Splitter:
    """The facts that split the compared nodes: those the two sides' hierarchies read."""
    views = [side.views.get(env) for side, env in (pair.base, pair.head)]
    envs = [view.env for view in views if view is not None]
    variables = tuple(dict.fromkeys(v for env in envs for v in hierarchy_variables(env)))
    name = envs[-1].name if envs else ""
    # an undefined variable is a trait like any other here: read as Puppet 7 reads it ('')
    return Splitter(
        {p.name: traits(node_scope(p.facts, p.certname, name, PUPPET7), variables) for p in chosen}
    )


def _tree(repo: Repository, commit: str, dest: str, rel: str, profiles: bool = True) -> str:
    write_tree(repo, commit, dest, profiles)
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
    out: list[_Profile] = []
    for name in names:
        entry = snapshot.profile_named(name)
        if entry is not None and entry.profile.error is None:
            out.append(_Profile(name, entry.profile.facts, entry.profile.name))
    return out


class _Side:
    """One revision as the server's project builder reads it: its environments by their
    directory relative to the compared directory, and per environment a lookup session for
    each class of profiles that must get the same answers (made first, as they also say
    which files the nodes' hierarchies read)."""

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
        # per environment: one session per class of profiles that must get the same answers
        # (engine/node_classes.py), split per key by what the key's data reads (key_classes)
        classifier = Classifier(snapshot)
        self.classes: dict[str, NodeClasses] = {}
        self.keyed: dict[str, KeyClasses] = {}
        self._class_of: dict[str, list[int | None]] = {}
        self._scopes: dict[str, list[NodeScope]] = {}
        for env, view in self.views.items():
            target = snapshot.target
            scopes = [node_scope(p.facts, p.certname, view.env.name, target) for p in profiles]
            classes = self.classes[env] = classifier.classify(view, scopes, by_value=False)
            self.keyed[env] = KeyClasses(classifier, view, classes, scopes)
            self._scopes[env] = scopes
        # between classes, each node's signature of each key (features/profile_signature.py):
        # nodes whose hierarchies read other files (each its own node file) but the same
        # definitions of a key share its lookup
        self._signatures = ProfileSignatures(snapshot)
        self._keys: dict[tuple[str, int], KeySignatures | None] = {}
        self._under: dict[str, tuple[str, ...]] = {}  # see _data_files

    def _data_files(self, env: str, function: str | None = None) -> Iterator[tuple[str, str]]:
        """(path, module name or "") of each data file some profile's lookups can read: a
        module's, or one the profiles' hierarchies name (a node file of no profile is not
        read, nor parsed)."""
        view = self.views.get(env)
        classes = self.classes.get(env)
        read = classes.read if classes is not None else None
        under = self._under.get(env)
        if under is None:
            # a level that reads a file per key under a directory (expand_path) names the
            # directory: looked for once per environment, not once per call
            under = self._under[env] = tuple(
                p.rstrip(os.sep) + os.sep for p in read or () if self.snapshot.files.is_dir(p)
            )
        for path, info in self.snapshot.data_files.items():
            if info.view is not view or not info.levels:
                continue
            module = info.levels[0].layer.module_name
            outside = read is not None and path not in read and not path.startswith(under)
            if module is None and outside:
                continue
            if function is None or info.function == function:
                yield path, module or ""

    def _root_keys(self, path: str, module: str) -> Iterator[str]:
        data = _data(self.snapshot, path)
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
            if path in self.outside:
                out.update(strings_in(_data(self.snapshot, path)))
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
            out.update(strings_in(_data(self.snapshot, path)))
        return out

    def classes_of(self, env: str) -> list[int | None]:
        """Each profile's class in ``env`` before any key splits it (None: the environment
        is not at this revision); the same list each time, so :meth:`answers` can say a
        key splits no class by handing it back."""
        found = self._class_of.get(env)
        if found is None:
            classes = self.classes.get(env)
            count = len(self.profiles)
            found = classes.class_of(count) if classes is not None else [None] * count
            self._class_of[env] = found
        return found

    def class_count(self, env: str) -> int:
        classes = self.classes.get(env)
        return len(classes.members) if classes is not None else 0

    def nodes(self, env: str) -> Nodes:
        """The profiles as looked up in ``env`` (report/stopped_lookups.py)."""
        classes = self.classes[env]
        return Nodes(
            self.classes_of(env), classes.sessions, self.keyed[env].split, self._scopes[env]
        )

    def answers(
        self,
        env: str,
        keys: Sequence[str],
        step: Step,
        apart: bool = False,
        alike: Mapping[str, frozenset[int]] | None = None,
    ) -> Answers:
        """Per key, each profile's class for it and each class's answer: one lookup per
        class of profiles that must get the same answer to that key (lookup_options,
        hierarchies and nested lookups resolved once per session).  A key that splits no
        class has :meth:`classes_of`'s list, or (``apart``: for another process) None.
        ``alike``: per key, the profiles known to get the same answer at both revisions
        (whole groups), answered SAME_AT_BOTH without a lookup."""
        base = self.classes_of(env)
        classes = self.classes.get(env)
        if classes is None:
            step(len(keys) * len(self.profiles))
            return {key: (None if apart else base, []) for key in keys}
        keyed = self.keyed[env]
        out: Answers = {}
        split: dict[tuple[tuple[int, ...], ...], list[int | None]] = {}  # one list per split
        for key in keys:
            parts = [keyed.split(c, key) for c in range(len(classes.members))]
            of: list[int | None] | None = None if apart else base
            if any(len(p) > 1 for p in parts):
                groups = tuple(g for p in parts for g in p)
                of = split.get(groups)
                if of is None:
                    of = split[groups] = list(base)
                    for number, group in enumerate(groups):
                        for i in group:
                            of[i] = number
            known: dict[Hashable, Answer] = {}  # answers by the key's signature
            found: list[Answer] = []
            same = alike.get(key) if alike is not None else None
            for c, p in enumerate(parts):
                for g in p:
                    if same is not None and all(i in same for i in g):
                        found.append(SAME_AT_BOTH)
                        continue
                    signatures = self._key_signatures(env, c, g[0])
                    token = signatures.of(key) if signatures is not None else None
                    answer = known.get(token) if token is not None else None
                    if answer is None:
                        answer = self._answer(keyed.session(c, g[0]), key)
                        if token is not None:
                            known[token] = answer
                    found.append(answer)
            out[key] = (of, found)
            step(len(self.profiles))
        return out

    def _key_signatures(self, env: str, c: int, node: int) -> KeySignatures | None:
        """``node``'s signatures of keys, its hierarchy read from the session that answers
        for it in class ``c`` (resolved there once, for the signatures and the lookups)."""
        slot = (env, node)
        found = self._keys.get(slot, _UNKNOWN)
        if found is _UNKNOWN:
            view = self.views[env]
            session = self.keyed[env].session(c, node)
            found = self._signatures.keys(view, self._scopes[env][node], session)
            self._keys[slot] = found
        return found  # type: ignore[return-value]

    def _answer(self, session: LookupSession, key: str) -> Answer:
        outcome = session.lookup(key)
        if outcome.error is not None:
            assert outcome.failure is not None
            return _error(outcome.failure.text, self.root)
        if not outcome.found:
            return Answer("missing")
        return Answer("value", outcome.value, same_as(outcome.value))


def _data(snapshot: Snapshot, path: str) -> object:
    df = snapshot.data_file(path)
    return df.data if df is not None else None


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


NOT_THERE = Answer("missing")  # the environment is not at this revision
# the answer of profiles whose lookup stops at the same definition at both revisions
# (report/stopped_lookups.py): never shown, as it is every such profile's at both
SAME_AT_BOTH = Answer("same at both revisions")
_UNKNOWN = object()  # not worked out yet


def _groups(
    profiles: Sequence[_Profile],
    couples: Mapping[tuple[int | None, int | None], list[int]],
    before: Sequence[Answer],
    after: Sequence[Answer],
    mask: Masker,
    splitter: Splitter,
) -> tuple[ChangeGroup, ...]:
    """The profiles whose answer changes, grouped by (before, after), each group's profiles
    in the order given, the groups in the order of their first profile."""
    found: dict[tuple[object, ...], tuple[list[int], Answer, Answer]] = {}
    for (b, h), members in couples.items():
        old = before[b] if b is not None else NOT_THERE
        new = after[h] if h is not None else NOT_THERE
        if (old.state, old.same_as) == (new.state, new.same_as):
            continue
        mark = (old.state, old.same_as, new.state, new.same_as)
        entry = found.get(mark)
        if entry is None:
            entry = found[mark] = ([], _shown(old, mask), _shown(new, mask))
        entry[0].extend(members)
    groups = []
    for indexes, old, new in found.values():
        indexes.sort()
        names = tuple(profiles[i].name for i in indexes)
        groups.append((indexes[0], ChangeGroup(names, old, new, splitter.shared(names))))
    return tuple(group for _, group in sorted(groups, key=lambda g: g[0]))


def _shown(answer: Answer, mask: Masker) -> Answer:
    if answer.state != "value":
        return answer
    return Answer("value", mask.shown(answer.shown), answer.same_as)
