"""File access for the engine: the disk, with open editor buffers laid over it.

The engine never opens files itself, so the language server can answer from unsaved
buffers and tests can answer from memory.  Globs follow Ruby's ``Pathname.glob`` (see
:mod:`hiera_ls.source.ruby_glob`).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from hiera_ls.source import ruby_glob


@dataclass(frozen=True, slots=True)
class Stamp:
    """What identifies one version of a file's content without reading it twice."""

    key: object

    @property
    def buffer_text(self) -> str | None:
        """An editor buffer's stamp is its text: what an edit is compared against."""
        key = self.key
        if isinstance(key, tuple) and key[0] == "buffer" and isinstance(key[1], str):
            return key[1]
        return None


@dataclass(slots=True)
class FileAccess:
    """Reads files; ``overlay`` (path -> text) wins over the disk, as editors expect."""

    overlay: Mapping[str, str] = field(default_factory=dict)

    def read_text(self, path: str) -> str | None:
        if path in self.overlay:
            return self.overlay[path]
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError:
            return None
        return raw.decode("utf-8", errors="replace")

    def stamp(self, path: str) -> Stamp | None:
        """Changes whenever the content may have changed; None when the file is absent."""
        if path in self.overlay:
            return Stamp(("buffer", self.overlay[path]))
        try:
            st = os.stat(path)
        except OSError:
            return None
        return Stamp(("disk", st.st_mtime_ns, st.st_size, st.st_ino))

    def is_file(self, path: str) -> bool:
        return path in self.overlay or os.path.isfile(path)

    def exists(self, path: str) -> bool:
        return path in self.overlay or os.path.exists(path)

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(path)

    def glob(self, pattern: str) -> list[str]:
        """``Pathname.glob`` of an absolute pattern, in Ruby's order, buffers included."""
        return ruby_glob.glob(pattern, self._listdir, self._glob_exists, self._glob_is_dir)

    def _listdir(self, directory: str) -> list[str]:
        names = ruby_glob.disk_listdir(directory)
        prefix = directory.rstrip("/") + "/"
        for path in self.overlay:
            if path.startswith(prefix):
                names.append(path[len(prefix) :].split("/", 1)[0])
        return names

    def _buffer_dir(self, path: str) -> bool:
        prefix = path.rstrip("/") + "/"
        return any(p.startswith(prefix) for p in self.overlay)

    def _glob_exists(self, path: str) -> bool:
        return self.exists(path) or self._buffer_dir(path)

    def _glob_is_dir(self, path: str) -> bool:
        return os.path.isdir(path) or self._buffer_dir(path)
