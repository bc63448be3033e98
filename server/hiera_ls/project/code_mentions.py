"""Key-like names Puppet code mentions anywhere: the safety net of the unused-data hints.

The code index knows the lookups it could read (``lookup('k')``), but code also reads keys in
ways a reader can miss: a bare word (``lookup(profile::ci::src_host)``, which Puppet takes
as the string), a template (``scope.call_function('lookup', ['private_wikis'])``), a Ruby
function.  A key whose name the code writes out anywhere is "possibly used", so it is never
called unused (on Wikimedia's operations/puppet this keeps 12 keys read that way from being
reported).  Collected per file (kept per content stamp): qualified names in Puppet code
(``a::b``, not a ``$variable``), every quoted string that could be a key in templates and
Ruby.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field

from hiera_ls.project.model import Environment
from hiera_ls.source.files import FileAccess, Stamp, walk_files

MODULE_DIRS = ("manifests", "functions", "templates", "lib")
PUPPET_SUFFIXES = (".pp", ".epp")
OTHER_SUFFIXES = (".erb", ".rb")
# a qualified name not read as a variable ($a::b) nor an ERB instance variable (@a)
_QUALIFIED = re.compile(r"(?=[A-Za-z_:])(?<![\w$@:])(?:::)?([A-Za-z_][\w-]*(?:::[\w-]+)+)")
_QUOTED = re.compile(r"""['"](?:::)?([A-Za-z_][\w-]*(?:::[\w-]+)*)['"]""")


def names_in(path: str, text: str) -> frozenset[str]:
    pattern = _QUALIFIED if path.endswith(PUPPET_SUFFIXES) else _QUOTED
    found = {sys.intern(m) for m in pattern.findall(text)}
    if path.endswith(PUPPET_SUFFIXES):  # a bare word or string argument of a lookup
        found.update(sys.intern(m) for m in _QUOTED.findall(text) if "::" not in m)
    return frozenset(found)


@dataclass(slots=True)
class MentionCache:
    """path -> (content stamp, names): a file is read again only when it changed."""

    _entries: dict[str, tuple[Stamp, frozenset[str]]] = field(default_factory=dict)

    def names(self, files: FileAccess, path: str) -> frozenset[str]:
        stamp = files.stamp(path)
        if stamp is None:
            self._entries.pop(path, None)
            return frozenset()
        cached = self._entries.get(path)
        if cached is not None and cached[0] == stamp:
            return cached[1]
        text = files.read_text(path)
        names = names_in(path, text) if text is not None else frozenset()
        self._entries[path] = (stamp, names)
        return names


def code_files(env: Environment) -> Iterator[str]:
    roots = [os.path.join(layer.root, d) for layer in env.modules.values() for d in MODULE_DIRS]
    roots.append(os.path.join(env.root, "manifests"))
    suffixes = PUPPET_SUFFIXES + OTHER_SUFFIXES
    for root in roots:
        if os.path.isdir(root):
            yield from (p for p in walk_files(root) if p.endswith(suffixes))


def mentioned(env: Environment, files: FileAccess, cache: MentionCache) -> frozenset[str]:
    """Every name some code file of ``env`` writes out (read once per file content)."""
    found: set[str] = set()
    for path in code_files(env):
        found |= cache.names(files, path)
    return frozenset(found)
