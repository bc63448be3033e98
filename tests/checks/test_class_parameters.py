"""Keys as class parameters: data checked against a code index built by hand (the reader of
.pp files has its own tests; the fixture repository in tests/fixtures/code-repo runs both)."""

from __future__ import annotations

from pathlib import Path

from hiera_ls.checks.fixes import fixes_for
from hiera_ls.checks.registry import ProfileLookup, check_data_file
from hiera_ls.checks.required_parameters import (
    classes_named,
    declared_with_parameters,
    included_classes,
)
from hiera_ls.engine.lookup import LookupSession
from hiera_ls.project.code_index import CodeIndex
from hiera_ls.project.facts import node_scope
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.manifest_model import (
    Definition,
    DefinitionKind,
    Inclusion,
    LookupCall,
    LookupFunction,
    ManifestFacts,
    ManifestProblem,
    Parameter,
)
from hiera_ls.source.spans import Problem, Span
from tests.checks.support import Workspace, make_workspace

AT = Span.of(0, 0, 0, 1)


def param(name: str, type_text: str | None = None, default: str | None = "undef") -> Parameter:
    return Parameter(name, AT, type_text, default, None)


def define(
    name: str, *params: Parameter, kind: DefinitionKind = DefinitionKind.CLASS, alias: str = ""
) -> Definition:
    path = f"/code/{name.replace('::', '/')}.pp"
    return Definition(kind, name, path, AT, params, alias_text=alias or None)


def index(
    *definitions: Definition,
    lookups: tuple[LookupCall, ...] = (),
    inclusions: tuple[Inclusion, ...] = (),
    problems: tuple[ManifestProblem, ...] = (),
    modules: frozenset[str] = frozenset({"profile", "role"}),
) -> CodeIndex:
    files: dict[str, ManifestFacts] = {}
    for d in definitions:
        files[d.path] = ManifestFacts(
            d.path,
            (d,),
            inclusions=tuple(i for i in inclusions if i.path == d.path),
            problems=tuple(p for p in problems if p.path == d.path),
        )
    files["/code/site.pp"] = ManifestFacts("/code/site.pp", lookups=lookups)
    return CodeIndex(files, modules)


WEB = define(
    "profile::web",
    param("port", "Integer[1, 65535]", "80"),
    param("docroot", "String", "'/var/www'"),
    param("ports", "Array[Profile::Port]", "[]"),
    param("secret", "Sensitive[String]", "undef"),
    param("vhosts", "Hash[String, Struct[{port => Integer}]]", "{}"),
)
PORT = define("profile::port", kind=DefinitionKind.TYPE_ALIAS, alias="Integer[1, 65535]")
VHOST = define("profile::vhost", param("port", "Integer"), kind=DefinitionKind.DEFINE)
CODE = index(WEB, PORT, VHOST)


def problems(
    ws: Workspace, rel: str, code: CodeIndex = CODE, profile: ProfileLookup | None = None
) -> list[Problem]:
    found = check_data_file(ws.index, ws.source(rel), profile, ws.env, code)
    return [p for p in found if p.code.startswith("class-")]


def profile_of(ws: Workspace, certname: str = "web01.example.com") -> ProfileLookup:
    scope = node_scope({"role": "web"}, certname, "production")
    session = LookupSession(ws.env, scope, ws.files, DataCache())

    def explain(key: str) -> object:
        return LookupSession(ws.env, scope, ws.files, DataCache()).lookup(key, explain=True)

    return ProfileLookup(certname, session.lookup, explain)  # type: ignore[arg-type]


def test_unknown_parameter_with_the_nearest_names_as_a_quick_fix(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, {"data/common.yaml": "profile::web::prot: 8080\n"})
    [found] = problems(ws, "data/common.yaml")
    assert found.code == "class-parameter-unknown"
    assert found.where.span == Span.of(0, 0, 0, 18)
    assert found.message == (
        "Class 'profile::web' has no parameter 'prot', and no code looks 'profile::web::prot' "
        "up: Puppet never reads this key. Did you mean 'port' or 'ports'?"
    )
    text = ws.source("data/common.yaml").text
    titles = [f.title for f in fixes_for(found, text)]
    assert titles[:2] == ["Write profile::web::port", "Write profile::web::ports"]
    edit = fixes_for(found, text)[0].edits[0]
    assert (edit.span, edit.new_text) == (Span.of(0, 0, 0, 18), "profile::web::port")


def test_keys_read_explicitly_or_not_judgeable_are_left_alone(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            lookup_options:
              profile::web::portz: {merge: first}
            classes: [profile::web]
            profile::web::looked_up: 1
            profile::web::dynamic_port: 1
            profile::web::referenced: 1
            profile::web::ok: "%{lookup('profile::web::referenced')}"
            profile::web::with.dot: 1
            "::profile::web::lead": 1
            Profile::Web::Caps: 1
            apache::mpm: prefork
            profile::web::port: 8080
            """,
        },
    )
    code = index(
        WEB,
        lookups=(
            LookupCall(LookupFunction.LOOKUP, "/code/site.pp", AT, "profile::web::looked_up"),
            LookupCall(LookupFunction.LOOKUP, "/code/site.pp", AT, "profile::web::ok"),
            LookupCall(
                LookupFunction.LOOKUP, "/code/site.pp", AT, None, r"profile::web::[a-z]+_port"
            ),
        ),
    )
    assert problems(ws, "data/common.yaml", code) == []


def test_namespace_naming_no_class_of_a_module_in_the_workspace(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            profile::webserver::port: 1
            absent::thing::port: 1
            profile::vhost::port: 1
            """
        },
    )
    found = problems(ws, "data/common.yaml")
    assert [(p.code, p.where.span.start.line) for p in found] == [
        ("class-not-found", 0),
        ("class-parameter-of-define", 2),
    ]
    assert found[0].message == (
        "No class or defined type 'profile::webserver' in module 'profile', and no code looks "
        "'profile::webserver::port' up: Puppet never reads this key"
    )
    assert found[1].message.startswith("'profile::vhost' is a defined type, not a class")


def test_a_namespace_naming_no_class_offers_the_near_class_taking_that_parameter(
    tmp_path: Path,
) -> None:
    # (Puppet's own seteam control repository wrote its manifests directory into a key;
    # Wikimedia's data names classes whose parameters moved into a subclass)
    sql = define("profile::app::sqlserver::sql", param("sa_pass"), param("db_instance"))
    db = define("profile::app::webapp::db", param("dbpass"))
    keystone = define("profile::keystone::apache", param("admin_bind_port"))
    memcached = define("profile::memcached_exporter", param("arguments"))
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            profile::manifests::app::sqlserver::sql::sa_pass: x
            profile::app::sqlsever::sql::db_instance: x
            profile::keystone::admin_bind_port: 1
            profile::app::sqlserver::dbpass: x
            profile::manifests::app::sqlserver::sql::nope: x
            profile::mysqld_exporter::arguments: x
            profile::webserver::port: 1
            """
        },
    )
    found = problems(ws, "data/common.yaml", index(sql, db, keystone, memcached, WEB))
    assert [p.code for p in found] == ["class-not-found"] * 7
    meant = [
        "profile::app::sqlserver::sql::sa_pass",  # a segment too many
        "profile::app::sqlserver::sql::db_instance",  # a misspelt segment
        "profile::keystone::apache::admin_bind_port",  # a segment too few
    ]
    text = ws.source("data/common.yaml").text
    for problem, key in zip(found, meant, strict=False):
        assert problem.message.endswith(f"Puppet never reads this key. Did you mean '{key}'?")
        fix = fixes_for(problem, text)[0]
        assert fix.title == f"Write {key}"
        assert fix.edits[0].new_text == key
    assert fixes_for(found[0], text)[0].edits[0].span == Span.of(0, 0, 0, 48)
    # not offered: a class that only shares the parameter's name (a sibling, a class two
    # segments away, or one whose name is not a misspelling of the one written)
    assert [p.message.endswith("never reads this key") for p in found[3:]] == [True] * 4
    assert [[f.title for f in fixes_for(p, text)] for p in found[3:]] == [
        ["Disable class-not-found on this line"]
    ] * 4


def test_a_module_of_type_aliases_only_is_not_judged(tmp_path: Path) -> None:
    """Its classes may live where hiera-ls cannot see (a module half checked out): no key of
    it is called a key of no class, while a module with a class is judged."""
    ws = make_workspace(tmp_path, {"data/common.yaml": "types::x::a: 1\nrole::x::a: 1\n"})
    alias = define("types::port", kind=DefinitionKind.TYPE_ALIAS, alias="Integer")
    code = index(WEB, alias, define("role::db"), modules=frozenset({"profile", "role", "types"}))
    found = problems(ws, "data/common.yaml", code)
    assert [(p.code, p.where.span.start.line) for p in found] == [("class-not-found", 1)]


def test_a_class_file_the_reader_could_not_read_is_not_judged(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path, {"data/common.yaml": "profile::web::prot: 1\nprofile::db::x: 1\n"}
    )
    broken = ManifestProblem(WEB.path, Span.of(0, 5, 0, 9), "cannot read")
    half_read = ManifestFacts("/code/site-modules/profile/manifests/db.pp")  # nothing understood
    code = index(WEB, problems=(broken,))
    code = code.replace([half_read])
    assert problems(ws, "data/common.yaml", code) == []


def test_own_value_against_the_type_in_puppets_words(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            profile::web::port: "8080"
            profile::web::docroot: ~
            profile::web::ports: [80, 70000]
            profile::web::vhosts:
              a: {port: "x"}
            profile::web::secret: hunter2
            """,
        },
    )
    found = problems(ws, "data/common.yaml", index(WEB, PORT))
    assert [(p.where.span, p.message) for p in found] == [
        (
            Span.of(0, 20, 0, 26),
            "Class[Profile::Web]: parameter 'port' expects an Integer value, got String",
        ),
        (
            Span.of(2, 26, 2, 31),
            "Class[Profile::Web]: parameter 'ports' index 1 expects a Profile::Port = "
            "Integer[1, 65535] value, got Integer[70000, 70000]",
        ),
        (
            Span.of(4, 12, 4, 15),
            "Class[Profile::Web]: parameter 'vhosts' entry 'a' entry 'port' expects an Integer "
            "value, got String",
        ),
        (
            Span.of(5, 22, 5, 29),
            "Class[Profile::Web]: parameter 'secret' expects a Sensitive[String] value, got String",
        ),
    ]
    assert {p.code for p in found} == {"class-parameter-type-mismatch"}


def test_unknowable_values_and_types_are_not_judged_without_a_profile(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            lookup_options:
              profile::web::secret: {convert_to: Sensitive}
            profile::web::port: "%{facts.port}"
            profile::web::ports: [80, "%{facts.port}"]
            profile::web::secret: hunter2
            profile::web::vhosts: {a: {port: ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAx]}}
            profile::db::size: large
            """,
        },
    )
    unresolved = define("profile::db", param("size", "Stdlib::Datasize", "'1G'"))
    assert problems(ws, "data/common.yaml", index(WEB, PORT, unresolved)) == []


def test_merged_value_for_the_profile_names_the_file_of_the_offending_part(
    tmp_path: Path,
) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            lookup_options:
              profile::web::ports: {merge: unique}
            profile::web::ports: [80]
            profile::web::port: "%{facts.role}"
            """,
            "data/nodes/web01.example.com.yaml": "profile::web::ports: [70000]\n",
        },
    )
    code = index(WEB, PORT)
    profile = profile_of(ws)
    common = problems(ws, "data/common.yaml", code, profile)
    assert [(p.where.span.start.line, p.message) for p in common] == [
        (
            3,
            "[web01.example.com] Class[Profile::Web]: parameter 'port' expects an Integer "
            "value, got String (the value this node gets from this file)",
        )
    ]
    node = problems(ws, "data/nodes/web01.example.com.yaml", code, profile)
    assert [(p.where.span.start.line, p.message) for p in node] == [
        (
            0,
            "[web01.example.com] Class[Profile::Web]: parameter 'ports' index 0 expects a "
            "Profile::Port = Integer[1, 65535] value, got Integer[70000, 70000] (the value "
            "merged for this node; this part comes from this file)",
        )
    ]


def test_own_value_finding_is_not_repeated_for_the_profile(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, {"data/common.yaml": 'profile::web::port: "8080"\n'})
    found = problems(ws, "data/common.yaml", index(WEB), profile_of(ws))
    assert [p.message for p in found] == [
        "Class[Profile::Web]: parameter 'port' expects an Integer value, got String"
    ]


def test_required_parameter_of_an_included_class_without_a_value(tmp_path: Path) -> None:
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            classes:
              - role::db
              - profile::web
            profile::db::user: admin
            """,
        },
    )
    role = define("role::db")
    db = define(
        "profile::db",
        param("user", "String", None),
        param("password", "String", None),
        param("size", "String", "'1G'"),
    )
    includes = Inclusion("profile::db", role.path, AT)
    code = index(
        WEB,
        role,
        db,
        inclusions=(includes,),
        lookups=(LookupCall(LookupFunction.LOOKUP, "/code/site.pp", AT, "classes"),),
    )
    found = problems(ws, "data/common.yaml", code, profile_of(ws))
    assert [(p.code, p.where.span, p.message) for p in found] == [
        (
            "class-parameter-missing",
            Span.of(1, 4, 1, 12),
            "[web01.example.com] Class 'profile::db' (included by 'role::db') has no default "
            "for parameter 'password' and no data gives 'profile::db::password' for this node: "
            "Puppet fails with \"Class[Profile::Db]: expects a value for parameter 'password'\"",
        )
    ]
    no_reader = index(WEB, role, db, inclusions=(includes,))
    assert problems(ws, "data/common.yaml", no_reader, profile_of(ws)) == []


def test_classes_values_and_transitive_inclusion() -> None:
    assert classes_named(["::Role::Web", "", 3, "%{x}"]) == ["role::web"]
    assert classes_named({"ntp": "psick::time", "off": ""}) == ["psick::time"]
    a, b, c = define("role::a"), define("profile::b"), define("profile::c")
    code = index(
        a,
        b,
        c,
        inclusions=(
            Inclusion("profile::b", a.path, AT),
            Inclusion("profile::c", b.path, AT),
            Inclusion("role::a", c.path, AT),
        ),
    )
    assert [d.name for d in included_classes(code, "role::a")] == [
        "role::a",
        "profile::b",
        "profile::c",
    ]


def test_a_fact_the_profile_lacks_leaves_the_value_unjudged(tmp_path: Path) -> None:
    # Puppet gives '' for a missing part of a fact: the facts file is likelier incomplete
    ws = make_workspace(
        tmp_path, {"data/common.yaml": 'profile::web::docroot: "%{facts.puppet.ssldir}"\n'}
    )
    code = index(define("profile::web", param("docroot", "Pattern[/^\\//]", "'/var/www'")))
    assert problems(ws, "data/common.yaml", code, profile_of(ws)) == []


def test_resource_like_declarations_are_found_in_the_code_text() -> None:
    text = (
        "class role::db {\n"
        "  include profile::base\n"
        "  class { 'profile::db':\n"
        "    password => 'x',\n"
        "  }\n"
        "  class {\n"
        "    '::profile::cache': size => 1,\n"
        "  }\n"
        "}\n"
    )
    inclusions = (
        Inclusion("profile::base", "/code/role/db.pp", Span.of(1, 10, 1, 23)),
        Inclusion("profile::db", "/code/role/db.pp", Span.of(2, 11, 2, 22)),
        Inclusion("profile::cache", "/code/role/db.pp", Span.of(6, 5, 6, 20)),
    )
    code = CodeIndex({"/code/role/db.pp": ManifestFacts("/code/role/db.pp", inclusions=inclusions)})
    found = declared_with_parameters(code, {"/code/role/db.pp": text}.get)
    assert found == {"profile::db", "profile::cache"}


def test_a_class_declared_with_parameters_in_code_is_not_judged(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, {"data/common.yaml": "classes: [role::db]\n"})
    role = define("role::db")
    db = define("profile::db", param("password", "String", None))
    code = index(
        role,
        db,
        inclusions=(Inclusion("profile::db", role.path, AT),),
        lookups=(LookupCall(LookupFunction.LOOKUP, "/code/site.pp", AT, "classes"),),
    )
    source = ws.source("data/common.yaml")
    judged = check_data_file(ws.index, source, profile_of(ws), ws.env, code)
    assert [p.code for p in judged] == ["class-parameter-missing"]
    declared = check_data_file(
        ws.index, source, profile_of(ws), ws.env, code, lambda: frozenset({"profile::db"})
    )
    assert declared == []


def test_a_pattern_only_ruby_can_read_is_not_judged(tmp_path: Path) -> None:
    ws = make_workspace(tmp_path, {"data/common.yaml": "profile::web::docroot: abab\n"})
    ruby_only = define("profile::web", param("docroot", r"Pattern[/\A(?<x>a)b\k<x>b\z/]", "'x'"))
    assert problems(ws, "data/common.yaml", index(ruby_only)) == []
    readable = define("profile::web", param("docroot", r"Pattern[/\A\//]", "'/'"))
    assert [p.code for p in problems(ws, "data/common.yaml", index(readable))] == [
        "class-parameter-type-mismatch"
    ]


def test_a_module_without_classes_is_not_judged(tmp_path: Path) -> None:
    # an empty directory (a git submodule not checked out) is on the modulepath all the same
    ws = make_workspace(tmp_path, {"data/common.yaml": "vendored::thing::port: 1\n"})
    code = index(WEB, modules=frozenset({"profile", "vendored"}))
    assert problems(ws, "data/common.yaml", code) == []


def test_a_value_is_judged_as_convert_to_makes_it(tmp_path: Path) -> None:
    """``convert_to: Sensitive`` binds ``Sensitive[String]``, as Puppet wraps it (a declared
    ``Sensitive[String[10]]`` is generalized too); a conversion hiera-ls does not do leaves
    the value unjudged."""
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            lookup_options:
              profile::conv::secret: {convert_to: Sensitive}
              profile::conv::short: {convert_to: Sensitive}
              profile::conv::pin: {convert_to: Sensitive}
              profile::conv::pairs: {convert_to: Hash}
              profile::conv::sealed: {convert_to: Sensitive}
            profile::conv::secret: hunter2
            profile::conv::short: abc
            profile::conv::pin: "1234"
            profile::conv::pairs: [[a, 1]]
            profile::conv::sealed: ENC[PKCS7,MIIBiQYJKoZIhvcNAQcDoIIBejCCAXYCAQAx]
            """,
        },
    )
    conv = define(
        "profile::conv",
        param("secret", "Sensitive[String]"),
        param("short", "Sensitive[String[10]]"),
        param("pin", "Sensitive[Integer]"),
        param("pairs", "Hash[String, Integer]"),
        param("sealed", "Sensitive[Integer]"),
    )
    found = problems(ws, "data/common.yaml", index(conv), profile_of(ws))
    assert [p.message for p in found] == [
        "[web01.example.com] Class[Profile::Conv]: parameter 'pin' expects a "
        "Sensitive[Integer] value, got Sensitive[String] (the value this node gets from this "
        "file)"
    ]


def test_no_key_is_offered_that_would_make_a_duplicate(tmp_path: Path) -> None:
    # example42's psick: the OS classes folded into psick::pre, each OS's key left behind
    pre = define("profile::pre", param("manage"), param("proxy"))
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            profile::pre::darwin::manage: true
            profile::pre::linux::manage: true
            profile::pre::proxy: x
            profile::pre::linux::proxy: y
            """
        },
    )
    found = problems(ws, "data/common.yaml", index(pre))
    assert [(p.code, p.where.span.start.line) for p in found] == [
        ("class-not-found", 0),
        ("class-not-found", 1),
        ("class-not-found", 3),
    ]
    assert all(p.message.endswith("Puppet never reads this key") for p in found)
    assert all(p.details.suggestions == () for p in found)


def test_no_key_is_offered_whose_parameter_refuses_the_value(tmp_path: Path) -> None:
    # atlgithub2308/control-repo-nec: a list of image names is no list of image Structs
    docker = define("profile::docker", param("images", "Array[Struct[{image => String}]]"))
    ws = make_workspace(
        tmp_path,
        {
            "data/common.yaml": """\
            profile::runner::docker::images: [alpine]
            profile::other::docker::images: [{image: alpine}]
            """
        },
    )
    found = problems(ws, "data/common.yaml", index(docker))
    assert [p.details.suggestions for p in found] == [(), ("profile::docker::images",)]
