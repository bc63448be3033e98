"""The packaged extension in a real VS Code: a quick fix, the outline, completion in
``%{lookup('`` and an inlay hint (code-server in headless Chromium, as
tests/vscode/test_vscode_e2e.py runs it).

The example control repository with the facts profile web01.example.com, and one problem
planted in the node's file: ``profile::web::vhost: yes`` (YAML 1.1's boolean, which Puppet
reads as true, and so not the String the class parameter takes). The session, in drive_editing.mjs:

- the quick-fix menu (Ctrl+.) on the planted value offers to quote it; choosing it quotes
  the value, and the warning and the type error go away (the file is saved and read back
  here);
- the Outline view lists data/common.yaml's keys, nested;
- typing ``%{lookup('`` in a string opens the suggestions with the repository's keys, the
  highlighted one with its value for the profile; typing more of a key and Enter writes it
  inside the quotes VS Code closed (read from the saved file: the screen's line holds inlay
  hints too); Escape closes the list before anything else, and the file is put back (the
  step after it shows the workbench still answers);
- data/common.yaml's ``profile::ssh::port: 22`` shows the value the node gets instead;
- a ``hiera()`` call planted in manifests/site.pp gets the quick fix that writes the
  ``lookup()`` giving the same value (the hiera-function hint: VS Code has no Puppet
  extension here, so the manifest is plain text, sent to hiera-ls by its file name).

Cropped screenshots of each (the README's pictures: docs/images/vscode-*.png) and the report
are kept in tests/vscode/results-editing/ (or $HIERA_LS_VSCODE_RESULTS/editing).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.vscode.test_vscode_e2e import (  # the same toolchain, .vsix and server
    FIXTURE,
    _line_of,
    server_path,
    vsix,
    workbench,
)
from tests.vscode.toolchain import (
    QUIET_SETTINGS,
    Workbench,
    code_server,
    results_dir,
    run_driver,
)

__all__ = ["server_path", "vsix", "workbench"]  # fixtures used by name

DRIVER = Path(__file__).with_name("drive_editing.mjs")
PROFILE = "web01.example.com"

FIX_FILE = "data/nodes/web01.example.com.yaml"
FIX_LINE_TEXT = "profile::web::vhost: yes"
FIX_CODE = "yaml11-boolean"
FIX_TITLE = 'Quote "yes"'
FIXED_LINE = 'profile::web::vhost: "yes"'

OUTLINE_FILE = "data/common.yaml"
# (name, depth) rows the Outline view must show, in this order (not necessarily adjacent)
OUTLINE_ROWS = [
    ("lookup_options", 1),
    ("classes", 2),
    ("merge", 3),
    ("profile::base::users", 2),
    ("merge", 3),
    ("strategy", 4),
    ("classes", 1),
    ("[0]", 2),
    ("profile::base::domain", 1),
]

COMPLETION_FILE = FIX_FILE
# VS Code closes the quotes and brackets
COMPLETION_TYPED = "profile::base::admin_email: \"%{lookup('"
COMPLETION_KEYS = ["classes", "ntp::servers", "profile::base::domain"]  # the first rows
COMPLETION_VALUE = ("classes", '["role::web"')  # a key's row shows its value for web01
COMPLETION_NARROW = "profile::base::dom"  # typed next, and the only key left accepted
COMPLETION_ACCEPT = "profile::base::domain"

INLAY_FILE = "data/common.yaml"
INLAY_LINE_TEXT = "profile::ssh::port: 22"
INLAY_HINT = "= 2222 from data/nodes/web01"  # VS Code cuts hints after 43 characters

MANIFEST_FILE = "manifests/site.pp"
MANIFEST_LINE_TEXT = "  $domain = hiera('profile::base::domain')"  # planted in node default
MANIFEST_TITLE = "Replace with lookup('profile::base::domain')"
MANIFEST_FIXED = "$domain = lookup('profile::base::domain')"


@pytest.fixture(scope="module")
def editing_session(
    workbench: Workbench, vsix: Path, server_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("vscode-editing")
    workspace = tmp / "control-repo"
    shutil.copytree(FIXTURE, workspace)
    with (workspace / FIX_FILE).open("a", encoding="utf-8") as fh:
        fh.write(FIX_LINE_TEXT + "\n")
    site = workspace / MANIFEST_FILE
    site.write_text(
        site.read_text(encoding="utf-8").replace(
            "node default {\n", f"node default {{\n{MANIFEST_LINE_TEXT}\n"
        ),
        encoding="utf-8",
    )
    settings = {
        **QUIET_SETTINGS,
        "hiera.factsProfile": PROFILE,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "outline.collapseItems": "alwaysExpand",  # nested keys visible at once
        "files.autoSave": "off",
    }
    machine = {"hiera.server.path": str(server_path)}
    with code_server(workbench, vsix, tmp, workspace, settings, machine) as url:
        yield {"url": url, "workspace": workspace}


@pytest.fixture(scope="module")
def editing_report(workbench: Workbench, editing_session: dict[str, Any]) -> dict[str, Any]:
    results = results_dir("editing")
    workspace: Path = editing_session["workspace"]
    fix_line = _line_of(workspace / FIX_FILE, FIX_LINE_TEXT)
    config = {
        "url": editing_session["url"],
        "results": str(results),
        "playwright": str(workbench.playwright),
        "chromium": str(workbench.chromium),
        "steps": {
            "profile": PROFILE,
            "fixFile": FIX_FILE,
            "fixPath": str(workspace / FIX_FILE),
            "fixLine": fix_line,
            "fixColumn": FIX_LINE_TEXT.index("yes") + 2,  # 1-based, inside the value
            "fixCode": FIX_CODE,
            "fixTitle": FIX_TITLE,
            "fixedLine": FIXED_LINE,
            "outlineFile": OUTLINE_FILE,
            "outlineNames": sorted({name for name, _ in OUTLINE_ROWS}),
            "completionFile": COMPLETION_FILE,
            "completionPath": str(workspace / COMPLETION_FILE),
            "completionTyped": COMPLETION_TYPED,
            "completionKeys": COMPLETION_KEYS,
            "completionValue": COMPLETION_VALUE[1],
            "completionNarrow": COMPLETION_NARROW,
            "completionAccept": COMPLETION_ACCEPT,
            "inlayFile": INLAY_FILE,
            "inlayLine": _line_of(workspace / INLAY_FILE, INLAY_LINE_TEXT),
            "inlayHint": INLAY_HINT,
            "manifestFile": MANIFEST_FILE,
            "manifestLine": _line_of(workspace / MANIFEST_FILE, MANIFEST_LINE_TEXT),
            "manifestColumn": MANIFEST_LINE_TEXT.index("hiera") + 3,  # 1-based, in the name
            "manifestLineStart": "$domain",
            "manifestTitle": MANIFEST_TITLE,
            "manifestFixed": MANIFEST_FIXED,
        },
    }
    return run_driver(workbench, DRIVER, config, results, timeout=900)


def _step(report: dict[str, Any], name: str) -> dict[str, Any]:
    step: dict[str, Any] | None = report["steps"].get(name)
    assert step is not None, f"step {name} did not run: {report['steps']}"
    assert step["ok"], f"step {name} failed: {step.get('error')} ({step.get('failureShot')})"
    return step


def test_the_quick_fix_menu_quotes_a_yaml11_boolean_and_the_warning_goes(
    editing_report: dict[str, Any], editing_session: dict[str, Any]
) -> None:
    step = _step(editing_report, "quickFix")
    assert any(FIX_CODE in problem for problem in step["problemsBefore"]), step
    assert any(item.startswith(FIX_TITLE) for item in step["items"]), step["items"]
    assert FIXED_LINE in step["lineAfter"], step["lineAfter"]
    assert any("class-parameter-type-mismatch" in problem for problem in step["problemsBefore"])
    assert not any("hiera-ls" in problem for problem in step["problemsAfter"]), step
    saved = (editing_session["workspace"] / FIX_FILE).read_text(encoding="utf-8")
    before = (FIXTURE / FIX_FILE).read_text(encoding="utf-8")
    assert saved == before + FIXED_LINE + "\n"  # that value quoted, nothing else changed


def test_the_outline_view_shows_the_nested_keys(editing_report: dict[str, Any]) -> None:
    rows = [(row["name"], row["level"]) for row in _step(editing_report, "outline")["rows"]]
    at = 0
    for wanted in OUTLINE_ROWS:
        assert wanted in rows[at:], (wanted, rows)
        at = rows.index(wanted, at) + 1


def test_completion_in_a_lookup_lists_the_keys_with_the_profiles_value(
    editing_report: dict[str, Any], editing_session: dict[str, Any]
) -> None:
    step = _step(editing_report, "completion")
    for key in COMPLETION_KEYS:
        assert any(key in row for row in step["rows"]), step["rows"]
    key, value = COMPLETION_VALUE
    assert any(row.startswith(key) and value in row for row in step["rows"]), step["rows"]
    assert f"%{{lookup('{COMPLETION_ACCEPT}')}}" in step["accepted"], step["accepted"]
    assert step["closed"] and step["reverted"], step
    saved = (editing_session["workspace"] / COMPLETION_FILE).read_text(encoding="utf-8")
    assert "profile::base::admin_email" not in saved


def test_an_overridden_key_shows_the_value_the_node_gets(
    editing_report: dict[str, Any],
) -> None:
    text = _step(editing_report, "inlay")["text"]
    assert text.startswith(INLAY_LINE_TEXT) and INLAY_HINT in text, text


def test_a_manifests_hiera_call_is_replaced_by_its_lookup_from_the_quick_fix_menu(
    editing_report: dict[str, Any],
) -> None:
    step = _step(editing_report, "manifestFix")
    assert any(item.startswith(MANIFEST_TITLE) for item in step["items"]), step["items"]
    assert MANIFEST_FIXED in step["lineAfter"], step["lineAfter"]
