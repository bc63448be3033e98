"""Data files parsed once for both revisions of a ``hiera-ls diff``.

The two revisions live in two directories, and most of their data files hold the same
bytes (a change touches a few files of thousands: every node file is the same).  A file
whose text the other revision has already parsed, cleanly, is taken from there under its
own path instead of being parsed again: the same text read by the same reader gives the
same data, and a file that parsed with any problem or failure (whose messages name the
path) is parsed on its own.  A revision is read once and does not change during the run: a
file read before is not looked at on disk again (a lookup reads a file hundreds of times).

With ``--jobs``, the texts a run will parse are parsed ahead over the workers
(:meth:`TwinCache.ahead`, :func:`clean_values`, :meth:`TwinCache.seed`): a worker sends back
the values of each file that loads cleanly (what :func:`load_yaml_values` gives them), and
the file is then taken as a twin parsed under its own path; any other file is parsed here,
when it is read, as before.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from hiera_ls.source.data_cache import SAME_AS, DataCache
from hiera_ls.source.data_file import DataFile, load_yaml_values
from hiera_ls.source.files import FileAccess
from hiera_ls.source.node_table import EMPTY_NODES

_SHARED_READERS = frozenset({"yaml_data", "json_data"})
YAML = "yaml_data"

# (reader, text) -> the file as parsed at either revision
Twins = dict[tuple[str, str], DataFile]


@dataclass(slots=True)
class TwinCache(DataCache):
    """One revision's data cache, sharing clean parses with the other's (``twins``)."""

    twins: Twins = field(default_factory=dict)

    def get(self, files: FileAccess, path: str, function: str) -> DataFile | None:
        reader = SAME_AS.get(function, function)
        if reader not in _SHARED_READERS:
            return DataCache.get(self, files, path, function)
        entry = self._entries.get((path, reader))
        if entry is not None:  # read before in this run: the revision does not change
            return entry[1]
        stamp = files.stamp(path)
        if stamp is None or path in files.overlay:
            return DataCache.get(self, files, path, function)
        found = files.read(path)
        if found is None or found.problem is not None:
            return DataCache.get(self, files, path, function)
        twin = self.twins.get((reader, found.text))
        if twin is not None:
            mine = twin  # parsed ahead under this path (see seed)
            if twin.path != path:
                document = twin.document
                mine = replace(
                    twin,
                    path=path,
                    document=replace(document, path=path) if document is not None else None,
                )
            self._entries[(path, reader)] = (stamp, mine)
            return mine
        data = DataCache.get(self, files, path, function)
        if data is not None and _clean(data):
            self.twins[(reader, found.text)] = data
        return data

    def ahead(self, files: FileAccess, path: str, function: str) -> str | None:
        """The text :meth:`get` would parse for its values alone (a YAML file read as
        ``yaml_data``, neither read before nor parsed at the other revision), else None."""
        if self.positions or SAME_AS.get(function, function) != YAML:
            return None
        if (path, YAML) in self._entries or files.stamp(path) is None or path in files.overlay:
            return None
        found = files.read(path)
        if found is None or found.problem is not None or (YAML, found.text) in self.twins:
            return None
        return found.text

    def seed(self, path: str, text: str, values: Mapping[object, object]) -> None:
        """``path``'s ``text`` parsed elsewhere to ``values`` by :func:`clean_values`: the
        file :meth:`get` would load from it."""
        self.twins[(YAML, text)] = DataFile(path, values, None, {}, EMPTY_NODES, ())


def clean_values(path: str, text: str) -> Mapping[object, object] | None:
    """The values of a YAML file that loads cleanly for its values alone (what
    :meth:`TwinCache.seed` makes the same file of again), else None (the file is parsed
    where it is read, for its messages)."""
    data = load_yaml_values(path, text)
    clean = (
        data.nodes is EMPTY_NODES
        and data.document is None
        and data.readable is None
        and _clean(data)
    )
    return data.data if clean else None


def _clean(data: DataFile) -> bool:
    """Parsed with nothing to say: no message names its path."""
    return data.failure is None and not data.key_errors and not data.problems and not data.readable
