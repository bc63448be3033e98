"""Hover, definition, references, completion and rename of keys over a code index built by
the manifest parser from the repository's .pp files: what each says of the Puppet code."""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.features.completion import complete
from hiera_ls.features.definition import definition
from hiera_ls.features.hover import hover
from hiera_ls.features.references import references
from hiera_ls.features.rename import RenameRefused, rename
from hiera_ls.project.workspace import Snapshot, Workspace
from hiera_ls.source.spans import Position, Span

HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
COMMON = "profile::web::port: 8080\napp::name: web\nlegacy::thing: 1\nprofile::web::title: t\n"
WEB_PP = (
    "# @param port The port it listens on.\n"
    "class profile::web (\n"
    "  Integer[1, 65535] $port = 80,\n"
    "  Boolean $enabled = true,\n"
    "  Optional[Enum['fast', 'slow', 'yes']] $mode = undef,\n"
    "  String $owner,\n"
    "  String $title = lookup('profile::web::title'),\n"
    ") {}\n"
)
SITE_PP = "node default {\n  $n = lookup('app::name')\n  $m = lookup(\"${x}::thing\")\n}\n"


def make(tmp_path: Path, typed: str = "") -> tuple[Snapshot, Path]:
    """The repository, with ``typed`` as common.yaml's last line (being typed)."""
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    (tmp_path / "data" / "common.yaml").write_text(COMMON + typed, encoding="utf-8")
    web = tmp_path / "modules" / "profile" / "manifests" / "web.pp"
    web.parent.mkdir(parents=True)
    web.write_text(WEB_PP, encoding="utf-8")
    site = tmp_path / "manifests" / "site.pp"
    site.parent.mkdir()
    site.write_text(SITE_PP, encoding="utf-8")
    return Workspace([str(tmp_path)]).snapshot(), tmp_path


def test_hover_on_a_key_names_the_class_parameter_once_with_type_default_doc_and_link(
    tmp_path: Path,
):
    snap, root = make(tmp_path)
    found = hover(snap, str(root / "data" / "common.yaml"), Position(0, 3))
    assert found is not None
    text = found.markdown
    assert text.count("**Class parameter** `$port` of `profile::web`") == 1
    assert "- Type: `Integer[1, 65535]`" in text
    assert "- Default: `80`" in text
    assert "The port it listens on." in text
    web_uri = (root / "modules/profile/manifests/web.pp").as_uri()
    assert f"]({web_uri}#L3)" in text


def test_hover_lists_the_code_that_looks_a_key_up(tmp_path: Path):
    snap, root = make(tmp_path)
    found = hover(snap, str(root / "data" / "common.yaml"), Position(1, 2))
    assert found is not None
    assert "**Looked up in code** (1):" in found.markdown
    assert "`lookup()` in [manifests/site.pp:2]" in found.markdown
    found = hover(snap, str(root / "data" / "common.yaml"), Position(2, 2))
    assert found is not None
    assert "**Possibly looked up** by a key built at run time:" in found.markdown


def test_a_parameter_default_looking_the_key_up_is_not_listed_again(tmp_path: Path):
    snap, root = make(tmp_path)
    found = hover(snap, str(root / "data" / "common.yaml"), Position(3, 3))
    assert found is not None
    assert "- Default: `lookup('profile::web::title')`" in found.markdown
    assert "Looked up in code" not in found.markdown


def test_definition_of_a_key_is_the_parameter_first(tmp_path: Path):
    snap, root = make(tmp_path)
    found = definition(snap, str(root / "data" / "common.yaml"), Position(0, 3))
    assert found[0].path == str(root / "modules/profile/manifests/web.pp")
    assert found[0].span == Span.of(2, 20, 2, 25)


def test_references_of_a_key_include_lookups_in_code(tmp_path: Path):
    snap, root = make(tmp_path)
    found = references(snap, str(root / "data" / "common.yaml"), Position(1, 2), False)
    site = str(root / "manifests" / "site.pp")
    assert [(f.path, f.span) for f in found] == [(site, Span.of(1, 15, 1, 24))]


def test_key_completion_offers_parameters_not_yet_set_with_type_and_doc(tmp_path: Path):
    snap, root = make(tmp_path, "profile::web::")
    common = root / "data" / "common.yaml"
    found = complete(snap, str(common), Position(4, 14))
    labels = [i.label for i in found.items]
    assert labels == ["profile::web::enabled", "profile::web::mode", "profile::web::owner"]
    owner = found.items[2]
    assert owner.detail == "String"
    assert owner.insert == "profile::web::owner: "
    assert owner.span == Span.of(4, 0, 4, 14)
    assert owner.documentation is not None and "required" in owner.documentation


def test_key_completion_in_a_module_data_offers_that_module_s_parameters_only(tmp_path: Path):
    snap, root = make(tmp_path)
    data = root / "modules" / "app" / "data" / "common.yaml"
    data.parent.mkdir(parents=True)
    data.write_text("app::x: 1\nprofile::web::\n", encoding="utf-8")
    (root / "modules" / "app" / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    (root / "modules" / "app" / "manifests").mkdir()
    (root / "modules" / "app" / "manifests" / "init.pp").write_text(
        "class app (String $name = 'x', Integer $size = 1) {}\n", encoding="utf-8"
    )
    snap = Workspace([str(root)]).snapshot()
    assert complete(snap, str(data), Position(1, 14)).items == []
    data.write_text("app::x: 1\napp::\n", encoding="utf-8")
    snap = Workspace([str(root)]).snapshot()
    labels = [i.label for i in complete(snap, str(data), Position(1, 5)).items]
    assert labels == ["app::name", "app::size"]


@pytest.mark.parametrize(
    ("line", "values"),
    [
        ("profile::web::enabled: ", ["true", "false"]),
        ("profile::web::mode: ", ["fast", "slow", "'yes'"]),
        ("profile::web::owner: ", []),
    ],
)
def test_value_completion_for_boolean_and_enum_parameters(
    tmp_path: Path, line: str, values: list[str]
):
    snap, root = make(tmp_path, line)
    common = root / "data" / "common.yaml"
    found = complete(snap, str(common), Position(4, len(line)))
    assert [i.label for i in found.items] == values


def test_rename_of_a_class_parameter_key_is_refused_naming_class_and_parameter(tmp_path: Path):
    snap, root = make(tmp_path)
    with pytest.raises(RenameRefused, match=r"sets parameter \$port of class profile::web"):
        rename(snap, str(root / "data" / "common.yaml"), Position(0, 3), "profile::web::listen")


def test_rename_edits_lookup_calls_in_code(tmp_path: Path):
    snap, root = make(tmp_path)
    edits = rename(snap, str(root / "data" / "common.yaml"), Position(1, 2), "app::title")
    by_path = {Path(e.path).relative_to(root).as_posix(): e.edits for e in edits}
    assert by_path["manifests/site.pp"] == ((Span.of(1, 15, 1, 24), "app::title"),)
    assert by_path["data/common.yaml"] == ((Span.of(1, 0, 1, 9), "app::title"),)


def test_rename_refused_when_a_run_time_key_may_read_the_old_name_only(tmp_path: Path):
    snap, root = make(tmp_path)
    with pytest.raises(RenameRefused, match="builds its key at run time"):
        rename(snap, str(root / "data" / "common.yaml"), Position(2, 2), "legacy::other")
