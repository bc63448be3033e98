"""The published hiera.yaml schema: what editors read, and what the validator reads."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hiera_ls import schemas_path
from hiera_ls.project.legacy_schemas import V4_SCHEMA, v3_schema
from hiera_ls.project.schema_validation import SchemaReader, unsupported_keywords
from hiera_ls.puppet.type_format import format_type
from hiera_ls.puppet.type_mismatch import describe_mismatch
from hiera_ls.puppet.values import RubySymbol
from hiera_ls.schemas_path import HIERA_V5, load_schema, schema_path, schemas_dir

REPOSITORY = Path(__file__).resolve().parents[2]

# Puppet 7.23 printing HieraConfigV5.config_type in a mismatch ("expects a ... value").
OPTIONS = r"Hash[Pattern[/\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\z/], Data]"
LEVEL = (
    f"Struct[{{'name' => String[1], Optional['options'] => {OPTIONS}, Optional['data_hash'] => "
    "String[1], Optional['lookup_key'] => String[1], Optional['hiera3_backend'] => String[1], "
    "Optional['v4_data_hash'] => String[1], Optional['data_dig'] => String[1], Optional['path'] "
    "=> String[1], Optional['paths'] => Array[String[1], 1], Optional['glob'] => String[1], "
    "Optional['globs'] => Array[String[1], 1], Optional['uri'] => String[1], Optional['uris'] => "
    "Array[String[1], 1], Optional['mapped_paths'] => Array[String[1], 3, 3], Optional['datadir'] "
    "=> String[1]}]"
)
PUPPET_V5_TYPE = (
    "Struct[{'version' => Integer[5, 5], Optional['defaults'] => Struct[{Optional['data_hash'] "
    "=> String[1], Optional['lookup_key'] => String[1], Optional['data_dig'] => String[1], "
    f"Optional['datadir'] => String[1], Optional['options'] => {OPTIONS}}}], Optional['hierarchy'] "
    f"=> Array[{LEVEL}], Optional['plan_hierarchy'] => Array[{LEVEL}], "
    f"Optional['default_hierarchy'] => Array[{LEVEL}]}}]"
)
PUPPET_V3_TYPE = (
    "Struct[{Optional['version'] => Integer[3, 3], Optional['backends'] => Variant[String[1], "
    "Array[String[1]]], Optional['logger'] => String[1], Optional['merge_behavior'] => "
    "Enum['deep', 'deeper', 'native'], Optional['deep_merge_options'] => Hash[String[1], "
    "Variant[String, Boolean]], Optional['hierarchy'] => Variant[String[1], Array[String[1]]], "
    "Optional['yaml'] => Hash[String[1], Any]}]"
)


def test_editable_install_reads_the_repository_schemas() -> None:
    assert schemas_dir() == REPOSITORY / "schemas"
    assert schema_path() == REPOSITORY / "schemas" / HIERA_V5


def test_an_installed_copy_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "hiera_ls"
    (package / "schemas").mkdir(parents=True)
    monkeypatch.setattr(schemas_path, "_PACKAGE_DIR", package)
    assert schemas_dir() == package / "schemas"


def test_missing_schemas_are_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(schemas_path, "_PACKAGE_DIR", tmp_path / "a" / "b")
    with pytest.raises(FileNotFoundError):
        schemas_dir()


def test_wheels_carry_the_schemas() -> None:
    pyproject = (REPOSITORY / "pyproject.toml").read_text()
    assert '"schemas" = "hiera_ls/schemas"' in pyproject


def test_schema_is_2020_12_and_uses_only_keywords_the_validator_reads() -> None:
    schema = json.loads((REPOSITORY / "schemas" / HIERA_V5).read_text())
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert unsupported_keywords(schema) == []
    assert unsupported_keywords(V4_SCHEMA) == []
    assert unsupported_keywords(v3_schema(["yaml"])) == []


def test_every_property_is_described_with_an_example() -> None:
    """Editors show these descriptions on hover and in completion."""
    schema = load_schema()
    reader = SchemaReader(schema)
    documented = {
        "": schema["properties"],
        "defaults.": schema["properties"]["defaults"]["properties"],
        "level.": schema["$defs"]["level"]["properties"],
    }
    checked = 0
    for prefix, properties in documented.items():
        for name, sub in properties.items():
            description = sub.get("description") or reader.deref(sub).get("description", "")
            assert len(description) > 40, prefix + name
            assert "Example" in description, prefix + name
            checked += 1
    assert checked == 5 + 5 + 15
    assert schema["$defs"]["optionName"]["description"] and schema["$defs"]["data"]["description"]


def test_schema_is_puppets_type() -> None:
    assert format_type(SchemaReader(load_schema()).puppet_type()) == PUPPET_V5_TYPE
    assert format_type(SchemaReader(v3_schema(["yaml"])).puppet_type()) == PUPPET_V3_TYPE


VALID = [
    {"version": 5},
    {
        "version": 5,
        "hierarchy": [{"name": "a", "path": "a.yaml"}, {"name": "b", "globs": ["*.yaml"]}],
    },
    {
        "version": 5,
        "defaults": {
            "data_hash": "json_data",
            "datadir": "d",
            "options": {"k-1": [1, {"x": None}]},
        },
    },
    {
        "version": 5,
        "defaults": {},
        "hierarchy": [{"name": "a", "lookup_key": "eyaml_lookup_key", "path": "s"}],
    },
    {"version": 5, "hierarchy": [{"name": "a", "mapped_paths": ["facts.r", "r", "r/%{r}.yaml"]}]},
    {"version": 5, "defaults": None, "hierarchy": None},  # Puppet fills both in
]
INVALID = [
    {},
    {"version": "5"},
    {"version": 5, "hierachy": []},
    {"version": 5, "hierarchy": [{"path": "x"}]},
    {"version": 5, "hierarchy": [{"name": "a", "path": "x", "glob": "y"}]},
    {"version": 5, "hierarchy": [{"name": "a", "data_hash": "yaml_data", "data_dig": "f"}]},
    {"version": 5, "hierarchy": [{"name": "a", "paths": []}]},
    {"version": 5, "hierarchy": [{"name": "a", "mapped_paths": ["a", "b"]}]},
    {"version": 5, "hierarchy": [{"name": "a", "options": {"_x": 1}}]},
    {"version": 5, "hierarchy": [{"name": "a", "options": {"path": "p"}}]},
    {"version": 5, "hierarchy": [{"name": "a", "hiera3_backend": "yaml"}]},
    {"version": 5, "defaults": {"datadir": "d"}, "hierarchy": [{"name": "a", "path": "x"}]},
    {"version": 5, "defaults": {"data_hash": "a", "lookup_key": "b"}},
    {"version": 5, "defaults": {"options": {"uri": "u"}}},
]


@pytest.mark.parametrize("instance", VALID)
def test_valid_files_pass_as_plain_json_schema(instance: dict[str, Any]) -> None:
    reader = SchemaReader(load_schema())
    assert reader.is_valid(reader.root, instance)


@pytest.mark.parametrize("instance", INVALID)
def test_broken_files_fail_as_plain_json_schema(instance: dict[str, Any]) -> None:
    reader = SchemaReader(load_schema())
    assert not reader.is_valid(reader.root, instance)


def test_layer_rules_are_annotations_not_constraints() -> None:
    """An editor cannot know the layer, so the schema accepts hiera3_backend and
    default_hierarchy; the validator applies x-hiera-layers."""
    reader = SchemaReader(load_schema())
    instance = {"version": 5, "default_hierarchy": [{"name": "d", "hiera3_backend": "mongo"}]}
    assert reader.is_valid(reader.root, instance)
    issues = {
        layer: [f.issue for f in reader.findings(instance, layer)]
        for layer in ("global", "environment", "module")
    }
    assert issues == {
        "global": ["HIERA_DEFAULT_HIERARCHY_NOT_IN_MODULE"],
        "environment": ["HIERA_DEFAULT_HIERARCHY_NOT_IN_MODULE", "HIERA_V3_BACKEND_NOT_GLOBAL"],
        "module": ["HIERA_V3_BACKEND_NOT_GLOBAL"],
    }


# hiera.yaml-like values: right and wrong names, kinds and sizes, and values of no plain type
_WORDS = st.sampled_from(
    ["version", "defaults", "hierarchy", "plan_hierarchy", "default_hierarchy", "name", "path",
     "paths", "glob", "globs", "uri", "uris", "mapped_paths", "datadir", "data_hash",
     "lookup_key", "data_dig", "hiera3_backend", "v4_data_hash", "options", "backends",
     "logger", "merge_behavior", "deep_merge_options", "yaml", "k-1", "_x", "a:b", "é", ""]
)  # fmt: skip
_LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.sampled_from([3, 4, 5, 5.0, "5", math.nan, RubySymbol("yaml"), 2**70]),
    _WORDS,
)
_CONFIGS = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_WORDS, inner, max_size=4),
    max_leaves=16,
)
_SCHEMAS = {"v5": load_schema(), "v4": V4_SCHEMA, "v3": v3_schema(["yaml", "json"])}
# near-valid files: mostly right shapes and values, a wrong piece here and there
_GOOD = st.sampled_from(["a", "d/%{x}.yaml", "yaml_data", "k-1"])
_TEXTS = st.one_of(*[_GOOD] * 9, _LEAVES)
_DATA = st.recursive(
    st.one_of(_GOOD, st.integers(-3, 3), st.none()),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(_GOOD, inner, max_size=2),
    max_leaves=4,
)
_OPTIONS = st.dictionaries(st.one_of(*[_GOOD] * 9, _WORDS), st.one_of(*[_DATA] * 9, _CONFIGS))
_LEVEL = st.fixed_dictionaries(
    {"name": _TEXTS, "path": _TEXTS},
    optional={"datadir": _TEXTS, "options": _OPTIONS, "lookup_key": _TEXTS},
)
_NEAR_VALID = st.fixed_dictionaries(
    {"version": st.sampled_from([5] * 9 + [3, "5", 5.0, True]), "hierarchy": st.lists(_LEVEL)},
    optional={"defaults": st.fixed_dictionaries({"datadir": _TEXTS, "data_hash": _TEXTS})},
)


@settings(max_examples=120, deadline=None)
@given(schema=st.sampled_from(sorted(_SCHEMAS)), config=_CONFIGS | _NEAR_VALID)
def test_what_is_plainly_accepted_passes_puppets_type_check(schema: str, config: object) -> None:
    """hiera.yaml files are settled without Puppet's type system when their plain values fit
    the schema (a cold lookup then never loads it): never one the type check would refuse."""
    reader = SchemaReader(_SCHEMAS[schema])
    if reader.plainly_accepts(config):
        assert describe_mismatch("x", reader.puppet_type(), config) == [], config


@pytest.mark.parametrize("instance", VALID)
def test_valid_files_are_plainly_accepted(instance: dict[str, Any]) -> None:
    reader = SchemaReader(load_schema())
    assert reader.plainly_accepts(reader.fill_defaults(instance))
