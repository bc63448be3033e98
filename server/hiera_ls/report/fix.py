"""``hiera-ls check --fix``: the editor's safe quick fixes, applied to the files on disk.

The edits are the ones the editor's code actions make (checks/fixes.py, each rule's record
says whether its fix is safe): they
make a file Puppet refuses say what it evidently meant, or change no value. A fix may reveal
what its problem hid (a file that parses again shows its other problems), so the files are
re-checked and fixed again until nothing changes, a few rounds at most.

A repository, and the disk under it, may not cooperate; nothing is lost either way
(docs/security.md, "check --fix writes"):

- only regular files under the paths given are written, never through a symlink (a data
  file that is one, or that lies in a symlinked directory below the path given), and never
  a file of the global layer outside them; each one left out is named;
- a file is written whole or not at all: the new text goes to a temporary file in the same
  directory with the original's mode and owner, is synced, and replaces the original by a
  rename; a full disk, a quota or a kill leaves the original as it was;
- just before the rename the file is read again: if it changed since the fixes were
  computed (an editor saved it), it is left alone and named;
- the bytes outside the fixed ranges stay byte for byte: a file whose bytes are not UTF-8
  (which a JSON file may hold: Ruby reads them) is not fixed;
- a file that cannot be written is named, the others are still fixed, and the command
  exits 2.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Sequence
from dataclasses import dataclass

from hiera_ls.checks.fixes import fixed_text, safe_codes
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import FileKind, Snapshot, Workspace
from hiera_ls.source.files import MAX_FILE_BYTES
from hiera_ls.source.spans import Problem

MAX_ROUNDS = 5  # each round fixes what the previous one revealed; two are usual
_READ_FLAGS = (
    os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | getattr(os, "O_NOCTTY", 0) | os.O_CLOEXEC
)
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


@dataclass(frozen=True, slots=True)
class NotFixed:
    """A file with safe fixes that were not applied, and why (one sentence)."""

    path: str  # absolute
    why: str
    failed: bool  # it could not be written (exit 2), rather than left alone on purpose


@dataclass(frozen=True, slots=True)
class FixResult:
    """What ``check --fix`` changed, and what it left alone and why."""

    fixes: int  # problems the quick fixes applied fixed, over every round
    files: tuple[str, ...]  # files written (absolute)
    not_fixed: tuple[NotFixed, ...] = ()

    @property
    def failed(self) -> bool:
        return any(n.failed for n in self.not_fixed)


class _Skip(Exception):
    """This file is not written; the message says why."""

    def __init__(self, why: str, failed: bool = False) -> None:
        super().__init__(why)
        self.why, self.failed = why, failed


@dataclass(frozen=True, slots=True)
class _Original:
    """A file's bytes and metadata before ``--fix`` wrote it, to write it back like it was."""

    data: bytes
    st: os.stat_result


def fix_files(
    roots: Sequence[str], only: Sequence[str] = (), settings: Settings | None = None
) -> FixResult:
    """Apply the safe fixes to every data file and hiera.yaml under ``roots`` (or to the files
    in ``only``: then nothing else is written); writes the files it fixes."""
    allowed = _Allowed(tuple(os.path.normpath(r) for r in roots), frozenset(only))
    applied = 0
    written: dict[str, None] = {}
    safe = safe_codes()
    not_fixed: dict[str, NotFixed] = {}
    for _ in range(MAX_ROUNDS):
        snapshot = Workspace(list(roots), settings).snapshot()
        diagnostics = Diagnostics(every_profile=False)  # fixes need no other profile
        diagnostics.rebuild_stale(snapshot, diagnostics.changes)
        changed = False
        for path in _fixable(snapshot, only):
            if path in not_fixed:
                continue
            text = snapshot.files.read_text(path)
            if not text:
                continue
            problems = [p for p in diagnostics.file_problems(snapshot, path) if p.code in safe]
            if not problems:
                continue
            try:
                count = _fix_file(path, text, problems, allowed)
            except _Skip as e:
                not_fixed[path] = NotFixed(path, e.why, e.failed)
                continue
            if count:
                applied += count
                written[path] = None
                changed = True
        if not changed:
            break
    return FixResult(applied, tuple(written), tuple(not_fixed.values()))


def _fix_file(path: str, text: str, problems: list[Problem], allowed: _Allowed) -> int:
    """Write ``path`` with its safe fixes; the number of problems they fix (0: nothing to
    change, or fixes that would leave the file unreadable)."""
    fixed, fixes, count = fixed_text(path, text, problems)
    if not fixes or fixed == text:
        return 0
    allowed.check(path)
    original = _read(path)
    try:
        current = original.data.decode("utf-8")
    except UnicodeDecodeError:
        raise _Skip(
            "it holds bytes that are not UTF-8, which a fix could not keep as they are"
        ) from None
    if current != text:
        raise _Skip(_CHANGED)
    _replace(path, fixed.encode("utf-8"), original)
    return count


_CHANGED = "it changed on disk while hiera-ls was fixing it; run hiera-ls check --fix again"


@dataclass(frozen=True, slots=True)
class _Allowed:
    """Where ``--fix`` may write: regular files under the directories given (``roots``), or
    exactly the files given (``only``), reached without a symlink below the path given."""

    roots: tuple[str, ...]
    only: frozenset[str]

    def check(self, path: str) -> None:
        if self.only:
            if path not in self.only:
                raise _Skip("it is not one of the files given")
            base = os.path.dirname(path)
        else:
            base = next((r for r in self.roots if path.startswith(r.rstrip(os.sep) + os.sep)), "")
            if not base:
                raise _Skip("it is not under the path given")
        here = base
        parts = os.path.relpath(path, base).split(os.sep)
        for i, part in enumerate(parts):
            here = os.path.join(here, part)
            try:
                st = os.lstat(here)
            except OSError as e:
                raise _Skip(f"cannot read it: {e.strerror}", failed=True) from None
            if stat.S_ISLNK(st.st_mode):
                what = "it" if i == len(parts) - 1 else _shown(here)
                raise _Skip(f"{what} is a symlink; hiera-ls writes no file through one")
        if not stat.S_ISREG(st.st_mode):
            raise _Skip("it is not a regular file")


def _shown(path: str) -> str:
    cwd = os.getcwd().rstrip(os.sep) + os.sep
    return path[len(cwd) :] if path.startswith(cwd) else path


def _read(path: str, directory_fd: int | None = None) -> _Original:
    """The file's bytes and status, read without following a symlink or blocking."""
    name = os.path.basename(path) if directory_fd is not None else path
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=directory_fd)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise _Skip("it is a symlink; hiera-ls writes no file through one") from None
        raise _Skip(f"cannot read it: {e.strerror}", failed=True) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _Skip("it is not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            raise _Skip("it is larger than the files hiera-ls reads")
        chunks: list[bytes] = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return _Original(b"".join(chunks), st)
    except OSError as e:
        raise _Skip(f"cannot read it: {e.strerror}", failed=True) from None
    finally:
        os.close(fd)


def _same(a: os.stat_result, b: os.stat_result) -> bool:
    return (a.st_dev, a.st_ino, a.st_size, a.st_mtime_ns, a.st_mode) == (
        b.st_dev,
        b.st_ino,
        b.st_size,
        b.st_mtime_ns,
        b.st_mode,
    )


def _replace(path: str, data: bytes, original: _Original) -> None:
    """Replace ``path`` by ``data`` whole, or leave it as it was (see the module docstring)."""
    if not os.access(path, os.W_OK, effective_ids=os.access in os.supports_effective_ids):
        raise _Skip("cannot write it: Permission denied", failed=True)
    directory = os.path.dirname(path)
    name = os.path.basename(path)
    try:
        dir_fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError as e:
        raise _Skip(f"cannot write it: {e.strerror}", failed=True) from None
    temp = f".{name}.{secrets.token_hex(6)}.hiera-ls-fix"
    try:
        _write_temp(dir_fd, temp, data, original.st)
        again = _read(path, dir_fd)
        if again.data != original.data or not _same(again.st, original.st):
            raise _Skip(_CHANGED)
        os.replace(temp, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        temp = ""
        os.fsync(dir_fd)
    except OSError as e:
        raise _Skip(f"cannot write it: {e.strerror or e}", failed=True) from None
    finally:
        if temp:
            with contextlib.suppress(OSError):
                os.unlink(temp, dir_fd=dir_fd)
        os.close(dir_fd)


def _write_temp(dir_fd: int, temp: str, data: bytes, st: os.stat_result) -> None:
    """``data`` in a new file ``temp`` with the original's mode and owner, synced to disk."""
    fd = os.open(temp, _TEMP_FLAGS, 0o600, dir_fd=dir_fd)
    try:
        if (st.st_uid, st.st_gid) != (os.geteuid(), os.getegid()):
            try:
                os.fchown(fd, st.st_uid, st.st_gid)
            except PermissionError:
                raise _Skip(
                    "cannot write it with its owner and group kept: Operation not permitted",
                    failed=True,
                ) from None
        os.fchmod(fd, stat.S_IMODE(st.st_mode))
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        os.fsync(fd)
    finally:
        os.close(fd)


def _fixable(snapshot: Snapshot, only: Sequence[str]) -> list[str]:
    paths = dict.fromkeys(snapshot.data_files)
    for view in snapshot.environments:
        paths.update(dict.fromkeys(view.configs))
    kinds = (FileKind.DATA, FileKind.HIERA_CONFIG)
    return [p for p in paths if (not only or p in only) and snapshot.kind_of(p) in kinds]
