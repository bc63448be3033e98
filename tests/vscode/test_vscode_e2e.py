"""The packaged extension in a real VS Code: code-server's workbench in headless Chromium.

One session, in the order a user meets things: the workbench opens a copy of the fixture
control repository (one node data file added, deliberately broken; one alias added) with the .vsix
installed and ``hiera.server.path`` pointing at this environment's ``hiera-ls``; then
diagnostics (Problems panel and squiggle), a mouse hover showing a merged value, F12 on an
alias argument, Explain Lookup, another facts profile chosen from the status bar (the
hover changes), Hiera: Restart Server (the choice survives), and finally a server path that
does not exist (one notification that says where to get the server, whose button opens the
install instructions).

tests/vscode/drive_workbench.mjs drives the browser and reports what the screen showed;
the assertions are here. Screenshots of every step, the report and the extension's log are
kept in tests/vscode/results/ (or $HIERA_LS_VSCODE_RESULTS); the README's picture
docs/images/vscode-hover-diagnostics.png is results/readme-hover-and-diagnostics.png of a
run with HIERA_LS_VSCODE_WORKSPACE_ROOT=/srv (toolchain.workspace_dir).
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.vscode.toolchain import (
    CLIENT,
    REPO,
    Workbench,
    code_server,
    find_workbench,
    skip_or_fail,
    workspace_dir,
)

FIXTURE = REPO / "examples" / "control-repo"
DRIVER = Path(__file__).with_name("drive_workbench.mjs")
DRIVER_LIMIT_S = 900.0

# What the session does, and what the fixture makes true (examples/control-repo).
# A node's data file that neither facts profile reads: Puppet rejects the whole file for
# its node, and only for it, so the hovers below stay answerable.
BROKEN_FILE = "data/nodes/app01.example.com.yaml"
BROKEN_LINE_TEXT = "profile::app::since: 2021-01-01"
BROKEN_CODE = "yaml-date-rejected"
HOVER_FILE = "data/common.yaml"
HOVER_KEY = "profile::base::packages"  # lookup_options: merge unique
SPREAD_HEADING = "Across "  # the hover's every-profile section (features/spread.py)
ALIAS_FILE = "data/nodes/web01.example.com.yaml"
ALIAS_LINE_TEXT = "profile::web::contact: \"%{alias('profile::base::admin_email')}\""
ALIAS_TARGET = "profile::base::admin_email"  # defined once, in data/common.yaml
PROFILE_BEFORE = "web01.example.com"  # Debian, role web
PROFILE_AFTER = "db01.example.com"  # RedHat, role db


def _line_of(path: Path, text: str) -> int:
    """1-based line of the first line that starts with ``text``."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.startswith(text):
            return number
    raise AssertionError(f"{text!r} is not in {path}")


def _results_dir() -> Path:
    override = os.environ.get("HIERA_LS_VSCODE_RESULTS")
    results = Path(override) if override else Path(__file__).with_name("results")
    if results.exists():
        shutil.rmtree(results)
    results.mkdir(parents=True)
    return results


@pytest.fixture(scope="module")
def workbench() -> Workbench:
    wb = find_workbench()
    if wb is None:
        skip_or_fail(
            "the VS Code test toolchain (code-server, Node 24, playwright-core, chromium) is not "
            "cached"
        )
    assert wb is not None
    if not (CLIENT / "node_modules" / ".bin" / "vsce").exists():
        skip_or_fail("client-vscode/node_modules is missing")
    return wb


@pytest.fixture(scope="module")
def server_path() -> Path:
    """The server the extension starts: the ``hiera-ls`` of the environment running the tests."""
    path = Path(sys.executable).with_name("hiera-ls")
    assert path.exists(), (
        f"{path} is missing: install the server (pip install -e .) in this environment"
    )
    return path


@pytest.fixture(scope="module")
def vsix(workbench: Workbench) -> Path:
    """`npm run package`: the .vsix a user installs, built from the current sources."""
    npm = shutil.which("npm")
    assert npm is not None
    run = subprocess.run(
        [npm, "run", "package"],
        cwd=CLIENT,
        env=workbench.env(),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    out = CLIENT / "hiera-ls.vsix"
    assert out.is_file()
    return out


@pytest.fixture(scope="module")
def session(
    workbench: Workbench, vsix: Path, server_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    """code-server on loopback with the extension installed; stopped by the pid started here."""
    tmp = tmp_path_factory.mktemp("vscode")
    workspace = workspace_dir(tmp)
    shutil.copytree(FIXTURE, workspace)
    (workspace / BROKEN_FILE).write_text(
        f"---\nprofile::app::port: 8080\n{BROKEN_LINE_TEXT}\n", encoding="utf-8"
    )
    with (workspace / ALIAS_FILE).open("a", encoding="utf-8") as fh:
        fh.write(ALIAS_LINE_TEXT + "\n")

    user_settings = {
        "security.workspace.trust.enabled": False,
        "hiera.factsProfile": PROFILE_BEFORE,
        "hiera.trace.server": "messages",
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "chat.disableAIFeatures": True,
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
        "update.mode": "none",
        "telemetry.telemetryLevel": "off",
        "editor.hover.delay": 300,
        "editor.minimap.enabled": False,
        "workbench.reduceMotion": "on",  # screenshots without half-faded widgets
    }
    machine = {"hiera.server.path": str(server_path)}
    with code_server(workbench, vsix, tmp, workspace, user_settings, machine) as url:
        yield {
            "url": url,
            "workspace": workspace,
            "user_data": tmp / "user-data",
            "machine_settings": tmp / "user-data" / "Machine" / "settings.json",
            "tmp": tmp,
        }


@pytest.fixture(scope="module")
def report(workbench: Workbench, session: dict[str, Any]) -> dict[str, Any]:
    """Run the browser session once; every test below reads one step of its report."""
    workspace: Path = session["workspace"]
    results = _results_dir()
    alias_line = _line_of(workspace / ALIAS_FILE, ALIAS_LINE_TEXT)
    alias_column = ALIAS_LINE_TEXT.index(ALIAS_TARGET + "'") + 1 + 4  # 1-based, inside the argument
    config = {
        "url": session["url"],
        "workspace": str(workspace),
        "results": str(results),
        "playwright": str(workbench.playwright),
        "chromium": str(workbench.chromium),
        "machineSettings": str(session["machine_settings"]),
        "badServerPath": str(session["tmp"] / "no-such-venv" / "bin" / "hiera-ls"),
        "steps": {
            "profileBefore": PROFILE_BEFORE,
            "profileAfter": PROFILE_AFTER,
            "brokenFile": BROKEN_FILE,
            "brokenLine": _line_of(workspace / BROKEN_FILE, BROKEN_LINE_TEXT),
            "brokenCode": BROKEN_CODE,
            "hoverFile": HOVER_FILE,
            "hoverKey": HOVER_KEY,
            "hoverKeyLine": _line_of(workspace / HOVER_FILE, HOVER_KEY + ":"),
            "hoverMustContain": "apt-transport-https",
            "hoverAfterMustContain": "yum-utils",
            "aliasFile": ALIAS_FILE,
            "aliasLine": alias_line,
            "aliasColumn": alias_column,
            "definitionTab": "common.yaml",
            "definitionLine": _line_of(workspace / "data" / "common.yaml", ALIAS_TARGET + ":"),
        },
    }
    config_path = results / "config.json"
    config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    run = subprocess.run(
        [str(workbench.node), str(DRIVER), str(config_path)],
        env=workbench.env(), capture_output=True, text=True, timeout=DRIVER_LIMIT_S, check=False,
    )  # fmt: skip
    (results / "driver.log").write_text(run.stdout + run.stderr, encoding="utf-8")
    for name in ("code-server.log",):
        if (session["tmp"] / name).exists():
            shutil.copy(session["tmp"] / name, results / name)
    # The "Hiera" output channel (server log and protocol trace), as VS Code wrote it.
    for channel in session["user_data"].glob("logs/**/*Hiera*.log"):
        shutil.copy(channel, results / f"output-{channel.name}")
    assert run.returncode == 0, run.stdout + run.stderr
    data: dict[str, Any] = json.loads((results / "report.json").read_text(encoding="utf-8"))
    data["results"] = results
    return data


def _step(report: dict[str, Any], name: str) -> dict[str, Any]:
    step: dict[str, Any] | None = report["steps"].get(name)
    assert step is not None, f"step {name} did not run (an earlier step failed): {report['steps']}"
    assert step["ok"], (
        f"step {name} failed: {step.get('error')} (screenshot: {step.get('failureShot')})"
    )
    return step


def test_workbench_starts_the_server_with_the_profile_from_the_settings(
    report: dict[str, Any],
) -> None:
    step = _step(report, "workbench")
    assert f"Hiera: {PROFILE_BEFORE}" in step["status"]


def test_diagnostics_appear_in_the_problems_panel_and_as_squiggles(report: dict[str, Any]) -> None:
    step = _step(report, "diagnostics")
    assert step["squiggles"] >= 1
    ours = [p for p in step["problems"] if BROKEN_CODE in p]
    assert ours, step["problems"]
    assert all("hiera-ls" in p for p in ours), ours
    # The only problem in the broken file is ours, once: nothing doubled.
    assert len(ours) == 1, step["problems"]


def _active(hover: str) -> str:
    """The hover's value for the active profile: what comes before every profile's spread."""
    return hover.split(SPREAD_HEADING, 1)[0]


def test_hover_shows_the_merged_value(report: dict[str, Any]) -> None:
    text = _step(report, "hoverBefore")["text"]
    # lookup_options merge unique: role web, then os Debian, then common.
    for part in ("nginx", "apt-transport-https", "vim", "curl"):
        assert part in _active(text), text
    assert "postgresql" not in _active(text) and "yum-utils" not in _active(text), text
    # below it, what every facts profile gets (issue 14's spread), in the real VS Code
    assert f"{SPREAD_HEADING}3 facts profiles" in text and "postgresql" in text, text


def test_f12_on_an_alias_argument_opens_the_defining_file_at_its_line(
    report: dict[str, Any],
) -> None:
    step = _step(report, "definition")
    assert "".join(step["tab"].split()).startswith("common.yaml"), step
    assert "data" in step["breadcrumbs"] and "common.yaml" in step["breadcrumbs"], step
    line = _line_of(FIXTURE / "data" / "common.yaml", ALIAS_TARGET + ":")
    assert f"Ln {line}," in step["status"], step
    assert step["peek"] == 0, "one definition: F12 jumps, no peek view"


def test_explain_lookup_opens_a_read_only_tab(report: dict[str, Any]) -> None:
    step = _step(report, "explain")
    tab = "".join(step["tab"].split())  # the tab's label is split into spans at the last dot
    assert HOVER_KEY in tab and PROFILE_BEFORE in tab, step["tab"]
    assert step["text"].replace("\xa0", " ").startswith('Searching for "lookup_options"'), step[
        "text"
    ]
    assert HOVER_KEY in step["text"], step["text"]
    assert "read-only" in step["refusal"].lower() or "readonly" in step["refusal"].lower(), step
    assert step["unchanged"] and step["dirty"] == 0, step


def test_choosing_another_profile_from_the_status_bar_changes_the_hover(
    report: dict[str, Any],
) -> None:
    pick = _step(report, "pickProfile")
    assert f"Hiera: {PROFILE_BEFORE}" in pick["before"]
    assert any(PROFILE_AFTER in item for item in pick["items"]), pick["items"]
    assert any(PROFILE_BEFORE in item for item in pick["items"]), pick["items"]
    assert f"Hiera: {PROFILE_AFTER}" in pick["after"]
    text = _active(_step(report, "hoverAfter")["text"])
    for part in ("postgresql", "yum-utils", "vim", "curl"):
        assert part in text, text
    assert "nginx" not in text and "apt-transport-https" not in text, text


def test_restart_server_starts_a_new_server_and_keeps_the_chosen_profile(
    report: dict[str, Any],
) -> None:
    step = _step(report, "restart")
    assert f"Hiera: {PROFILE_AFTER}" not in step["during"], step
    assert f"Hiera: {PROFILE_AFTER}" in step["after"], step
    shown = _active(step["text"])
    assert "yum-utils" in shown and "nginx" not in shown, step["text"]
    logs = "\n".join(
        p.read_text(encoding="utf-8") for p in report["results"].glob("output-*Hiera*.log")
    )
    assert logs.count("Starting the server (setting): ") == 2, logs


def test_a_missing_server_gives_one_notification_with_install_instructions(
    report: dict[str, Any],
) -> None:
    step = _step(report, "serverMissing")
    text = step["text"]
    assert "hiera.server.path" in text and "hiera-ls is not on PyPI yet" in text, text
    assert "pip install" not in text, text  # hiera-ls is not on PyPI: no command that fails
    assert step["toasts"] == 1, step
    assert "readme" in step["readmeTab"].lower(), step
    assert step["readmeHeading"] == "Installing the server", step


def test_server_log_and_protocol_trace_go_to_the_hiera_output_channel(
    report: dict[str, Any],
) -> None:
    _step(report, "workbench")
    logs = sorted(report["results"].glob("output-*Hiera*.log"))
    assert logs, "VS Code wrote no log for the Hiera output channel"
    text = "\n".join(log.read_text(encoding="utf-8") for log in logs)
    assert "Starting the server (setting): " in text  # the client's own line
    assert re.search(r"hiera-ls \S+: environments: production", text), (
        text
    )  # the server's logMessage
    assert "Sending request 'initialize" in text  # hiera.trace.server: messages
