"""A git repository with planted data changes between two commits, for ``hiera-ls diff``.

The second commit changes a value (web's port), adds a hierarchy level (per OS family: db01
is RedHat), changes a merge strategy in lookup_options (``app::settings``: hash to first)
and moves a node's file where no level reads it (web02 loses its own port).
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

PROFILES = {
    "web01.example.com": {"role": "web", "os": {"family": "Debian"}},
    "web02.example.com": {"role": "web", "os": {"family": "Debian"}},
    "db01.example.com": {"role": "db", "os": {"family": "RedHat"}},
    "app01.example.com": {"role": "app", "os": {"family": "Debian"}},
}

HIERA_LEVELS = """\
---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: roles
    path: "roles/%{facts.role}.yaml"
"""
OS_LEVEL = """\
  - name: os
    path: "os/%{facts.os.family}.yaml"
"""
COMMON_LEVEL = """\
  - name: common
    path: common.yaml
"""

COMMON = """\
---
lookup_options:
  app::settings:
    merge: {merge}
app::port: 8080
app::settings:
  timeout: 10
  retries: 3
ntp::servers:
  - 0.pool.ntp.org
  - 1.pool.ntp.org
app::name: "app-%{{facts.role}}"
unchanged::key: same
"""

KEYS = ("app::name", "app::port", "app::settings", "db::size", "ntp::servers", "unchanged::key")


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args],
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return done.stdout


def write(root: Path, rel: str, text: str) -> None:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


def first_commit(root: Path) -> None:
    write(root, "hiera.yaml", HIERA_LEVELS + COMMON_LEVEL)
    write(root, "data/common.yaml", COMMON.format(merge="hash"))
    write(root, "data/roles/web.yaml", "---\napp::port: 80\napp::settings:\n  timeout: 30\n")
    write(root, "data/roles/db.yaml", "---\ndb::size: 10\napp::settings:\n  retries: 5\n")
    write(root, "data/nodes/web02.example.com.yaml", "---\napp::port: 8081\n")
    for name, facts in PROFILES.items():
        write(root, f".hiera-ls/facts/{name}.json", json.dumps({"clientcert": name, **facts}))


def second_commit(root: Path) -> None:
    write(root, "data/roles/web.yaml", "---\napp::port: 443\napp::settings:\n  timeout: 30\n")
    write(root, "hiera.yaml", HIERA_LEVELS + OS_LEVEL + COMMON_LEVEL)
    write(root, "data/os/RedHat.yaml", "---\nntp::servers:\n  - rh.pool.ntp.org\n")
    write(root, "data/common.yaml", COMMON.format(merge="first"))
    git(root, "mv", "data/nodes/web02.example.com.yaml", "data/nodes/web02.yaml")


def planted_repo(root: Path) -> tuple[str, str]:
    """The repository at ``root`` with its two commits (returned): the working tree is the
    second commit's."""
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q", "-b", "main")
    first_commit(root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "first")
    before = git(root, "rev-parse", "HEAD").strip()
    second_commit(root)
    git(root, "add", "-A")
    git(root, "commit", "-qm", "second")
    return before, git(root, "rev-parse", "HEAD").strip()


Planted = tuple[Path, str, str]  # a planted repository and its two commits


def copy_planted(planted: Planted, root: Path) -> tuple[str, str]:
    """A copy at ``root`` of the planted repository (``planted_template``, made once a session:
    seven git processes a test cost more than the test), with its two commits."""
    shutil.copytree(planted[0], root, symlinks=True)
    return planted[1], planted[2]
