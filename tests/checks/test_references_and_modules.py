"""Module data keys, references to undefined keys, and lookup cycles across files."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.source.spans import Span
from tests.checks.support import MODULE_HIERA, brief, make_workspace, only

ROLE_HIERA = """\
version: 5
hierarchy:
  - name: Nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: Roles
    path: "roles/%{facts.role}.yaml"
  - name: Common
    path: common.yaml
"""


def test_unqualified_module_keys_are_ignored_with_puppets_warning(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "modules/mymod/hiera.yaml": MODULE_HIERA,
            "modules/mymod/data/common.yaml": (
                "lookup_options: {}\nmymod::x: 1\nstray: 2\nother::y: 3\nmymodx: 4\n"
            ),
        },
    )
    problems = ws.data_problems("modules/mymod/data/common.yaml")
    assert brief(problems) == [
        ("module-data-unqualified-key", Span.of(2, 0, 2, 5)),
        ("module-data-unqualified-key", Span.of(3, 0, 3, 8)),
        ("module-data-unqualified-key", Span.of(4, 0, 4, 6)),
    ]
    location = ws.path("modules/mymod/data/common.yaml")
    assert problems[0].message == (
        "Puppet ignores 'stray': module data keys must start with 'mymod::'. Puppet warns: Module "
        "'mymod': Value returned from data_hash function 'yaml_data', when using location "
        f"'{location}', must use keys qualified with the name of the module; got stray"
    )


def test_environment_data_may_hold_any_key(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {"data/common.yaml": "stray: 1\nmymod::x: 2\n", "modules/mymod/hiera.yaml": MODULE_HIERA},
    )
    assert ws.data_problems("data/common.yaml") == []


def test_lookup_of_an_undefined_key(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            a: "%{lookup('nosuch')} %{hiera('b.x')}"
            b: {x: 1}
            c: "%{alias('gone')}"
            d: "%{lookup('absentmod::k')}"
            e: "%{lookup('mymod::k')}"
            """,
            "modules/mymod/hiera.yaml": MODULE_HIERA,
            "modules/mymod/data/common.yaml": "mymod::j: 1\n",
        },
    )
    found = ws.data_problems("data/common.yaml")
    assert ("hiera-function", Span.of(0, 24, 0, 39)) in brief(found)  # %{lookup('b.x')} instead
    problems = [p for p in found if p.code != "hiera-function"]
    assert brief(problems) == [
        ("reference-undefined-key", Span.of(0, 4, 0, 23)),
        ("reference-undefined-key", Span.of(2, 4, 2, 20)),
        ("reference-undefined-key", Span.of(4, 4, 4, 25)),
    ]
    assert problems[0].message == (
        "No data file of this environment defines 'nosuch': Puppet's lookup('nosuch') gives '' here"
    )
    assert problems[1].message.endswith("alias('gone') gives '' (an empty String) here")


def test_a_cycle_is_reported_on_each_key_with_puppets_message(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            x: "%{lookup('y')}"
            z: "%{alias('x')}"
            w: "%{alias('w')}"
            """,
            "data/nodes/web01.example.com.yaml": "y: \"pre %{lookup('z')}\"\n",
        },
    )
    common = only(ws.data_problems("data/common.yaml"), "reference-cycle")
    assert brief(common) == [
        ("reference-cycle", Span.of(0, 4, 0, 18)),
        ("reference-cycle", Span.of(1, 4, 1, 17)),
        ("reference-cycle", Span.of(2, 4, 2, 17)),
    ]
    assert common[0].message == (
        "Recursive lookup: x -> y -> z -> x. Looking up 'x' fails with: "
        "Lookup of key 'x' failed: Recursive lookup detected in [x, y, z]"
    )
    assert common[2].message == (
        "Recursive lookup: w -> w. Looking up 'w' fails with: Lookup of key 'w' failed: Recursive "
        "lookup detected in [w]"
    )
    node = ws.data_problems("data/nodes/web01.example.com.yaml")
    assert brief(node) == [("reference-cycle", Span.of(0, 8, 0, 22))]
    assert node[0].message.startswith("Recursive lookup: y -> z -> x -> y.")


def test_files_no_node_reads_together_make_no_cycle(tmp_path: Path) -> None:
    # roles/web.yaml and roles/db.yaml come from one `path` level: a node reads one of them.
    ws = make_workspace(
        tmp_path,
        {
            "hiera.yaml": ROLE_HIERA,
            "data/roles/web.yaml": "a: \"%{lookup('b')}\"\n",
            "data/roles/db.yaml": "b: \"%{lookup('a')}\"\n",
        },
    )
    assert ws.data_problems("data/roles/web.yaml") == []
    assert ws.data_problems("data/roles/db.yaml") == []


def test_a_definition_hidden_by_a_higher_level_makes_no_cycle(tmp_path: Path) -> None:
    # For role web, roles/web.yaml's plain 'a' wins over common's; other nodes have no 'b'.
    ws = make_workspace(
        tmp_path,
        {
            "hiera.yaml": ROLE_HIERA,
            "data/roles/web.yaml": "a: plain\nb: \"%{lookup('a')}\"\n",
            "data/common.yaml": "a: \"%{lookup('b')}\"\n",
        },
    )
    assert ws.data_problems("data/common.yaml") == []
    assert ws.data_problems("data/roles/web.yaml") == []


def test_a_merged_key_reads_every_definition_so_the_cycle_stands(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "hiera.yaml": ROLE_HIERA,
            "data/roles/web.yaml": "a: [plain]\nb: \"%{lookup('a')}\"\n",
            "data/common.yaml": "lookup_options:\n  a: {merge: unique}\na: [\"%{lookup('b')}\"]\n",
        },
    )
    assert [p.code for p in ws.data_problems("data/common.yaml")] == ["reference-cycle"]


def test_a_cycle_hidden_for_every_node_by_a_static_file(tmp_path: Path) -> None:
    hiera = (
        "version: 5\nhierarchy:\n  - name: First\n    path: first.yaml\n  - name: Common\n"
        "    path: common.yaml\n"
    )
    ws = make_workspace(
        tmp_path,
        {
            "hiera.yaml": hiera,
            "data/first.yaml": "a: plain\n",
            "data/common.yaml": "a: \"%{alias('a')}\"\n",
        },
    )
    assert ws.data_problems("data/common.yaml") == []
