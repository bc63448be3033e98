"""hiera.yaml as Puppet reads it: the error every lookup raises, each finding at its range,
and the hierarchy levels handed to the engine."""

from __future__ import annotations

import random

import pytest

from hiera_ls.checks.rules import RULES as CODES
from hiera_ls.project.hiera_config import load_hiera_config
from hiera_ls.project.hiera_config_model import (
    HieraConfig,
    LocationSpec,
    builtin_default_config,
    version_number,
)
from hiera_ls.puppet.regexp import ruby_regexp_error
from hiera_ls.puppet.values import RubySymbol
from hiera_ls.source.spans import Severity, Span
from tests.project.hiera_config_cases import CASES, Case

PATH = "/etc/puppetlabs/code/environments/production/hiera.yaml"


def load(text: str, layer: str = "environment") -> HieraConfig:
    return load_hiera_config(PATH, text, layer)  # type: ignore[arg-type]


def found(cfg: HieraConfig) -> list[tuple[str, Span]]:
    return [(p.code, p.where.span) for p in cfg.problems]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_error_is_what_puppet_raises(case: Case) -> None:
    cfg = load(case.text, case.layer)
    expected = case.error.replace("{path}", PATH) if case.error is not None else None
    assert cfg.error == expected


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_every_error_is_also_a_problem_in_the_file(case: Case) -> None:
    cfg = load(case.text, case.layer)
    assert all(p.where.path == PATH and p.code in CODES for p in cfg.problems)
    lines = case.text.split("\n")
    for p in cfg.problems:
        span = p.where.span
        assert span.start <= span.end
        assert span.end.line < max(len(lines), 1)
    if cfg.error is not None:
        assert any(p.severity is Severity.ERROR for p in cfg.problems)


# ------------------------------------------------------------------------------ ranges


def test_each_type_mismatch_points_at_its_key_or_value() -> None:
    text = "version: 5\nhierarchy:\n  - path: x\n    pth: y\n  - name: ''\n    paths: []\n"
    cfg = load(text)
    assert found(cfg) == [
        (
            "hiera-config-wrong-type",
            Span.of(2, 4, 2, 11),
        ),  # the level that lacks a name: its first line
        ("hiera-config-wrong-type", Span.of(3, 4, 3, 7)),  # the unknown key 'pth'
        ("hiera-config-wrong-type", Span.of(4, 10, 4, 12)),  # name ''
        ("hiera-config-wrong-type", Span.of(5, 11, 5, 13)),  # paths []
    ]
    messages = [p.message for p in cfg.problems[:4]]
    assert messages[1] == (
        f"The Lookup Configuration at '{PATH}' has wrong type, entry 'hierarchy' index 0 "
        "unrecognized key 'pth'"
    )
    assert cfg.error is not None and cfg.error.startswith(" The Lookup")  # several: Puppet's join


def test_option_name_mismatch_points_at_the_key() -> None:
    cfg = load(
        "version: 5\nhierarchy:\n  - name: a\n    path: x\n    data_hash: my::data\n    options:\n"
        "      _x: 1\n"
    )
    assert found(cfg) == [("hiera-config-wrong-type", Span.of(6, 6, 6, 8))]


def test_symbol_keys_are_found_in_the_file() -> None:
    cfg = load(":version: 5\n:hierarchy:\n  - :name: a\n    :path: x\n    :pth: y\n")
    assert found(cfg) == [("hiera-config-wrong-type", Span.of(4, 4, 4, 8))]
    assert "unrecognized key 'pth'" in (cfg.error or "")


def test_every_semantic_finding_is_reported_the_first_is_the_error() -> None:
    text = (
        "version: 5\n"
        "defaults:\n"
        "  data_hash: yaml_data\n"
        "  lookup_key: eyaml_lookup_key\n"
        "  options:\n"
        "    path: x\n"
        "hierarchy:\n"
        "  - name: Common\n"
        "    path: common.yaml\n"
        "    glob: '*.yaml'\n"
        "    data_dig: x\n"
        "    hiera3_backend: yaml\n"
        "    options:\n"
        "      uri: y\n"
        "  - name: Common\n"
        "    path: x\n"
    )
    cfg = load(text)
    assert found(cfg) == [
        ("hiera-config-multiple-functions", Span.of(3, 2, 3, 12)),  # the second function key
        ("hiera-config-reserved-option", Span.of(5, 4, 5, 8)),
        ("hiera-config-multiple-functions", Span.of(11, 4, 11, 18)),
        ("hiera-config-hiera3-backend-not-global", Span.of(11, 4, 11, 18)),
        ("hiera-config-hiera3-backend-replaced", Span.of(11, 20, 11, 24)),
        ("hiera-config-multiple-locations", Span.of(9, 4, 9, 8)),
        ("hiera-config-reserved-option", Span.of(13, 6, 13, 9)),
        ("hiera-config-duplicate-name", Span.of(14, 10, 14, 16)),
        ("hiera-config-options-refused", Span.of(4, 2, 4, 9)),
    ]
    assert cfg.error == (
        "Only one of data_hash, lookup_key, data_dig, or hiera3_backend can be defined in "
        f"defaults (file: {PATH})"
    )
    assert cfg.problems[7].message == (
        "Hierarchy name 'Common' defined more than once. First defined at (line: 8) (file: "
        f"{PATH}, line: 15)"
    )


def test_missing_function_of_a_filled_in_level_points_at_defaults() -> None:
    cfg = load("version: 5\ndefaults:\n  datadir: data\n")
    assert found(cfg) == [("hiera-config-missing-function", Span.of(1, 0, 1, 8))]
    assert cfg.error == (
        "One of data_hash, lookup_key, data_dig, or hiera3_backend must be defined in hierarchy "
        f"'Common' (file: {PATH})"
    )


def test_puppet_line_search_ignores_text_after_any_hash_mark() -> None:
    text = (
        "version: 5\nhierarchy:\n  - name: 'a' # name: a\n    path: x\n  - name: a\n    path: y\n"
    )
    assert load(text).error == (
        f"Hierarchy name 'a' defined more than once. First defined at (line: 3) (file: {PATH}, "
        "line: 5)"
    )
    quoted = "version: 5\nhierarchy:\n  - name: 'a#b'\n    path: x\n  - name: 'a#b'\n    path: y\n"
    assert load(quoted).error == f"Hierarchy name 'a#b' defined more than once. (file: {PATH})"


def test_a_name_that_breaks_puppets_search_pattern() -> None:
    text = "version: 5\nhierarchy:\n  - name: x(y\n    path: a\n  - name: x(y\n    path: b\n"
    pattern = "\\s+name:\\s+['\"]?x(y(?:[^\\w]|$)"
    assert load(text).error == f"end pattern with unmatched parenthesis: /{pattern}/"
    assert ruby_regexp_error("a)b") == "unmatched close parenthesis"
    assert ruby_regexp_error("a[b") == "premature end of char-class"
    assert ruby_regexp_error("a.b") is None


def test_file_wide_findings_sit_on_version_or_the_first_line() -> None:
    assert found(load("version: 4\nhierarchy: []\n", "global")) == [
        ("hiera-config-deprecated-version", Span.of(0, 9, 0, 10)),
        ("hiera-config-v4-in-global", Span.of(0, 9, 0, 10)),
    ]
    assert found(load("backends:\n  - yaml\n")) == [
        ("hiera-config-deprecated-version", Span.of(0, 0, 0, 9)),
        ("hiera-config-v3-not-allowed", Span.of(0, 0, 0, 9)),
    ]
    empty = load("")
    assert found(empty) == [
        ("hiera-config-not-a-hash", Span.of(0, 0, 0, 0)),
        ("hiera-config-deprecated-version", Span.of(0, 0, 0, 0)),
        ("hiera-config-v3-not-allowed", Span.of(0, 0, 0, 0)),
    ]
    assert empty.problems[0].message == (
        f"{PATH}: File exists but does not contain a valid YAML hash. Falling back to Hiera "
        "version 3 default config"
    )
    assert empty.problems[0].severity is Severity.WARNING


def test_v3_global_is_one_level_per_backend_and_custom_backends_are_said_to_be_skipped() -> None:
    cfg = load(
        ":backends:\n  - yaml\n  - mongo\n:hierarchy:\n  - '%{::fqdn}'\n  - common\n"
        ":yaml:\n  :datadir: /srv/hieradata\n",
        "global",
    )
    assert (cfg.version, cfg.error) == (3, None)
    yaml_level, mongo_level = cfg.hierarchy
    assert (yaml_level.name, yaml_level.function_kind, yaml_level.function_name) == (
        "yaml",
        "data_hash",
        "yaml_data",
    )
    assert yaml_level.location.values == ("%{::fqdn}", "common")
    assert (yaml_level.datadir, yaml_level.extension) == ("/srv/hieradata", ".yaml")
    assert mongo_level.datadir == "/etc/puppetlabs/code/environments/%{::environment}/hieradata"
    assert (mongo_level.function_kind, mongo_level.read_by_hiera_ls) == ("hiera3_backend", False)
    assert [p.code for p in cfg.problems] == [
        "hiera-config-deprecated-version",
        "hiera-config-v3-not-evaluated",
    ]
    assert cfg.problems[1].severity is Severity.INFORMATION
    assert "'mongo'" in cfg.problems[1].message


def test_yaml_syntax_error_keeps_the_loaders_problem() -> None:
    cfg = load("version: 5\nhierarchy: [\n")
    assert [p.code for p in cfg.problems] == ["yaml-syntax"]
    assert cfg.hierarchy == ()


# ------------------------------------------------------------------------------ levels


def test_levels_for_the_engine() -> None:
    text = (
        "version: 5\n"
        "defaults:\n"
        "  datadir: shared\n"
        "  data_hash: json_data\n"
        "  options:\n"
        "    a: 1\n"
        "hierarchy:\n"
        "  - name: Nodes\n"
        '    path: "nodes/%{trusted.certname}.json"\n'
        "  - name: Roles\n"
        '    mapped_paths: [facts.roles, role, "roles/%{role}.yaml"]\n'
        "    data_hash: yaml_data\n"
        "    datadir: data\n"
        "    options: {}\n"
        "  - name: Secrets\n"
        "    lookup_key: eyaml_lookup_key\n"
        '    globs: ["secrets/*.eyaml", "more/*.eyaml"]\n'
        "  - name: Remote\n"
        "    data_dig: my::dig\n"
        '    uri: "https://example.com/%{trusted.certname}"\n'
    )
    cfg = load(text)
    assert cfg.error is None and cfg.version == 5
    nodes, roles, secrets, remote = cfg.hierarchy
    assert (nodes.name, nodes.function_kind, nodes.function_name) == (
        "Nodes",
        "data_hash",
        "json_data",
    )
    assert nodes.location == LocationSpec(
        "path", ("nodes/%{trusted.certname}.json",), (Span.of(8, 10, 8, 42),)
    )
    assert (nodes.datadir, nodes.datadir_span, nodes.options) == (
        "shared",
        Span.of(2, 11, 2, 17),
        {"a": 1},
    )
    assert nodes.name_span == Span.of(7, 10, 7, 15)
    assert nodes.span.start == Span.of(7, 4, 7, 4).start and nodes.span.contains(
        nodes.location.spans[0].end
    )
    assert roles.location.kind == "mapped_paths"
    assert roles.location.values == ("facts.roles", "role", "roles/%{role}.yaml")
    assert len(roles.location.spans) == 3
    assert (roles.function_name, roles.datadir, roles.options) == (
        "yaml_data",
        "data",
        {},
    )  # {} is not replaced
    assert (secrets.function_kind, secrets.location.kind, secrets.location.values) == (
        "lookup_key",
        "globs",
        ("secrets/*.eyaml", "more/*.eyaml"),
    )
    assert (remote.function_kind, remote.function_name, remote.location.kind) == (
        "data_dig",
        "my::dig",
        "uri",
    )
    assert cfg.default_hierarchy == ()


def test_absent_hierarchy_and_defaults_are_puppets_defaults() -> None:
    cfg = load("version: 5\n")
    (common,) = cfg.hierarchy
    assert (common.name, common.function_kind, common.function_name, common.datadir) == (
        "Common",
        "data_hash",
        "yaml_data",
        "data",
    )
    assert common.location.values == ("common.yaml",)
    assert load("version: 5\nhierarchy: []\n").hierarchy == ()


def test_default_hierarchy_only_in_modules() -> None:
    text = (
        "version: 5\nhierarchy:\n  - name: a\n    path: a.yaml\ndefault_hierarchy:\n  - name: d\n"
        "    path: d.yaml\n"
    )
    module = load(text, "module")
    assert module.error is None
    assert [e.name for e in module.default_hierarchy] == ["d"]
    assert load(text, "environment").default_hierarchy == ()


def test_v4_levels_get_the_backend_extension() -> None:
    text = (
        "version: 4\n"
        "datadir: hieradata\n"
        "hierarchy:\n"
        "  - name: common\n"
        "    backend: yaml\n"
        "  - name: nodes\n"
        "    backend: json\n"
        '    paths: ["nodes/%{trusted.certname}", other.json]\n'
        "    datadir: jsondata\n"
    )
    cfg = load(text)
    assert cfg.error is None and cfg.version == 4
    common, nodes = cfg.hierarchy
    assert (common.function_name, common.location.values, common.datadir) == (
        "yaml_data",
        ("common.yaml",),
        "hieradata",
    )
    assert (nodes.function_name, nodes.location.kind, nodes.datadir) == (
        "json_data",
        "paths",
        "jsondata",
    )
    assert nodes.location.values == ("nodes/%{trusted.certname}.json", "other.json")
    assert [p.code for p in cfg.problems] == ["hiera-config-deprecated-version"]


def test_builtin_default_config() -> None:
    cfg = builtin_default_config()
    assert (cfg.path, cfg.version, cfg.error, cfg.problems, cfg.default_hierarchy) == (
        None,
        5,
        None,
        (),
        (),
    )
    (common,) = cfg.hierarchy
    assert (
        common.name,
        common.function_name,
        common.location.values,
        common.datadir,
        common.options,
    ) == (
        "Common",
        "yaml_data",
        ("common.yaml",),
        "data",
        None,
    )


def test_builtin_function_without_a_usable_location() -> None:
    cfg = load("version: 5\nhierarchy:\n  - name: a\n  - name: b\n    uri: http://x\n")
    assert cfg.error is None  # Puppet fails only when a lookup reaches the level
    assert [(p.code, p.where.span) for p in cfg.problems] == [
        ("hiera-config-missing-location", Span.of(2, 10, 2, 11)),
        ("hiera-config-missing-location", Span.of(4, 9, 4, 17)),
    ]
    assert cfg.problems[0].message == (
        "'yaml_data' one of 'path', 'paths' 'glob', 'globs' or 'mapped_paths' must be declared in "
        "hiera.yaml when using this data_hash function"
    )


def test_custom_functions_are_accepted() -> None:
    text = (
        "version: 5\nhierarchy:\n  - name: a\n    data_hash: my::data\n  - name: b\n"
        "    hiera3_backend: mongo\n"
    )
    cfg = load(text, "global")
    assert cfg.error is None and cfg.problems == ()
    assert [(e.function_kind, e.function_name) for e in cfg.hierarchy] == [
        ("data_hash", "my::data"),
        ("hiera3_backend", "mongo"),
    ]


# ------------------------------------------------------------------------------ versions


@pytest.mark.parametrize(
    ("value", "number"),
    [
        (5, 5),
        ("5", 5),
        (" 5_0x", 50),
        ("-4", -4),
        ("abc", 0),
        (5.9, 5),
        (True, "undefined method `to_i' for true:TrueClass"),
        ([5], "undefined method `to_i' for [5]:Array"),
        ({"a": 1}, 'undefined method `to_i\' for {"a"=>1}:Hash'),
        (RubySymbol("x"), "undefined method `to_i' for :x:Symbol"),
        (RubySymbol('x"'), 'undefined method `to_i\' for :"x\\"":Symbol'),
    ],
)
def test_version_is_read_with_rubys_to_i(value: object, number: int | str) -> None:
    assert version_number(value) == number


def test_false_version_means_version_3() -> None:
    assert load("version: false\n", "global").version == 3


# ------------------------------------------------------------------------------ robustness


_PIECES = [
    "version",
    "hierarchy",
    "name",
    "path",
    "paths",
    "defaults",
    "options",
    "glob",
    "datadir",
    "data_hash",
    "lookup_key",
    "mapped_paths",
    "default_hierarchy",
    ":",
    ": ",
    "- ",
    "\n",
    "\n  ",
    "\n    ",
    "[",
    "]",
    "{",
    "}",
    ",",
    "'",
    '"',
    "#",
    "5",
    "4",
    "3",
    "~",
    "&a ",
    "*a",
    "<<: ",
    "!!str ",
    ":sym",
    "%{x}",
    "%{lookup('x')}",
    "x(",
    "\t",
    "\u00e9",
    "?",
    "|\n  x",
    ">-\n  y",
]


@pytest.mark.parametrize(  # 3,000 texts; the quick loop reads the first 1,000
    "seed",
    [1234, pytest.param(1235, marks=pytest.mark.slow), pytest.param(1236, marks=pytest.mark.slow)],
)
def test_never_raises_on_any_text(seed: int) -> None:
    rng = random.Random(seed)
    seeds = [c.text for c in CASES]
    for _ in range(1000):
        text = rng.choice(seeds)
        for _ in range(rng.randint(1, 6)):
            at = rng.randint(0, len(text))
            if rng.random() < 0.6:
                text = text[:at] + rng.choice(_PIECES) + text[at:]
            else:
                text = text[:at] + text[at + rng.randint(1, 6) :]
        for layer in ("global", "environment", "module"):
            cfg = load(text, layer)
            assert all(p.where.span.start <= p.where.span.end for p in cfg.problems)
