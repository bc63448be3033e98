"""The platform build of the extension in a real VS Code (code-server in headless Chromium),
on a machine where hiera-ls is not installed: ``npm run package -- --target linux-x64``'s
.vsix is the only thing installed, with no settings, and code-server runs with a PATH that
holds no ``hiera-ls`` and no Python that can import ``hiera_ls``.

Three sessions on a copy of the shipped example (examples/control-repo, one node file
broken on purpose) whose ``.vscode/settings.json`` names a program of the repository as
``hiera.server.path`` and ``hiera.interpreter``, a script that only leaves a mark:

- trusted: the server starts by itself (the carried hiera-ls, run by ``python3`` on PATH),
  diagnostics and the merged value on hover arrive, the repository's program never runs;
  set in the machine's settings instead, the same program does run (the mark appears);
- Restricted Mode (workspace trust on, the folder not trusted), with a stand-in for the
  Python extension whose interpreter is that program: the extension works all the same and
  runs neither;
- trusted, with the stand-in naming another real CPython: the carried hiera-ls runs with
  the Python extension's interpreter.

Screenshots, reports and the Hiera output channel are kept in
tests/vscode/results-bundled-*/ (or under $HIERA_LS_VSCODE_RESULTS).
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import stat
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.vscode.test_vscode_e2e import workbench  # the same cached toolchain
from tests.vscode.toolchain import (
    CLIENT,
    QUIET_SETTINGS,
    Workbench,
    code_server,
    results_dir,
    run_driver,
    skip_or_fail,
)

__all__ = ["workbench"]  # a fixture used by name

FIXTURE = Path(__file__).resolve().parents[2] / "examples" / "control-repo"
DRIVER = Path(__file__).with_name("drive_bundled.mjs")
FAKE_PYTHON_EXTENSION = Path(__file__).with_name("fake_python_extension")
HOST_TARGET = {("Linux", "x86_64"): "linux-x64", ("Linux", "aarch64"): "linux-arm64"}.get(
    (platform.system(), platform.machine())
)

BROKEN_FILE = "data/nodes/app01.example.com.yaml"  # no facts profile reads it
BROKEN_LINE = "profile::app::since: 2021-01-01"  # an unquoted date: Puppet rejects the file
BROKEN_CODE = "yaml-date-rejected"
HOVER_FILE = "data/common.yaml"
HOVER_KEY = "profile::base::packages"  # defined on four levels, merge unique
REPO_PROGRAM = "tools/hiera-ls"  # what the repository's own settings name


def _run_quiet(cmd: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)


def _imports_hiera_ls(python: Path) -> bool:
    return python.is_file() and _run_quiet([str(python), "-c", "import hiera_ls"]).returncode == 0


def path_without_hiera_ls(workbench: Workbench) -> str:
    """PATH less every folder that holds hiera-ls or a Python that imports it (this test
    run's own virtual environment): Node 24 for code-server, then the system's tools."""
    keep = [str(workbench.node.parent)]
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        here = Path(folder)
        if not here.is_absolute() or str(here) in keep:
            continue
        if (here / "hiera-ls").exists() or any(
            _imports_hiera_ls(here / n) for n in ("python3", "python")
        ):
            continue
        keep.append(str(here))
    return os.pathsep.join(keep)


@pytest.fixture(scope="module")
def bare_path(workbench: Workbench) -> str:
    path = path_without_hiera_ls(workbench)
    assert shutil.which("hiera-ls", path=path) is None
    python3 = shutil.which("python3", path=path)
    if python3 is None:
        skip_or_fail("no python3 outside this environment to run the carried hiera-ls")
    assert python3 is not None and not _imports_hiera_ls(Path(python3)), python3
    return path


TARGETS = ("linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64")
# How each platform's Python names a compiled module for CPython 3.XY.
MODULE_SUFFIX = {
    "linux-x64": ".cpython-3{minor}-x86_64-linux-gnu.so",
    "linux-arm64": ".cpython-3{minor}-aarch64-linux-gnu.so",
    "darwin-x64": ".cpython-3{minor}-darwin.so",
    "darwin-arm64": ".cpython-3{minor}-darwin.so",
    "win32-x64": ".cp3{minor}-win_amd64.pyd",
}


@pytest.fixture(scope="module")
def platform_builds(workbench: Workbench) -> dict[str, Path]:
    """``npm run package -- --target all``: every platform's .vsix, each with hiera-ls built
    from these sources and its dependencies' wheels from the package index."""
    npm = shutil.which("npm", path=workbench.env()["PATH"])
    assert npm is not None
    run = subprocess.run(
        [npm, "run", "package", "--", "--target", "all"],
        cwd=CLIENT, env=workbench.env(HIERA_LS_PYTHON=sys.executable),
        capture_output=True, text=True, timeout=1800, check=False,
    )  # fmt: skip
    output = run.stdout + run.stderr
    assert run.returncode == 0, output
    assert "WARNING" not in output, output  # vsce's warnings: license, repository, ...
    builds = {target: CLIENT / f"hiera-ls-{target}.vsix" for target in TARGETS}
    assert all(vsix.is_file() for vsix in builds.values()), output
    return builds


@pytest.fixture(scope="module")
def platform_vsix(platform_builds: dict[str, Path]) -> Path:
    """The build for this machine."""
    if HOST_TARGET is None:
        pytest.skip(f"no platform build is made for {platform.system()} {platform.machine()}")
    return platform_builds[HOST_TARGET]


@pytest.fixture(scope="module")
def python_extension_vsix(workbench: Workbench, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The stand-in for ms-python.python, packaged."""
    source = tmp_path_factory.mktemp("fake-python") / "ext"
    shutil.copytree(FAKE_PYTHON_EXTENSION, source)
    out = source.parent / "ms-python.python.vsix"
    run = subprocess.run(
        [str(CLIENT / "node_modules" / ".bin" / "vsce"), "package", "--skip-license",
         "--allow-missing-repository", "--out", str(out)],
        cwd=source, env=workbench.env(), capture_output=True, text=True, timeout=300,
        check=False,
    )  # fmt: skip
    assert run.returncode == 0 and out.is_file(), run.stdout + run.stderr
    return out


def _workspace(tmp: Path) -> tuple[Path, Path]:
    """A copy of the shipped example, one node file broken, and the repository's own
    settings naming its marking script: (workspace, the mark's path)."""
    workspace = tmp / "control-repo"
    shutil.copytree(FIXTURE, workspace)
    (workspace / BROKEN_FILE).write_text(
        f"---\nprofile::app::port: 8080\n{BROKEN_LINE}\n", encoding="utf-8"
    )
    mark = tmp / "repository-program-ran"
    program = workspace / REPO_PROGRAM
    program.parent.mkdir()
    program.write_text(f'#!/bin/sh\necho "$0 $*" >> "{mark}"\nexit 1\n', encoding="utf-8")
    program.chmod(program.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    shutil.copy2(program, workspace / "tools" / "python3")
    (workspace / ".vscode").mkdir()
    (workspace / ".vscode" / "settings.json").write_text(
        json.dumps(
            {
                "hiera.server.path": "${workspaceFolder}/" + REPO_PROGRAM,
                "hiera.interpreter": "${workspaceFolder}/tools/python3",
                "hiera.importStrategy": "fromEnvironment",
            },
            indent=2,
        ),
        encoding="utf-8",
    )
    return workspace, mark


def _session(
    workbench: Workbench,
    vsix: Path,
    tmp: Path,
    name: str,
    bare_path: str,
    *,
    trust: bool,
    python_extension: tuple[Path, str] | None = None,
    control: bool = False,
    expect_toast: str | None = None,
) -> dict[str, Any]:
    """One code-server session driven by drive_bundled.mjs: its report, with the mark's
    path and the Hiera output channel's text."""
    workspace, mark = _workspace(tmp)
    settings: dict[str, Any] = {
        **QUIET_SETTINGS,
        "editor.hover.delay": 300,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
    }
    if trust:
        # Trust on; the folder is new, so it opens in Restricted Mode, without asking.
        settings["security.workspace.trust.enabled"] = True
        settings["security.workspace.trust.startupPrompt"] = "never"
    env: dict[str, str | None] = {
        # VS Code's server would lay the login shell's environment (its PATH) over this one;
        # VSCODE_CLI=1 is what makes it skip that, so the PATH below is the one it sees.
        "VSCODE_CLI": "1",
        "PATH": bare_path,
        "PYTHONPATH": None,
        "VIRTUAL_ENV": None,
        "PYTHONHOME": None,
    }
    extra: list[Path] = []
    if python_extension is not None:
        extra.append(python_extension[0])
        env["HIERA_LS_TEST_PYTHON_INTERPRETER"] = python_extension[1]
    results = results_dir(f"bundled-{name}")
    with code_server(
        workbench, vsix, tmp, workspace, settings, {},
        also_install=extra, env=env, workspace_trust=trust,
    ) as url:  # fmt: skip
        config = {
            "url": url,
            "results": str(results),
            "playwright": str(workbench.playwright),
            "chromium": str(workbench.chromium),
            "machineSettings": str(tmp / "user-data" / "Machine" / "settings.json"),
            "markerPath": str(mark),
            "steps": {
                "brokenFile": BROKEN_FILE,
                "brokenCode": BROKEN_CODE,
                "hoverFile": HOVER_FILE,
                "hoverKey": HOVER_KEY,
                "hoverMustContain": "curl",
            },
        }
        if control:
            config["controlPath"] = str(workspace / REPO_PROGRAM)
        if expect_toast is not None:
            config["expectToast"] = expect_toast
        report = run_driver(workbench, DRIVER, config, results)
    logs = sorted((tmp / "user-data").glob("logs/**/*Hiera*.log"))
    for log in logs:
        shutil.copy(log, results / f"output-{log.name}")
    report["log"] = "\n".join(log.read_text(encoding="utf-8") for log in logs)
    report["mark"] = mark
    report["workspace"] = workspace
    return report


@pytest.fixture(scope="module")
def trusted(
    workbench: Workbench,
    platform_vsix: Path,
    bare_path: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("bundled-trusted")
    return _session(workbench, platform_vsix, tmp, "trusted", bare_path, trust=False, control=True)


@pytest.fixture(scope="module")
def restricted(
    workbench: Workbench,
    platform_vsix: Path,
    python_extension_vsix: Path,
    bare_path: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, Any]:
    tmp = tmp_path_factory.mktemp("bundled-restricted")
    # The Python extension's interpreter is the repository's program, as a committed
    # `.venv` would make it.
    interpreter = str(tmp / "control-repo" / "tools" / "python3")
    return _session(
        workbench, platform_vsix, tmp, "restricted", bare_path, trust=True,
        python_extension=(python_extension_vsix, interpreter),
    )  # fmt: skip


def _another_cpython(bare_path: str) -> Path | None:
    """A CPython 3.11+ that is not the python3 on the bare PATH and has no hiera_ls."""
    first = os.path.realpath(shutil.which("python3", path=bare_path) or "")
    candidates = [
        *sorted((Path.home() / ".pyenv" / "versions").glob("3.1[1-4].*/bin/python3"), reverse=True),
        *(Path(root) / f"python3.{minor}" for root in ("/usr/bin", "/usr/local/bin")
          for minor in (14, 13, 12, 11)),
    ]  # fmt: skip
    for python in candidates:
        if python.is_file() and os.path.realpath(python) != first and not _imports_hiera_ls(python):
            return python
    return None


@pytest.fixture(scope="module")
def with_python_extension(
    workbench: Workbench,
    platform_vsix: Path,
    python_extension_vsix: Path,
    bare_path: str,
    tmp_path_factory: pytest.TempPathFactory,
) -> dict[str, Any]:
    python = _another_cpython(bare_path)
    if python is None:
        pytest.skip("no second CPython 3.11+ on this machine to select in the Python extension")
    tmp = tmp_path_factory.mktemp("bundled-python-extension")
    report = _session(
        workbench, platform_vsix, tmp, "python-extension", bare_path, trust=False,
        python_extension=(python_extension_vsix, str(python)),
    )  # fmt: skip
    report["python"] = python
    return report


def _local_cpythons() -> list[Path]:
    """Every CPython 3.11-3.14 of this machine that the tests can find (pyenv's, Debian's)."""
    found: dict[str, Path] = {}
    candidates = [
        *sorted((Path.home() / ".pyenv" / "versions").glob("3.1[1-4].*/bin/python3")),
        *(Path("/usr/bin") / f"python3.{minor}" for minor in (11, 12, 13, 14)),
    ]
    for python in candidates:
        if python.is_file():
            found.setdefault(os.path.realpath(python), python)
    return list(found.values())


@pytest.mark.parametrize("target", TARGETS)
def test_each_platform_build_carries_compiled_modules_for_each_python(
    platform_builds: dict[str, Path], target: str
) -> None:
    with zipfile.ZipFile(platform_builds[target]) as vsix:
        names = set(vsix.namelist())
        manifest = json.loads(vsix.read("extension/bundled/manifest.json"))
        package = vsix.read("extension.vsixmanifest").decode("utf-8")
    assert f'TargetPlatform="{target}"' in package
    assert manifest["target"] == target
    assert manifest["pythons"] == ["3.11", "3.12", "3.13", "3.14"]
    libs = "extension/bundled/libs/"
    for minor in ("11", "12", "13", "14"):
        suffix = MODULE_SUFFIX[target].format(minor=minor)
        for module in ("regex/_regex", "yaml/_yaml", "_ruamel_yaml", "_cffi_backend"):
            assert f"{libs}{module}{suffix}" in names, f"{module}{suffix}"
    assert any(n.startswith(f"{libs}cryptography/hazmat/bindings/_rust.") for n in names)
    assert (
        f"{libs}hiera_ls/cli/__init__.py" in names and "extension/bundled/tool/launch.py" in names
    )
    assert {"extension/LICENSE.txt", "extension/images/icon.png"} <= names


def test_the_universal_build_carries_no_server(platform_builds: dict[str, Path]) -> None:
    with zipfile.ZipFile(CLIENT / "hiera-ls.vsix") as vsix:
        names = vsix.namelist()
        package = vsix.read("extension.vsixmanifest").decode("utf-8")
    assert "TargetPlatform" not in package
    assert not any("/bundled/" in n for n in names), names


def test_the_carried_server_checks_the_example_on_each_cpython_here(
    platform_vsix: Path, tmp_path: Path
) -> None:
    with zipfile.ZipFile(platform_vsix) as vsix:
        vsix.extractall(tmp_path, [n for n in vsix.namelist() if n.startswith("extension/")])
    launcher = tmp_path / "extension" / "bundled" / "tool" / "launch.py"
    pythons = _local_cpythons()
    assert pythons, "no CPython 3.11+ found"
    for python in pythons:
        run = subprocess.run(
            [str(python), "-I", str(launcher), "check", str(FIXTURE)],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert run.returncode == 0 and "All checks passed" in run.stdout, (python, run)


def _step(report: dict[str, Any], name: str) -> dict[str, Any]:
    step: dict[str, Any] | None = report["steps"].get(name)
    assert step is not None, f"step {name} did not run (an earlier step failed): {report['steps']}"
    assert step["ok"], (
        f"step {name} failed: {step.get('error')} (screenshot: {step.get('failureShot')})"
    )
    return step


def _works(report: dict[str, Any]) -> None:
    """Diagnostics in the Problems panel and as a squiggle, and the hover's answer: with no
    facts profile set, every definition in the order Puppet searches them, and the class
    parameter the key sets (read from the example's Puppet code)."""
    _step(report, "workbench")
    diagnostics = _step(report, "diagnostics")
    assert diagnostics["squiggles"] >= 1
    ours = [p for p in diagnostics["problems"] if BROKEN_CODE in p]
    assert len(ours) == 1 and "hiera-ls" in ours[0], diagnostics["problems"]
    hover = _step(report, "hover")["text"]
    assert "Hiera: no facts profile" in _step(report, "workbench")["status"]
    for part in (
        "No facts profile selected: every definition",
        "Class parameter $packages of profile::base",
        '{"merge"=>"unique"}',
        'data/roles/web.yaml:4: ["nginx"]',
        'data/common.yaml:22: ["vim", "curl"]',
    ):
        assert part in hover, hover


def _started_bundled(report: dict[str, Any]) -> str:
    """The output channel's start lines: the carried launcher, run in isolated mode (then,
    in the session that names it in the machine's settings, the repository's program)."""
    lines = [line for line in report["log"].splitlines() if "Starting the server (" in line]
    assert lines, report["log"]
    control = f"Starting the server (setting): {report['workspace'] / REPO_PROGRAM} serve"
    assert all("Starting the server (bundled): " in line or control in line for line in lines)
    assert "-I " in lines[0] and "/bundled/tool/launch.py serve" in lines[0], lines[0]
    return report["log"]


def test_the_platform_build_works_with_nothing_installed(trusted: dict[str, Any]) -> None:
    _works(trusted)
    assert "Restricted Mode" not in _step(trusted, "workbench")["status"]
    log = _started_bundled(trusted)
    assert "carried by the extension, run by Python 3." in log and "(python3 on PATH)" in log, log


def test_a_repository_cannot_choose_the_program_vscode_runs(trusted: dict[str, Any]) -> None:
    _works(trusted)
    control = _step(trusted, "control")
    assert control["before"] is False, "the repository's hiera.server.path or interpreter ran"
    # The same program named in the machine's settings (where a user names it) does run:
    # the mark's absence above is the settings' doing, not the script's.
    assert control["ran"] and trusted["mark"].exists()


def test_restricted_mode_runs_the_carried_server_and_nothing_of_the_workspace(
    restricted: dict[str, Any],
) -> None:
    _works(restricted)
    assert _step(restricted, "workbench")["restricted"] >= 1, "the folder is not in Restricted Mode"
    log = _started_bundled(restricted)
    assert "python3 on PATH" in log, log
    assert not restricted["mark"].exists(), restricted["mark"].read_text(encoding="utf-8")


def test_the_python_extensions_interpreter_runs_the_carried_server(
    with_python_extension: dict[str, Any],
) -> None:
    _works(with_python_extension)
    log = _started_bundled(with_python_extension)
    python = with_python_extension["python"]
    assert f"Starting the server (bundled): {python} -I " in log, log
    assert "(the Python extension's interpreter)" in log, log


def test_with_no_python_that_fits_one_message_says_what_was_found_and_what_to_do(
    workbench: Workbench, platform_vsix: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    old = next(iter(sorted((Path.home() / ".pyenv" / "versions").glob("3.10.*/bin/python3"))), None)
    if old is None:
        pytest.skip("no Python 3.10 on this machine to stand for one too old")
    tmp = tmp_path_factory.mktemp("bundled-no-python")
    bin_dir = tmp / "bin"
    bin_dir.mkdir()
    (bin_dir / "python3").symlink_to(old)
    report = _session(
        workbench, platform_vsix, tmp, "no-python",
        os.pathsep.join([str(workbench.node.parent), str(bin_dir)]), trust=False,
        expect_toast="No Python here can run",
    )  # fmt: skip
    step = _step(report, "cannotStart")
    version = old.parent.parent.name
    assert (
        "No Python here can run the hiera-ls this extension carries (it needs CPython "
        f"3.11\u20133.14 for {HOST_TARGET}). {bin_dir / 'python3'} (python3 on PATH): it is Python "
        f"{version}, too old. Install Python 3.11 or newer"
    ) in step["text"], step["text"]
    assert "hiera.interpreter" in step["text"] and "Hiera: Restart Server" in step["text"]
    assert step["toasts"] == 1, step
    assert "Hiera" in step["status"] and "Hiera: " not in step["status"], step["status"]
