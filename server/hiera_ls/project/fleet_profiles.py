"""The fleet's nodes as facts profiles: a directory of one file per node, read lazily.

``hiera-ls facts pull`` and the live PuppetDB source (hiera_ls.fleet) write one profile per
node, named by its certname. A fleet is thousands of nodes: listing them costs a directory
listing, and a node's facts are parsed only when something asks for that node (the picker
lists names; the active profile, a check pass or a diff loads one at a time). The most
recently used profiles are kept, a bounded number, so a run over the whole fleet holds a
few hundred nodes' facts at a time, not all of them.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from collections.abc import Iterator
from urllib.parse import quote, unquote

from hiera_ls.project.facts import FactsProfile, as_target_reads, load_facts
from hiera_ls.project.profiles import ProfileEntry
from hiera_ls.project.targets import DEFAULT_TARGET, Target
from hiera_ls.source.files import FileAccess, Stamp

SUFFIX = ".json"
_SAFE = "@+-_"  # besides letters, digits and '.', kept as they are in file names
KEPT_PROFILES = 256


def file_name(certname: str) -> str:
    """A node's profile file name: the certname, with what a file name cannot hold quoted
    (``%2F``), and a leading dot quoted so no node's file is hidden."""
    name = quote(certname, safe=_SAFE)
    if name.startswith("."):
        name = "%2E" + name[1:]
    return name + SUFFIX


def certname_of(file: str) -> str | None:
    """The certname a profile file was written for (None: not a node's file)."""
    if not file.endswith(SUFFIX) or file.startswith("."):
        return None
    return unquote(file[: -len(SUFFIX)])


class FleetProfiles:
    """The nodes of one directory of pulled profiles, by certname, loaded on first use.

    ``source`` says where they came from (PuppetDB's URL) for the picker and messages.
    Shared by the snapshots of a workspace and read from the server's worker thread too:
    the cache of loaded profiles is guarded by a lock.
    """

    def __init__(self, directory: str, source: str, keep: int = KEPT_PROFILES) -> None:
        self.directory = os.path.abspath(directory)
        self.source = source
        self._keep = keep
        self._paths: dict[str, str] = {}
        try:
            files = sorted(os.listdir(self.directory))
        except OSError:
            files = []
        for file in files:
            certname = certname_of(file)
            if certname is not None:
                self._paths[certname] = os.path.join(self.directory, file)
        # the same entry while its file is unchanged: caches keyed by it stay valid
        self._loaded: OrderedDict[str, tuple[tuple[Stamp | None, Target], ProfileEntry]] = (
            OrderedDict()
        )
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._paths)

    def __contains__(self, certname: object) -> bool:
        return certname in self._paths

    def names(self) -> Iterator[str]:
        return iter(self._paths)

    def path(self, certname: str) -> str | None:
        return self._paths.get(certname)

    def entry(
        self, certname: str, files: FileAccess | None = None, target: Target = DEFAULT_TARGET
    ) -> ProfileEntry | None:
        """The node's profile, read now unless it is kept and its file has not changed; as
        the ``target``'s Puppet reads it (a Puppet 7 node's legacy facts left out for Puppet
        8, as for a profile file: facts.as_target_reads)."""
        path = self._paths.get(certname)
        if path is None:
            return None
        access = files if files is not None else FileAccess()
        stamp = (access.stamp(path), target)
        with self._lock:
            kept = self._loaded.get(certname)
            if kept is not None and kept[0] == stamp:
                self._loaded.move_to_end(certname)
                return kept[1]
        found = access.read(path)
        if found is None:
            profile = load_facts(path, "", None)
            profile = FactsProfile(
                certname, path, {}, profile.source, (), f"{path}: the file is gone"
            )
        else:
            profile = load_facts(path, found.text, found.problem, positions=False)
        entry = ProfileEntry(certname, as_target_reads(profile, target))
        with self._lock:
            self._loaded[certname] = (stamp, entry)
            self._loaded.move_to_end(certname)
            while len(self._loaded) > self._keep:
                self._loaded.popitem(last=False)
        return entry
