"""A revision of the user's git repository as a directory, without touching their checkout and
without running anything the repository configures.

``hiera-ls diff`` reads each side through the same project builder as the server, which
reads directories. A revision's files are listed with ``git ls-tree`` and their contents
read with ``git cat-file --batch``, then written by hiera-ls itself: no index is written
(the user's index, HEAD, work tree and worktree list are untouched), and no program the
repository names runs (docs/security.md, "hiera-ls diff"):

- every git command runs with ``core.fsmonitor`` off, hooks pointed at ``/dev/null``, no
  pager, no system configuration (``GIT_CONFIG_NOSYSTEM``), no prompt, no optional locks,
  no replace objects; reading blobs with ``cat-file`` applies no smudge or clean filter and
  no textconv (files kept by git-lfs or git-crypt compare as git stores them);
- only what Hiera can read is written: data files (``.yaml``, ``.yml``, ``.json``,
  ``.conf``, ``.eyaml``), ``hiera.yaml``, ``environment.conf``, ``metadata.json``,
  ``.hiera-ls.yaml``, symlinks, and other files up to 1 MiB (a level may name any file);
  a 1 GB archive in the repository is never written to the temporary directory. A data file
  larger than hiera-ls reads is written as an empty sparse file of its size, so it is
  refused as on the working tree;
- a path git would refuse to check out (``..``, ``.git``, through a symlink) is skipped.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import IO

from hiera_ls.project.profiles import DEFAULT_DIRS
from hiera_ls.source.files import MAX_FILE_BYTES


class GitError(Exception):
    """Not a git repository, an unknown revision, or git itself missing: a usage error."""


@dataclass(frozen=True, slots=True)
class Repository:
    """The git work tree ``diff`` reads revisions from."""

    top: str  # the work tree's top directory (absolute, symlinks resolved)


# Settings that keep git from running anything the repository (or the machine) configures.
SAFE_CONFIG = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.pager=cat",
    "core.untrackedCache=false",
    "diff.external=",
    "protocol.allow=never",
)
SAFE_ENV = {
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_OPTIONAL_LOCKS": "0",
    "GIT_NO_REPLACE_OBJECTS": "1",
    "GIT_PAGER": "cat",
    "PAGER": "cat",
    "GIT_ASKPASS": "/bin/false",
    "SSH_ASKPASS": "/bin/false",
}
# Environment variables that would make git read or run something else.
UNSAFE_ENV = (
    "GIT_EXTERNAL_DIFF",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_EXEC_PATH",
    "GIT_SSH",
    "GIT_SSH_COMMAND",
    "GIT_PROXY_COMMAND",
    "GIT_INDEX_FILE",
    "GIT_DIR",
    "GIT_WORK_TREE",
)
DATA_SUFFIXES = (".yaml", ".yml", ".json", ".conf", ".eyaml")
HIERA_NAMES = ("hiera.yaml", "environment.conf", "metadata.json", ".hiera-ls.yaml")
# where a repository keeps facts profiles (hiera-ls' own, onceover's), as git names them
PROFILE_DIRS = tuple(f"/{d.replace(os.sep, '/')}/" for d in DEFAULT_DIRS)
MAX_OTHER_BYTES = 1 << 20  # a file of another kind is written when at most this large


def _git_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in UNSAFE_ENV}
    env.update(SAFE_ENV)
    return env


def _command(args: Sequence[str]) -> list[str]:
    return ["git", *(x for c in SAFE_CONFIG for x in ("-c", c)), *args]


def _git(args: Sequence[str], cwd: str) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            _command(args),
            cwd=cwd,
            env=_git_env(),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            check=False,
        )
    except FileNotFoundError:
        raise GitError("git is not installed (hiera-ls diff reads revisions with it)") from None


def repository_at(path: str) -> Repository:
    done = _git(["rev-parse", "--show-toplevel"], path)
    if done.returncode != 0:
        raise GitError(f"{path} is not inside a git work tree (hiera-ls diff compares revisions)")
    return Repository(os.path.realpath(done.stdout.strip()))


def commit_of(repo: Repository, rev: str) -> str:
    """The commit ``rev`` names, or a GitError that says which revision is unknown."""
    if rev.startswith("-"):
        raise GitError(f"unknown revision '{rev}'")
    done = _git(
        ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], repo.top
    )
    if done.returncode != 0 or not done.stdout.strip():
        raise GitError(f"unknown revision '{rev}' (not a commit of {repo.top})")
    return done.stdout.strip()


@dataclass(frozen=True, slots=True)
class _Entry:
    """One file of a revision as ``git ls-tree`` lists it."""

    mode: str
    oid: str
    size: int
    path: str  # relative, '/'-separated


def _entries(repo: Repository, commit: str) -> Iterator[_Entry]:
    done = subprocess.run(
        _command(["ls-tree", "-r", "-z", "-l", "--full-tree", commit]),
        cwd=repo.top,
        env=_git_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        check=False,
    )
    if done.returncode != 0:
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GitError(f"cannot read revision {commit[:12]}: {why[-1] if why else 'git failed'}")
    for record in done.stdout.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, oid, size = meta.decode().split()
        path = os.fsdecode(raw_path)
        if kind == "blob" and _safe_path(path):
            yield _Entry(mode, oid, int(size), path)


def _safe_path(path: str) -> bool:
    """A path git itself would check out: no empty, ``.``, ``..`` or ``.git`` component."""
    parts = path.split("/")
    return all(p not in ("", ".", "..") and p.lower() != ".git" for p in parts)


def _a_profile(path: str) -> bool:
    return any(d in f"/{path}" for d in PROFILE_DIRS)


def _wanted(entry: _Entry) -> bool:
    name = entry.path.rsplit("/", 1)[-1]
    return (
        entry.mode == "120000"
        or name in HIERA_NAMES
        or name.endswith(DATA_SUFFIXES)
        or entry.size <= MAX_OTHER_BYTES
    )


def write_tree(repo: Repository, commit: str, dest: str, profiles: bool = True) -> None:
    """Write what Hiera can read of ``commit`` under ``dest``/tree (``dest``: an empty
    directory of the caller's); without ``profiles``, not the facts profiles of the usual
    directories (the side of a diff that uses the other side's: a fleet's 10,000
    files are neither written nor read)."""
    tree = os.path.join(dest, "tree")
    os.makedirs(tree, exist_ok=True)
    entries = [
        e for e in _entries(repo, commit) if _wanted(e) and (profiles or not _a_profile(e.path))
    ]
    blobs = [e for e in entries if e.mode != "120000" and e.size <= MAX_FILE_BYTES]
    links = [e for e in entries if e.mode == "120000"]
    writer = _Writer(tree)
    for entry in entries:
        if entry.mode != "120000" and entry.size > MAX_FILE_BYTES:
            writer.placeholder(entry.path, entry.size)  # refused as too large, as on disk
    with _CatFile(repo) as cat:
        for entry, data in cat.read([*blobs, *links]):
            if entry.mode == "120000":
                writer.symlink(entry.path, os.fsdecode(data))
            else:
                writer.file(entry.path, data, executable=entry.mode == "100755")


class _Writer:
    """Writes files under ``root`` only: never through a symlink, never over a file."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.dirs: dict[str, bool] = {root: True}  # directory -> safe to write in

    def _directory(self, rel: str) -> str | None:
        parent = os.path.join(self.root, *rel.split("/")[:-1])
        safe = self.dirs.get(parent)
        if safe is None:
            os.makedirs(parent, exist_ok=True)
            safe = os.path.realpath(parent) == parent
            self.dirs[parent] = safe
        return parent if safe else None

    def _create(self, rel: str) -> int | None:
        parent = self._directory(rel)
        if parent is None:
            return None
        path = os.path.join(parent, rel.rsplit("/", 1)[-1])
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        try:
            return os.open(path, flags, 0o644)
        except OSError:  # a name two entries share: the first one stays
            return None

    def file(self, rel: str, data: bytes, executable: bool) -> None:
        fd = self._create(rel)
        if fd is None:
            return
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if executable:
                os.fchmod(fd, 0o755)
        finally:
            os.close(fd)

    def placeholder(self, rel: str, size: int) -> None:
        fd = self._create(rel)
        if fd is not None:
            try:
                os.ftruncate(fd, size)
            finally:
                os.close(fd)

    def symlink(self, rel: str, target: str) -> None:
        parent = self._directory(rel)
        if parent is None or "\0" in target:
            return
        try:
            os.symlink(target, os.path.join(parent, rel.rsplit("/", 1)[-1]))
        except OSError:
            return


class _CatFile:
    """``git cat-file --batch``: blobs as git stores them, one process for a whole tree."""

    def __init__(self, repo: Repository) -> None:
        self.repo = repo
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> _CatFile:
        self.process = subprocess.Popen(
            _command(["cat-file", "--batch"]),
            cwd=self.repo.top,
            env=_git_env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        return self

    def __exit__(self, *exc: object) -> None:
        process = self.process
        if process is None:
            return
        for stream in (process.stdin, process.stdout):
            if stream is not None:
                stream.close()
        process.kill()
        process.wait()

    def read(self, entries: Sequence[_Entry]) -> Iterator[tuple[_Entry, bytes]]:
        """Each entry's content, in order; the requests are written as the answers are read,
        so neither pipe fills."""
        process = self.process
        assert process is not None and process.stdin is not None and process.stdout is not None
        stdin, stdout = process.stdin, process.stdout
        ahead = 64  # requests written before their answers are read
        for i, entry in enumerate(entries):
            if i == 0:
                for first in entries[:ahead]:
                    stdin.write(f"{first.oid}\n".encode())
                stdin.flush()
            elif i + ahead - 1 < len(entries):
                stdin.write(f"{entries[i + ahead - 1].oid}\n".encode())
                stdin.flush()
            yield entry, _answer(stdout, entry)


def _answer(stdout: IO[bytes], entry: _Entry) -> bytes:
    header = stdout.readline().split()
    if len(header) != 3 or header[1] != b"blob":
        raise GitError(f"cannot read {entry.path} ({entry.oid[:12]}) from git")
    size = int(header[2])
    data = stdout.read(size)
    stdout.read(1)  # the newline after each object
    if len(data) != size:
        raise GitError(f"cannot read {entry.path} ({entry.oid[:12]}) from git")
    return data
