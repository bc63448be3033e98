"""hiera.yaml against the files on disk, its tokens, and forwarding of Puppet's own validation."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.spans import Severity, Span
from tests.checks.support import brief, make_workspace

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "Nodes"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "OS"
    path: "os/%{osfamily}.yaml"
  - name: "DC"
    mapped_paths: [facts.dcs, dc, "dc/%{dc}.yaml"]
  - name: "Globbed"
    glob: "extra/**/*.{yaml,yml}"
  - name: "Common"
    path: "common.yaml"
  - name: "Secrets"
    path: "secrets.yaml"
"""


def test_levels_that_name_no_file_and_bare_variables(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "hiera.yaml": HIERA,
            "data/common.yaml": "a: 1\n",
            "data/nodes/n1.yaml": "a: 2\n",
            "data/extra/x/y.yml": "b: 1\n",
        },
    )
    problems = ws.config_problems()
    assert brief(problems) == [
        ("hiera-path-matches-nothing", Span.of(8, 10, 8, 31)),
        ("interpolation-top-scope-variable", Span.of(8, 14, 8, 25)),
        ("hiera-path-matches-nothing", Span.of(10, 34, 10, 49)),
        ("hiera-path-matches-nothing", Span.of(16, 10, 16, 24)),
    ]
    data = ws.path("data")
    assert problems[0].message == (
        f"No file matches {data}/os/*.yaml for any value of its variables: hierarchy level 'OS' "
        "finds nothing here for any node"
    )
    assert problems[0].severity is Severity.HINT
    assert problems[3].message == (
        f"{data}/secrets.yaml does not exist: hierarchy level 'Secrets' finds nothing here "
        "(Puppet skips a missing file without a word)"
    )


def test_missing_datadir_is_reported_once_where_it_is_written(tmp_path: Path) -> None:
    hiera = (
        "version: 5\ndefaults:\n  datadir: hieradata\n  data_hash: yaml_data\nhierarchy:\n"
        "  - name: a\n    path: a.yaml\n  - name: b\n    path: b.yaml\n"
    )
    ws = make_workspace(tmp_path, {"hiera.yaml": hiera})
    [found] = ws.config_problems()
    assert (found.code, found.where.span, found.severity) == (
        "hiera-datadir-missing",
        Span.of(2, 11, 2, 20),
        Severity.WARNING,
    )
    assert found.message == (
        f"The datadir 'hieradata' ({ws.path('hieradata')}) does not exist: hierarchy level 'a' and "
        "every level sharing it find no data"
    )


def test_implicit_datadir_points_at_the_level_name(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {"hiera.yaml": "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"},
    )
    assert brief(ws.config_problems()) == [("hiera-datadir-missing", Span.of(2, 10, 2, 16))]


def test_puppets_own_validation_is_forwarded(tmp_path: Path) -> None:
    hiera = "version: 5\nhierarchy:\n  - name: common\n    pth: common.yaml\n"
    ws = make_workspace(tmp_path, {"hiera.yaml": hiera, "data/common.yaml": "a: 1\n"})
    codes = [p.code for p in ws.config_problems()]
    assert "hiera-config-wrong-type" in codes


def test_data_files_no_level_reads(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "hiera.yaml": HIERA,
            "data/common.yaml": "a: 1\n",
            "data/os/Debian.yaml": "a: 1\n",
            "data/orphan/z.yaml": "# an old file\nz: 1\n",
            "data/dc/ams1.yaml": "a: 1\n",
            "data/README.md": "not data\n",
            "modules/mymod/hiera.yaml": (
                "version: 5\nhierarchy:\n  - name: c\n    path: common.yaml\n"
            ),
            "modules/mymod/data/common.yaml": "mymod::a: 1\n",
            "modules/mymod/data/old.yaml": "mymod::a: 2\n",
        },
    )
    grouped = ws.workspace_problems()
    assert sorted(grouped) == [
        ws.path("data/orphan/z.yaml"),
        ws.path("modules/mymod/data/old.yaml"),
    ]
    [orphan] = grouped[ws.path("data/orphan/z.yaml")]
    assert (orphan.code, orphan.where.span, orphan.severity) == (
        "hiera-data-file-unused",
        Span.of(0, 0, 0, 13),
        Severity.HINT,
    )
    assert orphan.message == (
        f"No hierarchy level of {ws.path('hiera.yaml')} reads this file: Puppet never looks at "
        "its keys"
    )


def test_a_file_only_a_plan_hierarchy_level_names_is_not_unused(tmp_path: Path) -> None:
    """Bolt's plans read plan_hierarchy's files (a real control repository's static.yaml);
    a file no level of either names still is unused."""
    hiera = HIERA + "plan_hierarchy:\n  - name: Static\n    path: static.yaml\n"
    ws = make_workspace(
        tmp_path,
        {
            "hiera.yaml": hiera,
            "data/common.yaml": "a: 1\n",
            "data/static.yaml": "s: 1\n",
            "data/other.yaml": "o: 1\n",
        },
    )
    assert "plan_hierarchy" not in str(ws.config_problems())  # a key Puppet accepts
    assert sorted(ws.workspace_problems()) == [ws.path("data/other.yaml")]


def test_a_clean_hiera_yaml_has_nothing_to_say(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path, {"data/common.yaml": "a: 1\n", "data/nodes/web01.example.com.yaml": "a: 2\n"}
    )
    assert ws.config_problems() == []
    assert ws.workspace_problems() == {}


def test_absolute_locations_outside_the_layer_are_not_judged(tmp_path: Path) -> None:
    hiera = (
        'version: 5\nhierarchy:\n  - name: abs\n    path: "/etc/%{facts.x}.yaml"\n  - name: c\n'
        "    path: common.yaml\n"
    )
    ws = make_workspace(tmp_path, {"hiera.yaml": hiera, "data/common.yaml": "a: 1\n"})
    # Only told that the level reads outside the repository (docs/security.md).
    assert [p.code for p in ws.config_problems()] == ["hiera-reads-outside-workspace"]
    assert all(not p.startswith("/etc/") for p in ws.index.existing)


def test_a_global_hiera_yaml_inside_the_repository_is_judged_by_the_repository(
    tmp_path: Path,
) -> None:
    """Wikimedia keeps its global hiera.yaml in rake_modules/ and reads ../hieradata: files
    the repository holds, so no "outside" note; /etc still gets one."""
    (tmp_path / "hieradata").mkdir()
    (tmp_path / "hieradata" / "common.yaml").write_text("a: 1\n")
    (tmp_path / "rake_modules").mkdir()
    glob = tmp_path / "rake_modules" / "hiera.yaml"
    glob.write_text(
        "version: 5\ndefaults:\n  datadir: ../hieradata\n  data_hash: yaml_data\nhierarchy:\n"
        '  - name: common\n    path: common.yaml\n  - name: etc\n    path: "/etc/%{facts.x}.yaml"\n'
    )
    snapshot = Workspace([str(tmp_path)], Settings(hiera_config=str(glob))).snapshot()
    found = Diagnostics().file_problems(snapshot, str(glob))
    assert [(p.code, p.message.split(":")[0]) for p in found] == [
        (
            "hiera-reads-outside-workspace",
            f"Hierarchy level 'etc' reads files outside the global hiera.yaml directory {tmp_path}",
        )
    ]
