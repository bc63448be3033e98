"""File access for the engine: the disk, with open editor buffers laid over it.

The engine never opens files itself, so the language server can answer from unsaved
buffers and tests can answer from memory.  Globs follow Ruby's ``Pathname.glob`` (see
:mod:`hiera_ls.source.ruby_glob`).

Only regular files are read, and only up to :data:`MAX_FILE_BYTES`: a committed symlink to
``/dev/stdin`` would have the language server read its own input, a FIFO or ``/dev/console``
blocks for ever, ``/dev/zero`` never ends.  The type is checked before the file is opened
(so a device is never opened) and again on the open descriptor (opened non-blocking, so a
file swapped for a FIFO in between cannot block).  What could not be read, and bytes that
are not UTF-8, are told in a :class:`ReadProblem` (docs/security.md, "Files and file access").
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hiera_ls.source.hocon_includes import IncludeReader

# Puppet reads files of any size; a 47.5 MB data file must still get Puppet's answer, so
# the cap sits far above what a hand-written repository holds.
MAX_FILE_BYTES = 256 * 1024 * 1024
# Walks of the workspace's directories (datadirs, facts directories).
MAX_WALK_ENTRIES = 200_000
MAX_WALK_DEPTH = 100
# Problems that leave a file unread (``file-invalid-utf8`` still gives its text).
UNREAD_CODES = frozenset({"file-not-regular", "file-too-large", "file-unreadable"})
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
_CHUNK = 1 << 20


def walk_files(
    root: str, max_entries: int = MAX_WALK_ENTRIES, cut: dict[str, str] | None = None
) -> Iterator[str]:
    """Every name under ``root`` that is not a directory, in sorted order, as ``os.walk``
    gives them, hidden directories skipped and symlinked directories not followed.

    Bounded: at most ``max_entries`` names are looked at and :data:`MAX_WALK_DEPTH`
    directories deep (``os.walk`` recurses, and a deep tree would exhaust the stack). A walk
    cut short says so in ``cut`` (root -> why), for a report to tell.
    """
    budget = max_entries
    stack: list[tuple[str, int]] = [(root, 0)]
    while stack:
        directory, depth = stack.pop()
        try:
            with os.scandir(directory) as it:
                entries = sorted(it, key=lambda e: e.name)
        except OSError:
            continue
        budget -= len(entries)
        if budget < 0:
            if cut is not None:
                cut[root] = (
                    f"{directory} holds more names than the {max_entries:,} one walk looks at"
                )
            return
        subdirs: list[str] = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()  # as os.walk: a symlink to a directory is one
                followed = is_dir and not entry.is_symlink()
            except OSError:
                is_dir = followed = False
            if not is_dir:
                yield entry.path
            elif followed and not entry.name.startswith(".") and depth < MAX_WALK_DEPTH:
                subdirs.append(entry.path)
        stack.extend((d, depth + 1) for d in reversed(subdirs))


@dataclass(frozen=True, slots=True)
class ReadProblem:
    """Why a file's text is not what Puppet would read (or not read at all).

    ``code`` is a diagnostic code (its record: source/loader_rules.py).  For
    ``file-invalid-utf8`` the ``message`` is libyaml's words for the first bad byte and
    ``line``/``column`` (0-based, in characters) where it is; otherwise the message is what a
    lookup reading the file fails with.
    """

    code: str
    message: str
    line: int = 0
    column: int = 0


@dataclass(frozen=True, slots=True)
class FileText:
    """A file's text: invalid UTF-8 bytes replaced by U+FFFD, ``""`` when it was not read."""

    text: str
    problem: ReadProblem | None = None


def _kind(mode: int) -> str | None:
    """What a non-regular file is, in words; None for a regular file."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        return "directory"
    if stat.S_ISCHR(mode):
        return "character device"
    if stat.S_ISBLK(mode):
        return "block device"
    if stat.S_ISFIFO(mode):
        return "FIFO (named pipe)"
    if stat.S_ISSOCK(mode):
        return "socket"
    return "special file"


def _ruby_error(error: OSError, where: str, path: str) -> ReadProblem:
    """An OS error in Ruby's words (``Too many levels of symbolic links @ rb_file_s_stat - p``),
    as Puppet prints it when a lookup meets it."""
    text = os.strerror(error.errno) if error.errno is not None else str(error)
    return ReadProblem("file-unreadable", f"{text} @ {where} - {path}")


def _refused(path: str, st: os.stat_result) -> ReadProblem | None:
    kind = _kind(st.st_mode)
    if kind == "directory":
        return ReadProblem("file-unreadable", f"Is a directory @ io_fread - {path}")
    if kind is not None:
        real = os.path.realpath(path)
        shown = f"{path} (a symlink to {real})" if real != path else path
        return ReadProblem(
            "file-not-regular",
            f"hiera-ls does not read {shown}: it is a {kind}, "
            "and hiera-ls reads regular files only",
        )
    if st.st_size > MAX_FILE_BYTES:
        return _too_large(path, st.st_size)
    return None


def _too_large(path: str, size: int) -> ReadProblem:
    return ReadProblem(
        "file-too-large",
        f"hiera-ls does not read {path}: it holds {size} bytes, more than the "
        f"{MAX_FILE_BYTES} bytes ({MAX_FILE_BYTES / 2**20:g} MiB) it reads from one file",
    )


def read_disk(path: str) -> FileText | None:
    """A regular file's text from disk; None when nothing is there (not even a symlink)."""
    try:
        st = os.stat(path)
    except OSError as e:
        if e.errno in (errno.ENOENT, errno.ENOTDIR) and not os.path.lexists(path):
            return None
        return FileText("", _ruby_error(e, "rb_file_s_stat", path))
    refused = _refused(path, st)
    if refused is not None:
        return FileText("", refused)
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as e:
        return FileText("", _ruby_error(e, "rb_sysopen", path))
    try:
        refused = _refused(path, os.fstat(fd))  # swapped for something else since the stat
        if refused is not None:
            return FileText("", refused)
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_FILE_BYTES:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > MAX_FILE_BYTES:  # it grew while being read
            return FileText("", _too_large(path, size))
    except OSError as e:
        return FileText("", _ruby_error(e, "io_fread", path))
    finally:
        os.close(fd)
    return decode(b"".join(chunks))


def decode(raw: bytes) -> FileText:
    """UTF-8 text; bytes that are not UTF-8 become U+FFFD, the first one told as libyaml
    tells it (Psych refuses such a YAML file: ``invalid leading UTF-8 octet``)."""
    try:
        return FileText(raw.decode("utf-8"))
    except UnicodeDecodeError as e:
        start = e.start
    line = raw.count(b"\n", 0, start)
    line_start = raw.rfind(b"\n", 0, start) + 1
    column = len(raw[line_start:start].decode("utf-8"))
    problem = ReadProblem("file-invalid-utf8", libyaml_utf8_error(raw, start), line, column)
    return FileText(raw.decode("utf-8", errors="replace"), problem)


def libyaml_utf8_error(raw: bytes, start: int) -> str:
    """libyaml's reader's words for the sequence at ``start`` (its checks, in its order)."""
    octet = raw[start]
    if octet & 0x80 == 0:
        width = 1
    elif octet & 0xE0 == 0xC0:
        width = 2
    elif octet & 0xF0 == 0xE0:
        width = 3
    elif octet & 0xF8 == 0xF0:
        width = 4
    else:
        return "invalid leading UTF-8 octet"
    if start + width > len(raw):
        return "incomplete UTF-8 octet sequence"
    value = octet & (0x7F, 0x1F, 0x0F, 0x07)[width - 1]
    for trailing in raw[start + 1 : start + width]:
        if trailing & 0xC0 != 0x80:
            return "invalid trailing UTF-8 octet"
        value = (value << 6) | (trailing & 0x3F)
    if value < (0, 0x80, 0x800, 0x10000)[width - 1]:
        return "invalid length of a UTF-8 sequence"
    return "invalid Unicode character"


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
    # The directories a data file may include files from (HOCON's ``include file(...)``):
    # the workspace; a data file's own directory is always allowed.
    roots: tuple[str, ...] = ()
    # How many files one listing of the workspace's data files holds (a walk looks at ten
    # times as many names); the user's setting (hiera.maxFiles, check --max-files).
    max_files: int = 20_000
    # Walks cut short by a limit: root -> why (hiera-ls check reports each as an error).
    cut_walks: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    # Globs that went past their bounds, with the message: a snapshot (or a CLI run) pays
    # for such a walk once, not once per lookup through the level.
    _glob_failures: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    _listings: dict[str, list[str]] = field(default_factory=dict, compare=False, repr=False)
    _dirs: dict[str, bool] = field(default_factory=dict, compare=False, repr=False)
    # each file's stamp, taken once (see hold_stamps); None: taken on every call
    _stamps: dict[str, Stamp | None] | None = field(default=None, compare=False, repr=False)

    def read(self, path: str) -> FileText | None:
        """The buffer's text, else the disk's (see :func:`read_disk`); None when absent."""
        if path in self.overlay:
            return FileText(self.overlay[path])
        return read_disk(path)

    def include_reader(self) -> IncludeReader:
        """How a HOCON data file's includes are read: as data files, inside :attr:`roots`."""
        from hiera_ls.source.hocon_includes import IncludeReader

        roots = tuple(os.path.realpath(r) for r in self.roots)
        return IncludeReader(self.read, roots, os.getcwd())

    def read_text(self, path: str) -> str | None:
        """The text, ``""`` for a file that cannot be read (see :meth:`read` for why)."""
        found = self.read(path)
        return found.text if found is not None else None

    def hold_stamps(self) -> None:
        """Take each file's stamp once from now on: a run that checks the disk as it was
        when it began (``hiera-ls check``) asks a file's stamp on every read of it (a
        hundred profiles' lookups: millions of stats), never to see a change."""
        if self._stamps is None:
            self._stamps = {}

    def stamp(self, path: str) -> Stamp | None:
        """Changes whenever the content may have changed; None when the file is absent
        (a dangling symlink or a symlink loop is present: reading it tells why it fails)."""
        stamps = self._stamps
        if stamps is None:
            return self._stamp(path)
        if path in stamps:
            return stamps[path]
        found = stamps[path] = self._stamp(path)
        return found

    def _stamp(self, path: str) -> Stamp | None:
        if path in self.overlay:
            return Stamp(("buffer", self.overlay[path]))
        try:
            st = os.stat(path)
        except OSError:
            try:
                st = os.lstat(path)
            except OSError:
                return None
            return Stamp(("link", st.st_mtime_ns, st.st_ino))
        return Stamp(("disk", st.st_mtime_ns, st.st_size, st.st_ino, st.st_mode))

    def is_file(self, path: str) -> bool:
        return path in self.overlay or os.path.isfile(path)

    def exists(self, path: str) -> bool:
        return path in self.overlay or os.path.exists(path)

    def is_dir(self, path: str) -> bool:
        return os.path.isdir(path)

    def glob(self, pattern: str) -> list[str]:
        """``Pathname.glob`` of an absolute pattern, in Ruby's order, buffers included."""
        from hiera_ls.source import ruby_glob  # a hierarchy with glob levels (rare)

        failed = self._glob_failures.get(pattern)
        if failed is not None:
            raise ruby_glob.GlobTooLarge(failed)
        try:
            return ruby_glob.glob(pattern, self._listdir, self._glob_exists, self._glob_is_dir)
        except ruby_glob.GlobTooLarge as e:
            self._glob_failures[pattern] = str(e)
            raise

    def _listdir(self, directory: str) -> list[str]:
        """A directory's names, listed once per FileAccess (a snapshot, a CLI run): every
        glob level walks the same datadir (500 levels listed it 500 times)."""
        cached = self._listings.get(directory)
        if cached is None:
            from hiera_ls.source import ruby_glob

            cached = self._listings[directory] = ruby_glob.disk_listdir(directory)
        names = list(cached)
        prefix = directory.rstrip("/") + "/"
        for path in self.overlay:
            if path.startswith(prefix):
                names.append(path[len(prefix) :].split("/", 1)[0])
        return names

    def _buffer_dir(self, path: str) -> bool:
        prefix = path.rstrip("/") + "/"
        return any(p.startswith(prefix) for p in self.overlay)

    def _glob_exists(self, path: str) -> bool:
        """As Ruby's glob: a dangling symlink or a symlink loop is listed (reading it fails)."""
        return path in self.overlay or os.path.lexists(path) or self._buffer_dir(path)

    def _glob_is_dir(self, path: str) -> bool:
        found = self._dirs.get(path)
        if found is None:
            found = self._dirs[path] = os.path.isdir(path)
        return found or self._buffer_dir(path)
