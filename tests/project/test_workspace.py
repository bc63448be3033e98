"""The workspace model: what it finds on disk, what an edit costs, what a snapshot sees."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

import hiera_ls.source.data_cache as data_cache
from hiera_ls.features.sessions import shared_session
from hiera_ls.project.environments import ModuleDirs, module_directories
from hiera_ls.project.settings import Settings, parse_settings
from hiera_ls.project.workspace import FileKind, Workspace

CONTROL_REPO = Path(__file__).resolve().parents[2] / "examples" / "control-repo"
HIERA = """\
version: 5
hierarchy:
  - name: Node
    path: "nodes/%{trusted.certname}.yaml"
  - name: Common
    path: common.yaml
"""


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


# ------------------------------------------------------------------ discovery


def test_control_repository_layers_and_level_map() -> None:
    snap = Workspace([str(CONTROL_REPO)]).snapshot()
    (view,) = snap.environments
    assert view.env.root == str(CONTROL_REPO) and view.env.name == "production"
    # environment.conf: site-modules first, then modules; role has no hiera.yaml
    assert list(view.env.modules) == ["profile", "role", "ntp"]
    assert view.env.modules["role"].config is None
    levels = {
        str(Path(p).relative_to(CONTROL_REPO)): [lv.entry.name for lv in info.levels]
        for p, info in snap.data_files.items()
    }
    assert levels["data/nodes/web01.example.com.yaml"] == ["Per-node data"]
    assert levels["data/datacenter/ams1.yaml"] == ["Per-datacenter data"]  # mapped_paths template
    # a fact's value may hold a '/': os/%{facts.os.family}.yaml may read os/Debian/12.yaml
    assert [
        lv.template for lv in snap.data_files[str(CONTROL_REPO / "data/os/Debian/12.yaml")].levels
    ] == [
        "os/%{facts.os.family}/%{facts.os.release.major}.yaml",
        "os/%{facts.os.family}.yaml",
    ]
    assert levels["data/os/Debian.yaml"] == ["Per-OS data"]
    assert levels["site-modules/profile/data/os/RedHat.yaml"] == ["Profile OS family defaults"]
    assert levels["modules/ntp/data/common.yaml"] == ["common"]
    assert snap.kind_of(str(CONTROL_REPO / "hiera.yaml")) is FileKind.HIERA_CONFIG
    assert (
        snap.kind_of(str(CONTROL_REPO / "site-modules/profile/hiera.yaml")) is FileKind.HIERA_CONFIG
    )
    assert snap.kind_of(str(CONTROL_REPO / ".hiera-ls/facts/db01.json")) is FileKind.FACTS
    assert snap.kind_of(str(CONTROL_REPO / "manifests/site.pp")) is FileKind.OTHER


def test_conventional_module_directories_without_environment_conf(tmp_path: Path) -> None:
    root = write(
        tmp_path / "repo",
        {
            "hiera.yaml": HIERA,
            "site/profile/hiera.yaml": HIERA,
            "site-modules/role/manifests/init.pp": "class role {}\n",
            "modules/apache/hiera.yaml": HIERA,
        },
    )
    files = Workspace([]).files()
    searched = module_directories(str(root), files, ModuleDirs.CONVENTIONAL)
    assert [Path(d).name for d in searched] == ["modules", "site-modules", "site"]
    assert module_directories(str(root), files, ModuleDirs.MODULEPATH) == searched[:1]
    (view,) = Workspace([str(root)]).snapshot().environments
    assert sorted(view.env.modules) == ["apache", "profile", "role"]
    assert view.env.off_modulepath == {"profile", "role"}


def test_environment_path_setting_finds_every_environment(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "code/environments/production/hiera.yaml": HIERA,
            "code/environments/development/hiera.yaml": HIERA,
            "code/environments/development/data/common.yaml": "a: 1\n",
            "code/environments/notes/README": "not an environment\n",
        },
    )
    ws = Workspace([str(tmp_path)], Settings(environment_path="code/environments"))
    snap = ws.snapshot()
    assert sorted(v.env.name for v in snap.environments) == ["development", "production"]
    dev_common = str(tmp_path / "code/environments/development/data/common.yaml")
    view = snap.environment_for(dev_common)
    assert view is not None and view.env.name == "development"


def test_a_directory_of_environments_is_found_without_settings(tmp_path: Path) -> None:
    write(
        tmp_path,
        {"environments/production/hiera.yaml": HIERA, "environments/staging/environment.conf": ""},
    )
    assert sorted(v.env.name for v in Workspace([str(tmp_path)]).snapshot().environments) == [
        "production",
        "staging",
    ]


def test_a_folder_opened_inside_an_environment_finds_the_environment(tmp_path: Path) -> None:
    # eglot outside version control makes the file's own directory the workspace root
    write(
        tmp_path / "environments/production",
        {
            "hiera.yaml": HIERA,
            "data/common.yaml": "a: 1\n",
            "data/nodes/web01.yaml": "a: 2\n",
            "site-modules/profile/hiera.yaml": HIERA,
            "site-modules/profile/data/common.yaml": "profile::x: 1\n",
            ".hiera-ls/facts/web01.yaml": "trusted: {certname: web01.example.com}\n",
        },
    )
    env = tmp_path / "environments/production"
    for inner in ("data/nodes", "site-modules/profile/data", "site-modules/profile"):
        snap = Workspace([str(env / inner)], Settings(facts_profile="web01.example.com")).snapshot()
        (view,) = snap.environments
        assert (view.env.root, view.env.name) == (str(env), "production")
        assert list(view.env.modules) == ["profile"]
        assert snap.active is not None and snap.active.name == "web01.example.com"


def test_a_module_repository_is_its_own_module_layer(tmp_path: Path) -> None:
    root = write(
        tmp_path / "puppet-ntp",
        {
            "metadata.json": json.dumps({"name": "puppetlabs-ntp", "version": "1.0.0"}),
            "hiera.yaml": HIERA,
            "data/common.yaml": "ntp::servers: [a]\n",
        },
    )
    snap = Workspace([str(root)]).snapshot()
    (view,) = snap.environments
    assert list(view.env.modules) == ["ntp"]
    assert view.env.environment_layer.config is None
    assert snap.kind_of(str(root / "data/common.yaml")) is FileKind.DATA
    assert snap.kind_of(str(root / "hiera.yaml")) is FileKind.HIERA_CONFIG


def test_global_hiera_config_setting_adds_the_global_layer(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "repo/hiera.yaml": HIERA,
            "repo/data/common.yaml": "k: env\n",
            "etc/hiera.yaml": HIERA,
            "etc/data/common.yaml": "k: global\n",
        },
    )
    ws = Workspace(
        [str(tmp_path / "repo")], Settings(hiera_config=str(tmp_path / "etc/hiera.yaml"))
    )
    snap = ws.snapshot()
    (view,) = snap.environments
    assert view.env.global_layer.config is not None and view.env.global_layer.config.path == str(
        tmp_path / "etc/hiera.yaml"
    )
    assert shared_session(snap, view).lookup("k").value == "global"


# ------------------------------------------------------------------ profiles


def test_profiles_are_named_by_certname_from_every_format() -> None:
    snap = Workspace([str(CONTROL_REPO)]).snapshot()
    names = {
        e.name: Path(e.profile.path).relative_to(CONTROL_REPO).as_posix() for e in snap.profiles
    }
    assert names == {
        "web01.example.com": ".hiera-ls/facts/web01.example.com.yaml",  # facter -y: clientcert
        "db01.example.com": ".hiera-ls/facts/db01.json",  # PuppetDB export: values wrapped
        "debian11.example.com": "spec/factsets/Debian-11-64.json",  # onceover: fqdn inside values
    }
    assert snap.active is None


def test_duplicate_certnames_get_their_file_name_and_unknown_names_are_reported(
    tmp_path: Path,
) -> None:
    write(
        tmp_path,
        {
            "hiera.yaml": HIERA,
            ".hiera-ls/facts/a.yaml": "clientcert: web.example.com\n",
            ".hiera-ls/facts/b.json": '{"trusted": {"certname": "web.example.com"}}',
            "facts/c.yaml": "just_a_fact: 1\n",
        },
    )
    ws = Workspace([str(tmp_path)], Settings(facts_paths=("facts",), facts_profile="nosuch"))
    snap = ws.snapshot()
    assert [e.name for e in snap.profiles] == ["web.example.com", "web.example.com (b.json)", "c"]
    assert snap.active is None
    assert snap.messages == (
        "No facts profile named 'nosuch': hovers show every definition instead",
    )
    ws.select_profile("web.example.com (b.json)")
    assert ws.snapshot().active is not None and ws.snapshot().active.profile.path.endswith("b.json")
    ws.select_profile(None)  # explicitly none, even though the setting names one
    assert ws.snapshot().active is None


def test_settings_change_of_the_profile_wins_over_an_earlier_command() -> None:
    ws = Workspace([str(CONTROL_REPO)], Settings(facts_profile="web01.example.com"))
    ws.select_profile("db01.example.com")
    assert ws.snapshot().active.name == "db01.example.com"  # type: ignore[union-attr]
    ws.set_settings(Settings(facts_profile="debian11.example.com"))
    assert ws.snapshot().active.name == "debian11.example.com"  # type: ignore[union-attr]


def test_settings_accept_the_shapes_clients_send() -> None:
    nested = parse_settings(
        {"hiera": {"factsProfile": "a", "factsPaths": ["x"], "hieraConfig": "/etc/h.yaml"}}
    )
    assert nested.settings.facts_profile == "a" and nested.settings.facts_paths == ("x",)
    flat = parse_settings({"hiera.factsProfile": "b", "hiera.environmentPath": "envs"})
    assert flat.settings.facts_profile == "b" and flat.settings.environment_path == "envs"
    section = parse_settings({"factsProfile": "c"}, nested.settings)
    assert section.settings.facts_profile == "c" and section.settings.hiera_config == "/etc/h.yaml"
    bad = parse_settings({"hiera": {"factsPaths": 3, "factsProfile": None}})
    assert bad.settings == Settings() and bad.messages == (
        "hiera.factsPaths must be a list of paths; ignored",
    )


def test_module_dirs_setting_takes_the_two_names_and_drops_anything_else() -> None:
    assert Settings().module_dirs is ModuleDirs.CONVENTIONAL
    puppets = parse_settings({"hiera": {"moduleDirs": "modulepath"}})
    assert puppets.settings.module_dirs is ModuleDirs.MODULEPATH and puppets.messages == ()
    back = parse_settings({"hiera.moduleDirs": "conventional"}, puppets.settings)
    assert back.settings.module_dirs is ModuleDirs.CONVENTIONAL
    kept = parse_settings({"moduleDirs": None}, puppets.settings)
    assert kept.settings.module_dirs is ModuleDirs.MODULEPATH
    for wrong in ("site-modules", "", "MODULEPATH", True, ["modulepath"]):
        bad = parse_settings({"hiera": {"moduleDirs": wrong}}, puppets.settings)
        assert bad.settings == puppets.settings, wrong
        assert bad.messages == (
            'hiera.moduleDirs must be "modulepath" or "conventional"; ignored',
        ), wrong


# ------------------------------------------------------------------ edits


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Paths the YAML data loader parses, in order."""
    seen: list[str] = []
    real = data_cache.LOADERS["yaml_data"]

    def counting(path: str, text: str):  # type: ignore[no-untyped-def]
        seen.append(path)
        return real(path, text)

    monkeypatch.setitem(data_cache.LOADERS, "yaml_data", counting)
    return seen


def test_one_edit_reparses_one_file(tmp_path: Path, loads: list[str]) -> None:
    root = write(
        tmp_path,
        {
            "hiera.yaml": HIERA,
            "data/common.yaml": "a: 1\nb: '%{lookup(\"a\")}'\n",
            **{f"data/nodes/n{i}.yaml": f"a: {i}\n" for i in range(20)},
        },
    )
    ws = Workspace([str(root)])
    snap = ws.snapshot()
    keys = [k for fk in snap.all_file_keys() for k in fk.keys]
    assert len(keys) == 22 and len(loads) == 21
    common = str(root / "data/common.yaml")
    ws.update_buffer(common, "a: 2\n")
    loads.clear()
    snap = ws.snapshot()
    assert [k for fk in snap.all_file_keys() for k in fk.keys].count("b") == 0
    assert loads == [common]
    assert snap.data_files is not None and len(snap.data_files) == 21  # no re-listing for an edit


def test_buffers_win_over_disk_and_closing_returns_to_disk(tmp_path: Path) -> None:
    root = write(tmp_path, {"hiera.yaml": HIERA, "data/common.yaml": "k: disk\n"})
    ws = Workspace([str(root)])
    common = str(root / "data/common.yaml")
    ws.open_buffer(common, "k: buffer\n")
    snap = ws.snapshot()
    assert shared_session(snap, snap.environments[0]).lookup("k").value == "buffer"
    ws.close_buffer(common)
    snap = ws.snapshot()
    assert shared_session(snap, snap.environments[0]).lookup("k").value == "disk"
    assert (root / "data/common.yaml").read_text() == "k: disk\n"


def test_unsaved_new_file_and_disk_changes_are_seen(tmp_path: Path) -> None:
    root = write(tmp_path, {"hiera.yaml": HIERA, "data/common.yaml": "k: common\n"})
    ws = Workspace([str(root)], Settings(facts_profile="web01"))
    write(root, {".hiera-ls/facts/web01.yaml": "clientcert: web01\n"})
    ws.disk_changed(str(root / ".hiera-ls/facts/web01.yaml"), created_or_deleted=True)
    node = str(root / "data/nodes/web01.yaml")
    ws.open_buffer(node, "k: node\n")  # not saved yet
    snap = ws.snapshot()
    assert snap.active is not None and snap.kind_of(node) is FileKind.DATA
    assert shared_session(snap, snap.environments[0]).lookup("k").value == "node"
    (root / "hiera.yaml").write_text(
        "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n"
    )
    ws.disk_changed(str(root / "hiera.yaml"), created_or_deleted=False)
    snap = ws.snapshot()
    assert shared_session(snap, snap.environments[0]).lookup("k").value == "common"
    assert snap.kind_of(node) is FileKind.DATA  # still in the datadir, though no level reads it
    assert snap.data_files[node].levels == ()


def test_snapshots_are_stable_until_something_changes(tmp_path: Path) -> None:
    root = write(tmp_path, {"hiera.yaml": HIERA, "data/common.yaml": "k: 1\n"})
    ws = Workspace([str(root)])
    first = ws.snapshot()
    assert ws.snapshot() is first
    ws.update_buffer(str(root / "data/common.yaml"), "k: 2\n")
    second = ws.snapshot()
    assert second is not first and second.generation > first.generation
    assert second.environments is first.environments  # a data edit keeps the environments
    assert (
        shared_session(first, first.environments[0]).lookup("k").value == 1
    )  # old snapshot unchanged


def test_opening_files_that_are_on_disk_does_not_list_the_files_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor restoring a thousand tabs: each open would otherwise walk the whole tree."""
    import hiera_ls.project.workspace as workspace

    root = write(
        tmp_path,
        {
            "hiera.yaml": HIERA,
            "data/common.yaml": "a: 1\n",
            **{f"data/nodes/n{i}.yaml": f"a: {i}\n" for i in range(20)},
        },
    )
    listings: list[int] = []
    real = workspace._list_data_files

    def counted(*args: object) -> object:
        listings.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(workspace, "_list_data_files", counted)
    ws = Workspace([str(root)])
    ws.snapshot()
    for path in sorted((root / "data").rglob("*.yaml")):
        ws.open_buffer(str(path), path.read_text())
        ws.snapshot()
    assert len(listings) == 1
    new = str(root / "data/nodes/new.yaml")  # not on disk yet: the listing must see it
    ws.open_buffer(new, "a: new\n")
    assert new in ws.snapshot().data_files and len(listings) == 2
