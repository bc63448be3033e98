"""Data files parsed once for both revisions of a ``hiera-ls diff``.

The two revisions live in two directories, and most of their data files hold the same
bytes (a change touches a few files of thousands: every node file is the same).  A file
whose text the other revision has already parsed, cleanly, is taken from there under its
own path instead of being parsed again: the same text read by the same reader gives the
same data, and a file that parsed with any problem or failure (whose messages name the
path) is parsed on its own.  A revision is read once and does not change during the run: a
file read before is not looked at on disk again (a lookup reads a file hundreds of times).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from hiera_ls.source.data_cache import SAME_AS, DataCache
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.files import FileAccess

_SHARED_READERS = frozenset({"yaml_data", "json_data"})

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
        if twin is not None and twin.path != path:
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


def _clean(data: DataFile) -> bool:
    """Parsed with nothing to say: no message names its path."""
    return data.failure is None and not data.key_errors and not data.problems and not data.readable
