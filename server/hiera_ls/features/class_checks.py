"""Many facts profiles checked at the cost of their differences (``hiera-ls check``).

A facts profile changes only what the lookups find: the failing lookups, the values class
parameters get, the required parameters no data gives.  Every other check reads the files
alone, so it runs once per file (``Diagnostics`` keeps its result), and the lookups run once
per class of profiles that must get the same answers (engine/node_classes.py: the same
files read with the same options, the same values of every variable the data interpolates),
the representative's findings given to every profile of its class.  Between classes, a
key's answer (and what the checks judged of it) is given to every later profile whose
signature of that key is the same (features/profile_signature.py): nodes that differ only
by a node file that does not define the key share its lookup.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace

from hiera_ls.checks.class_parameters import reads_unknown_variables
from hiera_ls.checks.cross_file import DataSource
from hiera_ls.checks.policy import Coverage, coverage
from hiera_ls.checks.problems import file_order
from hiera_ls.checks.profile import ProfileLookup
from hiera_ls.checks.registry import check_data_file_lookups
from hiera_ls.engine.lookup import LookupOutcome, LookupSession
from hiera_ls.engine.trace import Kind
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.features.file_order import located_in, reported_where_it_is
from hiera_ls.features.profile_signature import KeySignatures, ProfileSignatures
from hiera_ls.features.puppet_code import code_index
from hiera_ls.project.facts import node_scope
from hiera_ls.project.key_index import LARGE_FILE_CHARS
from hiera_ls.project.profiles import ProfileEntry
from hiera_ls.project.scope import NodeScope
from hiera_ls.project.workspace import EnvironmentView, FileKind, Snapshot
from hiera_ls.puppet.message import Part, Text
from hiera_ls.source.keys import KeySyntaxError, LookupKey
from hiera_ls.source.spans import Problem


def profile_classes(snapshot: Snapshot, names: Sequence[str]) -> list[tuple[str, ...]]:
    """``names`` split into classes whose lookups give the same answers in every
    environment, in the order of their first member; each class's names in ``names``'
    order.  A profile that cannot be read, or whose scope or hierarchy is in error, is a
    class of its own.  One profile's facts are read at a time (a fleet of thousands)."""
    if len(names) < 2:
        return [(name,) for name in names]  # nothing to tell apart
    signatures = ProfileSignatures(snapshot)
    index: dict[Hashable, int] = {}
    out: list[list[str]] = []
    for name in names:
        entry = snapshot.profile_named(name)
        key: Hashable | None = None
        if entry is not None:
            parts = [
                signatures.of(view, _scope(snapshot, view, entry)) for view in snapshot.environments
            ]
            key = None if None in parts else tuple(parts)
        if key is not None and key in index:
            out[index[key]].append(name)
            continue
        if key is not None:
            index[key] = len(out)
        out.append([name])
    return [tuple(members) for members in out]


def _scope(snapshot: Snapshot, view: EnvironmentView, entry: ProfileEntry) -> NodeScope:
    """The node's scope, as the profile check's lookups build it (features/spread.py)."""
    profile = entry.profile
    return node_scope(profile.facts, profile.name, view.env.name, snapshot.target)


@dataclass(slots=True)
class ClassChecks:
    """One run's checks for one facts profile after another, over ``snapshot`` (taken with
    no active profile): each file's profile-independent findings are worked out once."""

    diagnostics: Diagnostics
    snapshot: Snapshot
    many: bool = True  # more than one profile will be checked (else nothing is kept for them)
    # the profile being checked, its lookups per environment (one profile's at a time)
    _entry: ProfileEntry | None = None
    _lookups: dict[str, ProfileLookup] = field(default_factory=dict)
    _plain: dict[str, list[Problem]] = field(default_factory=dict)  # no finding of lookups
    # per environment: answers by (key, signature), and what the checks judged of them
    _shared: dict[str, tuple[dict[object, LookupOutcome], dict[object, object]]] = field(
        default_factory=dict
    )
    signatures: ProfileSignatures = field(init=False)
    # each file's own checks as a worker of ``check --jobs`` worked them out (report/run.py),
    # or as the first profile's pass did
    own: dict[str, tuple[list[Problem], Coverage, str | None]] = field(default_factory=dict)
    _data: dict[str, bool] = field(default_factory=dict)  # see reads_profile
    _sources: dict[str, DataSource | None] = field(default_factory=dict)  # with their keys
    # per data file, what its lookup checks found for the profiles checked so far: by the
    # keys they asked, the signature of those keys' lookups -> (the profile, its findings)
    _found: dict[str, dict[tuple[str, ...], dict[Hashable, _Found]]] = field(default_factory=dict)
    _keys: dict[str, KeySignatures | None] = field(default_factory=dict)  # see _lookup

    def __post_init__(self) -> None:
        self.signatures = ProfileSignatures(self.snapshot)

    def reads_profile(self, path: str) -> bool:
        """Whether the facts profile can change ``path``'s findings (a data file's lookups)."""
        known = self._data.get(path)
        if known is None:
            known = self._data[path] = self.snapshot.kind_of(path) is FileKind.DATA
        return known

    def file_problems(self, path: str, entry: ProfileEntry | None) -> list[Problem]:
        """What :meth:`Diagnostics.file_problems` gives for ``path`` with ``entry`` the
        active profile (its findings tagged with its name).  A profile whose signature of
        every key the file's lookup checks asked an earlier profile is that profile's gets
        its findings (its own name in front): the same answers, the same findings."""
        snapshot = self.snapshot
        view = snapshot.environment_for(path)
        if entry is None or view is None or not self.reads_profile(path):
            return self._problems(path, None)
        source = self._source(path)
        if source is None:
            return self._problems(path, None)
        profile = self._lookup(view, entry)
        if not self.many:
            return self._problems(path, (view, source, profile))
        earlier = self._found.setdefault(path, {})
        keys = self._keys.get(view.env.root)
        signatures: dict[tuple[str, ...], Hashable | None] = {}  # this profile's, by keys
        for asked, by_signature in earlier.items():
            signature = signatures[asked] = keys.of_keys(asked) if keys is not None else None
            known = by_signature.get(signature) if signature is not None else None
            if known is not None:
                return _renamed(known.problems, known.name, entry.name)
        asked_now: dict[str, None] = {}
        found = self._problems(path, (view, source, _asking(profile, asked_now)))
        asked = tuple(asked_now)
        if asked in signatures:  # the keys an earlier profile's checks asked, as mostly
            signature = signatures[asked]
        else:
            signature = keys.of_keys(asked) if keys is not None else None
        if signature is not None:
            earlier.setdefault(asked, {})[signature] = _Found(entry.name, found)
        return found

    def _problems(
        self,
        path: str,
        lookups: tuple[EnvironmentView, DataSource, ProfileLookup] | None,
    ) -> list[Problem]:
        """The file's findings, with ``lookups``' (its environment, the file, the profile's
        lookups) when a profile is checked."""
        diagnostics, snapshot = self.diagnostics, self.snapshot
        found, checked, text = self.own_checks(path)
        extra: list[Problem] = []
        if lookups is not None:
            view, source, profile = lookups
            built = diagnostics.built(snapshot, view)
            index = built.index if built is not None else None
            code = code_index(snapshot, view) if built is not None else None
            extra = check_data_file_lookups(
                index,
                source,
                profile,
                view.env,
                code,
                lambda: diagnostics.declared(snapshot, code) if code else frozenset(),
                lambda cause: reported_where_it_is(snapshot, cause),
            )
            loaded = source.data.error is None and len(source.text) <= LARGE_FILE_CHARS
            checked = coverage(
                index=index is not None, profile=True, loaded=loaded, code=code is not None
            )
            if not extra and path in self._plain:
                return self._plain[path]
        if extra:
            found = located_in(sorted([*found, *extra], key=file_order), path)
        found = diagnostics.with_coverage(snapshot, path, text, found)
        result = diagnostics.policy(snapshot, path, text, found, checked)
        if not extra and lookups is not None:
            self._plain[path] = result
        return result

    def _source(self, path: str) -> DataSource | None:
        """The data file with its keys, read once per run (every profile checks it)."""
        if path in self._sources:
            return self._sources[path]
        snapshot = self.snapshot
        source = self.diagnostics.source(snapshot, path)
        if source is not None:
            keys = snapshot.key_index.get(snapshot.files, source.data, source.text)
            source = replace(source, keys=keys)
        self._sources[path] = source
        return source

    def own_checks(self, path: str) -> tuple[list[Problem], Coverage, str | None]:
        """Every check of ``path`` but the profile's lookups, before the policy, and the text
        checked: the same for every profile (worked out once)."""
        known = self.own.get(path)
        if known is None:
            known = self.own[path] = self.diagnostics.checked(self.snapshot, path, None)
        return list(known[0]), known[1], known[2]

    def _lookup(self, view: EnvironmentView, entry: ProfileEntry) -> ProfileLookup:
        """The profile's lookups in ``view``'s environment, each key's answer kept while
        the same profile is checked, and given to every later profile whose signature of the
        key is the same (features/profile_signature.py), with what the checks judged of it."""
        if entry is not self._entry:
            self._entry = entry
            self._lookups, self._keys = {}, {}
        known = self._lookups.get(view.env.root)
        if known is not None:
            return known
        snapshot = self.snapshot
        scope = _scope(snapshot, view, entry)
        session = LookupSession(view.env, scope, snapshot.files, snapshot.cache)
        keys = self._keys[view.env.root] = self.signatures.keys(view, scope)
        answers: dict[str, LookupOutcome] = {}
        shared = self._shared.setdefault(view.env.root, ({}, {}))
        kept = self.diagnostics.kept_answer  # the coverage's lookups asked many already

        def lookup(key: str) -> LookupOutcome:
            answer = answers.get(key)
            if answer is None:
                token = keys.of(key) if keys is not None else None
                answer = shared[0].get((key, token)) if token is not None else None
                if answer is None:
                    answer = kept(view, entry.name, key) or session.lookup(key, None)
                    if token is not None:
                        shared[0][(key, token)] = answer
                answers[key] = answer
            return answer

        explain = _Explainer(view, scope, snapshot).explain

        known = ProfileLookup(
            entry.name,
            lookup,
            explain,
            share=keys.of if keys is not None else None,
            shared=shared[1],
        )
        self._lookups[view.env.root] = known
        return known


class _Explainer:
    """One profile's explained lookups, each as a fresh session gives it (the checks read its
    trace: whether the value read a variable the node lacks, which files gave it), without a
    session per lookup.  A session's later lookups only leave out of their trace how the
    lookup_options were read (kept since the first lookup of each module); when no such
    reading reads an unknown variable, and no module has a default_hierarchy (whose options
    are read, and traced, once too), the traces are the fresh ones in all the checks read.
    Any other case: a fresh session per lookup, as before."""

    def __init__(self, view: EnvironmentView, scope: NodeScope, snapshot: Snapshot) -> None:
        self._view, self._scope, self._snapshot = view, scope, snapshot
        self._kept: LookupSession | None = None
        self._clean: set[str | None] = set()  # modules whose options read no unknown variable
        modules = view.env.modules.values()
        self._never = any(m.config is not None and m.config.default_hierarchy for m in modules)

    def _new(self) -> LookupSession:
        snapshot = self._snapshot
        return LookupSession(self._view.env, self._scope, snapshot.files, snapshot.cache)

    def explain(self, key: str) -> LookupOutcome:
        try:
            module = LookupKey.parse(key).module_name
        except KeySyntaxError:
            return self._new().lookup(key, None, explain=True)
        kept = self._kept
        if kept is not None and module in self._clean:
            outcome = kept.lookup(key, None, explain=True)
            if not _options_clean(outcome):  # another module's, read by a nested lookup
                self._kept, self._clean = None, set()
            return outcome
        fresh = self._new()
        outcome = fresh.lookup(key, None, explain=True)
        if self._never or outcome.failure is not None or not _options_clean(outcome):
            return outcome
        trace = outcome.trace
        if trace is None or not any(node.kind is Kind.META for node in trace.children):
            return outcome  # not read here after all: nothing known of them
        self._clean.add(module)
        if self._kept is None:
            self._kept = fresh
        return outcome


def _options_clean(outcome: LookupOutcome) -> bool:
    """Every reading of lookup_options in the trace reads only variables the node has."""
    trace = outcome.trace
    if trace is None:
        return False
    return not any(
        node.kind is Kind.META and reads_unknown_variables(node) for node in trace.walk()
    )


@dataclass(frozen=True, slots=True)
class _Found:
    """A data file's findings for one profile, its name in front of those of its lookups."""

    name: str
    problems: list[Problem]


def _asking(profile: ProfileLookup, asked: dict[str, None]) -> ProfileLookup:
    """``profile``, noting in ``asked`` each key the checks look up, explain or judge."""
    lookup, explain, share = profile.lookup, profile.explain, profile.share

    def looking(key: str) -> LookupOutcome:
        asked[key] = None
        return lookup(key)

    def explaining(key: str) -> LookupOutcome:
        asked[key] = None
        assert explain is not None
        return explain(key)

    def sharing(key: str) -> Hashable | None:
        asked[key] = None
        assert share is not None
        return share(key)

    return replace(
        profile,
        lookup=looking,
        explain=explaining if explain is not None else None,
        share=sharing if share is not None else None,
    )


def _renamed(found: list[Problem], was: str, name: str) -> list[Problem]:
    """``found`` as profile ``name`` gives it: ``[was] `` in front of a message made
    ``[name] `` (the rest of each message is the same: the same answers)."""
    prefix = f"[{was}] "
    out: list[Problem] = []
    for problem in found:
        parts = problem.text.parts
        if parts and parts[0].text.startswith(prefix):
            first = parts[0]
            renamed = Part(first.kind, f"[{name}] {first.text[len(prefix) :]}", first.masked)
            problem = replace(problem, text=Text((renamed, *parts[1:])))
        out.append(problem)
    return out
