"""Per key, the nodes that read the same data files split by what that key's data reads.

Nodes whose hierarchies find the same data files (engine/node_classes.py) still get
different answers where the data interpolates a fact that differs per node: one
``%{facts.networking.hostname}`` in common.yaml, split by, makes every node a class of its
own, and a fleet diff a lookup per node and key.  A key's answer reads only its own values
in those files and their ``lookup_options``, the keys those values look up
(``%{lookup('k')}``, ``%{alias('k')}``, ``%{hiera('k')}``), and, for a module's key, the
module's data and the files its hierarchy finds for the node: nodes that agree on every
variable these interpolate, and whose module hierarchies find the same files, get the same
answer to that key, so only the keys that interpolate a per-node fact cost a lookup per
node.  Where an interpolation cannot be read this way (another function, a malformed
``%{}``), the key is split by everything the files interpolate, as whole classes are.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from hiera_ls.engine.lookup import LookupSession
from hiera_ls.engine.node_classes import (
    INTERPOLATION,
    LITERAL_CALL,
    Classifier,
    NodeClasses,
    config_variables,
    hierarchy_reads,
    interpolated_variables,
    literal_written,
    values_of,
)
from hiera_ls.project.backends import expand_path_file
from hiera_ls.project.scope import NodeScope
from hiera_ls.project.workspace import EnvironmentView
from hiera_ls.puppet.values import strings_in
from hiera_ls.source.keys import LOOKUP_OPTIONS, split_key

_LOOKS_UP = re.compile(r"""^\s*(?:lookup|hiera|alias)\(\s*(['"])(.*?)\1\s*\)\s*$""")
KEPT_SESSIONS = 2_000  # sessions of nodes a key sets apart, kept for the next keys


@dataclass(frozen=True, slots=True)
class Reads:
    """What interpolations read: node variables, and root keys looked up."""

    variables: frozenset[str]
    keys: frozenset[str]


def reads_of(texts: Iterable[str]) -> Reads | None:
    """What the interpolations in ``texts`` read; None when one cannot be told."""
    variables: set[str] = set()
    keys: set[str] = set()
    for text in texts:
        if "%{" not in text:
            continue
        if literal_written(text) is not None:
            return None  # a token literal() writes is read again by a lookup of the value
        for match in INTERPOLATION.finditer(text):
            inner = match.group(1)
            if not inner.strip() or LITERAL_CALL.match(inner):
                continue
            call = _LOOKS_UP.match(inner)
            if call is not None:
                segments = split_key(call.group(2))
                if not segments or not isinstance(segments[0], str):
                    return None
                keys.add(segments[0])
                continue
            found = interpolated_variables([match.group(0)])
            if not found:
                return None
            variables.update(found)
    return Reads(frozenset(variables), frozenset(keys))


def _module_of(key: str) -> str | None:
    name = key.removeprefix("::")
    return name.split("::", 1)[0] if "::" in name else None


class KeyClasses:
    """The classes of ``classify(by_value=False)`` split per key (see the module's doc)."""

    def __init__(
        self,
        classifier: Classifier,
        view: EnvironmentView,
        base: NodeClasses,
        scopes: Sequence[NodeScope],
    ) -> None:
        self._classifier, self._view, self.base, self._scopes = classifier, view, base, scopes
        snapshot = classifier.snapshot
        self._module_files: dict[str, list[str]] = {}
        for path, info in snapshot.data_files.items():
            module = info.levels[0].layer.module_name if info.levels else None
            if info.view is view and module:
                self._module_files.setdefault(module, []).append(path)
        self._reads: dict[tuple[str, str], Reads | None] = {}
        self._key_reads: dict[tuple[int, str], tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self._sessions: dict[int, LookupSession] = {}
        self._splits: dict[tuple[int, object], list[tuple[int, ...]]] = {}
        self._module_read: dict[tuple[int, str], Hashable] = {}

    def split(self, c: int, key: str) -> list[tuple[int, ...]]:
        """Class ``c``'s nodes in groups that get the same answer to ``key``."""
        members = self.base.members[c]
        if len(members) == 1:
            return [members]
        reads = self._key_reads.get((c, key))
        if reads is None:
            reads = self._key_reads[(c, key)] = self._reads_of_key(c, key)
        if reads == ((), ()):
            return [members]
        found = self._splits.get((c, reads))
        if found is None:  # keys that read the same variables split a class alike
            names, modules = reads
            groups: dict[Hashable, list[int]] = {}
            for i in members:
                signature = (
                    values_of(self._scopes[i], names),
                    tuple(self._module_reads(c, i, m) for m in modules),
                )
                groups.setdefault(signature, []).append(i)
            found = self._splits[(c, reads)] = [tuple(group) for group in groups.values()]
        return found

    def session(self, c: int, node: int) -> LookupSession:
        """A session answering as ``node`` of class ``c``."""
        if node == self.base.members[c][0]:
            return self.base.sessions[c]
        found = self._sessions.get(node)
        if found is None:
            snapshot = self._classifier.snapshot
            found = LookupSession(
                self._view.env, self._scopes[node], snapshot.files, snapshot.cache
            )
            if len(self._sessions) < KEPT_SESSIONS:
                self._sessions[node] = found
        return found

    def _module_reads(self, c: int, node: int, module: str) -> Hashable:
        """What ``module``'s hierarchy reads for ``node`` (its files found, as a global
        level's): a module hierarchy's ``nodes/%{trusted.certname}.yaml`` sets apart only
        the nodes that have such a file."""
        slot = (node, module)
        found = self._module_read.get(slot)
        if found is None:
            reads = hierarchy_reads(self.session(c, node), module)
            found = self._module_read[slot] = reads if reads is not None else ("alone", node)
        return found

    def _reads_of_key(self, c: int, key: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(variables, modules whose hierarchies interpolate) that ``key``'s answer reads."""
        files = self.base.files[c] if c < len(self.base.files) else None
        if files is None:
            return tuple(sorted(self._everything(c))), ()
        env = self._view.env
        found: set[str] = set()
        modules: set[str] = set()
        seen: set[str] = set()
        todo = [key]
        while todo:
            wanted = todo.pop()
            if wanted in seen:
                continue
            seen.add(wanted)
            module = _module_of(wanted)
            layer = env.modules.get(module) if module else None
            if module and layer is not None and config_variables(layer.config):
                modules.add(module)
            for path in (*files, *self._module_files.get(module or "", ())):
                for name in (wanted, LOOKUP_OPTIONS):
                    reads = self._reads_in(path, name)
                    if reads is None:
                        return tuple(sorted(self._everything(c))), ()
                    found |= reads.variables
                    todo.extend(reads.keys)
        return tuple(sorted(found)), tuple(sorted(modules))

    def _reads_in(self, path: str, key: str) -> Reads | None:
        slot = (path, key)
        if slot not in self._reads:
            snapshot = self._classifier.snapshot
            df = snapshot.data_file(path)
            if df is None and snapshot.files.is_dir(path):
                # a directory: the key's own file in it
                df = snapshot.data_file(expand_path_file(path, key))
            data = df.data if df is not None else None
            value = data.get(key) if isinstance(data, dict) else None
            self._reads[slot] = reads_of(strings_in(value, keys=True))
        return self._reads[slot]

    def _everything(self, c: int) -> set[str]:
        """Every variable the class's files, the modules' data and hiera.yaml interpolate."""
        files = self.base.files[c] if c < len(self.base.files) else None
        found = set(self._classifier.module_variables(self._view))
        for path in files or self._classifier.snapshot.data_files:
            found |= self._classifier.file_variables(path)
        return found
