"""A version 3 global hiera.yaml (Hiera 3's `:backends:`, `:hierarchy:`, `:yaml: :datadir:`),
read by hiera-ls as Puppet 7 reads it, compared lookup by lookup with Puppet.

The datadirs are absolute (Puppet reads a relative one from its working directory, which
the oracle and the CLI do not share).  Hiera 3's lookup types are `--merge first` (priority),
`unique` (array), `hash` and `deep`; `:merge_behavior:` only changes `hiera_hash()`, never
`lookup()`, so it must change nothing here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.differential.generator import Lookup
from tests.differential.harness import DiffStats, env_from_files, reproduction, run_both
from tests.oracle.puppet import PuppetOracle

pytestmark = pytest.mark.puppet

NODE = "web01.example.com"
FACTS: dict[str, Any] = {
    "hostname": "web01",
    "domain": "example.com",
    "fqdn": NODE,
    "clientcert": NODE,
    "role": "web",
    "os": {"family": "Debian"},
}
ENV = "environments/production"
MERGES: list[object] = [None, "first", "unique", "hash", "deep"]


def every_merge(*keys: str) -> list[Lookup]:
    return [Lookup(k, m) for k in keys for m in MERGES]


def v3(base: Path, body: str) -> str:
    return body.replace("<BASE>", str(base))


CASES: dict[str, tuple[str, dict[str, str], list[Lookup]]] = {
    # the case: ["c"] for a first lookup, ["c","a","b"] for --merge unique
    "issue-case": (
        """\
---
:backends:
  - yaml
:hierarchy:
  - "nodes/%{::fqdn}"
  - "%{::role}"
  - common
:yaml:
  :datadir: <BASE>/hieradata
:merge_behavior: deeper
""",
        {
            f"hieradata/nodes/{NODE}.yaml": "k: [c]\nh: {a: 1, n: {x: 1}}\ns: node\n",
            "hieradata/web.yaml": "k: [a]\nh: {b: 2, n: {y: 2}}\n",
            "hieradata/common.yaml": (
                "k: [b, c]\nh: {c: 3, n: {z: 3}}\ns: common\n"
                "i: \"%{::fqdn}-%{facts.role}-%{hiera('h.a')}-%{lookup('s')}\"\n"
                "lookup_options: {m: {merge: unique}}\nm: [1]\n"
            ),
            f"{ENV}/hiera.yaml": "version: 5\n",
            f"{ENV}/data/common.yaml": "k: [e]\nh: {e: 5}\nm: [2]\nonly_env: x\n",
        },
        [
            *every_merge("k", "h", "s", "m"),
            *[Lookup("i"), Lookup("h.n"), Lookup("only_env"), Lookup("h.n.y", "deep")],
            *[Lookup("nope"), Lookup("nope", "unique")],
        ],
    ),
    "two-backends-extension-and-strings": (
        """\
:backends: [json, yaml]
:hierarchy: ["%{::role}.yaml", "common"]
:yaml:
  :datadir: "<BASE>/yamldata"
:json:
  :datadir: "<BASE>/jsondata"
  :extension: data
:merge_behavior: deep
:deep_merge_options:
  :knockout_prefix: "--"
""",
        {
            "yamldata/web.yaml": "k: [y1]\nh: {y: 1}\n",
            "yamldata/web.yaml.yaml": "k: [doubled]\n",
            "yamldata/common.yaml": "k: [y2]\nh: {yc: 1}\n",
            "jsondata/web.yaml.data": '{"k": ["j1"], "h": {"j": 1}}',
            "jsondata/common.data": '{"k": ["j2", "--y2"], "h": {"jc": 1}}',
        },
        [*every_merge("k", "h"), Lookup("k", {"strategy": "deep", "knockout_prefix": "--"})],
    ),
    "single-string-backend-and-hierarchy": (
        ":backends: yaml\n:hierarchy: common\n:yaml:\n  :datadir: <BASE>/d\n",
        {"d/common.yaml": "a: 1\n"},
        [Lookup("a"), Lookup("b")],
    ),
    "backend-listed-twice": (
        ":backends:\n  - yaml\n  - yaml\n:hierarchy: [common]\n:yaml:\n  :datadir: <BASE>/d\n",
        {"d/common.yaml": "a: 1\n"},
        [Lookup("a")],
    ),
    "wrong-merge-behavior": (
        ":backends: [yaml]\n:merge_behavior: sideways\n:yaml:\n  :datadir: <BASE>/d\n",
        {"d/common.yaml": "a: 1\n"},
        [Lookup("a")],
    ),
    "version-3-in-an-environment-and-a-module": (
        "version: 5\nhierarchy: []\n",
        {
            f"{ENV}/hiera.yaml": ":backends: [yaml]\n:hierarchy: [common]\n",
            f"{ENV}/data/common.yaml": "a: 1\n",
            f"{ENV}/modules/m/hiera.yaml": "version: 3\n",
        },
        [Lookup("a"), Lookup("m::a")],
    ),
    "version-3-in-a-module": (
        "version: 5\nhierarchy: []\n",
        {
            f"{ENV}/hiera.yaml": "version: 5\n",
            f"{ENV}/data/common.yaml": "a: 1\n",
            f"{ENV}/modules/m/hiera.yaml": "---\n:backends: [yaml]\n",
            f"{ENV}/modules/m/data/common.yaml": "m::a: 1\n",
        },
        [Lookup("a"), Lookup("m::a"), Lookup("m::a", "unique")],
    ),
    "module-data-beside-a-v3-global": (
        ":backends: [yaml]\n:hierarchy: [common]\n:yaml:\n  :datadir: <BASE>/d\n",
        {
            "d/common.yaml": "m::a: global\nm::h: {g: 1}\n",
            f"{ENV}/hiera.yaml": "version: 5\n",
            f"{ENV}/modules/m/hiera.yaml": "version: 5\n",
            f"{ENV}/modules/m/data/common.yaml": "m::a: module\nm::h: {m: 1}\nm::b: module\n",
        },
        [*every_merge("m::a", "m::h"), Lookup("m::b")],
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_version_3_global_config_matches_puppet(
    name: str, tmp_path: Path, puppet_oracle: PuppetOracle, diff_stats: DiffStats
) -> None:
    config, files, lookups = CASES[name]
    base = tmp_path.resolve()
    laid_out = {"global/hiera.yaml": v3(base, config), **files}
    if f"{ENV}/hiera.yaml" not in laid_out:
        laid_out[f"{ENV}/.keep"] = ""
    env = env_from_files(
        name, base, laid_out, FACTS, lookups, NODE, global_config="global/hiera.yaml"
    )
    result = run_both(env, puppet_oracle, policy="fail")
    diff_stats.record(result)
    if result.mismatches:
        pytest.fail(reproduction(result, result.mismatches), pytrace=False)
