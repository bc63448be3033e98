"""Lays out the hiera-ls a platform build of the VS Code extension carries (``bundled/``).

``bundled/libs`` holds hiera-ls and every dependency, installed from wheels for each
CPython the build supports (3.11 to 3.14) on one platform: the pure-Python files once, the
compiled modules of regex, PyYAML, ruamel.yaml.clib, cryptography and cffi once per Python
version (their file names carry the version, ``_regex.cpython-312-x86_64-linux-gnu.so``, so
they sit side by side and each interpreter loads its own). ``bundled/tool/launch.py`` starts
the server from there; ``bundled/manifest.json`` says which Pythons and platform the wheels
are for, so the extension checks an interpreter before it starts anything.

The wheels come from the package index with ``pip download --only-binary=:all:`` for the
target's platform tags (a pure-Python dependency published only as source is built into a
wheel here first); hiera-ls's own wheel from ``python -m build`` (or one given). The
oldest Python is resolved first and the others are held to the same versions, so one
directory serves them all; a file two wheels would write differently is an error.

Usage (scripts/package.mjs runs it):
    python3 scripts/bundle.py wheel --out DIR           # builds hiera-ls's wheel, prints its path
    python3 scripts/bundle.py bundle --target linux-x64 --wheel WHEEL --out bundled
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

CLIENT = Path(__file__).resolve().parents[1]
REPO = CLIENT.parent
LAUNCHER = CLIENT / "python" / "launch.py"
PYTHONS = ("3.11", "3.12", "3.13", "3.14")


def _manylinux(arch: str) -> tuple[str, ...]:
    # glibc 2.28 is what VS Code itself needs on Linux; pip does not widen a manylinux_2_X
    # tag to older glibcs, so every one down to manylinux2014 (2.17) is listed.
    return (
        *(f"manylinux_2_{minor}_{arch}" for minor in range(28, 16, -1)),
        f"manylinux2014_{arch}",
    )


@dataclass(frozen=True, slots=True)
class Target:
    """A vsce target: the wheels' platform tags, and how its Python names the platform."""

    name: str
    platform_tags: tuple[str, ...]
    sys_platform: str
    machines: tuple[str, ...]


TARGETS = {
    t.name: t
    for t in (
        Target("linux-x64", _manylinux("x86_64"), "linux", ("x86_64", "amd64")),
        Target("linux-arm64", _manylinux("aarch64"), "linux", ("aarch64", "arm64")),
        # pip widens a macOS tag to every older macOS and to universal2 by itself.
        Target("darwin-x64", ("macosx_10_15_x86_64",), "darwin", ("x86_64",)),
        Target("darwin-arm64", ("macosx_11_0_arm64",), "darwin", ("arm64",)),
        Target("win32-x64", ("win_amd64",), "win32", ("amd64", "x86_64")),
    )
}


class BundleError(Exception):
    """A bundle that cannot be made as asked; the message says why."""


def _run(cmd: Sequence[str], cwd: Path | None = None) -> str:
    run = subprocess.run(list(cmd), cwd=cwd, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise BundleError(f"{' '.join(cmd)} failed:\n{run.stdout}{run.stderr}")
    return run.stdout


def build_wheel(out: Path) -> Path:
    """hiera-ls's wheel from the repository, with ``build`` (or pip's PEP 517 build)."""
    out.mkdir(parents=True, exist_ok=True)
    before = set(out.glob("hiera_ls-*.whl"))
    if importlib.util.find_spec("build") is not None:
        _run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(REPO)])
    else:
        _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(REPO)])
    made = sorted(set(out.glob("hiera_ls-*.whl")) - before) or sorted(out.glob("hiera_ls-*.whl"))
    if not made:
        raise BundleError(f"no hiera_ls wheel was written to {out}")
    return made[-1]


def wheel_name_version(path: Path) -> tuple[str, str]:
    """(normalized name, version) from a wheel's file name (PEP 427)."""
    name, version = path.name.split("-")[:2]
    return re.sub(r"[-_.]+", "-", name).lower(), version


def pure_wheels(wheel: Path, dest: Path) -> Path:
    """Wheels built here for the dependencies published only as source (pyhocon's newest
    releases are), kept where they are pure Python: ``--only-binary`` would otherwise fall
    back to an older release, or find none within the range hiera-ls asks for."""
    _run([
        sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check",
        "--wheel-dir", str(dest), str(wheel),
    ])  # fmt: skip
    for built in dest.glob("*.whl"):
        if not built.name.endswith("-none-any.whl") or built.name.startswith("hiera_ls-"):
            built.unlink()
    return dest


def download(
    target: Target, python: str, wheel: Path, dest: Path, pins: Path | None, pure: Path
) -> list[Path]:
    """Every wheel hiera-ls needs on ``python`` for ``target``, hiera-ls's own included."""
    abi = "cp" + python.replace(".", "")
    cmd = [
        sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check",
        "--only-binary=:all:", "--implementation", "cp", "--python-version", python,
        "--abi", abi, "--dest", str(dest), "--find-links", str(pure),
    ]  # fmt: skip
    for tag in target.platform_tags:
        cmd += ["--platform", tag]
    if pins is not None:
        cmd += ["--constraint", str(pins)]
    _run([*cmd, str(wheel)])
    return sorted(dest.glob("*.whl"))


class Tree:
    """``libs``, filled from wheels: each path written once, or again with the same bytes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.digests: dict[str, str] = {}

    def add_wheel(self, wheel: Path) -> None:
        with zipfile.ZipFile(wheel) as archive:
            for info in archive.infolist():
                if info.is_dir():
                    continue
                relative = _install_path(info.filename)
                if relative is None:
                    continue
                data = archive.read(info)
                digest = hashlib.sha256(data).hexdigest()
                known = self.digests.get(relative)
                if known is None:
                    target = self.root / relative
                    target.parent.mkdir(parents=True, exist_ok=True)
                    target.write_bytes(data)
                    self.digests[relative] = digest
                elif known != digest and ".dist-info/" not in relative:
                    # (a dist-info's WHEEL and RECORD name each wheel's own tags: harmless)
                    raise BundleError(
                        f"{wheel.name} holds another {relative} than a wheel unpacked before: "
                        "the Python versions resolved different releases"
                    )


def _install_path(name: str) -> str | None:
    """Where a wheel member goes under ``libs`` (PEP 427), or None for what a library needs
    not: scripts, headers and data files."""
    parts = name.split("/")
    if parts[0].endswith(".data"):
        if len(parts) > 2 and parts[1] in ("purelib", "platlib"):
            return "/".join(parts[2:])
        return None
    return name


def pins_for(wheels: Iterable[Path], skip: str) -> str:
    return "".join(
        f"{name}=={version}\n" for name, version in map(wheel_name_version, wheels) if name != skip
    )


def make_bundle(
    target: Target, wheel: Path, out: Path, pythons: Sequence[str] = PYTHONS
) -> dict[str, object]:
    """Writes ``out`` (emptied first) for ``target``; returns the manifest written."""
    if out.exists():
        shutil.rmtree(out)
    libs = out / "libs"
    libs.mkdir(parents=True)
    tree = Tree(libs)
    packages: dict[str, str] = {}
    with tempfile.TemporaryDirectory(prefix="hiera-ls-wheels-") as scratch:
        # The oldest Python decides the versions; the others must take the same (and are
        # downloaded side by side: it is the package index's time, not this machine's).
        pure = pure_wheels(wheel, Path(scratch) / "pure")
        first = download(target, pythons[0], wheel, Path(scratch) / pythons[0], None, pure)
        pins = Path(scratch) / "pins.txt"
        pins.write_text(pins_for(first, skip="hiera-ls"), encoding="utf-8")
        with ThreadPoolExecutor(max_workers=len(pythons)) as pool:
            rest = pool.map(
                lambda python: download(target, python, wheel, Path(scratch) / python, pins, pure),
                pythons[1:],
            )
            per_python = [first, *rest]
        for python, wheels in zip(pythons, per_python, strict=True):
            for w in wheels:
                name, version = wheel_name_version(w)
                if packages.setdefault(name, version) != version:
                    raise BundleError(
                        f"{name}: {packages[name]} for one Python, {version} for {python}"
                    )
                tree.add_wheel(w)
    tool = out / "tool"
    tool.mkdir()
    shutil.copy2(LAUNCHER, tool / LAUNCHER.name)
    manifest: dict[str, object] = {
        "target": target.name,
        "version": packages["hiera-ls"],
        "pythons": list(pythons),
        "platform": target.sys_platform,
        "machines": list(target.machines),
        "packages": dict(sorted(packages.items())),
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("wheel", help="build hiera-ls's wheel; prints its path")
    w.add_argument("--out", type=Path, required=True)
    b = sub.add_parser("bundle", help="lay out bundled/ for one target")
    b.add_argument("--target", required=True, choices=sorted(TARGETS))
    b.add_argument("--wheel", type=Path, required=True)
    b.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        if args.command == "wheel":
            print(build_wheel(args.out))
            return 0
        manifest = make_bundle(TARGETS[args.target], args.wheel, args.out)
    except BundleError as e:
        print(f"bundle.py: {e}", file=sys.stderr)
        return 1
    packages = manifest["packages"]
    assert isinstance(packages, dict)
    listed = ", ".join(f"{k} {v}" for k, v in packages.items())
    print(f"{args.out}: hiera-ls {manifest['version']} for {args.target}, CPython "
          f"{PYTHONS[0]}-{PYTHONS[-1]}: {listed}")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
