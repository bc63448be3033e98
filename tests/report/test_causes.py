"""The cause first, once: a problem that makes other lookups fail is one finding, where it is,
counting its consequences; they are not reported beside it, in any format.

The three cases a new user meets on a copy of the shipped example: a misspelt merge strategy
(it gave 7 errors), one unquoted date in a role's file (14), a hiera.yaml Puppet refuses (15).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.report.formats import FORMATS

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "control-repo"


def broken(tmp_path: Path, case: str) -> Path:
    """A copy of the example with one mistake (``case``)."""
    root = tmp_path / case
    shutil.copytree(EXAMPLE, root)
    if case == "merge":
        path = root / "data" / "common.yaml"
        text = path.read_text()
        old = "  profile::base::packages:\n    merge: unique"
        assert old in text
        path.write_text(text.replace(old, "  profile::base::packages:\n    merge: uniq", 1))
    elif case == "date":
        path = root / "data" / "roles" / "web.yaml"
        text = path.read_text()
        assert 'X11Forwarding: "yes"' in text
        path.write_text(text.replace('X11Forwarding: "yes"', "X11Forwarding: 2024-01-15"))
    else:
        path = root / "hiera.yaml"
        text = path.read_text()
        path.write_text(
            text.replace("data_hash: yaml_data", "data_hash: yaml_data\n  datadri: x", 1)
        )
    return root


# (the one finding's code, where it is, what it counts)
EXPECTED = {
    "merge": (
        "lookup-options-unknown-merge",
        "data/common.yaml",
        "and makes 6 lookups fail in 6 files",
    ),
    "date": (
        "yaml-date-rejected",
        "data/roles/web.yaml",
        "and makes 36 lookups fail in 13 files (for web01.example.com)",
    ),
    "hiera": (
        "hiera-config-wrong-type",
        "hiera.yaml",
        "and makes 40 lookups fail in 14 files",
    ),
}


@pytest.fixture(scope="module")
def broken_copies(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The example with each mistake, copied once for the module: ``check`` only reads it."""
    base = tmp_path_factory.mktemp("causes")
    return {case: broken(base, case) for case in EXPECTED}


def _check(capsys: pytest.CaptureFixture[str], root: Path, fmt: str) -> str:
    code = main(["check", str(root), "--format", fmt])
    out, _ = capsys.readouterr()
    assert code == 1
    return out


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_one_error_counts_its_consequences_in_text_and_json(
    broken_copies: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    case: str,
) -> None:
    root = broken_copies[case]
    monkeypatch.chdir(root)
    code, where, counted = EXPECTED[case]
    lines = _check(capsys, root, "text").splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"{where}:") and f" {code} " in lines[0]
    assert lines[0].endswith(counted)
    assert "…" not in lines[0]  # no key or name masked
    assert lines[1].startswith("Found 1 problem (1 error)")
    report = json.loads(_check(capsys, root, "json"))
    (finding,) = report["findings"]
    assert finding["code"] == code and finding["path"] == where
    lookups = int(counted.split()[2])
    assert len(finding["consequences"]) == lookups
    assert all(c["key"] for c in finding["consequences"])


@pytest.mark.parametrize("case", sorted(EXPECTED))
@pytest.mark.parametrize("fmt", [f for f in FORMATS if f not in ("text", "json")])
def test_one_error_in_every_ci_format(
    broken_copies: dict[str, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    case: str,
    fmt: str,
) -> None:
    root = broken_copies[case]
    monkeypatch.chdir(root)
    code, where, counted = EXPECTED[case]
    out = _check(capsys, root, fmt)
    if fmt == "sarif":  # every rule is listed; the results are the findings
        out = json.dumps(json.loads(out)["runs"][0]["results"], ensure_ascii=False)
    assert "lookup-fails-for-profile" not in out
    assert "…" not in out
    if fmt == "sarif":
        (result,) = json.loads(out)
        assert result["ruleId"] == code and counted in result["message"]["text"]
        assert len(result["relatedLocations"]) == int(counted.split()[2])
    elif fmt == "gitlab":
        (issue,) = json.loads(out)
        assert issue["check_name"] == code and counted in issue["description"]
    elif fmt == "github":
        annotation, _ = out.splitlines()
        assert annotation.startswith(f"::error file={where},") and counted in annotation
    else:  # junit
        assert out.count("<failure ") == 1 and counted in out


def test_the_cause_is_listed_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = broken(tmp_path, "date")
    (root / "data" / "common.yaml").write_text(
        (root / "data" / "common.yaml").read_text() + "zz_flag: yes\n"
    )
    monkeypatch.chdir(root)
    code = main(["check", str(root), "--fail-on", "info"])
    lines = capsys.readouterr()[0].splitlines()
    assert code == 1
    assert " yaml-date-rejected " in lines[0]
    assert any(" yaml11-boolean " in line for line in lines[1:])


def test_no_finding_rests_on_a_file_nobody_could_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file that defines 'profile::base::domain' cannot be parsed: the references to the
    key are not 'defined nowhere', they are unknowable until the file is fixed."""
    root = tmp_path / "repo"
    shutil.copytree(EXAMPLE, root)
    common = root / "data" / "common.yaml"
    common.write_text(
        common.read_text().replace(
            "profile::base::domain: example.com\n",
            "profile::base::domain: example.com\nbroken: [unclosed\n",
        )
    )
    monkeypatch.chdir(root)
    main(["check", str(root)])
    lines = capsys.readouterr()[0].splitlines()
    assert [line.split()[1] for line in lines[:-1]] == ["yaml-syntax"]
    assert "reference-undefined-key" not in "\n".join(lines)
