"""How client-vscode/scripts/bundle.py lays out the hiera-ls a platform build carries, on
small wheels made here (no package index): one ``libs`` folder for every Python version,
each compiled module beside the others, and an error rather than a mix of two releases."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

from tests.vscode.toolchain import CLIENT


def _load_bundle_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vscode_bundle", CLIENT / "scripts" / "bundle.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


bundle = _load_bundle_script()


def _wheel(path: Path, files: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return path


def test_wheels_for_several_pythons_share_one_folder(tmp_path: Path) -> None:
    tree = bundle.Tree(tmp_path / "libs")
    for tag in ("cp311", "cp314"):
        so = f"regex/_regex.cpython-{tag[2:]}-x86_64-linux-gnu.so"
        tree.add_wheel(
            _wheel(
                tmp_path / f"regex-2026.1.1-{tag}-{tag}-manylinux_2_28_x86_64.whl",
                {
                    "regex/__init__.py": b"from regex.regex import *\n",
                    so: tag.encode(),
                    "regex-2026.1.1.dist-info/WHEEL": f"Tag: {tag}\n".encode(),
                    "regex-2026.1.1.data/purelib/regex_extra.py": b"x = 1\n",
                    "regex-2026.1.1.data/scripts/regex-cli": b"#!/bin/sh\n",
                },
            )
        )
    libs = tmp_path / "libs"
    files = sorted(str(p.relative_to(libs)) for p in libs.rglob("*") if p.is_file())
    assert files == [
        "regex-2026.1.1.dist-info/WHEEL",
        "regex/__init__.py",
        "regex/_regex.cpython-311-x86_64-linux-gnu.so",
        "regex/_regex.cpython-314-x86_64-linux-gnu.so",
        "regex_extra.py",  # purelib goes to the top; scripts do not go at all
    ]


def test_two_releases_of_one_file_are_an_error(tmp_path: Path) -> None:
    tree = bundle.Tree(tmp_path / "libs")
    tree.add_wheel(_wheel(tmp_path / "a-1-py3-none-any.whl", {"a/__init__.py": b"one\n"}))
    with pytest.raises(bundle.BundleError, match=r"another a/__init__\.py"):
        tree.add_wheel(_wheel(tmp_path / "a-2-py3-none-any.whl", {"a/__init__.py": b"two\n"}))


def test_the_oldest_python_pins_the_others() -> None:
    wheels = [
        Path("hiera_ls-0.1.0-py3-none-any.whl"),
        Path("ruamel_yaml_clib-0.2.15-cp311-cp311-manylinux2014_x86_64.whl"),
        Path("PyYAML-6.0.2-cp311-cp311-manylinux_2_17_x86_64.whl"),
    ]
    assert bundle.pins_for(wheels, skip="hiera-ls") == "ruamel-yaml-clib==0.2.15\npyyaml==6.0.2\n"


def test_every_target_of_the_package_script_has_its_platform_tags() -> None:
    script = (CLIENT / "scripts" / "package.mjs").read_text(encoding="utf-8")
    listed = re.search(r"export const TARGETS = \[([^\]]*)\]", script)
    assert listed is not None
    assert re.findall(r"'([^']+)'", listed.group(1)) == list(bundle.TARGETS)
    linux = bundle.TARGETS["linux-x64"].platform_tags
    # VS Code's own floor is glibc 2.28; wheels for any glibc from 2.17 to it fit
    assert linux[0] == "manylinux_2_28_x86_64" and "manylinux2014_x86_64" in linux


@pytest.mark.parametrize("version", ["2.7", "3.10"])
def test_the_launcher_tells_a_python_too_old_why(version: str) -> None:
    python = next(
        iter(sorted((Path.home() / ".pyenv" / "versions").glob(f"{version}.*/bin/python"))), None
    )
    if python is None:
        pytest.skip(f"no Python {version} on this machine")
    run = subprocess.run(
        [str(python), str(CLIENT / "python" / "launch.py"), "serve"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert run.returncode == 2
    assert f"hiera-ls needs Python 3.11 or newer; {python} is Python {version}." in run.stderr
