"""Checks, hover, definition and the file list give one answer to "which level reads this file".

They used to disagree: the checks let ``%{trusted.certname}`` stand for text with slashes,
the file list did not, so ``data/nodes/dc1/web01.yaml`` was read by "Per-node" for one and
by no level for the other; ``.eyaml`` files were data for the checks only.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

from hiera_ls.checks.cross_file import discover_sources
from hiera_ls.checks.registry import build_index, check_workspace
from hiera_ls.features.definition import definition
from hiera_ls.features.hover import hover
from hiera_ls.project.workspace import FileKind, Snapshot, Workspace
from hiera_ls.source.spans import Position

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: Per-node
    path: "nodes/%{trusted.certname}.yaml"
  - name: Per-OS
    path: "os/%{facts.os.family}.yaml"
  - name: Secrets
    lookup_key: eyaml_lookup_key
    path: "secrets/%{::clientcert}.eyaml"
    options:
      pkcs7_private_key: /etc/keys/private_key.pkcs7.pem
      pkcs7_public_key: /etc/keys/public_key.pkcs7.pem
  - name: Common
    path: common.yaml
"""

FILES = {
    "hiera.yaml": HIERA,
    "data/common.yaml": "a: 1\n",
    "data/nodes/web01.yaml": "b: 1\n",
    "data/nodes/dc1/web01.yaml": "c: 1\n",  # a certname holds no '/'
    "data/os/Debian.yaml": "d: 1\n",
    "data/os/Debian/12.yaml": "e: 1\n",  # a fact may hold one
    "data/secrets/web01.eyaml": "f: 1\n",
    "data/secrets/dc1/web01.eyaml": "g: 1\n",
    "data/old/retired.eyaml": "h: 1\n",
    "data/old/retired.yaml": "i: 1\n",
}


def project(tmp_path: Path) -> tuple[Path, Snapshot]:
    root = tmp_path / "production"
    for rel, text in FILES.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))
    return root, Workspace([str(root)]).snapshot()


def checks_view(snap: Snapshot) -> tuple[set[str], dict[str, list[str]]]:
    """(files the checks call unused, file -> templates of the levels the checks say read it)."""
    (view,) = snap.environments
    sources = discover_sources(view.env, snap.files)
    index = build_index(view.env, [s.file_keys() for s in sources], snap.files)
    unused = {
        path
        for path, problems in check_workspace(index).items()
        if any(p.code == "hiera-data-file-unused" for p in problems)
    }
    readers = {path: [t.template for t in index.role(path).templates] for path in index.files}
    return unused, readers


def answers(snap: Snapshot) -> tuple[dict[str, list[str]], dict[str, list[str]], set[str]]:
    """(file list: file -> templates, checks: file -> templates, files the checks call unused)."""
    listed = {path: [lv.template for lv in info.levels] for path, info in snap.data_files.items()}
    unused, readers = checks_view(snap)
    return listed, readers, unused


def test_a_certname_path_reads_no_subdirectory_for_checks_and_file_list(tmp_path: Path) -> None:
    root, snap = project(tmp_path)
    listed, readers, unused = answers(snap)
    deeper = str(root / "data/nodes/dc1/web01.yaml")
    assert listed.get(deeper) == readers.get(deeper) == []
    assert deeper in unused
    node = str(root / "data/nodes/web01.yaml")
    assert listed[node] == readers[node] == ["nodes/%{trusted.certname}.yaml"]
    assert node not in unused
    os_release = str(root / "data/os/Debian/12.yaml")  # a fact may hold a '/'
    assert listed[os_release] == readers[os_release] == ["os/%{facts.os.family}.yaml"]


def test_eyaml_files_are_data_files_for_checks_and_file_list(tmp_path: Path) -> None:
    root, snap = project(tmp_path)
    listed, readers, unused = answers(snap)
    read = str(root / "data/secrets/web01.eyaml")
    assert listed[read] == readers[read] == ["secrets/%{::clientcert}.eyaml"]
    for rel in ("data/secrets/dc1/web01.eyaml", "data/old/retired.eyaml"):
        assert listed.get(str(root / rel)) == readers.get(str(root / rel)) == []
        assert str(root / rel) in unused
        assert snap.kind_of(str(root / rel)) is FileKind.DATA


def test_checks_and_the_file_list_agree_on_every_file(tmp_path: Path) -> None:
    root, snap = project(tmp_path)
    listed, readers, unused = answers(snap)
    data_files = sorted(str(root / rel) for rel in FILES if rel != "hiera.yaml")
    assert sorted(listed) == sorted(readers) == data_files
    assert listed == readers
    assert unused == {path for path, templates in listed.items() if not templates}


def _template_position(root: Path, template: str) -> Position:
    lines = (root / "hiera.yaml").read_text().splitlines()
    for n, line in enumerate(lines):
        if template in line:
            return Position(n, line.index(template) + 1)
    raise AssertionError(template)


def test_hover_and_definition_of_a_location_list_what_the_checks_accept(tmp_path: Path) -> None:
    root, snap = project(tmp_path)
    config = str(root / "hiera.yaml")
    pos = _template_position(root, "nodes/%{trusted.certname}.yaml")
    shown = hover(snap, config, pos)
    assert shown is not None
    assert "Files this level can read for some node: 1" in shown.markdown
    assert "nodes/web01.yaml" in shown.markdown and "dc1" not in shown.markdown
    assert [span.path for span in definition(snap, config, pos)] == [
        str(root / "data/nodes/web01.yaml")
    ]
    eyaml = _template_position(root, "secrets/%{::clientcert}.eyaml")
    assert [span.path for span in definition(snap, config, eyaml)] == [
        str(root / "data/secrets/web01.eyaml")
    ]
