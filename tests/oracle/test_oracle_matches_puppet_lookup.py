"""The oracle answers exactly as the `puppet lookup` command does.

The differential tests trust the long-lived oracle process; this checks it against the real
command on one environment that touches the delicate parts: the variables in scope (dumped by
a data_hash function that returns the scope itself), number rendering, a found null, a key
that is not found, a LookupError (which `puppet lookup` only reports with --explain) and an
error that is not one (reported on stderr).  Each `puppet lookup` run costs about two seconds.
"""

from __future__ import annotations

import json
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.oracle.engines import PuppetEngine
from tests.oracle.puppet import PuppetOracle

NODE = "web01.example.com"
FACTS = {
    "hostname": "web01",
    "domain": "example.com",
    "fqdn": NODE,
    "clientcert": NODE,
    "os": {"family": "Debian", "release": {"major": "12"}},
    "roles": ["web", "db"],
}

SCOPE_DUMP = """\
Puppet::Functions.create_function(:scope_dump) do
  dispatch :dump do
    param 'Hash', :options
    param 'Puppet::LookupContext', :context
  end
  def dump(options, context)
    vars = {}
    closure_scope.to_hash(true, true).each { |k, v| vars[k.to_s] = v.inspect }
    { 'scope_dump' => vars }
  end
end
"""

HIERA = """\
version: 5
hierarchy:
  - name: Scope
    data_hash: scope_dump
  - name: Node
    path: "nodes/%{trusted.certname}.yaml"
  - name: Common
    path: common.yaml
"""

COMMON = """\
values:
  numbers: [1, 1.0, 1.5e+3, 10000000000000000000000, 0755, 0x1F, 12:30, 1e3, yes, ~, '1']
  int_keys: {1: one, 2: two, "x": three}
  roles: "%{facts.roles}"
  vars: "%{clientcert}|%{facts.os.family}|%{::fqdn}|%{trusted.certname}|%{title}|%{server_facts}|%{trusted}"
found_null: ~
nested: {a: {b: [1, 2]}}
cycle: "%{lookup('cycle')}"
undefined: "%{nope}"
"""  # noqa: E501 (a YAML line of test data)

NODE_DATA = """\
nested: {a: {c: 3}}
"""

# key, merge flags
LOOKUPS: list[tuple[str, list[str]]] = [
    ("scope_dump", []),
    ("values", []),
    ("found_null", []),
    ("nested", ["--merge", "deep"]),
    ("no_such_key", []),
    ("cycle", []),
    ("undefined", []),
]


def _layout(base: Path) -> tuple[Path, Path, Path]:
    env = base / "environments" / "production"
    (env / "lib" / "puppet" / "functions").mkdir(parents=True)
    (env / "data" / "nodes").mkdir(parents=True)
    (env / "lib" / "puppet" / "functions" / "scope_dump.rb").write_text(SCOPE_DUMP)
    (env / "hiera.yaml").write_text(HIERA)
    (env / "data" / "common.yaml").write_text(COMMON)
    (env / "data" / "nodes" / f"{NODE}.yaml").write_text(NODE_DATA)
    facts = base / "facts.json"
    facts.write_text(json.dumps(FACTS))
    empty = base / "empty"
    empty.mkdir()
    return base / "environments", facts, empty


def _merge_arg(flags: list[str]) -> Any:
    """What `puppet lookup` passes to Puppet::Pops::Lookup.lookup for these flags."""
    if not flags:
        return None
    if flags[1] == "deep":
        return {"strategy": "deep", "sort_merged_arrays": False, "merge_hash_arrays": False}
    return {"strategy": flags[1]}


def _puppet_lookup(
    engine: PuppetEngine, envs: Path, facts: Path, empty: Path, key: str, flags: list[str]
) -> dict[str, Any]:
    """One `puppet lookup` run, read back into the oracle's answer shape."""
    base = [
        "puppet", "lookup", "--environmentpath", str(envs), "--environment", "production",
        "--node", NODE, "--facts", str(facts), "--hiera_config", str(empty / "hiera.yaml"),
        "--basemodulepath", str(empty), "--strict", "error", "--strict_variables",
        "--color", "false",
    ]  # fmt: skip
    run = subprocess.run(
        engine.command([*base, "--render-as", "json", *flags, key]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if run.returncode == 0:
        return {"found": True, "value": json.loads(run.stdout)}
    errors = [line for line in run.stderr.splitlines() if line.startswith("Error: ")]
    if errors:
        return {"error": errors[0].removeprefix("Error: Could not run: ")}
    # A LookupError (not-found included) exits 1 silently; --explain ends with its message.
    explain = subprocess.run(
        engine.command([*base, "--explain", *flags, key]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    last = [line for line in explain.stdout.splitlines() if line.strip()][-1]
    if last.startswith("Function lookup() did not find a value"):
        return {"found": False}
    return {"error": last.strip(), "lookup_error": True}


@pytest.mark.puppet
def test_oracle_answers_like_puppet_lookup(
    tmp_path: Path, puppet_engine: PuppetEngine, puppet_oracle: PuppetOracle
) -> None:
    envs, facts, empty = _layout(tmp_path)
    answers = puppet_oracle.lookup_batch(
        {
            "environmentpath": str(envs),
            "environment": "production",
            "node": NODE,
            "facts": FACTS,
            "hiera_config": None,
            "strict_variables": True,
            "lookups": [{"key": key, "merge": _merge_arg(flags)} for key, flags in LOOKUPS],
        }
    )
    with ThreadPoolExecutor(max_workers=2) as pool:
        expected = list(
            pool.map(lambda kf: _puppet_lookup(puppet_engine, envs, facts, empty, *kf), LOOKUPS)
        )
    for (key, _flags), ours, theirs in zip(LOOKUPS, answers, expected, strict=True):
        if "error" in theirs:
            assert ours.get("error") == theirs["error"], key
            assert bool(ours.get("lookup_error")) == bool(theirs.get("lookup_error")), key
        else:
            # JSON text keeps what == would blur: 1 vs 1.0 vs true, and hash key order
            shown = {k: ours[k] for k in ("found", "value") if k in ours}
            assert json.dumps(shown) == json.dumps(theirs), key
    scope = answers[0]["value"]
    # Puppet 8's `puppet lookup` adds the server's own facts (servername, serverip, ...),
    # this machine's: docs/puppet-lookup-scope.md
    server = {"serverversion", "servername", "serverip", "serverip6", "pe_serverversion"}
    assert bool(server & set(scope)) == (puppet_engine.name == "puppet8")
    assert sorted(set(scope) - server) == sorted(
        [*FACTS, "environment", "trusted", "server_facts", "facts", "module_name", "title", "name"]
    )
