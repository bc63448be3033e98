"""A large, realistic control repository for benchmarks (deterministic for a seed).

Layout: environment hiera.yaml with node / role / os / datacenter / common levels,
``nodes/`` with one file per node, a few modules with data, and facts for one node; Puppet
classes for the data's keys (:func:`manifests`: the profile and module classes the keys set,
plus many more, as a real modulepath has thousands of parameters).
"""

from __future__ import annotations

import json
import random
from pathlib import Path

HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "Per node"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Per role"
    path: "roles/%{facts.role}.yaml"
  - name: "Per datacenter"
    path: "datacenter/%{facts.datacenter}.yaml"
  - name: "Per OS"
    path: "os/%{facts.os.family}/%{facts.os.release.major}.yaml"
  - name: "OS family"
    path: "os/%{facts.os.family}.yaml"
  - name: "Common"
    path: "common.yaml"
"""

MODULE_HIERA = """\
version: 5
hierarchy:
  - name: "OS family"
    path: "os/%{facts.os.family}.yaml"
  - name: "common"
    path: "common.yaml"
"""


def _profile_block(rng: random.Random, name: str, depth: int = 0) -> dict[str, object]:
    out: dict[str, object] = {}
    for i in range(rng.randint(2, 6)):
        k = f"{name}_{i}"
        r = rng.random()
        if r < 0.3 and depth < 2:
            out[k] = _profile_block(rng, k, depth + 1)
        elif r < 0.5:
            out[k] = [f"item{rng.randint(0, 9)}" for _ in range(rng.randint(1, 4))]
        elif r < 0.7:
            out[k] = rng.randint(0, 10000)
        else:
            out[k] = (
                f"value-{rng.randint(0, 999)}-%{{facts.role}}"
                if rng.random() < 0.2
                else f"value-{rng.randint(0, 999)}"
            )
    return out


def _yaml(data: dict[str, object]) -> str:
    # JSON is valid YAML 1.1 for these values and keeps the generator dependency-free.
    lines = []
    for k, v in data.items():
        lines.append(f"{json.dumps(k)}: {json.dumps(v)}")
    return "\n".join(lines) + "\n"


def generate(
    root: Path, nodes: int = 1000, keys_per_file: int = 20, seed: int = 1
) -> dict[str, object]:
    rng = random.Random(seed)
    env = root / "production"
    data = env / "data"
    (data / "nodes").mkdir(parents=True, exist_ok=True)
    (env / "hiera.yaml").write_text(HIERA)
    profiles = [f"profile::p{i}::setting{j}" for i in range(40) for j in range(5)]
    roles = [f"role{i}" for i in range(30)]
    common: dict[str, object] = {p: _profile_block(rng, "c") for p in profiles}
    common["lookup_options"] = {
        "^profile::p1\\d::": {"merge": "deep"},
        "profile::p2::setting0": {"merge": {"strategy": "deep", "knockout_prefix": "--"}},
        "classes": {"merge": "unique"},
    }
    common["classes"] = ["base", "ntp"]
    (data / "common.yaml").write_text(_yaml(common))
    for r in roles:
        (data / "roles").mkdir(exist_ok=True)
        d = {p: _profile_block(rng, "r") for p in rng.sample(profiles, keys_per_file)}
        d["classes"] = [f"role::{r}"]
        (data / "roles" / f"{r}.yaml").write_text(_yaml(d))
    for dc in ("dc1", "dc2", "dc3"):
        (data / "datacenter").mkdir(exist_ok=True)
        (data / "datacenter" / f"{dc}.yaml").write_text(
            _yaml({p: _profile_block(rng, "d") for p in rng.sample(profiles, keys_per_file)})
        )
    (data / "os" / "Debian").mkdir(parents=True, exist_ok=True)
    (data / "os" / "Debian.yaml").write_text(
        _yaml({p: _profile_block(rng, "o") for p in rng.sample(profiles, 10)})
    )
    (data / "os" / "Debian" / "12.yaml").write_text(
        _yaml({p: _profile_block(rng, "o") for p in rng.sample(profiles, 10)})
    )
    for n in range(nodes):
        d = {p: _profile_block(rng, "n") for p in rng.sample(profiles, keys_per_file)}
        (data / "nodes" / f"node{n:04d}.example.com.yaml").write_text(_yaml(d))
    for m in ("ntp", "apache", "mysql"):
        mdir = env / "modules" / m
        (mdir / "data" / "os").mkdir(parents=True, exist_ok=True)
        (mdir / "hiera.yaml").write_text(MODULE_HIERA)
        (mdir / "data" / "common.yaml").write_text(
            _yaml({f"{m}::k{i}": _profile_block(rng, "m") for i in range(20)})
        )
        (mdir / "data" / "os" / "Debian.yaml").write_text(
            _yaml({f"{m}::k{i}": i for i in range(5)})
        )
    manifests(env, seed)
    node = "node0042.example.com"
    facts = {
        "role": "role7",
        "datacenter": "dc2",
        "os": {"family": "Debian", "name": "Debian", "release": {"major": "12", "full": "12.5"}},
        "networking": {"fqdn": node, "hostname": "node0042", "domain": "example.com"},
        "hostname": "node0042",
        "domain": "example.com",
        "fqdn": node,
        "clientcert": node,
    }
    (root / "facts.json").write_text(json.dumps(facts))
    keys = [
        *profiles,
        "classes",
        *[f"{m}::k{i}" for m in ("ntp", "apache", "mysql") for i in range(20)],
    ]
    return {"env": str(env), "facts": str(root / "facts.json"), "node": node, "keys": keys}


PARAM_TYPES = (
    "String",
    "Integer[1, 65535]",
    "Boolean",
    "Array[String]",
    "Hash",
    "Enum['present', 'absent', 'latest']",
    "Optional[String]",
    "Stdlib::Absolutepath",
)
EXTRA_CLASSES = 600  # classes the data never sets, for completion's candidates


def _class_text(rng: random.Random, name: str, params: list[str]) -> str:
    lines = [f"# @summary The {name} class.", "#"]
    typed = []
    for p in params:
        lines.append(f"# @param {p} What {p} of {name} sets.")
        ptype = rng.choice(PARAM_TYPES)
        default = rng.choice(("", " = undef", " = 'x'", " = 1", " = true"))
        typed.append(f"  {ptype} ${p}{default},")
    return "\n".join([*lines, f"class {name} (", *typed, ") {", f"  include {name}::config", "}"])


def manifests(env: Path, seed: int = 1) -> None:
    """The classes of the keys the data sets (profile::pN with setting0-9, the modules' init
    classes with k0-k29) and :data:`EXTRA_CLASSES` more in site-modules, with
    puppet-strings docs; ``environment.conf`` puts site-modules on the modulepath."""
    rng = random.Random(seed)
    (env / "environment.conf").write_text("modulepath = site-modules:modules:$basemodulepath\n")
    profile = env / "site-modules" / "profile" / "manifests"
    profile.mkdir(parents=True, exist_ok=True)
    for i in range(40):
        text = _class_text(rng, f"profile::p{i}", [f"setting{j}" for j in range(10)])
        (profile / f"p{i}.pp").write_text(text + "\n")
    for i in range(EXTRA_CLASSES):
        params = [f"option{j}" for j in range(rng.randint(3, 12))]
        (profile / f"extra{i}.pp").write_text(_class_text(rng, f"profile::extra{i}", params) + "\n")
    for m in ("ntp", "apache", "mysql"):
        mdir = env / "modules" / m / "manifests"
        mdir.mkdir(parents=True, exist_ok=True)
        (mdir / "init.pp").write_text(_class_text(rng, m, [f"k{i}" for i in range(30)]) + "\n")
    (env / "manifests").mkdir(exist_ok=True)
    (env / "manifests" / "site.pp").write_text(
        "node default {\n  lookup('classes', Array[String], 'unique', []).include\n}\n"
    )


def grow(common: Path, lines_wanted: int, seed: int = 7) -> None:
    """Append block-style keys (nested hashes, arrays, interpolations) up to ``lines_wanted``.

    The interpolations read ``profile::base::domain``: the file must define it.
    """
    rng = random.Random(seed)
    lines = common.read_text(encoding="utf-8").splitlines()
    i = 0
    while len(lines) < lines_wanted:
        lines.append(f"profile::app{i}::settings:")
        for j in range(rng.randint(2, 6)):
            r = rng.random()
            if r < 0.3:
                lines.append(f"  option{j}:")
                lines.extend(
                    f"    - item{k}-{rng.randint(0, 999)}" for k in range(rng.randint(1, 3))
                )
            elif r < 0.4:
                lines.append(f'  host{j}: "%{{facts.networking.hostname}}.app{i}"')
            elif r < 0.45:
                lines.append(f"  domain{j}: \"%{{lookup('profile::base::domain')}}\"")
            else:
                lines.append(f"  value{j}: {rng.randint(0, 10000)}")
        lines.append(f"profile::app{i}::port: {8000 + i}")
        i += 1
    common.write_text("\n".join(lines) + "\n", encoding="utf-8")


def facts_profiles(root: Path, count: int = 100, seed: int = 3) -> list[str]:
    """``count`` facts profiles under ``root/.hiera-ls/facts`` (nodes of the generated
    repository, spread over its roles, datacenters and two OS releases); their names."""
    rng = random.Random(seed)
    where = root / ".hiera-ls" / "facts"
    where.mkdir(parents=True, exist_ok=True)
    names: list[str] = []
    for n in range(count):
        node = f"node{n * 7 % 1000:04d}.example.com"
        host = node.split(".")[0]
        facts = {
            "role": f"role{rng.randrange(30)}",
            "datacenter": rng.choice(("dc1", "dc2", "dc3")),
            "os": {
                "family": "Debian",
                "name": "Debian",
                "release": {"major": rng.choice(("11", "12")), "full": "12.5"},
            },
            "networking": {"fqdn": node, "hostname": host, "domain": "example.com"},
            "hostname": host,
            "domain": "example.com",
            "fqdn": node,
            "clientcert": node,
        }
        (where / f"{node}.json").write_text(json.dumps(facts))
        names.append(node)
    return names
