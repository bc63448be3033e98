"""key-unused: the keys nothing reads (no class parameter, no lookup in code, no data
reference), over a code index built by hand; what is never judged stays silent."""

from __future__ import annotations

from pathlib import Path

from lsprotocol import types

from hiera_ls.features import lsp_ranges
from hiera_ls.features.diagnostics import Diagnostics
from hiera_ls.project.code_index import CodeIndex
from hiera_ls.project.workspace import Workspace
from hiera_ls.source.manifest_model import (
    Definition,
    DefinitionKind,
    LookupCall,
    LookupFunction,
    ManifestFacts,
    Parameter,
)
from hiera_ls.source.spans import Problem, Span

HIERA = "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n"
COMMON = """\
lookup_options:
  ntp_servers:
    merge: unique
classes: [profile::web]
role::web::classes: [profile::web]
profile::web::port: 80
profile::web::vhost: localhost
profile::web::domain: example.com
profile::web::url: "https://%{lookup('profile::web::domain')}"
app::name: web
legacy::thing: 1
ntp_servers: [pool.ntp.org]
outside::key: 1
profile::vhost::docroot: /srv
legacy::bare: 1
template_key: 1
"""
SPAN = Span.of(0, 0, 0, 1)


def write_code(root: Path) -> None:
    """Code that reads keys where the code index does not see it: a bare word argument and
    a template's call_function."""
    legacy = root / "modules" / "legacy"
    (legacy / "manifests").mkdir(parents=True)
    (legacy / "manifests" / "init.pp").write_text(
        "class legacy (\n  $x = lookup(legacy::bare),\n) {}\n", encoding="utf-8"
    )
    (legacy / "templates").mkdir()
    (legacy / "templates" / "t.erb").write_text(
        "<%= scope.call_function('lookup', ['template_key']) %>\n", encoding="utf-8"
    )


def diagnostics_of(tmp_path: Path, code: CodeIndex | None) -> list[tuple[int, str, str]]:
    write_code(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    common = tmp_path / "data" / "common.yaml"
    common.write_text(COMMON, encoding="utf-8")
    snap = Workspace([str(tmp_path)]).snapshot()
    view = snap.environment_for(str(common))
    assert view is not None
    if code is not None:
        snap.memo[("code-index", view.env.root)] = code
    found = Diagnostics().file_problems(snap, str(common))
    return [(p.where.span.start.line, p.code, p.message) for p in found if p.code == "key-unused"]


def code_index(root: Path) -> CodeIndex:
    web = str(root / "site-modules/profile/manifests/web.pp")
    vhost = str(root / "site-modules/profile/manifests/vhost.pp")
    site = str(root / "manifests/site.pp")
    port = Parameter("port", SPAN, "Integer", "80", None)
    return CodeIndex(
        {
            web: ManifestFacts(
                web, (Definition(DefinitionKind.CLASS, "profile::web", web, SPAN, (port,)),)
            ),
            vhost: ManifestFacts(
                vhost, (Definition(DefinitionKind.DEFINE, "profile::vhost", vhost, SPAN, ()),)
            ),
            site: ManifestFacts(
                site,
                lookups=(
                    LookupCall(LookupFunction.LOOKUP, site, SPAN, "app::name"),
                    LookupCall(LookupFunction.LOOKUP, site, SPAN, None, r"legacy::[a-z]+"),
                ),
            ),
        },
        frozenset({"profile", "app", "legacy"}),
    )


def test_keys_nothing_reads_are_hints_with_why(tmp_path: Path):
    # not reported: parameters, lookups (literal, run-time), data references, classes keys,
    # keys of modules not on the modulepath, keys the code writes out (a bare word, a template)
    found = diagnostics_of(tmp_path, code_index(tmp_path))
    assert [(line, message.split(": no class")[0]) for line, _, message in found] == [
        (6, "Nothing reads 'profile::web::vhost'"),
        (8, "Nothing reads 'profile::web::url'"),  # it reads another key: still unread itself
        (11, "Nothing reads 'ntp_servers'"),
        (13, "Nothing reads 'profile::vhost::docroot'"),
    ]
    assert found[0][2].endswith("(class profile::web has no parameter 'vhost')")
    assert "profile::vhost is a defined type" in found[3][2]


def test_without_a_code_index_nothing_is_judged(tmp_path: Path):
    assert diagnostics_of(tmp_path, None) == []


def test_the_hint_greys_the_key_out_in_the_editor(tmp_path: Path):
    common = tmp_path / "data" / "common.yaml"
    found = [p for p in _problems(tmp_path, common) if p.code == "key-unused"]
    diagnostic = lsp_ranges.diagnostic(found[0], lsp_ranges.Converter(COMMON))
    assert diagnostic.tags == [types.DiagnosticTag.Unnecessary]
    assert diagnostic.severity == types.DiagnosticSeverity.Hint


def _problems(tmp_path: Path, common: Path) -> list[Problem]:
    write_code(tmp_path)
    (tmp_path / "data").mkdir()
    (tmp_path / "hiera.yaml").write_text(HIERA, encoding="utf-8")
    common.write_text(COMMON, encoding="utf-8")
    snap = Workspace([str(tmp_path)]).snapshot()
    view = snap.environment_for(str(common))
    assert view is not None
    snap.memo[("code-index", view.env.root)] = code_index(tmp_path)
    return Diagnostics().file_problems(snap, str(common))
