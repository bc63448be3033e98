"""Each report format against what its reader documents.

SARIF is validated against the official SARIF 2.1.0 JSON schema, vendored as
``sarif-schema-2.1.0.json`` from https://github.com/oasis-tcs/sarif-spec (file
``sarif-2.1/schema/sarif-schema-2.1.0.json``, commit e0583813964ec43cea53b6b531b402866095ed1f;
its id is https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree as ET

import jsonschema
import pytest

from hiera_ls.checks.rules import RULES as CODES
from hiera_ls.cli import main

HERE = Path(__file__).resolve().parent
DOCS = HERE.parents[1] / "docs" / "diagnostics.md"


def report(capsys: pytest.CaptureFixture[str], fmt: str, *argv: str) -> str:
    main(["check", "--format", fmt, *argv])
    return capsys.readouterr().out


def test_sarif_is_valid_sarif_2_1_0(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = json.loads(report(capsys, "sarif"))
    schema = json.loads((HERE / "sarif-schema-2.1.0.json").read_text())
    jsonschema.validate(log, schema)
    run = log["runs"][0]
    assert len(run["results"]) == 9
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        rule = rules[result["ruleIndex"]]
        assert rule["id"] == result["ruleId"]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith(
            "data/"
        )


def test_sarif_rules_carry_their_section_of_the_docs_as_help(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each rule's help is the text under its heading in docs/diagnostics.md."""
    sections = re.split(r"^### `([a-z0-9-]+)` \(\w+\)\n", DOCS.read_text(), flags=re.M)
    docs = {
        code: body.split("\n#", 1)[0].strip()
        for code, body in zip(sections[1::2], sections[2::2], strict=True)
    }
    rules = json.loads(report(capsys, "sarif"))["runs"][0]["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == list(CODES)
    for rule in rules:
        assert rule["shortDescription"]["text"] == CODES[rule["id"]].summary
        assert rule["help"]["markdown"].startswith(docs[rule["id"]][:40]), rule["id"]
        assert re.fullmatch(r"[A-Z][A-Za-z0-9]+", rule["name"])


# https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands
_WORKFLOW_COMMAND = re.compile(
    r"::(error|warning|notice) file=(?P<file>[^,:]+),line=\d+,col=\d+,endLine=\d+,"
    r"endColumn=\d+,title=(?P<title>[^,:]+)::(?P<message>[^\r\n]*)"
)


def test_github_lines_are_workflow_commands(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = report(capsys, "github").splitlines()
    commands = [line for line in lines if line.startswith("::")]
    assert len(commands) == 9
    for line in commands:
        match = _WORKFLOW_COMMAND.fullmatch(line)
        assert match is not None, line
        assert match["title"] in CODES
        assert (repo / match["file"]).is_file()
    assert lines[-1].startswith("Found 9 problems")
    levels = [line.split()[0] for line in commands]
    assert {"::error", "::warning", "::notice"} <= set(levels)


def test_github_escapes_what_would_end_a_command() -> None:
    from hiera_ls.report.formats import _github_data, _github_property

    assert _github_data("50% done\nnext") == "50%25 done%0Anext"
    assert _github_property("a,b:c") == "a%2Cb%3Ac"


def test_gitlab_code_quality_fields(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    issues = json.loads(report(capsys, "gitlab"))
    assert len(issues) == 9
    for issue in issues:
        assert set(issue) >= {"description", "check_name", "fingerprint", "severity", "location"}
        assert issue["severity"] in ("info", "minor", "major", "critical", "blocker")
        assert issue["check_name"] in CODES
        assert isinstance(issue["location"]["lines"]["begin"], int)
        assert (repo / issue["location"]["path"]).is_file()
    assert len({i["fingerprint"] for i in issues}) == len(issues)


def test_gitlab_fingerprints_survive_runs_and_moved_lines(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = json.loads(report(capsys, "gitlab"))
    assert json.loads(report(capsys, "gitlab")) == before
    common = repo / "data" / "common.yaml"
    common.write_text(common.read_text().replace("---\n", "---\n# a comment\n\n", 1))
    after = json.loads(report(capsys, "gitlab"))
    moved = {i["fingerprint"]: i["location"]["lines"]["begin"] for i in after}
    for issue in before:
        if issue["location"]["path"] == "data/common.yaml":
            assert moved[issue["fingerprint"]] == issue["location"]["lines"]["begin"] + 2


def test_junit_is_a_test_report_with_a_failure_per_failing_finding(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = ET.fromstring(report(capsys, "junit"))
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert len(suites) == 11  # one per checked file
    failures = root.findall(".//failure")
    assert len(failures) == 4 == int(root.get("failures", "-1"))  # the 4 errors
    assert int(root.get("tests", "0")) == sum(len(s.findall("testcase")) for s in suites)
    names = {s.get("name") for s in suites}
    assert "data/common.yaml" in names
    _, out = main(["check", "--format", "junit", "--fail-on", "info"]), capsys.readouterr().out
    assert len(ET.fromstring(out).findall(".//failure")) == 9


def test_json_findings_carry_positions_and_profiles(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(report(capsys, "json"))
    assert data["files"] == 11 and len(data["profiles"]) == 6 and data["failed"] is True
    dup = next(f for f in data["findings"] if f["code"] == "yaml-duplicate-key")
    assert (dup["path"], dup["line"], dup["column"], dup["severity"]) == (
        "data/common.yaml",
        12,
        1,
        "warning",
    )
    assert dup["profiles"] == []
