"""Diagnostics on shapes of real data that were reported wrongly (Wikimedia's
operations/puppet): each test is the shape that showed the false positive or the hidden one."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Severity


def _repo(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "production"
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def _problems(root: Path, rel: str) -> list[tuple[str, Severity, int]]:
    snapshot = Workspace([str(root)], Settings()).snapshot()
    found = Diagnostics().file_problems(snapshot, str(root / rel))
    return [(p.code, p.severity, p.where.span.start.line) for p in found]


REGEX_HIERA = """\
version: 5
hierarchy:
  - name: "Regex lookup"
    lookup_key: 'wmflib::regex_data'
    path: 'regex.yaml'
    options:
      node: "%{::fqdn}"
  - name: common
    path: common.yaml
"""


def test_ruby_regexp_in_a_file_only_a_custom_backend_reads_is_no_error(tmp_path: Path) -> None:
    """Wikimedia's hieradata/regex.yaml: wmflib::regex_data loads it permitting Regexp."""
    root = _repo(
        tmp_path,
        {
            "hiera.yaml": REGEX_HIERA,
            "data/regex.yaml": (
                "es_codfw_rack_a2:\n"
                "  __regex: !ruby/regexp /^elastic20(55|73)\\.codfw\\.wmnet$/\n"
                "  profile::elasticsearch::rack: A2\n"
                "es_codfw_rack_a4:\n  __regex: !ruby/regexp /^elastic20(61|62)\\.codfw$/\n"
            ),
            "data/common.yaml": "a: 1\n",
        },
    )
    found = _problems(root, "data/regex.yaml")
    assert [f for f in found if f[0] == "yaml-bad-tag"] == [
        ("yaml-bad-tag", Severity.INFORMATION, 1)
    ]  # once, not once per pattern
    assert not [f for f in found if f[1] is Severity.ERROR]


def test_a_file_a_custom_level_names_stays_its_file_beside_an_all_variable_level(
    tmp_path: Path,
) -> None:
    """With Wikimedia's expand_path mapped (``.hiera-ls.yaml``), its ``%{::site}`` level could
    read any top-level file, regex.yaml too (site = regex): the file the regex level names
    literally is still read as that custom function reads it, one note, not 2 errors."""
    hiera = REGEX_HIERA.replace(
        "  - name: common\n",
        "  - name: site\n    lookup_key: 'wmflib::expand_path'\n    path: '%{::site}'\n"
        "  - name: common\n",
    )
    root = _repo(
        tmp_path,
        {
            "hiera.yaml": hiera,
            ".hiera-ls.yaml": "backends:\n  wmflib::expand_path: expand_path\n",
            "data/regex.yaml": (
                "a:\n  __regex: !ruby/regexp /^a$/\nb:\n  __regex: !ruby/regexp /^b$/\n"
            ),
            "data/common.yaml": "a: 1\n",
        },
    )
    found = _problems(root, "data/regex.yaml")
    assert [f for f in found if f[0] == "yaml-bad-tag"] == [
        ("yaml-bad-tag", Severity.INFORMATION, 1)
    ]


def test_a_rejected_date_hides_no_other_diagnostic(tmp_path: Path) -> None:
    root = _repo(
        tmp_path,
        {
            "hiera.yaml": "version: 5\n",
            "data/common.yaml": (
                "released: 2020-01-01\nenabled: yes\nbad: '%{lookup(\"x\")'\nlater: 2021-02-03\n"
            ),
        },
    )
    codes = {(code, line) for code, _severity, line in _problems(root, "data/common.yaml")}
    assert ("yaml-date-rejected", 0) in codes
    assert ("yaml-date-rejected", 3) in codes  # every date, not only the first
    assert ("yaml11-boolean", 1) in codes
    assert any(line == 2 and code.startswith("interpolation-") for code, line in codes)


PRIVATE_HIERA = """\
version: 5
hierarchy:
  - name: "private common"
    datadir: private
    path: common.yaml
  - name: common
    path: common.yaml
"""
PATTERN_DATA = "lookup_options:\n  '^profile::pki::(.*)::db_pass$':\n    convert_to: Sensitive\n"


def test_no_unused_pattern_hint_when_a_datadir_is_missing(tmp_path: Path) -> None:
    """Wikimedia's private datadir is deployed beside the repository: its keys are unknown."""
    root = _repo(tmp_path, {"hiera.yaml": PRIVATE_HIERA, "data/common.yaml": PATTERN_DATA})
    codes = [code for code, _s, _l in _problems(root, "data/common.yaml")]
    assert "lookup-options-unused-pattern" not in codes
    (root / "private").mkdir()  # with every datadir here, the hint is right again
    codes = [code for code, _s, _l in _problems(root, "data/common.yaml")]
    assert "lookup-options-unused-pattern" in codes
