"""Which files a location template can read for some node: the level model's own rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.project.level_files import LevelRef, layer_levels, level_files
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.files import FileAccess


def levels(tmp_path: Path, location: str) -> list[LevelRef]:
    (tmp_path / "hiera.yaml").write_text(
        "version: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n  - name: L\n"
        f"    {location}\n"
    )
    (view,) = Workspace([str(tmp_path)]).snapshot().environments
    return layer_levels(view.env.environment_layer)


@pytest.mark.parametrize(
    "variable",
    [
        "trusted.certname",
        "::trusted.certname",
        "trusted.'certname'",
        "::clientcert",
        "clientcert",
        "facts.clientcert",
        "trusted.hostname",
        "environment",
    ],
)
def test_a_certname_never_holds_a_slash(tmp_path: Path, variable: str) -> None:
    (level,) = levels(tmp_path, f'path: "nodes/%{{{variable}}}.yaml"')
    assert level.can_read(f"{tmp_path}/data/nodes/web01.example.com.yaml")
    assert not level.can_read(f"{tmp_path}/data/nodes/dc1/web01.yaml")
    assert level.pattern == f"{tmp_path}/data/nodes/*.yaml"
    assert level.walk_root == f"{tmp_path}/data/nodes"


def test_a_fact_may_hold_a_slash_and_be_empty(tmp_path: Path) -> None:
    (level,) = levels(tmp_path, 'path: "os/%{facts.os.family}.yaml"')
    assert level.can_read(f"{tmp_path}/data/os/Debian/12.yaml")
    assert level.can_read(f"{tmp_path}/data/os/.yaml")
    assert not level.can_read(f"{tmp_path}/data/os/Debian.json")


def test_a_glob_keeps_its_wildcards_around_a_token(tmp_path: Path) -> None:
    (level,) = levels(tmp_path, 'glob: "%{trusted.certname}/{a,b}*.yaml"')
    assert level.can_read(f"{tmp_path}/data/web01/a1.yaml")
    assert level.can_read(f"{tmp_path}/data/.hidden/b.yaml")  # a token may start with '.'
    assert not level.can_read(f"{tmp_path}/data/web01/.a.yaml")  # a wildcard may not
    assert not level.can_read(f"{tmp_path}/data/web01/c.yaml")
    assert not level.can_read(f"{tmp_path}/data/x/web01/a.yaml")
    assert level.walk_root == f"{tmp_path}/data"


def test_paths_are_matched_literally(tmp_path: Path) -> None:
    (level,) = levels(tmp_path, 'path: "[x]/%{trusted.certname}.yaml"')
    assert level.can_read(f"{tmp_path}/data/[x]/web01.yaml")
    assert not level.can_read(f"{tmp_path}/data/x/web01.yaml")


def test_files_come_from_disk_and_buffers_in_glob_order(tmp_path: Path) -> None:
    (level,) = levels(tmp_path, 'path: "nodes/%{trusted.certname}.yaml"')
    (tmp_path / "data/nodes/dc1").mkdir(parents=True)
    for rel in ("nodes/b.yaml", "nodes/a.yaml", "nodes/dc1/c.yaml"):
        (tmp_path / "data" / rel).write_text("k: 1\n")
    files = FileAccess({f"{tmp_path}/data/nodes/new.yaml": "k: 2\n"})
    assert [Path(p).name for p in level_files(level, files)] == ["a.yaml", "b.yaml", "new.yaml"]


def test_a_level_outside_the_repository_is_globbed_not_walked(tmp_path: Path) -> None:
    outside = tmp_path / "etc" / "hieradata"
    (outside / "nodes" / "dc1").mkdir(parents=True)
    for rel in ("nodes/web01.yaml", "nodes/dc1/web02.yaml", "common.yaml"):
        (outside / rel).write_text("k: 1\n")
    repo = tmp_path / "repo"
    repo.mkdir()
    (level,) = levels(repo, f'path: "{outside}/nodes/%{{trusted.certname}}.yaml"')
    assert not level.walkable
    assert level_files(level, FileAccess()) == [str(outside / "nodes/web01.yaml")]
