"""A directory of pulled profiles, replaced whole or not at all.

A pull writes the new directory beside the old one (a hidden sibling, which no profile
scan reads), then swaps the two in one step: on Linux ``renameat2(RENAME_EXCHANGE)``,
elsewhere two renames (with a copy of the old directory kept aside until the second one
has happened, and put back by the next pull if it never did). Whatever fails before the
swap (PuppetDB stops answering on page 7, the disk fills) leaves the old directory as it
was: a reader never sees a half-written profile directory, and the last good profiles stay.

A node whose profile has not changed is hard-linked from the old directory, so its file
keeps its modification time (and costs no copy); only new and changed nodes are written.
A file of a node PuppetDB no longer lists is kept unless ``prune`` says otherwise; a file
that is not a node's profile is always kept. When nothing changed, nothing is touched.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from hiera_ls.fleet.nodes import BrokenNode, NodeProfile
from hiera_ls.project.fleet_profiles import certname_of, file_name

_RENAME_EXCHANGE = 2
_AT_FDCWD = -100
_ASIDE = ".previous"  # suffix of the old directory while a two-rename swap is under way


@dataclass(frozen=True, slots=True)
class PullSummary:
    """What a pull changed in the profile directory, for the command's report."""

    directory: str
    nodes: int  # nodes with a usable profile in the answer
    new: tuple[str, ...]
    changed: tuple[str, ...]
    unchanged: int
    removed: tuple[str, ...]  # --prune: in the directory, no longer in the answer
    kept: tuple[str, ...]  # in the directory, no longer in the answer, kept
    skipped: tuple[BrokenNode, ...]
    kept_last_good: tuple[str, ...] = ()  # skipped nodes whose last good profile stays

    @property
    def touched(self) -> bool:
        return bool(self.new or self.changed or self.removed)


@dataclass(slots=True)
class _Tally:
    """What a pull has met so far, page by page."""

    new: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    unchanged: int = 0
    skipped: list[BrokenNode] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)  # file names of the answer's nodes


def write_profiles(
    directory: str,
    nodes: Iterable[NodeProfile | BrokenNode],
    *,
    prune: bool = False,
    mode: int = 0o644,
    progress: Callable[[int], None] | None = None,
) -> PullSummary:
    """Replace ``directory``'s node profiles by ``nodes`` (see the module docstring).

    An exception from ``nodes`` (PuppetDB failing mid-way) leaves ``directory`` untouched.
    """
    directory = os.path.abspath(directory)
    parent, base = os.path.split(directory)
    os.makedirs(parent, exist_ok=True)
    _recover(directory)
    old = _listing(directory)
    tmp = tempfile.mkdtemp(prefix=f".{base}.pull-", dir=parent)
    try:
        os.chmod(tmp, _directory_mode(directory, mode))
        tally = _Tally()
        for count, node in enumerate(nodes, start=1):
            _place(node, tmp, old, tally, mode)
            if progress is not None:
                progress(count)
        removed, kept, last_good = _carry_over(old, tmp, tally, prune)
        summary = PullSummary(
            directory,
            len(tally.seen),
            tuple(tally.new),
            tuple(tally.changed),
            tally.unchanged,
            tuple(removed),
            tuple(kept),
            tuple(tally.skipped),
            tuple(last_good),
        )
        if summary.touched or not os.path.isdir(directory):
            os.sync()  # the new files are on disk before the directory that names them
            _swap(tmp, directory)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary


def _directory_mode(directory: str, mode: int) -> int:
    """The old directory's permissions (the user may have narrowed them), else what the
    files' mode implies."""
    try:
        return os.stat(directory).st_mode & 0o7777
    except OSError:
        return 0o755 if mode & 0o044 else 0o700


def _listing(directory: str) -> dict[str, str]:
    """File name -> path of the regular files directly in ``directory``."""
    try:
        with os.scandir(directory) as it:
            return {e.name: e.path for e in it if e.is_file(follow_symlinks=False)}
    except FileNotFoundError:
        return {}


def _place(
    node: NodeProfile | BrokenNode, tmp: str, old: dict[str, str], tally: _Tally, mode: int
) -> None:
    if isinstance(node, BrokenNode):
        tally.skipped.append(node)
        return
    name = file_name(node.certname)
    if name in tally.seen:  # a node twice in the answer (pages shifted under a change)
        return
    tally.seen.add(name)
    target = os.path.join(tmp, name)
    previous = old.get(name)
    if previous is not None and _same(previous, node.text):
        _link(previous, target)
        tally.unchanged += 1
        return
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, mode)
    with os.fdopen(fd, "wb") as f:
        f.write(node.text)
    (tally.changed if previous is not None else tally.new).append(node.certname)


def _carry_over(
    old: dict[str, str], tmp: str, tally: _Tally, prune: bool
) -> tuple[list[str], list[str], list[str]]:
    """What of the old directory the answer did not replace: node files kept (or pruned),
    a skipped node's last good profile kept, other files kept."""
    removed: list[str] = []
    kept: list[str] = []
    last_good: list[str] = []
    skipped = {file_name(b.certname) for b in tally.skipped if b.certname is not None}
    for name, path in sorted(old.items()):
        if name in tally.seen:
            continue
        certname = certname_of(name)
        if name in skipped and certname is not None:
            last_good.append(certname)
        elif certname is not None and prune:
            removed.append(certname)
            continue
        elif certname is not None:
            kept.append(certname)
        _link(path, os.path.join(tmp, name))
    return removed, kept, last_good


def _same(path: str, text: bytes) -> bool:
    try:
        if os.path.getsize(path) != len(text):
            return False
        with open(path, "rb") as f:
            return f.read() == text
    except OSError:
        return False


def _link(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:  # another file system, or one without hard links
        shutil.copy2(source, target)


def _swap(new: str, directory: str) -> None:
    """``new`` becomes ``directory`` in one step; the old content ends up in ``new``."""
    if not os.path.isdir(directory):
        os.rename(new, directory)
        return
    if _exchange(new, directory):
        return
    aside = directory + _ASIDE
    shutil.rmtree(aside, ignore_errors=True)
    os.rename(directory, aside)
    os.rename(new, directory)
    os.rename(aside, new)


def _recover(directory: str) -> None:
    """A two-rename swap that stopped between its renames left the old directory aside."""
    aside = directory + _ASIDE
    if os.path.isdir(aside):
        if not os.path.exists(directory):
            os.rename(aside, directory)
        else:
            shutil.rmtree(aside, ignore_errors=True)


def _exchange(a: str, b: str) -> bool:
    """Linux's atomic exchange of two paths; False where it is not available."""
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return False
    try:
        libc = ctypes.CDLL(libc_name, use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError):
        return False
    path, at = ctypes.c_char_p, ctypes.c_int
    renameat2.argtypes = [at, path, at, path, ctypes.c_uint]
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # the kernel or the file system cannot exchange
    raise OSError(code, os.strerror(code), b)
