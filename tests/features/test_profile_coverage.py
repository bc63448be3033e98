"""Whole-repository findings over every facts profile: redundant, shadowed, unread.

Each repository here is small, with two or three profiles, and the findings are what a
user sees in the editor and in a command-line run (Diagnostics.file_problems).
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from hiera_ls.checks import registry
from hiera_ls.checks.registry import CoverageMemo, build_index, check_profile_coverage
from hiera_ls.features.diagnostics import Diagnostics, node_profiles, project_paths
from hiera_ls.project.workspace import Workspace

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: Node
    path: "nodes/%{trusted.certname}.yaml"
  - name: Role
    path: "roles/%{facts.role}.yaml"
  - name: Common
    path: common.yaml
"""
PROFILES = {
    ".hiera-ls/facts/web01.yaml": "role: web\ndc: dc1\n",
    ".hiera-ls/facts/web02.yaml": "role: web\ndc: dc2\n",
    ".hiera-ls/facts/db01.yaml": "role: db\ndc: dc1\n",
}


def findings(root: Path, files: dict[str, str], profiles: bool = True) -> list[str]:
    """``rel-path:line code`` of every profile-* finding (and hiera-data-file-unused)."""
    everything = {"hiera.yaml": HIERA, **(PROFILES if profiles else {}), **files}
    for rel, text in everything.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    snapshot = Workspace([str(root)]).snapshot()
    d = Diagnostics()
    out: list[str] = []
    for path in project_paths(snapshot):
        for p in d.file_problems(snapshot, path):
            if p.code.startswith("profile-") or p.code == "hiera-data-file-unused":
                rel = Path(path).relative_to(root)
                out.append(f"{rel}:{p.where.span.start.line + 1} {p.code} {p.message}")
    return sorted(out)


def codes(found: list[str]) -> list[str]:
    return [" ".join(f.split(" ")[:2]) for f in found]


def test_redundant_override_compares_resolved_values_per_profile(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {
            "data/common.yaml": """\
                ntp: pool.example.com
                dns: 10.0.0.1
                site: "%{facts.dc}"
                motd: "welcome to %{facts.dc}"
            """,
            # the same value as common: redundant; another value: an override
            "data/nodes/web01.yaml": "ntp: pool.example.com\ndns: 10.0.0.2\nsite: dc1\n",
            # the same text resolves to another value for db01 than common gives: not redundant
            "data/roles/db.yaml": 'motd: "welcome to %{facts.dc}"\nsite: dc1\n',
        },
    )
    assert codes(found) == [
        "data/nodes/web01.yaml:1 profile-redundant-override",
        "data/nodes/web01.yaml:3 profile-redundant-override",
        "data/roles/db.yaml:1 profile-redundant-override",
        "data/roles/db.yaml:2 profile-redundant-override",
    ]
    assert "without it every facts profile that takes it gets the same value" in found[0]
    assert "(data/common.yaml for web01)" in found[0]


def test_redundant_override_under_merge_strategies_and_knockout(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {
            "data/common.yaml": """\
                lookup_options:
                  packages:
                    merge: unique
                  users:
                    merge:
                      strategy: deep
                      knockout_prefix: "--"
                packages: [vim, curl]
                users:
                  alice: {uid: 1}
                  bob: {uid: 2}
            """,
            # unique merge: vim adds nothing; nginx does
            "data/roles/web.yaml": "packages: [vim]\n",
            "data/roles/db.yaml": "packages: [postgresql]\n",
            # deep merge: a knockout changes the value; repeating alice changes nothing
            "data/nodes/web01.yaml": "users:\n  bob: '--'\n",
            "data/nodes/db01.yaml": "users:\n  alice: {uid: 1}\n",
        },
    )
    assert codes(found) == [
        "data/nodes/db01.yaml:1 profile-redundant-override",
        "data/roles/web.yaml:1 profile-redundant-override",
    ]


def test_shadowed_definition_names_the_level_that_wins(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {
            "data/common.yaml": """\
                lookup_options:
                  limits:
                    merge: hash
                timeout: 5
                retries: 3
                limits: {cpu: 1}
            """,
            "data/roles/web.yaml": "timeout: 10\nretries: 4\nlimits: {cpu: 2}\n",
            "data/roles/db.yaml": "timeout: 20\nlimits: {cpu: 4}\n",
        },
    )
    # retries: db01 takes common's. limits is hash-merged: common's always takes part, so it
    # is not shadowed, but every profile overrides its one key: removing it changes nothing
    assert codes(found) == [
        "data/common.yaml:4 profile-shadowed-definition",
        "data/common.yaml:6 profile-redundant-override",
    ]
    assert (
        "'timeout' here is never used: for every facts profile that reads this file a higher "
        "level wins (data/roles/db.yaml for db01; data/roles/web.yaml for web01, web02)"
    ) in found[0]


def test_orphaned_files_are_reported_once_with_the_yml_trap(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {
            "data/common.yaml": "a: 1\n",
            "data/nodes/web01.yaml": "a: 2\n",
            "data/nodes/web03.yaml": "a: 3\n",  # no profile is web03
            "data/nodes/db01.yml": "a: 4\n",  # hiera reads nodes/db01.yaml, never .yml
        },
    )
    assert codes(found) == [
        "data/nodes/db01.yml:1 hiera-data-file-unused",
        "data/nodes/web03.yaml:1 profile-unread-data-file",
    ]
    assert "this file ends in .yml" in found[0]
    assert (
        'No facts profile reads this file (3: db01, web01, web02); level "Node" '
        "(nodes/%{trusted.certname}.yaml) reads it only for other nodes"
    ) in found[1]


def test_without_profiles_nothing_is_judged(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {
            "data/common.yaml": "ntp: a\ntimeout: 5\n",
            "data/nodes/web01.yaml": "ntp: a\ntimeout: 1\n",
        },
        profiles=False,
    )
    assert found == []


def test_failing_lookups_and_module_defaults_are_not_judged(tmp_path: Path) -> None:
    found = findings(
        tmp_path,
        {
            "data/common.yaml": "bad: x\nntp::server: b\n",
            "data/roles/web.yaml": "bad: '%{unknown(\"x\")}'\n",  # fails for web01, web02
            "data/roles/db.yaml": "bad: y\n",
            "modules/ntp/hiera.yaml": HIERA.replace("nodes/%{trusted.certname}", "x/%{x}"),
            "modules/ntp/data/common.yaml": "ntp::server: a\n",
        },
    )
    # common's 'bad' is not known to be shadowed: the web profiles' lookups fail before it;
    # the module's default, overridden by the environment for every profile: not reported
    assert found == []


def test_after_an_edit_only_the_lookups_that_read_the_edited_file_run_again(
    tmp_path: Path,
) -> None:
    files = {
        "data/common.yaml": "a: 1\nb: 2\nc: '%{lookup(\"a\")}'\n",
        "data/nodes/web01.yaml": "a: 1\n",
        "data/roles/db.yaml": "b: 3\n",
    }
    findings(tmp_path, files)  # writes the repository
    ws = Workspace([str(tmp_path)])

    def run(memo: CoverageMemo) -> tuple[dict[str, list[str]], int]:
        snapshot = ws.snapshot()
        view = snapshot.environments[0]
        memo.start((view, snapshot.profiles, snapshot.data_files))
        index = build_index(view.env, list(snapshot.all_file_keys(view)), snapshot.files)
        levels = {p: info.levels for p, info in snapshot.data_files.items()}
        found = check_profile_coverage(
            view.env,
            index,
            node_profiles(snapshot, view),
            snapshot.files,
            snapshot.cache,
            levels,
            memo=memo,
        )
        return {p: sorted(x.code for x in xs) for p, xs in found.by_file.items()}, memo.lookups

    memo = CoverageMemo()
    first, everything = run(memo)
    assert first[str(tmp_path / "data/nodes/web01.yaml")] == ["profile-redundant-override"]
    assert run(memo)[1] == 0  # nothing changed: no lookup at all
    ws.update_buffer(str(tmp_path / "data/nodes/web01.yaml"), "a: 5\n")
    after_edit, again = run(memo)
    assert 0 < again < everything / 2  # web01's lookups only: web02 and db01 never read it
    assert after_edit == run(CoverageMemo())[0]  # the same answer as from scratch
    assert str(tmp_path / "data/nodes/web01.yaml") not in after_edit


def test_a_failure_of_these_checks_costs_no_other_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: object, **kwargs: object) -> object:
        raise RuntimeError("a bug")

    monkeypatch.setattr(registry, "check_profile_coverage", broken)
    found = findings(tmp_path, {"data/common.yaml": "a: 1\n", "data/nodes/web01.yml": "a: 2\n"})
    assert codes(found) == ["data/nodes/web01.yml:1 hiera-data-file-unused"]


def test_profiles_chosen_for_a_run_narrow_the_unread_data_files(tmp_path: Path) -> None:
    """``check --profiles web01``: a file only db01 reads is read by none of the profiles
    checked, and the file web01 alone reads is no longer said to be read by nobody."""
    from hiera_ls.report.run import run_check

    findings(
        tmp_path,
        {
            "data/common.yaml": "a: 1\n",
            "data/nodes/web01.yaml": "a: 2\n",
            "data/nodes/db01.yaml": "a: 3\n",
        },
    )

    def unread(profiles: list[str] | None) -> list[str]:
        result = run_check([str(tmp_path)], profiles=profiles)
        return [
            f"{Path(f.path).relative_to(tmp_path)} {f.message}"
            for f in result.findings
            if f.code == "profile-unread-data-file"
        ]

    assert unread(None) == []
    assert unread(["web01"]) == [
        'data/nodes/db01.yaml No facts profile reads this file (1: web01); level "Node" '
        "(nodes/%{trusted.certname}.yaml) reads it only for other nodes"
    ]
    assert unread(["db01", "web02"]) == [
        "data/nodes/web01.yaml No facts profile reads this file (2: db01, web02); level "
        '"Node" (nodes/%{trusted.certname}.yaml) reads it only for other nodes'
    ]


def test_a_level_reading_only_files_a_level_above_reads_is_reported_once(
    tmp_path: Path,
) -> None:
    """For every profile, 'Host' names the node file 'Node' names, and 'Again' names
    common.yaml which 'Common' names: neither can win a first-found lookup. 'Role' names
    other files, and 'Db only' names a file 'Node' reads only for db01."""
    hiera = (
        HIERA.replace(
            "  - name: Role\n",
            '  - name: Host\n    path: "nodes/%{facts.host}.yaml"\n'
            '  - name: Db only\n    path: "nodes/db01.yaml"\n'
            "  - name: Role\n",
        )
        + "  - name: Again\n    path: common.yaml\n"
    )
    files = {
        "hiera.yaml": hiera,
        ".hiera-ls/facts/web01.yaml": "role: web\nhost: web01\n",
        ".hiera-ls/facts/web02.yaml": "role: web\nhost: web02\n",
        ".hiera-ls/facts/db01.yaml": "role: db\nhost: db01\n",
        "data/common.yaml": "a: 1\n",
        "data/nodes/web01.yaml": "a: 2\n",
    }
    same = [f for f in findings(tmp_path, files) if "profile-level-same-file" in f]
    assert sorted(same, key=lambda f: int(f.split(" ")[0].split(":")[1])) == [
        "hiera.yaml:8 profile-level-same-file Hierarchy level 'Host' reads only files that "
        "level 'Node' above it reads too, for every facts profile (3): it can never win a "
        "first-found lookup (a merge reads those files twice). Remove it, or make its path "
        "name other files",
        "hiera.yaml:16 profile-level-same-file Hierarchy level 'Again' reads only files that "
        "level 'Common' above it reads too, for every facts profile (3): it can never win a "
        "first-found lookup (a merge reads those files twice). Remove it, or make its path "
        "name other files",
    ]
    # a node whose host is not its certname reads another file at 'Host': then it is needed
    files[".hiera-ls/facts/web02.yaml"] = "role: web\nhost: web02b\n"
    found = findings(tmp_path, files)
    assert [f.split(" ")[0] for f in found if "profile-level-same-file" in f] == ["hiera.yaml:16"]


def test_a_level_below_a_custom_function_reading_the_same_file_is_not_judged(
    tmp_path: Path,
) -> None:
    """A custom lookup_key function may return keys its file does not hold (or hide some):
    the yaml_data level below it naming the same file can still win."""
    hiera = HIERA.replace(
        "  - name: Common\n",
        "  - name: Custom\n    lookup_key: my_backend\n    path: common.yaml\n  - name: Common\n",
    )
    files = {"hiera.yaml": hiera, "data/common.yaml": "a: 1\n"}
    assert not [f for f in findings(tmp_path, files) if "profile-level-same-file" in f]
