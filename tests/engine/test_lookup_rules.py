"""One test per lookup rule of Hiera 5, with Puppet's answer (semantics doc, oracle-checked).

The random differential test compares against a running Puppet; these name each rule so a
regression says which rule broke.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hiera_ls.project.targets import TARGETS
from hiera_ls.puppet.values import Encrypted
from tests.engine.envbuilder import make_env

HIERA_3_LEVELS = """\
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


def test_first_found_higher_level_wins(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/nodes/web01.example.com.yaml": "ntp: node\n",
            "data/common.yaml": "ntp: common\nonly_common: 1\n",
        },
    )
    assert env.value("ntp") == "node"
    assert env.value("only_common") == 1


def test_found_null_is_a_value_and_default_is_not_used(tmp_path: Path) -> None:
    env = make_env(
        tmp_path, {"data/nodes/web01.example.com.yaml": "k: ~\n", "data/common.yaml": "k: x\n"}
    )
    out = env.lookup("k", default="dflt")
    assert out.found and out.value is None


def test_not_found_message(tmp_path: Path) -> None:
    env = make_env(tmp_path, {"data/common.yaml": "a: 1\n"})
    out = env.lookup("nope")
    assert not out.found and out.error is None
    out2 = env.lookup(["nope", "a"])
    assert out2.found and out2.value == 1


def test_first_with_sub_key_does_not_fall_through(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/nodes/web01.example.com.yaml": "h: {a: 1}\n",
            "data/common.yaml": "h: {a: 0, b: 2}\n",
        },
    )
    assert not env.lookup("h.b").found
    assert env.value("h.b", "deep") == 2


def test_hash_merge_order_lower_keys_first(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/nodes/web01.example.com.yaml": "h: {z: high, a: high}\n",
            "data/common.yaml": "h: {a: low, m: low}\nlookup_options: {h: {merge: hash}}\n",
        },
    )
    value = env.value("h")
    assert value == {"a": "high", "m": "low", "z": "high"}
    assert list(value) == ["a", "m", "z"]  # type: ignore[arg-type]


def test_deep_merge_arrays_lower_first_and_null_never_overrides(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/nodes/web01.example.com.yaml": "d: {list: [1, 1, 2], keep: ~, e: {}}\n",
            "data/common.yaml": "d: {list: [3], keep: low, e: 5}\n",
        },
    )
    assert env.value("d", "deep") == {"list": [3, 1, 2], "keep": "low", "e": 5}


def test_unique_flattens_and_dedupes_higher_first(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/nodes/web01.example.com.yaml": "u: [[1, 2], 3]\n",
            "data/common.yaml": "u: [3, [4]]\n",
        },
    )
    assert env.value("u", "unique") == [1, 2, 3, 4]


def test_merge_argument_replaces_lookup_options(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/nodes/web01.example.com.yaml": "h: {a: 1}\n",
            "data/common.yaml": "h: {b: 2}\nlookup_options: {h: {merge: hash}}\n",
        },
    )
    assert env.value("h") == {"b": 2, "a": 1}
    assert env.value("h", "first") == {"a": 1}


def test_literal_option_key_beats_regex_and_lower_pattern_wins(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "hiera.yaml": HIERA_3_LEVELS,
            "data/nodes/web01.example.com.yaml": (
                "lookup_options:\n  '^pro':\n    merge: unique\nprofile::x: [a]\n"
            ),
            "data/roles/web.yaml": "profile::x: [b]\n",
            "data/common.yaml": (
                "lookup_options:\n  '^profile::':\n    merge: first\nprofile::x: [c]\n"
            ),
        },
    )
    # Two different patterns match: the one from the lower level is iterated first.
    assert env.value("profile::x") == ["a"]


def test_lookup_options_is_never_found(tmp_path: Path) -> None:
    env = make_env(tmp_path, {"data/common.yaml": "lookup_options: {a: {merge: deep}}\n"})
    assert not env.lookup("lookup_options").found
    assert not env.lookup("lookup_options.a").found


def test_variable_interpolation_forms(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/common.yaml": (
                'a: "%{facts.os.family}"\n'
                'b: "%{::role}-%{role}"\n'
                'c: "%{trusted.certname}"\n'
                "d: \"%{scope('role')}\"\n"
                'e: "x%{facts.nosuch}y"\n'
                "f: \"%%{}{escaped} %{literal('%')}{x}\"\n"
            ),
        },
    )
    assert env.value("a") == "Debian"
    assert env.value("b") == "web-web"
    assert env.value("c") == "web01.example.com"
    assert env.value("d") == "web"
    assert env.value("e") == "xy"
    assert env.value("f") == "%{escaped} %{x}"


def test_undefined_variable_is_an_error_under_strict_variables(tmp_path: Path) -> None:
    files = {"data/common.yaml": 'a: "x%{nosuch}y"\n'}
    assert "Undefined variable 'nosuch'" in make_env(tmp_path, files).error("a")
    lax = make_env(tmp_path, files, target=TARGETS["puppet7"])
    assert lax.value("a") == "xy"


def test_an_undefined_variable_in_a_version_3_hierarchy_fails_as_in_puppet_8(
    tmp_path: Path,
) -> None:
    """Puppet 8 warns of undefined variables in version 5 locations only (PUP-11751): a
    version 3 ``:hierarchy:`` is interpolated without that leniency, so under strict = error
    the lookup fails naming the line, as in the datadir (Puppet 8.10 and 7.23 alike)."""
    files = {
        "GLOBAL/hiera.yaml": (
            "---\n:backends: [yaml]\n:yaml:\n  :datadir: GLOBAL_DATA\n:hierarchy:\n"
            '  - "nodes/%{::nosuch}"\n  - common\n'
        ),
        "data/common.yaml": "k: env\n",
    }
    files["GLOBAL/hiera.yaml"] = files["GLOBAL/hiera.yaml"].replace(
        "GLOBAL_DATA", str(tmp_path / "GLOBAL" / "data")
    )
    global_config = tmp_path / "GLOBAL" / "hiera.yaml"
    assert make_env(tmp_path, files).error("k") == (
        f"Undefined variable '::nosuch' (file: {global_config}, line: 6)"
    )
    assert make_env(tmp_path, files, target=TARGETS["puppet7"]).value("k") == "env"
    # a version 5 location: '' with a warning, under both
    v5 = {"data/common.yaml": "k: env\n", "hiera.yaml": V5_UNDEFINED_PATH}
    assert make_env(tmp_path / "v5", v5).value("k") == "env"


V5_UNDEFINED_PATH = """\
version: 5
hierarchy:
  - name: Node
    paths: ["nodes/%{::nosuch}.yaml", common.yaml]
"""


def test_lookup_alias_and_missing_keys(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/common.yaml": (
                "list: [1, 2]\n"
                "al: \"%{alias('list')}\"\n"
                "lk: \"v=%{lookup('list')}\"\n"
                "miss: \"[%{lookup('nope')}]\"\n"
                "amiss: \"%{alias('nope')}\"\n"
                "bad: \"x %{alias('list')}\"\n"
                "sp: \"%{ alias('list') }\"\n"
            ),
        },
    )
    assert env.value("al") == [1, 2]
    assert env.value("lk") == "v=[1, 2]"
    assert env.value("miss") == "[]"
    assert env.value("amiss") == ""
    assert env.value("sp") == [1, 2]
    assert "'alias' interpolation is only permitted" in env.error("bad")


def test_method_syntax_errors(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/common.yaml": ("sp: \"%{lookup( 'a' )}\"\nunk: \"%{nosuch('a')}\"\n"),
        },
    )
    assert env.error("sp") == "Syntax error in string: %{lookup( 'a' )}"
    assert env.error("unk") == "Unknown interpolation method 'nosuch'"


def test_recursion_is_detected_and_wrapped_by_the_global_layer(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/common.yaml": (
                "a: \"%{lookup('b')}\"\nb: \"%{lookup('a')}\"\nself: \"%{alias('self')}\"\n"
            ),
        },
    )
    assert env.error("a") == "Lookup of key 'a' failed: Recursive lookup detected in [a, b]"
    assert env.error("self") == "Lookup of key 'self' failed: Recursive lookup detected in [self]"


def test_hash_keys_are_interpolated(tmp_path: Path) -> None:
    env = make_env(tmp_path, {"data/common.yaml": 'h: {"%{facts.role}_port": 80}\n'})
    assert env.value("h") == {"web_port": 80}


def test_sub_keys_quotes_and_indexes(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/common.yaml": '"a.b": dotted\nh: {list: [x, y], "k.1": q, s: str}\n',
        },
    )
    assert env.value('"a.b"') == "dotted"
    assert env.value("h.list.1") == "y"
    assert not env.lookup("h.list.5").found
    assert env.value("h.'k.1'") == "q"
    assert env.error("h.s.x").startswith("Data Provider type mismatch: Got String")
    assert env.error("a..b") == "Syntax error in key: 'a..b'"


def test_module_layer_only_sees_its_own_keys(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/common.yaml": "other: env\n",
            "modules/ntp/hiera.yaml": "version: 5\n",
            "modules/ntp/data/common.yaml": "ntp::servers: [a]\nstray: module\n",
        },
    )
    assert env.value("ntp::servers") == ["a"]
    assert not env.lookup("stray").found
    assert not env.lookup("apache::x").found


def test_each_lookup_through_a_module_file_warns_of_its_unqualified_keys(tmp_path: Path) -> None:
    """Puppet warns once per offending key each time a lookup reads the file; one session's
    later lookups (which keep what they worked out) warn the same."""
    env = make_env(
        tmp_path,
        {
            "modules/ntp/hiera.yaml": "version: 5\n",
            "modules/ntp/data/common.yaml": "ntp::servers: [a]\nntp::x: 1\nstray: 1\nb: 2\n",
        },
    )
    session = env.session()
    said = [session.lookup(key, None).warnings for key in ("ntp::servers", "ntp::x", "ntp::x")]
    assert said[0] == said[1] == said[2] == env.lookup("ntp::x").warnings
    assert len(said[0]) == 2
    assert "must use keys qualified with the name of the module" in said[0][0]


def test_module_lookup_options_must_be_qualified(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "modules/ntp/hiera.yaml": "version: 5\n",
            "modules/ntp/data/common.yaml": "ntp::a: 1\nlookup_options: {'^x': {merge: deep}}\n",
        },
    )
    assert (
        env.error("ntp::a")
        == "all lookup_options patterns must match a key starting with module name 'ntp'"
    )


def test_module_default_hierarchy_only_when_nothing_found(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/common.yaml": "ntp::a: env\n",
            "modules/ntp/hiera.yaml": (
                "version: 5\nhierarchy: []\n"
                "default_hierarchy:\n  - name: defaults\n    path: defaults.yaml\n"
            ),
            "modules/ntp/data/defaults.yaml": "ntp::a: dflt\nntp::b: dflt\n",
        },
    )
    assert env.value("ntp::a") == "env"
    assert env.value("ntp::b") == "dflt"


def test_environment_without_hiera_yaml_has_no_data(tmp_path: Path) -> None:
    root = tmp_path / "production"
    (root / "data").mkdir(parents=True)
    (root / "data" / "common.yaml").write_text("a: 1\n")
    env = make_env(tmp_path, {"hiera.yaml": "version: 5\n"})
    (root / "hiera.yaml").unlink()
    assert not env.lookup("a").found


def test_global_layer_wins(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/common.yaml": "a: env\n",
            "GLOBAL/hiera.yaml": "version: 5\nhierarchy:\n  - name: g\n    path: global.yaml\n",
            "GLOBAL/data/global.yaml": "a: global\n",
        },
    )
    assert env.value("a") == "global"


def test_globs_sorted_and_mapped_paths(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "hiera.yaml": (
                "version: 5\nhierarchy:\n"
                '  - name: globbed\n    glob: "conf.d/*.yaml"\n'
                '  - name: mapped\n    mapped_paths: [facts.roles, r, "roles/%{r}.yaml"]\n'
            ),
            "data/conf.d/b.yaml": "k: b\nu: [b]\n",
            "data/conf.d/a.yaml": "k: a\nu: [a]\n",
            "data/roles/db.yaml": "u: [db]\n",
            "data/roles/web.yaml": "u: [web]\n",
        },
        facts={"roles": ["web", "db"]},
    )
    assert env.value("k") == "a"
    assert env.value("u", "unique") == ["a", "b", "web", "db"]


def test_unquoted_date_rejects_the_whole_file(tmp_path: Path) -> None:
    env = make_env(tmp_path, {"data/common.yaml": "a: 1\nwhen: 2021-01-01\n"})
    err = env.error("a")
    assert "Unable to parse" in err and "Date" in err


def test_knockout_prefix(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/nodes/web01.example.com.yaml": "k: {list: ['--b'], s: '--'}\n",
            "data/common.yaml": "k: {list: [a, b], s: low}\n",
        },
    )
    merge = {"strategy": "deep", "knockout_prefix": "--"}
    assert env.value("k", merge) == {"list": ["a"], "s": ""}


def test_merge_type_error_is_reported(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/nodes/web01.example.com.yaml": "h: str\n",
            "data/common.yaml": "h: {a: 1}\n",
        },
    )
    assert "The first element of the merge has wrong type" in env.error("h", "hash")


def test_custom_backend_level_is_skipped_with_a_note(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "hiera.yaml": (
                "version: 5\nhierarchy:\n"
                "  - name: vault\n    lookup_key: vault_lookup\n    path: x\n"
                "  - name: common\n    path: common.yaml\n"
            ),
            "data/common.yaml": "a: 1\n",
        },
    )
    out = env.lookup("a")
    assert out.value == 1
    assert out.incomplete is not None
    assert [lv.level for lv, _ in out.incomplete.levels] == ["vault"]
    assert out.incomplete.value


EYAML_HIERA = (
    "version: 5\nhierarchy:\n"
    "  - name: secrets\n    lookup_key: eyaml_lookup_key\n    path: secrets.eyaml\n"
    "    options:\n      pkcs7_private_key: /etc/keys/private_key.pkcs7.pem\n"
    "      pkcs7_public_key: /etc/keys/public_key.pkcs7.pem\n"
    "  - name: common\n    path: common.yaml\n"
)


def test_eyaml_levels_are_read_and_encrypted_strings_stay_as_written(tmp_path: Path) -> None:
    secret = "ENC[PKCS7,MIIBeQYJKoZIhvcNAQcDoIIBajCCAWYCAQAxggEhMIIBHQIBADAF]"
    env = make_env(
        tmp_path,
        {
            "hiera.yaml": EYAML_HIERA,
            "data/secrets.eyaml": (
                f"db::password: {secret}\n"
                "db::user: "
                "'app-%{facts.os.family}'\n"  # plain values are interpolated as in yaml_data
                f"db::settings:\n  password: {secret}\n  port: 5432\n"
                f"db::dsn: 'postgres://app:{secret}@db'\n"
                "lookup_options:\n  db::settings:\n    merge: deep\n"
            ),
            "data/common.yaml": "db::user: fallback\ndb::settings: {host: db01, port: 5433}\n",
        },
    )
    password = env.lookup("db::password")
    assert password.value == secret and isinstance(password.value, Encrypted)
    assert any("decrypts only when asked" in n for n in password.notes)
    assert env.value("db::user") == "app-Debian"
    # a deep merge across an eyaml and a yaml level (lookup_options from the eyaml file)
    assert env.value("db::settings") == {"host": "db01", "port": 5432, "password": secret}
    dsn = env.value("db::dsn")
    assert isinstance(dsn, Encrypted)  # Puppet decrypts the block inside the string
    assert not env.lookup("db::user").notes


@pytest.mark.parametrize("bad", ["a: [1\n", "- 1\n- 2\n"])
def test_broken_file_fails_lookups_that_reach_it_and_no_others(tmp_path: Path, bad: str) -> None:
    files = {
        "data/nodes/db01.example.com.yaml": bad,
        "data/common.yaml": "a: 1\n",
    }
    # web01's hierarchy never reaches db01's file: its lookups answer.
    assert make_env(tmp_path, files).value("a") == 1
    # For db01, Puppet reads lookup_options from every level first, so every lookup fails
    # with one message naming the file (and, for a syntax error, line and column).
    err = make_env(tmp_path, files, node="db01.example.com").error("a")
    assert "db01.example.com.yaml" in err
    assert err.startswith("Unable to parse (") or "does not contain a valid yaml hash" in err
    if bad.startswith("a: ["):
        assert "line 1 column 4" in err


def test_explain_trace_names_levels_and_positions(tmp_path: Path) -> None:
    env = make_env(
        tmp_path,
        {
            "data/nodes/web01.example.com.yaml": "h: {a: 1}\n",
            "data/common.yaml": "x: 0\nh: {b: 2}\n",
        },
    )
    out = env.lookup("h", "deep", explain=True)
    assert out.trace is not None
    found = list(out.trace.found_values())
    assert [n.label.rsplit("/", 1)[-1] for n in found] == ["web01.example.com.yaml", "common.yaml"]
    assert found[1].where is not None and found[1].where.span.start.line == 1
    from hiera_ls.engine.explain import render_text

    text = render_text(out.trace)
    assert 'Searching for "h"' in text and "Merge strategy deep" in text and "Merged result" in text


def test_explain_as_json_writes_hash_keys_as_ruby_prints_them(tmp_path: Path) -> None:
    # `puppet lookup --explain --render-as json` writes the explainer's hash with Ruby's JSON:
    # a Float key is its Ruby to_s (`1.0e+20`), not Python's `1e+20`.
    env = make_env(tmp_path, {"data/common.yaml": "h: {1.0e+20: 1, 3: 4}\n"})
    out = env.lookup("h", explain=True)
    assert out.trace is not None
    from hiera_ls.engine.explain import to_data

    assert '"value": {"1.0e+20": 1, "3": 4}' in json.dumps(to_data(out.trace))


def test_a_pattern_that_backtracks_still_matches_through_another_alternative(
    tmp_path: Path,
) -> None:
    """``^(a|aa)+$`` runs out of time on this key, ``b$`` matches it: Puppet (Onigmo, however
    long it takes) deep-merges; a timeout must never count as "no match"."""
    key = "a" * 61 + "b"
    env = make_env(
        tmp_path,
        {
            "data/nodes/web01.example.com.yaml": (
                f"lookup_options:\n  '^(a|aa)+$|b$':\n    merge: deep\n{key}:\n  x: 1\n"
            ),
            "data/common.yaml": f"{key}:\n  y: 2\n",
        },
    )
    out = env.lookup(key)
    assert out.error is None and out.value == {"y": 2, "x": 1}
    undecided = "a" * 61 + "c"  # neither alternative settles it: reported, not a miss
    env = make_env(
        tmp_path / "2",
        {
            "data/common.yaml": (
                f"lookup_options:\n  '^(a|aa)+$|b$':\n    merge: deep\n{undecided}: 1\n"
            )
        },
    )
    assert "took longer than" in env.error(undecided)


def test_convert_to_a_name_that_is_no_type_fails_and_an_alias_keeps_the_note(
    tmp_path: Path,
) -> None:
    env = make_env(
        tmp_path,
        {
            "data/common.yaml": """\
            lookup_options:
              unknown: {convert_to: ComicSans}
              aliased: {convert_to: 'Stdlib::Port'}
              local: {convert_to: Port}
            unknown: x
            aliased: '80'
            local: '80'
            """,
            "modules/stdlib/types/port.pp": "type Stdlib::Port = Integer[0, 65535]\n",
            "types/port.pp": "type Port = Integer[0, 65535]\n",
        },
    )
    assert env.error("unknown") == (
        "The convert_to lookup_option for key 'unknown' raised error: Creation of new instance "
        "of type 'TypeReference['ComicSans']' is not supported"
    )
    for key in ("aliased", "local"):
        out = env.lookup(key)
        assert out.value == "80"  # an alias hiera-ls does not evaluate: left as found, said so
        assert any("is not evaluated by hiera-ls" in n for n in out.notes)


def test_server_facts_environment_is_the_environments_name_as_in_a_catalog_compile(
    tmp_path: Path,
) -> None:
    env = make_env(
        tmp_path,
        {
            "hiera.yaml": """\
            version: 5
            hierarchy:
              - name: Environment
                path: "%{server_facts.environment}.yaml"
              - name: Common
                path: common.yaml
            """,
            "data/production.yaml": "k: production's own\n",
            "data/common.yaml": 'k: common\nall: "%{server_facts}"\n',
        },
    )
    assert env.value("k") == "production's own"  # `puppet lookup` alone would answer common
    assert env.value("all") == '{"environment"=>"production"}'
