"""Broken (and a few valid) hiera.yaml files with the error Puppet raises for them.

Every expected text was taken from Puppet 7.23's own output: ``puppet lookup --explain
--environmentpath ENVS --environment production --node n1 --facts F --strict error
--strict_variables somekey`` (``mod::somekey`` for the module layer, ``--hiera_config``
for the global layer), with the file's path replaced by ``{path}``.
tests/differential/test_hiera_config_vs_puppet.py re-checks the whole table against Puppet.

``error`` is None when every lookup in the layer works (not-found is not an error).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    id: str
    layer: str
    text: str
    error: str | None


WRONG = "The Lookup Configuration at '{path}' has wrong type,"
FUNCTIONS = "data_hash, lookup_key, data_dig, or hiera3_backend"
LOCATIONS = "path, paths, glob, globs, uri, uris, or mapped_paths"
OPTION_NAME = r"Pattern[/\A[A-Za-z](:?[0-9A-Za-z_-]*[0-9A-Za-z])?\z/]"

CASES: list[Case] = [
    # ---------------------------------------------------------------- structure
    Case(
        "unknown-entry-key",
        "environment",
        "version: 5\nhierarchy:\n  - name: Common\n    pth: common.yaml\n",
        f"{WRONG} entry 'hierarchy' index 0 unrecognized key 'pth'",
    ),
    Case(
        "unknown-top-key",
        "environment",
        "version: 5\nhierachy:\n  - name: Common\n    path: common.yaml\n",
        f"{WRONG} unrecognized key 'hierachy'",
    ),
    Case(
        "missing-name",
        "environment",
        "version: 5\nhierarchy:\n  - path: common.yaml\n",
        f"{WRONG} entry 'hierarchy' index 0 expects a value for key 'name'",
    ),
    Case(
        "version-string",
        "environment",
        "version: '5'\n",
        f"{WRONG} entry 'version' expects an Integer value, got String",
    ),
    Case(
        "paths-empty",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    paths: []\n",
        f"{WRONG} entry 'hierarchy' index 0 entry 'paths' expects size to be at least 1, got 0",
    ),
    Case(
        "mapped-paths-two",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    mapped_paths: [facts.roles, role]\n",
        f"{WRONG} entry 'hierarchy' index 0 entry 'mapped_paths' expects size to be 3, got 2",
    ),
    Case(
        "option-name-pattern",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    path: x.yaml\n    options:\n      _x: 1\n",
        f"{WRONG} entry 'hierarchy' index 0 entry 'options' key of entry '_x' expects a match for "
        f"{OPTION_NAME}, got '_x'",
    ),
    Case(
        "several-mismatches-joined",
        "environment",
        "version: 5\nhierarchy:\n  - path: x\n    pth: y\n  - name: ''\n",
        f" {WRONG} entry 'hierarchy' index 0 expects a value for key 'name'\n"
        f"  {WRONG} entry 'hierarchy' index 0 unrecognized key 'pth'\n"
        f"  {WRONG} entry 'hierarchy' index 1 entry 'name' expects a String[1] value, got String",
    ),
    Case(
        "defaults-wrong-type-then-unknown-key",
        "environment",
        "version: 5\nhierachy: []\ndefaults: x\n",
        f" {WRONG} entry 'defaults' expects a Struct value, got String\n"
        f"  {WRONG} unrecognized key 'hierachy'",
    ),
    Case(
        "hierarchy-is-a-hash",
        "environment",
        "version: 5\nhierarchy:\n  name: a\n  path: x\n",
        f"{WRONG} entry 'hierarchy' expects an Array value, got Struct",
    ),
    Case(
        "path-is-a-list",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    path: [x]\n",
        f"{WRONG} entry 'hierarchy' index 0 entry 'path' expects a String value, got Tuple",
    ),
    Case(
        "path-is-null",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    path:\n",
        f"{WRONG} entry 'hierarchy' index 0 entry 'path' expects a String value, got Undef",
    ),
    Case(
        "empty-level",
        "environment",
        "version: 5\nhierarchy:\n  - {}\n",
        f"{WRONG} entry 'hierarchy' index 0 expects size to be between 1 and 15, got 0",
    ),
    Case(
        "option-value-not-data",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    path: x\n    options:\n      k: {1: 2}\n",
        f"{WRONG} entry 'hierarchy' index 0 entry 'options' entry 'k' expects a Data value, got "
        "Hash",
    ),
    Case(
        "symbol-value",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    data_hash: :yaml_data\n    path: x\n",
        f"{WRONG} entry 'hierarchy' index 0 entry 'data_hash' expects a String value, got Runtime",
    ),
    Case(
        "version-float",
        "environment",
        "version: 5.5\n",
        f"{WRONG} entry 'version' expects an Integer value, got Float",
    ),
    Case(
        "global-type-error-is-wrapped",
        "global",
        "version: 5\nhierarchy:\n  - name: a\n    pth: x\n",
        f"Lookup of key 'lookup_options' failed: {WRONG} entry 'hierarchy' index 0 unrecognized "
        "key 'pth'",
    ),
    # ---------------------------------------------------------------- semantic rules
    Case(
        "defaults-two-functions",
        "environment",
        "version: 5\ndefaults:\n  data_hash: yaml_data\n  lookup_key: eyaml_lookup_key\n",
        f"Only one of {FUNCTIONS} can be defined in defaults (file: {{path}})",
    ),
    Case(
        "defaults-option-path",
        "environment",
        "version: 5\ndefaults:\n  data_hash: yaml_data\n  options:\n    path: x\n",
        "Option key 'path' used in defaults is reserved by Puppet (file: {path})",
    ),
    Case(
        "defaults-option-uri",
        "environment",
        "version: 5\ndefaults:\n  data_hash: yaml_data\n  options:\n    uri: x\n",
        "Option key 'uri' used in defaults is reserved by Puppet (file: {path})",
    ),
    Case(
        "no-function-anywhere",
        "environment",
        "version: 5\ndefaults:\n  datadir: data\nhierarchy:\n  - name: Common\n"
        "    path: common.yaml\n",
        f"One of {FUNCTIONS} must be defined in hierarchy 'Common' (file: {{path}})",
    ),
    Case(
        "level-two-functions",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    data_hash: yaml_data\n"
        "    lookup_key: eyaml_lookup_key\n    path: x\n",
        f"Only one of {FUNCTIONS} can be defined in hierarchy 'a' (file: {{path}})",
    ),
    Case(
        "hiera3-backend-in-environment",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    hiera3_backend: mongodb\n    path: x\n",
        "'hiera3_backend' is only allowed in the global layer (file: {path}, line: 4)",
    ),
    Case(
        "hiera3-backend-in-module",
        "module",
        "version: 5\nhierarchy:\n  - name: a\n    hiera3_backend: mongodb\n    path: x\n",
        "'hiera3_backend' is only allowed in the global layer (file: {path}, line: 4)",
    ),
    Case(
        "hiera3-backend-json",
        "global",
        "version: 5\nhierarchy:\n  - name: a\n    hiera3_backend: json\n    path: x\n",
        'Use "data_hash: json_data" instead of "hiera3_backend: json" (file: {path}, line: 4)',
    ),
    Case(
        "hiera3-backend-yaml-quoted",
        "global",
        "version: 5\nhierarchy:\n  - name: a\n    path: x\n    hiera3_backend: 'yaml' # no\n",
        'Use "data_hash: yaml_data" instead of "hiera3_backend: yaml" (file: {path}, line: 5)',
    ),
    Case(
        "two-locations",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    path: x.yaml\n    glob: '*.yaml'\n",
        f"Only one of {LOCATIONS} can be defined in hierarchy 'a' (file: {{path}})",
    ),
    Case(
        "level-option-path",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    path: x\n    options:\n      path: y\n",
        "Option key 'path' used in hierarchy 'a' is reserved by Puppet (file: {path})",
    ),
    Case(
        "level-option-uri",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    path: x\n    options:\n      uri: y\n",
        "Option key 'uri' used in hierarchy 'a' is reserved by Puppet (file: {path})",
    ),
    Case(
        "default-hierarchy-in-environment",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    path: x\ndefault_hierarchy:\n  - name: d\n"
        "    path: y\n",
        "'default_hierarchy' is only allowed in the module layer (file: {path}, line: 5)",
    ),
    Case(
        "default-hierarchy-in-global",
        "global",
        "version: 5\ndefault_hierarchy:\n  - name: d\n    path: y\n",
        "'default_hierarchy' is only allowed in the module layer (file: {path}, line: 2)",
    ),
    Case(
        "default-hierarchy-in-module",
        "module",
        "version: 5\nhierarchy:\n  - name: a\n    path: x\ndefault_hierarchy:\n  - name: d\n"
        "    path: y\n",
        None,
    ),
    Case(
        "duplicate-name",
        "environment",
        'version: 5\nhierarchy:\n  - name: Common\n    path: a.yaml\n  - name: "Common"\n'
        "    path: b.yaml\n",
        "Hierarchy name 'Common' defined more than once. First defined at (line: 3) (file: {path}, "
        "line: 5)",
    ),
    Case(
        "duplicate-name-flow-style",
        "environment",
        "version: 5\nhierarchy:\n  - {name: Common, path: a.yaml}\n"
        "  - {name: Common, path: b.yaml}\n",
        "Hierarchy name 'Common' defined more than once. (file: {path})",
    ),
    Case(
        "duplicate-name-in-default-hierarchy",
        "module",
        "version: 5\nhierarchy:\n  - name: d\n    path: x\ndefault_hierarchy:\n"
        "  - name: d\n    path: y\n  - name: d\n    path: z\n",
        "Hierarchy name 'd' defined more than once. First defined at (line: 3) (file: {path}, "
        "line: 6)",
    ),
    Case(
        "first-check-wins",
        "environment",
        "version: 5\nhierarchy:\n  - name: b\n    hiera3_backend: yaml\n  - name: a\n    path: x\n"
        "    glob: z\n",
        "'hiera3_backend' is only allowed in the global layer (file: {path}, line: 4)",
    ),
    Case(
        "method-syntax-in-path",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    path: \"%{lookup('x')}.yaml\"\n",
        "Interpolation using method syntax is not allowed in this context (file: {path})",
    ),
    Case(
        "method-syntax-in-defaults-datadir",
        "environment",
        "version: 5\ndefaults:\n  datadir: \"%{literal('d')}\"\n  data_hash: yaml_data\n",
        "Interpolation using method syntax is not allowed in this context (file: {path})",
    ),
    Case(
        "custom-functions-are-accepted",
        "environment",
        "version: 5\nhierarchy:\n  - name: a\n    data_hash: mymodule::data\n    path: x\n",
        None,
    ),
    # ---------------------------------------------------------------- versions and shapes
    Case(
        "empty-file-environment",
        "environment",
        "",
        "hiera.yaml version 3 cannot be used in an environment (file: {path})",
    ),
    Case("empty-file-global", "global", "", None),
    Case(
        "not-a-hash-module",
        "module",
        "- version: 5\n",
        "hiera.yaml version 3 cannot be used in a module (file: {path})",
    ),
    Case(
        "no-version",
        "environment",
        ":backends:\n  - yaml\n:hierarchy:\n  - common\n",
        "hiera.yaml version 3 cannot be used in an environment (file: {path})",
    ),
    Case("v3-global", "global", ":backends:\n  - yaml\n:hierarchy:\n  - common\n", None),
    Case(
        "v3-type-error-first",
        "environment",
        "backends: yaml\nhierachy: common\n",
        f"{WRONG} unrecognized key 'hierachy'",
    ),
    Case(
        "version-6",
        "environment",
        "version: 6\n",
        "This runtime does not support hiera.yaml version 6 (file: {path})",
    ),
    Case(
        "version-not-a-number",
        "environment",
        "version: five\n",
        "This runtime does not support hiera.yaml version 0 (file: {path})",
    ),
    Case(
        "version-true",
        "environment",
        "version: true\n",
        "undefined method `to_i' for true:TrueClass",
    ),
    Case(
        "symbol-keys", "environment", ":version: 5\n:hierarchy:\n  - :name: a\n    :path: x\n", None
    ),
    Case(
        "v4-environment",
        "environment",
        "version: 4\nhierarchy:\n  - name: common\n    backend: yaml\n",
        None,
    ),
    Case(
        "v4-global",
        "global",
        "version: 4\nhierarchy:\n  - name: common\n    backend: yaml\n",
        "hiera.yaml version 4 cannot be used in the global layer (file: {path})",
    ),
    Case(
        "v4-unknown-backend",
        "module",
        "version: 4\nhierarchy:\n  - name: common\n    backend: mongo\n",
        "No data provider is registered for backend 'mongo' (file: {path}, line: 4)",
    ),
    Case(
        "v4-duplicate-name",
        "environment",
        "version: 4\nhierarchy:\n  - name: a\n    backend: yaml\n  - name: a\n    backend: json\n",
        "Hierarchy name 'a' defined more than once. First defined at (line: 3) (file: {path}, "
        "line: 5)",
    ),
    Case(
        "yaml-syntax-error",
        "environment",
        "version: 5\nhierarchy: [\n",
        "({path}): did not find expected node content while parsing a flow node at line 3 column 1",
    ),
    Case(
        "yaml-syntax-error-global",
        "global",
        "version: 5\nhierarchy: [\n",
        "Lookup of key 'lookup_options' failed: ({path}): did not find expected node content "
        "while parsing a flow node at line 3 column 1",
    ),
    Case(
        "valid",
        "environment",
        "version: 5\nhierarchy:\n  - name: Common\n    path: common.yaml\n",
        None,
    ),
]
