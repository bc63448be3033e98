"""Fixtures for installing hiera-ls as a user does: the built wheel and sdist, a new home.

Every test here is of the ``install`` kind (tests/conftest.py): each installs into a new
environment.
On CI, ``.ci/run`` builds the wheel and sdist once and names their directory in
``HIERA_LS_DIST``; elsewhere the first test that needs them builds them with ``build``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def dist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The directory holding the wheel and the sdist of this checkout."""
    given = os.environ.get("HIERA_LS_DIST")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("dist")
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return out


@pytest.fixture(scope="session")
def wheel(dist: Path) -> Path:
    (found,) = dist.glob("hiera_ls-*-py3-none-any.whl")
    return found


@pytest.fixture(scope="session")
def sdist(dist: Path) -> Path:
    (found,) = dist.glob("hiera_ls-*.tar.gz")
    return found


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


def user_env(home: Path, *tools: str) -> dict[str, str]:
    """A user's environment with ``home`` as HOME: ``~/.local/bin`` first on PATH, then the
    named tools (linked into a directory of their own, so this checkout's development
    ``hiera-ls`` is never on PATH), then the system's directories. A tool is the system's
    (Debian's pipx, as the README installs it), else this checkout's development one (uv),
    unless a path is given (``pipx=/some/bin/pipx``). Downloads are kept in this machine's
    caches, as a user's second install would."""
    tools_dir = home.parent / "tools"
    tools_dir.mkdir(exist_ok=True)
    system = os.pathsep.join(["/usr/local/bin", "/usr/bin", "/bin"])
    for tool in tools:
        tool, _, given = tool.partition("=")
        found = (
            given
            or shutil.which(tool, path=system)
            or shutil.which(tool, path=str(Path(sys.executable).parent))
        )
        if found is None:
            if os.environ.get("CI") == "true":
                pytest.fail(f"CI=true but `{tool}` is not installed", pytrace=False)
            pytest.skip(f"`{tool}` is not installed")
        link = tools_dir / tool
        if not link.exists():
            link.symlink_to(found)
    real_cache = Path(os.path.expanduser("~")) / ".cache"
    # the locale, and how this machine reaches the package registries (its certificates,
    # pip's settings): the machine's, not the user's
    keep = {
        k: v
        for k, v in os.environ.items()
        if k in ("LANG", "LC_ALL", "TERM", "TMPDIR")
        or k.startswith(("PIP_", "SSL_CERT_", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY"))
        or k.endswith("_CA_BUNDLE")
    }
    return {
        **keep,
        "HOME": str(home),
        "PATH": os.pathsep.join([str(home / ".local" / "bin"), str(tools_dir), "/usr/bin", "/bin"]),
        "PIP_CACHE_DIR": str(real_cache / "pip"),
        "UV_CACHE_DIR": str(real_cache / "uv"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }


def shell(command: str, cwd: Path, env: dict[str, str], timeout: float = 600) -> str:
    """Run one line as a user types it in bash; its output (stdout and stderr), or a failure
    that shows both."""
    done = subprocess.run(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert done.returncode == 0, (
        f"{command!r} exited {done.returncode}:\n{done.stdout}\n{done.stderr}"
    )
    return done.stdout + done.stderr


def clone_checkout(target: Path) -> Path:
    """``git clone`` of this repository (its committed state) into ``target``."""
    subprocess.run(
        ["git", "clone", "-q", "--no-hardlinks", str(ROOT), str(target)],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return target
