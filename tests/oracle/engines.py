"""The Puppets the differential tests ask: Debian 12's Puppet 7.23 and Debian 13's Puppet 8.10.

Puppet 7.23 is this machine's ``puppet-agent``.  Puppet 8.10 lives in a Debian 13 tree that
``.ci/puppet8-setup.sh`` builds once and caches outside the repository
(``~/.cache/hiera-ls/puppet8``, or ``HIERA_LS_PUPPET8_ROOT``).  A command for it runs in a
private mount namespace (``unshare --mount``) that binds this machine's ``/tmp``, the
temporary directory, ``/dev``, ``/proc`` and the repository onto the same paths inside the
tree, then ``chroot``s into it: the fixtures the tests write under ``/tmp`` and the oracle
scripts keep their paths, and the bind mounts vanish with the process (nothing to clean up,
even when a test is killed).  Both need root (CI runs as root).

Which engines a run asks: ``HIERA_LS_ENGINES`` (``puppet7,puppet8``, the default, or one of
them).  An engine that is not installed is skipped, except on CI (``CI=true``), which
installs both.  ``python -m tests.oracle.engines puppet8 puppet --version`` runs one command
the way the tests do.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hiera_ls.project.legacy_facts import facter_legacy_facts
from hiera_ls.project.targets import TARGETS, Target

REPO_ROOT = Path(__file__).resolve().parents[2]
PUPPET8_ROOT = Path(
    os.environ.get("HIERA_LS_PUPPET8_ROOT", Path.home() / ".cache" / "hiera-ls" / "puppet8")
)

# Runs inside the new mount namespace: bind the shared directories, then chroot.
# Arguments: ROOT CWD N DIR... -- COMMAND...
_ENTER = r"""
set -e
root=$1; cwd=$2; n=$3; shift 3
while [ "$n" -gt 0 ]; do
  mkdir -p "$root$1"
  mount --rbind "$1" "$root$1"
  n=$((n - 1)); shift
done
exec chroot "$root" /bin/sh -c 'cd "$1" 2>/dev/null || cd /; shift; exec "$@"' sh "$cwd" "$@"
"""


@dataclass(frozen=True, slots=True)
class PuppetEngine:
    """One Puppet to ask: where it is and how to run a command with it."""

    name: str  # the test id: puppet7, puppet8
    title: str  # Puppet 7.23 (Debian 12) ...
    root: Path | None  # the Debian tree it runs in; None: this machine
    target: Target  # the hiera-ls target whose defaults this Puppet has

    def apply(
        self, base: Path, *args: str, env: Mapping[str, str] | None = None
    ) -> subprocess.CompletedProcess[str]:
        """`puppet apply`, offline, in ``base``: its ``conf``, ``code`` and ``var`` directories
        (made where missing) and its ``environments`` as the environmentpath, no colours;
        ``args``: the rest (environment, node, settings, manifest)."""
        for d in ("conf", "code", "var"):
            (base / d).mkdir(exist_ok=True)
        argv = [
            "puppet", "apply", "--confdir", str(base / "conf"), "--codedir", str(base / "code"),
            "--vardir", str(base / "var"), "--environmentpath", str(base / "environments"),
            "--color", "false", *args,
        ]  # fmt: skip
        return subprocess.run(
            self.command(argv, cwd=base),
            capture_output=True,
            text=True,
            timeout=300,
            cwd=base,
            env=env,
        )

    def command(self, argv: Sequence[str], cwd: str | os.PathLike[str] | None = None) -> list[str]:
        """``argv`` as this engine runs it (``puppet``, ``ruby`` and ``eyaml`` resolve inside
        its tree); ``cwd``: the directory it starts in (default: the current one)."""
        if self.root is None:
            return list(argv)
        shared = _shared_directories()
        start = os.path.abspath(cwd if cwd is not None else os.getcwd())
        return [
            "unshare", "--mount", "--propagation", "private", "--",
            "/bin/sh", "-c", _ENTER, "enter", str(self.root), start, str(len(shared)),
            *shared, *argv,
        ]  # fmt: skip

    def shown(self, argv: Sequence[str]) -> list[str]:
        """``argv`` as a person would type it to run it with this engine."""
        if self.root is None:
            return list(argv)
        return ["python", "-m", "tests.oracle.engines", self.name, *argv]

    def missing(self) -> str | None:
        """Why this engine cannot run here; None when it can."""
        if self.root is None:
            if shutil.which("puppet") is None or shutil.which("ruby") is None:
                return "`puppet` (Debian's puppet-agent) is not installed"
            return None
        if not (self.root / ".ready").is_file():
            return f"Puppet 8 is not installed in {self.root} (run .ci/puppet8-setup.sh)"
        if os.geteuid() != 0 or not _can_unshare():
            return "running Puppet 8 in its Debian tree needs root and `unshare --mount`"
        return None


@functools.cache
def _can_unshare() -> bool:
    """Whether this machine lets root make a private mount namespace (a container without
    CAP_SYS_ADMIN does not)."""
    if shutil.which("unshare") is None:
        return False
    probe = subprocess.run(["unshare", "--mount", "true"], capture_output=True, check=False)
    return probe.returncode == 0


def settings_flags(target: Target) -> list[str]:
    """The `puppet` command-line flags that give a Puppet the target's defaults (any engine
    can be run with any target's: Puppet 7.23 with Puppet 8's and the other way round)."""
    strict_variables = "--strict_variables" if target.strict_variables else "--no-strict_variables"
    return ["--strict", target.strict, strict_variables]


def node_facts(facts: dict[str, Any], target: Target) -> dict[str, Any]:
    """The facts a node of the target's Puppet sends: a fact set with Facter's legacy facts
    is sent without them from Puppet 8 on (``include_legacy_facts = false``, which acts in
    the agent's Facter, not in ``puppet lookup --facts``)."""
    if target.include_legacy_facts:
        return facts
    legacy = set(facter_legacy_facts(facts))
    return {k: v for k, v in facts.items() if k not in legacy}


def _shared_directories() -> list[str]:
    """What the tree must see at the same paths: devices, processes, temporary files and
    the repository (the oracle scripts, fixtures); a directory inside another one binds
    with it."""
    wanted = ["/dev", "/proc", "/tmp", tempfile.gettempdir(), str(REPO_ROOT)]
    extra = os.environ.get("HIERA_LS_ENGINE_MOUNTS", "")
    wanted += [d for d in extra.split(":") if d]
    out: list[str] = []
    for directory in sorted({os.path.realpath(d) for d in wanted if os.path.isdir(d)}):
        if not any(directory.startswith(parent.rstrip("/") + "/") for parent in out):
            out.append(directory)
    return out


PUPPET7 = PuppetEngine("puppet7", "Puppet 7.23 (Debian 12)", None, TARGETS["puppet7"])
PUPPET8 = PuppetEngine("puppet8", "Puppet 8.10 (Debian 13)", PUPPET8_ROOT, TARGETS["puppet8"])
ENGINES = {e.name: e for e in (PUPPET7, PUPPET8)}


def chosen_engines() -> list[PuppetEngine]:
    """The engines this run asks (``HIERA_LS_ENGINES``, default all), in a stable order."""
    given = os.environ.get("HIERA_LS_ENGINES", ",".join(ENGINES))
    names = [n.strip() for n in given.split(",") if n.strip()]
    unknown = [n for n in names if n not in ENGINES]
    if unknown:
        raise ValueError(f"HIERA_LS_ENGINES: unknown engine {unknown[0]!r}; known: {list(ENGINES)}")
    return [ENGINES[n] for n in ENGINES if n in names]


def main(argv: Sequence[str]) -> int:
    if len(argv) < 2 or argv[0] not in ENGINES:
        sys.stderr.write(f"usage: python -m tests.oracle.engines {'|'.join(ENGINES)} COMMAND...\n")
        return 2
    engine = ENGINES[argv[0]]
    why = engine.missing()
    if why:
        sys.stderr.write(f"{engine.name}: {why}\n")
        return 1
    return subprocess.call(engine.command(argv[1:]))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
