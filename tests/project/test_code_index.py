"""The code index of an environment: which .pp files it reads (modulepath modules and the
environment's manifests), and what a change to one file costs."""

from __future__ import annotations

import textwrap
from pathlib import Path

import hiera_ls.project.code_index as code_index
from hiera_ls.project.workspace import Workspace
from hiera_ls.source import manifest_parser
from hiera_ls.source.manifest_model import DefinitionKind


def write(root: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


REPO = {
    "environment.conf": "modulepath = site-modules:modules:$basemodulepath\n",
    "hiera.yaml": "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n",
    "data/common.yaml": "profile::web::port: 80\n",
    "manifests/site.pp": "node default { include role::web }\n",
    "site-modules/role/manifests/web.pp": "class role::web { include profile::web }\n",
    "site-modules/profile/manifests/web.pp": """\
        # @param port The port.
        class profile::web (Integer[1, 65535] $port = 8080) {
          $x = lookup('profile::web::extra')
        }
        """,
    "site-modules/profile/types/port.pp": "type Profile::Port = Integer[1, 65535]\n",
    "site-modules/profile/functions/twice.pp": "function profile::twice(Integer $x) { $x * 2 }\n",
    "modules/ntp/manifests/init.pp": "class ntp (Array[String] $servers = []) { }\n",
    "modules/ntp/lib/facter/x.rb": "hiera('not_a_function_file')\n",
    "modules/ntp/templates/ntp.conf.erb": "<%= scope.call_function('lookup', ['ntp::erb']) %>\n",
    "modules/ntp/templates/ntp.conf.epp": "<%= lookup('ntp::epp') %>\n",
    "modules/ntp/lib/puppet/functions/ntp/f.rb": "call_function('lookup', 'ntp::rb')\n",
    "modules/ntp/examples/init.pp": "class not_indexed { }\n",
}


def test_index_reads_modulepath_code_and_environment_manifests(tmp_path: Path) -> None:
    write(tmp_path, REPO)
    snap = Workspace([str(tmp_path)]).snapshot()
    index = snap.code_index()
    assert index.modules == frozenset({"ntp", "profile", "role"})
    ref = index.parameter_for_key("profile::web::port")
    assert ref is not None
    assert (ref.parameter.type_text, ref.parameter.default_text, ref.parameter.doc) == (
        "Integer[1, 65535]",
        "8080",
        "The port.",
    )
    assert index.parameter_for_key("ntp::servers") is not None
    assert index.definition("not_indexed") is None
    alias = index.type_alias("Profile::Port")
    assert alias is not None and alias.kind is DefinitionKind.TYPE_ALIAS
    assert index.definition("profile::twice") is not None
    assert [c.path for c in index.lookups_of("profile::web::extra")] == [
        str(tmp_path / "site-modules/profile/manifests/web.pp")
    ]
    assert sorted(i.name for i in index.inclusions()) == ["profile::web", "role::web"]
    for key, file in [
        ("ntp::erb", "templates/ntp.conf.erb"),
        ("ntp::epp", "templates/ntp.conf.epp"),
        ("ntp::rb", "lib/puppet/functions/ntp/f.rb"),
    ]:
        assert [c.path for c in index.lookups_of(key)] == [str(tmp_path / "modules/ntp" / file)]
    assert index.lookups_of("not_a_function_file") == ()
    # one index for every snapshot until code changes; a data edit keeps it
    ws = Workspace([str(tmp_path)])
    first = ws.snapshot().code_index()
    ws.update_buffer(str(tmp_path / "data/common.yaml"), "profile::web::port: 81\n")
    assert ws.snapshot().code_index() is first


def test_a_pp_change_rereads_that_file_only(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    write(tmp_path, REPO)
    ws = Workspace([str(tmp_path)])
    snap = ws.snapshot()
    snap.file_keys(str(tmp_path / "data/common.yaml"))
    memo = snap.data_memo
    before = snap.code_index()
    read: list[str] = []
    real = manifest_parser.read_manifest

    def counting(path: str, text: str):  # type: ignore[no-untyped-def]
        read.append(path)
        return real(path, text)

    monkeypatch.setattr(manifest_parser, "read_manifest", counting)
    web = str(tmp_path / "site-modules/profile/manifests/web.pp")
    ws.update_buffer(web, "class profile::web (String $port = 'x', $bind = '::') { }\n")
    snap = ws.snapshot()
    assert snap.data_memo is memo  # data caches stay
    after = snap.code_index(web)
    assert read == [web]
    ref = after.parameter_for_key("profile::web::bind")
    assert ref is not None and ref.definition.path == web
    assert (
        after.files[str(tmp_path / "modules/ntp/manifests/init.pp")]
        is before.files[str(tmp_path / "modules/ntp/manifests/init.pp")]
    )
    # a new file (created on disk) and a deleted one
    new = tmp_path / "site-modules/profile/manifests/db.pp"
    new.write_text("class profile::db ($name) { }\n", encoding="utf-8")
    ws.disk_changed(str(new), created_or_deleted=True)
    (tmp_path / "modules/ntp/manifests/init.pp").unlink()
    ws.disk_changed(str(tmp_path / "modules/ntp/manifests/init.pp"), created_or_deleted=True)
    index = ws.snapshot().code_index()
    assert index.definition("profile::db") is not None
    assert index.definition("ntp") is None
    assert read == [web, str(new)]


def test_environment_conf_manifest_setting(tmp_path: Path) -> None:
    write(tmp_path, {**REPO, "environment.conf": "manifest = site.pp\n", "site.pp": "class s { }"})
    index = Workspace([str(tmp_path)]).snapshot().code_index()
    assert index.definition("s") is not None
    assert index.modules == frozenset({"ntp", "profile", "role"})  # the conventional dirs


def test_an_autoloaded_file_is_known_as_a_scan_of_every_path_finds_it() -> None:
    """Where Puppet's autoloader looks for a namespace, answered from the paths' endings
    (once per index) as a scan of every path answers it, odd paths and names included."""
    paths = [
        "/env/modules/apache/manifests/init.pp",
        "/env/modules/apache/manifests/vhost/ssl.pp",
        "/env/site/profile/manifests/manifests/base.pp",  # a class named profile::manifests::base
        "/manifests/init.pp",
        "/env/modules/a/b/manifests/c.pp",
        "/env/modules/mysql/manifests/server.epp",
        "/env/modules//manifests/x.pp",
    ]
    index = code_index.CodeIndex({p: code_index.ManifestFacts(p) for p in paths}, frozenset())
    names = [
        "apache",
        "apache::vhost::ssl",
        "apache::vhost",
        "profile::manifests::base",
        "manifests::base",
        "b::c",
        "a/b::c",
        "mysql::server",
        "::x",
        "modules",
        "",
    ]
    for name in names:
        module, _, rest = name.partition("::")
        tail = f"/{module}/manifests/{rest.replace('::', '/') if rest else 'init'}.pp"
        assert index.autoload_file_known(name) == any(p.endswith(tail) for p in paths), name
    assert index.autoload_file_known("apache::vhost::ssl")
    assert not index.autoload_file_known("mysql::server")
