"""hiera.yaml errors against Puppet's own: the case table and seeded random configurations.

Each file is put in its layer (environment root, a module, or the global hiera_config) and
one key is looked up with Puppet; whatever Puppet raises must be ``HieraConfig.error``.
Errors that only a lookup can produce (a custom function that does not load, a built-in
function reached without a path, an undefined variable) are the engine's, not ours.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from hiera_ls.project.hiera_config import load_hiera_config
from hiera_ls.puppet.values import RubySymbol
from tests.differential.known_differences import comparable
from tests.oracle.puppet import PuppetOracle
from tests.project.hiera_config_cases import CASES

pytestmark = pytest.mark.puppet

LOOKUP_TIME = (
    "must be declared in hiera.yaml",
    "Unable to find",
    "Undefined variable",
    "load_typed",
    "expects",
)


def _place(root: Path, text: str, layer: str) -> tuple[dict[str, Any], str]:
    """Lay the file out where its layer lives; the oracle request that looks a key up."""
    envs = root / "envs"
    env = envs / "production"
    (env / "modules" / "mod").mkdir(parents=True)
    key, global_config = "somekey", None
    if layer == "global":
        path = root / "global" / "hiera.yaml"
        path.parent.mkdir()
        global_config = str(path)
    elif layer == "module":
        path, key = env / "modules" / "mod" / "hiera.yaml", "mod::somekey"
    else:
        path = env / "hiera.yaml"
    path.write_text(text)
    request = {
        "environmentpath": str(envs),
        "environment": "production",
        "node": "n1",
        "facts": {"os": {"family": "Debian"}},
        "hiera_config": global_config,
        "lookups": [{"key": key}],
    }
    return request, str(path)


def _puppet_error(result: dict[str, Any]) -> str | None:
    error = result.get("error")
    if not isinstance(error, str) or "did not find a value" in error:
        return None
    if error.startswith("undefined method"):
        # Ruby adds its error_highlight lines and suggestions after the first line.
        error = error.split("\n")[0]
        if "TypeCalculator" in error:
            error = error.split(":0x")[0] + ">"
    return error


def _compare(oracle: PuppetOracle, tmp_path: Path, cases: list[tuple[str, str]]) -> list[str]:
    failures = []
    for i, (text, layer) in enumerate(cases):
        request, path = _place(tmp_path / f"c{i}", text, layer)
        theirs = _puppet_error(oracle.lookup_batch(request)[0])
        ours = load_hiera_config(path, text, layer).error  # type: ignore[arg-type]
        if theirs is not None and ours is None and any(t in theirs for t in LOOKUP_TIME):
            continue
        engine = oracle.engine.name
        if (theirs and comparable(theirs, engine)) != (ours and comparable(ours, engine)):
            failures.append(f"{layer} {text!r}\n  puppet: {theirs!r}\n  ours:   {ours!r}")
    return failures


def test_case_table_matches_puppet(puppet_oracle: PuppetOracle, tmp_path: Path) -> None:
    failures = _compare(puppet_oracle, tmp_path, [(c.text, c.layer) for c in CASES])
    assert not failures, "\n".join(failures)


# ------------------------------------------------------------------------ random configs


def _yaml(value: object, indent: int = 0) -> str:
    """Block-style YAML for generated values; ``:name`` for Ruby symbols."""
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return " {}\n"
        out = "\n"
        for k, v in value.items():
            if isinstance(k, RubySymbol):
                key = f":{k.name}"
            elif isinstance(k, str):
                key = k if k.replace("_", "").isalnum() else json.dumps(k)
            else:
                key = str(k).lower() if isinstance(k, bool) else str(k)
            out += f"{pad}{key}:{_yaml(v, indent + 1)}"
        return out
    if isinstance(value, list):
        if not value:
            return " []\n"
        return "\n" + "".join(f"{pad}-{_yaml(v, indent + 1)}" for v in value)
    if isinstance(value, RubySymbol):
        return f" :{value.name}\n"
    if value is None:
        return " ~\n"
    if isinstance(value, bool):
        return f" {str(value).lower()}\n"
    if isinstance(value, (int, float)):
        return f" {value}\n"
    return f" {json.dumps(value)}\n"


_SCALARS: list[object] = [
    "x",
    "",
    1,
    2.5,
    True,
    None,
    RubySymbol("s"),
    "common.yaml",
    "yaml",
    "%{facts.x}",
    "_bad",
    "a-b",
    0,
]
_LEVEL_KEYS = [
    "name",
    "options",
    "data_hash",
    "lookup_key",
    "hiera3_backend",
    "v4_data_hash",
    "data_dig",
    "path",
    "paths",
    "glob",
    "globs",
    "uri",
    "uris",
    "mapped_paths",
    "datadir",
    "pth",
    "backend",
]


def _value(rng: random.Random, depth: int = 0) -> object:
    roll = rng.random()
    if depth > 2 or roll < 0.6:
        return rng.choice(_SCALARS)
    if roll < 0.8:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    keys: list[object] = ["a", "path", "uri", "_x", "k1", 1, RubySymbol("k")]
    return {rng.choice(keys): _value(rng, depth + 1) for _ in range(rng.randint(0, 3))}


def _level(rng: random.Random, names: list[str]) -> object:
    level: dict[object, object] = {"name": rng.choice(names)}
    if rng.random() < 0.7:
        location = rng.choice(["path", "paths", "glob", "globs", "mapped_paths", "uri"])
        level[location] = rng.choice(["x.yaml", ["a", "b"], ["a", "b", "c"], "y"])
    for _ in range(rng.choice([0, 0, 0, 1, 2])):
        choices: list[object] = ["yaml_data", "x", ["a"], {"a": 1}, {"path": "p"}, "yaml", "json"]
        level[rng.choice(_LEVEL_KEYS)] = _value(rng) if rng.random() < 0.5 else rng.choice(choices)
    if rng.random() < 0.1:
        del level["name"]
    return level if rng.random() > 0.05 else _value(rng)


def _config(rng: random.Random) -> dict[object, object]:
    config: dict[object, object] = {}
    if rng.random() < 0.9:
        config["version"] = rng.choice([5] * 10 + [4, 3, "5", 5.0, 6, None])
    if rng.random() < 0.3:
        defaults: dict[object, object] = {}
        for _ in range(rng.randint(0, 3)):
            key = rng.choice(
                ["data_hash", "lookup_key", "data_dig", "datadir", "options", "x", "hiera3_backend"]
            )
            defaults[key] = rng.choice(
                ["yaml_data", "data", 1, {"a": 1}, {"path": 1}, {"_k": 1}, None]
            )
        config["defaults"] = defaults
    if rng.random() < 0.9:
        config["hierarchy"] = [_level(rng, ["a", "b", "Common"]) for _ in range(rng.randint(0, 4))]
    if rng.random() < 0.15:
        config["default_hierarchy"] = [_level(rng, ["d", "e"]) for _ in range(rng.randint(0, 2))]
    if rng.random() < 0.05:
        config["plan_hierarchy"] = [_level(rng, ["p"]) for _ in range(rng.randint(0, 2))]
    if rng.random() < 0.1:
        config[rng.choice(["hierachy", "versio", 1])] = _value(rng)
    if rng.random() < 0.05:
        config = {RubySymbol(k) if isinstance(k, str) else k: v for k, v in config.items()}
    return config


def test_random_configurations_match_puppet(puppet_oracle: PuppetOracle, tmp_path: Path) -> None:
    rng = random.Random(20250611)
    layers = ["environment", "environment", "module", "global"]
    cases = [(_yaml(_config(rng)).lstrip("\n"), rng.choice(layers)) for _ in range(400)]
    failures = _compare(puppet_oracle, tmp_path, cases)
    assert not failures, f"{len(failures)} of {len(cases)} differ:\n" + "\n".join(failures[:10])
