"""Levels read by a custom function: skipped and said so once, or read through the reader the
user mapped the function to (project/backends.py).

The shapes are Wikimedia's (operations/puppet): ``lookup_key: wmflib::expand_path`` levels
that hold the common data and its lookup_options, one ``data_hash`` role level above them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from hiera_ls.cli import main
from hiera_ls.features.sessions import new_session
from hiera_ls.project.backends import expand_path_file, invalid_backends
from hiera_ls.project.settings import Settings
from hiera_ls.project.workspace import Workspace
from tests.engine.envbuilder import make_env

WMF_HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: role
    path: "role/%{facts.role}.yaml"
  - name: expand_path site
    lookup_key: 'wmflib::expand_path'
    path: "%{facts.site}"
  - name: common
    lookup_key: 'wmflib::expand_path'
    path: common
"""

WMF_FILES = {
    "hiera.yaml": WMF_HIERA,
    "data/role/web.yaml": "profile::debdeploy::client::filter_services:\n  qemu: ['*']\n",
    "data/common.yaml": (
        "lookup_options:\n"
        "  profile::debdeploy::client::filter_services:\n    merge: hash\n"
        "plain: from common\n"
    ),
    "data/common/profile/debdeploy/client.yaml": (
        "profile::debdeploy::client::filter_services:\n"
        "  bacula-fd: ['*']\n  nginx: [libtiff]\n"
        "profile::debdeploy::client::ensure: '%{facts.site}'\n"
    ),
    "data/eqiad/.keep": "",
}
KEY = "profile::debdeploy::client::filter_services"


def test_lookup_options_only_a_skipped_level_holds_mark_the_merge(tmp_path: Path) -> None:
    env = make_env(tmp_path, WMF_FILES, {"site": "eqiad"})
    out = env.lookup(KEY)
    assert out.value == {"qemu": ["*"]}  # `first`: the options that say `hash` are unread
    inc = out.incomplete
    assert inc is not None
    assert inc.options and not inc.value  # `first` stopped at "role": the value is exact
    assert [lv.level for lv, _ in inc.levels] == ["expand_path site", "common"]
    message = inc.message("HINT")
    assert message.startswith("The merge strategy may differ from Puppet's")
    assert message.count("wmflib::expand_path") == 1  # said once, not once per level


def test_a_value_search_that_reaches_a_skipped_level_marks_the_value(tmp_path: Path) -> None:
    env = make_env(tmp_path, WMF_FILES, {"site": "eqiad", "role": "db"})
    out = env.lookup("plain")
    assert not out.found
    assert out.incomplete is not None and out.incomplete.value


def test_an_explicit_merge_leaves_only_convert_to_in_doubt(tmp_path: Path) -> None:
    env = make_env(tmp_path, WMF_FILES, {"site": "eqiad"})
    out = env.lookup(KEY, "hash")
    assert out.incomplete is not None
    assert "convert_to" in out.incomplete.message("")


def test_expand_path_reader_answers_as_puppet(tmp_path: Path) -> None:
    """As Puppet 7.23 answers with Wikimedia's function (checked on its repository: 12 entries)."""
    env = make_env(
        tmp_path, WMF_FILES, {"site": "eqiad"}, backends={"wmflib::expand_path": "expand_path"}
    )
    out = env.lookup(KEY)
    assert out.incomplete is None
    assert out.value == {"bacula-fd": ["*"], "nginx": ["libtiff"], "qemu": ["*"]}
    assert env.value("plain") == "from common"  # no `::`: common.yaml itself
    assert env.value("profile::debdeploy::client::ensure") == "eqiad"  # interpolated


def test_expand_path_file_follows_the_ruby_function() -> None:
    assert expand_path_file("/d/common", "a::b::c") == "/d/common/a/b.yaml"
    assert expand_path_file("/d/common", "::a::b") == "/d/common/a.yaml"
    assert expand_path_file("/d/common", "plain") == "/d/common.yaml"
    assert expand_path_file("/d/data/", "a::b") == "/d/data/a.yaml"


def test_yaml_reader_for_a_custom_data_hash(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "hiera.yaml": (
                "version: 5\nhierarchy:\n"
                "  - name: custom\n    data_hash: mymod::my_yaml\n    path: custom.yaml\n"
            ),
            "data/custom.yaml": "a: '%{facts.role}'\n",
        },
        backends={"mymod::my_yaml": "yaml_data"},
    )
    out = env.lookup("a")
    assert out.value == "web" and out.incomplete is None


def test_hocon_data_is_read(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "hiera.yaml": (
                "version: 5\nhierarchy:\n"
                "  - name: hocon\n    data_hash: hocon_data\n    path: common.conf\n"
            ),
            "data/common.conf": 'a = 1\nb { c = [1, 2], d = "%{facts.role}" }\ne = ${b.c}\n',
        },
    )
    assert env.value("a") == 1
    assert env.value("b") == {"c": [1, 2], "d": "web"}
    assert env.value("e") == [1, 2]
    assert env.lookup("a").incomplete is None


def test_hocon_syntax_error_fails_the_lookup(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "hiera.yaml": (
                "version: 5\nhierarchy:\n"
                "  - name: hocon\n    data_hash: hocon_data\n    path: common.conf\n"
            ),
            "data/common.conf": "a = {\n",
        },
    )
    assert env.error("a").startswith("Unable to parse (")


@pytest.mark.parametrize(
    ("mapping", "problem"),
    [({"f": "toml_data"}, "must map to one of"), ({"": "yaml_data"}, "non-empty")],
)
def test_unknown_readers_are_refused(mapping: dict[str, object], problem: str) -> None:
    assert problem in invalid_backends(mapping)[0]


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


def test_the_repository_configuration_maps_backends_for_server_and_cli(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``backends:`` in .hiera-ls.yaml reads the custom levels in the editor and in
    ``hiera-ls lookup`` alike; a setting or a flag still wins for its function."""
    _write(tmp_path, WMF_FILES)
    (tmp_path / ".hiera-ls.yaml").write_text("backends:\n  wmflib::expand_path: expand_path\n")
    snapshot = Workspace([str(tmp_path)]).snapshot()
    session = new_session(snapshot, snapshot.environments[0])
    assert session.lookup("plain").value == "from common"
    monkeypatch.chdir(tmp_path)
    assert main(["lookup", "plain"]) == 0
    assert capsys.readouterr().out == "--- from common\n"
    overridden = Settings(backends=(("wmflib::expand_path", "json_data"),))
    snapshot = Workspace([str(tmp_path)], overridden).snapshot()
    assert not new_session(snapshot, snapshot.environments[0]).lookup("plain").found
