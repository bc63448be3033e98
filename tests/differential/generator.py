"""Seeded random Hiera environments on disk, for differential tests against Puppet.

``generate(seed, base_dir)`` lays out one environment directory (plus an optional global
layer and a facts file) and returns the lookups to ask of it.  Everything is derived from
``random.Random(seed)`` so a failing seed reproduces exactly.  The generator does not predict
answers: Puppet (the oracle) says what the right answer is, hiera-ls must agree.

What it writes is deliberately messy where Puppet's behaviour is subtle: every location kind,
YAML 1.1 scalars, interpolation in values, keys and lookup_options, module layers with stray
keys and default_hierarchy, rare broken files.  It avoids only constructs where Puppet 7 (the
oracle) and Puppet 8 (the spec) are known to differ: undefined variables in hiera.yaml
locations (PUP-11751).  Most lookups are meant to find a value, because a differential test
that mostly compares errors proves little.

``features`` counts what was generated, so coverage over a set of seeds can be reported.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from hiera_ls.project.targets import DEFAULT_TARGET, Target
from tests.oracle.engines import node_facts

MergeArg = None | str | dict[str, Any]
T = TypeVar("T")

# ----------------------------------------------------------------------------------------------
# A tiny document model, so that scalars are written exactly as chosen (`yes`, `0755`, `'~'`).


@dataclass(frozen=True, slots=True)
class Raw:
    """A scalar written verbatim (a YAML plain scalar or a JSON literal)."""

    text: str


@dataclass(frozen=True, slots=True)
class Str:
    """A string value; ``style`` is 'plain', 'single' or 'double' (plain falls back when unsafe)."""

    value: str
    style: str = "double"


@dataclass(slots=True)
class Map:
    items: list[tuple[Node, Node]] = field(default_factory=list)
    flow: bool = False


@dataclass(slots=True)
class Seq:
    items: list[Node] = field(default_factory=list)
    flow: bool = False


Node = Raw | Str | Map | Seq

_PLAIN_SAFE = re.compile(r"^[A-Za-z_][A-Za-z0-9_ ./-]*$")
_YAML11_WORDS = {
    "y", "n", "yes", "no", "on", "off", "true", "false", "null", "~",
}  # fmt: skip
_FLOW_SAFE_RAW = re.compile(r"^[-+]?[0-9A-Za-z_.~]+$")


def _dq(value: str) -> str:
    return json.dumps(value, ensure_ascii=False)


def yaml_scalar(node: Raw | Str, flow: bool = False) -> str:
    if isinstance(node, Raw):
        return node.text
    v = node.value
    style = node.style
    if style == "plain" and (
        not _PLAIN_SAFE.match(v)
        or v.lower() in _YAML11_WORDS
        or v != v.strip()
        or (flow and " " in v)
    ):
        style = "double"
    if style == "plain":
        return v
    if style == "single" and "\n" not in v and "\t" not in v:
        return "'" + v.replace("'", "''") + "'"
    return _dq(v)


def _is_scalar(node: Node) -> bool:
    return isinstance(node, (Raw, Str))


def _flow_ok(node: Node) -> bool:
    if isinstance(node, Raw):
        return bool(_FLOW_SAFE_RAW.match(node.text))
    if isinstance(node, Str):
        return True
    if isinstance(node, Map):
        return all(_flow_ok(k) and _flow_ok(v) for k, v in node.items)
    return all(_flow_ok(v) for v in node.items)


def yaml_flow(node: Node) -> str:
    if isinstance(node, (Raw, Str)):
        return yaml_scalar(node, flow=True)
    if isinstance(node, Map):
        inner = ", ".join(f"{yaml_flow(k)}: {yaml_flow(v)}" for k, v in node.items)
        return "{" + inner + "}"
    return "[" + ", ".join(yaml_flow(v) for v in node.items) + "]"


def _inline(node: Node) -> str | None:
    """The one-line form of a value, or None when it needs block lines."""
    if isinstance(node, Raw) and node.text == "":
        return ""
    if _is_scalar(node):
        return yaml_scalar(node)  # type: ignore[arg-type]
    assert isinstance(node, (Map, Seq))
    if not node.items:
        return "{}" if isinstance(node, Map) else "[]"
    if node.flow and _flow_ok(node):
        return yaml_flow(node)
    return None


def yaml_block(node: Map | Seq, indent: int) -> list[str]:
    pad = " " * indent
    lines: list[str] = []
    if isinstance(node, Map):
        for k, v in node.items:
            ks = yaml_scalar(k) if _is_scalar(k) else yaml_flow(k)  # type: ignore[arg-type]
            one = _inline(v)
            if one is not None:
                lines.append(f"{pad}{ks}:{' ' + one if one else ''}")
            else:
                assert isinstance(v, (Map, Seq))
                lines.append(f"{pad}{ks}:")
                lines.extend(yaml_block(v, indent + 2))
        return lines
    for item in node.items:
        one = _inline(item)
        if one is not None:
            lines.append(f"{pad}- {one}".rstrip())
        else:
            assert isinstance(item, (Map, Seq))
            sub = yaml_block(item, indent + 2)
            sub[0] = f"{pad}- " + sub[0][indent + 2 :]
            lines.extend(sub)
    return lines


def to_json_text(node: Node, indent: int = 0) -> str:
    pad = "  " * (indent + 1)
    end = "  " * indent
    if isinstance(node, Raw):
        return node.text
    if isinstance(node, Str):
        return _dq(node.value)
    if isinstance(node, Map):
        if not node.items:
            return "{}"
        parts = []
        for k, v in node.items:
            key = k.value if isinstance(k, Str) else k.text if isinstance(k, Raw) else str(k)
            parts.append(f"{pad}{_dq(key)}: {to_json_text(v, indent + 1)}")
        return "{\n" + ",\n".join(parts) + "\n" + end + "}"
    if not node.items:
        return "[]"
    return (
        "[\n" + ",\n".join(pad + to_json_text(v, indent + 1) for v in node.items) + "\n" + end + "]"
    )


def facts_yaml(value: Any, indent: int = 0) -> list[str]:
    """Facts as YAML that any YAML 1.1 or 1.2 reader parses to exactly ``value``."""
    pad = " " * indent

    def scalar(v: Any) -> str:
        if isinstance(v, str):
            return _dq(v)
        if v is None:
            return "null"
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, float):
            text = repr(v)  # YAML 1.1 floats need a dot before the exponent: 1.0e+20, not 1e+20
            mantissa, e, exponent = text.partition("e")
            if "." not in mantissa:
                mantissa += ".0"
            return mantissa + (
                f"e{'+' if not exponent.startswith('-') else ''}{exponent.lstrip('+')}" if e else ""
            )
        return str(v)

    def leaf(v: Any) -> str:
        if isinstance(v, (dict, list)):  # only empty ones get here
            return "{}" if isinstance(v, dict) else "[]"
        return scalar(v)

    lines: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if isinstance(v, (dict, list)) and v:
                lines.append(f"{pad}{_dq(str(k))}:")
                lines.extend(facts_yaml(v, indent + 2))
            else:
                lines.append(f"{pad}{_dq(str(k))}: {leaf(v)}")
    else:
        for v in value:
            if isinstance(v, (dict, list)) and v:
                sub = facts_yaml(v, indent + 2)
                sub[0] = f"{pad}- " + sub[0][indent + 2 :]
                lines.extend(sub)
            else:
                lines.append(f"{pad}- {leaf(v)}")
    return lines


# ----------------------------------------------------------------------------------------------
# Results


@dataclass(frozen=True, slots=True)
class Lookup:
    key: str
    merge: MergeArg = None


@dataclass
class GeneratedEnv:
    """One generated environment: what to pass to Puppet and to hiera-ls, and what was made."""

    seed: int
    base: Path
    environmentpath: Path
    environment: str
    node: str
    facts: dict[str, Any]
    facts_path: Path
    hiera_config: Path | None
    lookups: list[Lookup]
    files: dict[str, str]
    features: Counter[str]
    label: str = ""  # a hand-written case's name (then ``seed`` is -1)

    @property
    def env_dir(self) -> Path:
        return self.environmentpath / self.environment

    def oracle_request(
        self, target: Target = DEFAULT_TARGET, lookups: Sequence[Lookup] | None = None
    ) -> dict[str, Any]:
        """The oracle request: Puppet with the target's defaults, and the facts a node of
        the target's Puppet sends (tests/oracle/engines.py)."""
        return {
            "environmentpath": str(self.environmentpath),
            "environment": self.environment,
            "node": self.node,
            "facts": node_facts(self.facts, target),
            "hiera_config": str(self.hiera_config) if self.hiera_config else None,
            "strict_variables": target.strict_variables,
            "strict": target.strict,
            # hiera-ls previews a catalog compile: server_facts holds the environment's name
            "compile": True,
            "lookups": [
                {"key": x.key, "merge": x.merge}
                for x in (self.lookups if lookups is None else lookups)
            ],
        }

    def cli_args(self, target: Target = DEFAULT_TARGET) -> list[str]:
        args = [
            "lookup", "--batch",
            "--environmentpath", str(self.environmentpath),
            "--environment", self.environment,
            "--node", self.node,
            "--facts", str(self.facts_path),
            "--target", target.name,
        ]  # fmt: skip
        if self.hiera_config is not None:
            args += ["--hiera-config", str(self.hiera_config)]
        return args

    def batch_input(self, lookups: Sequence[Lookup] | None = None) -> str:
        chosen = self.lookups if lookups is None else lookups
        return "".join(json.dumps({"key": x.key, "merge": x.merge}) + "\n" for x in chosen)


@dataclass(frozen=True, slots=True)
class GenOptions:
    """Knobs; ``strict_sensitive=False`` leaves out what Puppet's ``strict`` setting changes
    besides variables (non-hash YAML files), for the strict_variables=false variant."""

    strict_sensitive: bool = True
    min_lookups: int = 30
    max_lookups: int = 50


# ----------------------------------------------------------------------------------------------
# Generation

ROLES = ["web", "db", "app", "cache", "lb"]
FAMILIES = ["Debian", "RedHat", "Suse"]
DCS = ["dc1", "dc2", "ams"]
TIERS = ["prod", "stage", "dev"]
HOSTS = ["web01", "db02", "app-3", "node4", "edge"]
DOMAINS = ["example.com", "corp.example.net", "lan"]
MODULES = ["ntp", "apache", "profile", "app_cfg", "mysql"]
WORDS = ["alpha", "port", "users", "motd", "pkgs", "opts", "limits", "servers", "paths", "flags",
         "name", "mode", "zone", "peers", "mounts", "tags", "level", "owner", "vhosts",
         "rules"]  # fmt: skip
SUBKEYS = ["a", "b", "c", "port", "x.y", "list", "nested", "--gone", "enabled", "é"]
KNOCKOUTS = ["--", "--", "--", "!", "^^", "."]

# YAML 1.1 scalar spellings (feature name, text); the oracle says what Psych makes of them.
YAML11_SCALARS: list[tuple[str, str]] = [
    ("int", "0"), ("int", "42"), ("int", "-7"), ("octal", "0755"), ("octal", "010"),
    ("hex", "0x1F"), ("binary", "0b101"), ("underscore", "1_000"), ("comma_int", "1,000"),
    ("plus_int", "+12"), ("sexagesimal", "12:30:00"), ("sexagesimal", "12:30"),
    ("bigint", "10000000000000000000000"), ("float", "1.0"), ("float", "2.5"), ("float", "-0.5"),
    ("float", ".5"), ("float_exp", "1.5e+3"), ("float_exp", "6.8523015e+5"), ("exp_string", "1e3"),
    ("exp_string", "1.5e3"), ("inf", ".inf"), ("inf", "-.inf"), ("sexagesimal_float", "1:30.5"),
    ("float", "1_000.5"), ("float", "2."), ("bool", "yes"), ("bool", "no"), ("bool", "on"),
    ("bool", "off"), ("bool", "true"), ("bool", "False"), ("bool", "TRUE"), ("not_bool", "y"),
    ("not_bool", "n"), ("null", "~"), ("null", "null"), ("null", "Null"), ("null", ""),
    ("string", "hello"), ("string", "a b c"), ("string", "0o17"), ("string", "1.2.3"),
    ("string", "08"), ("quoted", "'yes'"), ("quoted", '"0755"'), ("quoted", "'1_000'"),
    ("quoted", '"~"'), ("quoted", "''"), ("quoted", "'12:30:00'"), ("quoted", '"on"'),
    ("unicode", '"h\\u00e9llo"'), ("unicode", "日本"),
]  # fmt: skip
JSON_SCALARS: list[tuple[str, str]] = [
    ("int", "1"), ("int", "-3"), ("float", "1.0"), ("float", "2.5"), ("exp", "1e3"),
    ("exp", "1E+2"), ("neg_zero", "-0"), ("float", "0.0"), ("neg_zero", "-0.0"),
    ("bigint", "12345678901234567890123"), ("bool", "true"), ("bool", "false"), ("null", "null"),
    ("string", '"hello"'), ("string", '"yes"'), ("unicode", '"caf\\u00e9"'), ("string", '"0755"'),
]  # fmt: skip


@dataclass
class KeySpec:
    name: str
    kind: str  # scalar | string | array | hash | hash_arrays | interp | alias | null
    module: str | None = None


@dataclass
class Slot:
    """A data file location a hierarchy can reach (or a decoy it cannot)."""

    path: Path
    fmt: str  # yaml | json
    layer: str  # global | env | module | default
    module: str | None = None


class _Gen:
    def __init__(self, seed: int, base: Path, options: GenOptions) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.base = base
        self.opt = options
        self.feat: Counter[str] = Counter()
        self.files: dict[str, str] = {}
        self.paths: list[str] = []  # dotted lookup keys known to exist somewhere
        self.keys: list[KeySpec] = []
        self.module_keys: dict[str, list[KeySpec]] = {}
        self.special_keys: list[str] = []  # keys with cycles, bad syntax, undefined variables
        self.current_key = ""
        self.key_index: dict[str, int] = {}
        # One deliberately broken thing in every tenth environment (seeds ending in 4), the kind
        # cycling with the seed so that any 100 consecutive seeds have each kind: a broken
        # environment-layer file turns every lookup of its environment into the same error.
        kinds = ["hiera_yaml", "module_lo_key", "bad_regex", "lo_not_hash", "lo_bad_merge", "json",
                 "yaml_syntax", "yaml_date", "yaml_time"]  # fmt: skip
        if options.strict_sensitive:
            kinds.append("top_level_list")
        self.break_kind: str | None = kinds[(seed // 10) % len(kinds)] if seed % 10 == 4 else None
        self.break_done = False

    # -- small helpers -------------------------------------------------------------------------
    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def pick(self, seq: Sequence[T]) -> T:
        return seq[self.rng.randrange(len(seq))]

    def want_break(self, kind: str) -> bool:
        if self.break_kind != kind or self.break_done or not self.chance(0.6):
            return False
        self.break_done = True
        return True

    def f(self, name: str, n: int = 1) -> None:
        self.feat[name] += n

    def write(self, path: Path, text: str) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        self.files[str(path.relative_to(self.base))] = text

    def mkdir(self, path: Path) -> None:
        """Directories are recorded as ``rel/`` with empty text (see ``write_files``)."""
        path.mkdir(parents=True, exist_ok=True)
        self.files[str(path.relative_to(self.base)) + "/"] = ""

    # -- facts -----------------------------------------------------------------------------------
    def make_facts(self) -> None:
        r = self.rng
        host = self.pick(HOSTS)
        domain = self.pick(DOMAINS)
        self.node = f"{host}.{domain}"
        self.role = self.pick(ROLES)
        roles = r.sample(ROLES, r.randint(1, 3))
        family = self.pick(FAMILIES)
        major = str(r.randint(7, 12))
        facts: dict[str, Any] = {
            # legacy facts (which Puppet 8 agents do not send) and their structured twins
            "hostname": host,
            "domain": domain,
            "fqdn": self.node,
            "networking": {"hostname": host, "domain": domain, "fqdn": self.node},
            "clientcert": self.node,
            "role": self.role,
            "roles": roles,
            "datacenter": self.pick(DCS),
            "tier": self.pick(TIERS),
            "os": {
                "family": family,
                "name": family.lower(),
                "release": {"major": major, "full": f"{major}.4"},
            },
            "services": {"ssh": "22", "http": "80"} if self.chance(0.7) else {},
            "is_virtual": self.chance(0.5),
            "processorcount": r.randint(1, 64),
            "memory": {"system": {"total_bytes": r.choice([8589934592, 2**70])}},
            "uptime_hours": r.choice([1.5, 2.0, 1e20, 0.1]),
            "custom": {"dotted.key": "dk", "plain": "pv", "list": ["x", "y"], "n": None},
            "motd": "Welcome to %{facts.hostname} in %{::datacenter}",
            "percent": "100%",
            "greeting": "héllo 日本",
            "merge_name": "deep",
        }
        self.f("facts.nested")
        self.f("facts.array")
        self.f("facts.interpolated_string")
        if self.chance(0.1):
            facts["loop_a"] = "%{loop_b}"
            facts["loop_b"] = "%{loop_a}"
            self.f("facts.recursion")
        if self.chance(0.1):
            facts["bad_ref"] = "%{no_such_variable_here}"
            self.f("facts.undefined_ref")
        self.facts = facts
        self.fmt_facts = "json" if self.chance(0.3) else "yaml"
        self.f(f"facts.file_{self.fmt_facts}")

    # variables usable anywhere (defined), as (expression, string value or None when not a
    # plain string)
    def var_refs(self) -> list[tuple[str, str | None]]:
        fx = self.facts
        return [
            ("facts.role", fx["role"]), ("::role", fx["role"]), ("role", fx["role"]),
            ("facts.os.family", fx["os"]["family"]), ("::os.family", fx["os"]["family"]),
            ("os.release.major", fx["os"]["release"]["major"]), ("trusted.certname", self.node),
            ("trusted.hostname", self.node.split(".")[0]),
            ("trusted.domain", self.node.split(".", 1)[1]), ("::fqdn", self.node),
            ("clientcert", self.node), ("environment", self.environment),
            ("facts.datacenter", fx["datacenter"]), ("::tier", fx["tier"]),
            ("hostname", fx["hostname"]), ("facts.networking.hostname", fx["hostname"]),
            ("::networking.fqdn", self.node), ("facts.custom.'dotted.key'", "dk"),
            ('facts.custom."dotted.key"', "dk"), ("facts.roles.0", fx["roles"][0]),
        ]  # fmt: skip

    def odd_var_refs(self) -> list[tuple[str, str]]:
        """Defined-but-unusual references: sub keys that miss, non-strings, collections."""
        return [
            ("facts.nosuch", "missing_subkey"), ("facts.os.nosuch.deeper", "missing_subkey"),
            ("facts.roles.9", "index_out_of_range"), ("facts.processorcount", "int_to_s"),
            ("facts.uptime_hours", "float_to_s"), ("facts.is_virtual", "bool_to_s"),
            ("facts.memory.system.total_bytes", "bigint_to_s"), ("facts.roles", "array_to_s"),
            ("facts.os.release", "hash_to_s"), ("facts.custom.n", "nil_sub"),
            ("trusted.extensions", "hash_to_s"), ("trusted.authenticated", "trusted"),
            ("server_facts", "server_facts"), ("server_facts.servername", "missing_subkey"),
            ("facts.motd", "fact_with_interpolation"), ("motd", "fact_with_interpolation"),
            ("percent", "string"), ("greeting", "unicode"), ("scope('role')", "scope_method"),
            ("scope('facts.os.family')", "scope_method"), (" facts.role ", "spaces"),
            ("title", "builtin_scope"), ("module_name", "builtin_scope"),
            ("facts.custom.list.1", "index"), ("facts.services", "hash_to_s"),
        ]  # fmt: skip

    # -- interpolation strings ----------------------------------------------------------------
    def interp_string(self, key_pool: Sequence[KeySpec]) -> str:
        """A string with one or two interpolation tokens (never an error by itself)."""
        parts: list[str] = []
        for _ in range(self.rng.randint(1, 2)):
            roll = self.rng.random()
            if roll < 0.35:
                expr, _v = self.pick(self.var_refs())
                self.f("interp.variable")
                if expr.startswith("::"):
                    self.f("interp.topscope")
                elif expr.startswith("facts."):
                    self.f("interp.facts")
                elif expr.startswith("trusted."):
                    self.f("interp.trusted")
                else:
                    self.f("interp.bare_variable")
                parts.append(f"%{{{expr}}}")
            elif roll < 0.55:
                expr, kind = self.pick(self.odd_var_refs())
                self.f(f"interp.{kind}")
                parts.append(f"%{{{expr}}}")
            elif roll < 0.8 and key_pool:
                # Only keys later in the pool: references then form no cycles.  Cycles are tested
                # on purpose (special_values); accidental ones would swamp the answers.
                here = self.key_index.get(self.current_key, -1)
                later = {k.name for k in key_pool if self.key_index.get(k.name, here + 1) > here}
                others = [k for k in key_pool if k.name in later]
                target = self.pick(others).name if others else "no_such_key_anywhere"
                fn = self.pick(["lookup", "lookup", "hiera"])
                roots = {_record_root(n) for n in later}
                paths = [p for p in self.paths if p.split(".", 1)[0] in roots]
                if self.chance(0.2) and paths:
                    target = self.pick(paths)
                    self.f("interp.lookup_dotted")
                if self.chance(0.1):
                    target = "no_such_key_anywhere"
                    self.f("interp.lookup_missing")
                q = "'" if "'" not in target else '"'
                parts.append(f"%{{{fn}({q}{target}{q})}}")
                self.f(f"interp.{fn}")
            elif roll < 0.9:
                parts.append(
                    self.pick(
                        [
                            "%{literal('%')}",
                            "%{literal('%')}{facts.role}",
                            "%%{}{x}",
                            "%{}",
                            "%{::}",
                            '%{literal("\'")}',
                        ]
                    )
                )
                self.f("interp.literal")
            else:
                parts.append(self.pick(["%{literal('%')}", "%{}"]))
                self.f("interp.literal")
            parts.append(self.pick(["", "-", " ", "/", "_x"]))
        if self.chance(0.05):
            parts.append("%{facts.role")  # unterminated: literal text
            self.f("interp.unterminated")
        return "".join(parts)

    # -- values -------------------------------------------------------------------------------
    def scalar(self, fmt: str) -> Node:
        if fmt == "json":
            kind, text = self.pick(JSON_SCALARS)
            self.f(f"json.{kind}")
            return Raw(text)
        kind, text = self.pick(YAML11_SCALARS)
        self.f(f"yaml11.{kind}")
        return Raw(text)

    def plain_string(self) -> Str:
        return Str(
            self.pick(WORDS) + self.pick(["", "_1", " two", ".x"]),
            self.pick(["plain", "single", "double"]),
        )

    def element(self, fmt: str, depth: int) -> Node:
        roll = self.rng.random()
        if roll < 0.45:
            return (
                Raw(self.pick(["1", "2", "3", "4"]))
                if self.chance(0.4)
                else Str(self.pick(["a", "b", "c", "d", "1"]), self.pick(["plain", "double"]))
            )
        if roll < 0.6:
            self.f("value.knockout_string")
            return Str(self.pick(["--a", "--b", "--", "!a", "--1"]), "double")
        if roll < 0.7 and depth < 2:
            self.f("value.nested_array")
            return Seq([self.element(fmt, depth + 1) for _ in range(self.rng.randint(0, 2))])
        if roll < 0.8 and depth < 2:
            self.f("value.hash_in_array")
            return Map([(Str(self.pick(["k", "n", "x"]), "plain"), self.element(fmt, depth + 1))])
        if roll < 0.9:
            return self.scalar(fmt)
        return Str(self.interp_string(self.keys), "double")

    def array_value(self, fmt: str, depth: int = 0) -> Seq:
        n = self.rng.choice([0, 1, 2, 2, 3, 3, 4, 5])
        return Seq([self.element(fmt, depth) for _ in range(n)], flow=self.chance(0.3))

    def hash_value(self, fmt: str, depth: int = 0, record: str | None = None) -> Map:
        m = Map(flow=self.chance(0.15) and depth > 0)
        used: set[str] = set()
        for _ in range(self.rng.randint(0 if depth else 1, 4)):
            sk = self.pick(SUBKEYS)
            if sk in used:
                continue
            used.add(sk)
            if sk == "port" and fmt == "yaml" and self.chance(0.2):
                key_node: Node = Raw("8080")  # an Integer key
                seg = "8080"
                self.f("value.integer_key")
            elif self.chance(0.05):
                rv = self.facts["role"]
                key_node = Str(f"%{{facts.role}}_{sk}", "double")
                seg = _segment(f"{rv}_{sk}")
                self.f("value.interpolated_key")
            else:
                key_node = Str(sk, self.pick(["plain", "double", "single"]))
                seg = _segment(sk)
            sub_record = f"{record}.{seg}" if record is not None else None
            roll = self.rng.random()
            if roll < 0.3 and depth < 3:
                val: Node = self.hash_value(fmt, depth + 1, sub_record)
            elif roll < 0.5:
                val = self.array_value(fmt, depth + 1)
                if sub_record is not None and val.items:
                    self.paths.append(f"{sub_record}.{self.rng.randrange(len(val.items) + 1)}")
            elif roll < 0.6:
                val = Str(self.interp_string(self.keys), "double")
            elif roll < 0.65:
                val = Raw("~") if fmt == "yaml" else Raw("null")
            else:
                val = self.scalar(fmt) if self.chance(0.6) else self.plain_string()
            if sub_record is not None:
                self.paths.append(sub_record)
            m.items.append((key_node, val))
        return m

    def value_for(self, spec: KeySpec, fmt: str) -> Node:
        kind = spec.kind
        self.current_key = spec.name
        if self.chance(0.04):
            kind = self.pick(["scalar", "array", "hash", "null"])
            self.f("value.kind_mismatch")
        rec = _record_root(spec.name)
        if kind == "scalar":
            return self.scalar(fmt)
        if kind == "string":
            return (
                self.plain_string()
                if self.chance(0.6)
                else Str(self.interp_string(self.keys), "double")
            )
        if kind == "null":
            return Raw("~" if fmt == "yaml" else "null")
        if kind == "array":
            arr = self.array_value(fmt)
            if arr.items:
                self.paths.append(f"{rec}.{self.rng.randrange(len(arr.items) + 1)}")
            return arr
        if kind == "hash":
            return self.hash_value(fmt, 0, rec)
        if kind == "hash_arrays":
            self.f("value.array_of_hashes")
            return Seq([self.hash_value(fmt, 1, None) for _ in range(self.rng.randint(1, 3))])
        if kind == "interp":
            return Str(self.interp_string(self.keys), "double")
        if kind == "alias":
            here = self.key_index.get(spec.name, -1)
            later = [k for k in self.keys if self.key_index[k.name] > here]
            target = self.pick(
                [k for k in later if k.kind in ("array", "hash", "scalar")] or later or self.keys
            )
            self.f("interp.alias")
            if self.chance(0.04):
                self.f("interp.alias_not_whole")
                return Str(f"x %{{alias('{target.name}')}}", "double")
            if self.chance(0.1):
                self.f("interp.alias_missing")
                return Str("%{alias('no_such_alias_target')}", "double")
            return Str(f"%{{alias('{target.name}')}}", "double")
        raise AssertionError(kind)

    # -- key pool ----------------------------------------------------------------------------
    def make_keys(self) -> None:
        kinds = [
            "scalar",
            "scalar",
            "string",
            "array",
            "array",
            "hash",
            "hash",
            "hash",
            "hash_arrays",
            "interp",
            "interp",
            "alias",
            "null",
        ]
        prefixes = {
            "scalar": "sc",
            "string": "str",
            "array": "arr",
            "hash": "h",
            "hash_arrays": "ha",
            "interp": "ip",
            "alias": "al",
            "null": "nl",
        }
        n = self.rng.randint(10, 16)
        for i in range(n):
            kind = self.pick(kinds)
            self.keys.append(KeySpec(f"{prefixes[kind]}_{self.pick(WORDS)}{i}", kind))
        if self.chance(0.3):
            self.keys.append(
                KeySpec("dotted.top", "hash")
            )  # written quoted; looked up as '"dotted.top"'
            self.f("key.dotted_literal")
        if self.chance(0.2):
            self.keys.append(KeySpec("clé", "string"))
            self.f("key.unicode")
        self.key_index = {k.name: i for i, k in enumerate(self.keys)}

    # -- hiera.yaml ---------------------------------------------------------------------------
    def path_templates(self, ext: str) -> list[tuple[str, str, str]]:
        """(template, resolved, feature) for `path` entries; only defined variables."""
        fx = self.facts
        return [
            (f"nodes/%{{trusted.certname}}.{ext}", f"nodes/{self.node}.{ext}", "var.trusted"),
            (f"nodes/%{{::fqdn}}.{ext}", f"nodes/{self.node}.{ext}", "var.topscope"),
            (f"nodes/%{{facts.fqdn}}.{ext}", f"nodes/{self.node}.{ext}", "var.facts"),
            (f"roles/%{{facts.role}}.{ext}", f"roles/{fx['role']}.{ext}", "var.facts"),
            (f"roles/%{{role}}.{ext}", f"roles/{fx['role']}.{ext}", "var.bare"),
            (f"os/%{{facts.os.family}}.{ext}", f"os/{fx['os']['family']}.{ext}", "var.facts"),
            (f"os/%{{facts.os.family}}/%{{facts.os.release.major}}.{ext}",
             f"os/{fx['os']['family']}/{fx['os']['release']['major']}.{ext}", "var.facts"),
            (f"dc/%{{::datacenter}}.{ext}", f"dc/{fx['datacenter']}.{ext}", "var.topscope"),
            (f"tier/%{{tier}}-%{{facts.datacenter}}.{ext}",
             f"tier/{fx['tier']}-{fx['datacenter']}.{ext}", "var.bare"),
            (f"env/%{{environment}}.{ext}", f"env/{self.environment}.{ext}", "var.environment"),
            (f"missing/%{{facts.nosuch}}.{ext}", f"missing/.{ext}", "var.missing_subkey"),
            (f"common.{ext}", f"common.{ext}", "static"),
            (f"defaults.{ext}", f"defaults.{ext}", "static"),
        ] + ([("common", "common", "no_extension")] if ext == "yaml" else [])  # fmt: skip

    def level(
        self, name: str, datadir: Path, fmt: str, layer: str, module: str | None, slots: list[Slot]
    ) -> list[str]:
        """One hierarchy entry as YAML lines (without the leading '- '); appends its slots."""
        ext = "json" if fmt == "json" else "yaml"
        kind = self.rng.choices(
            ["path", "paths", "glob", "globs", "mapped_paths"], [5, 2, 2, 1, 2]
        )[0]
        self.f(f"loc.{kind}")
        lines = [f"name: {_dq(name)}"]

        def add(resolved: str, exists_p: float = 0.8) -> None:
            if self.chance(exists_p):
                slots.append(Slot(datadir / resolved, fmt, layer, module))
            else:
                self.f("loc.missing_file")

        def decoy(resolved: str) -> None:
            slots.append(Slot(datadir / resolved, fmt, "decoy", module))

        if kind in ("path", "paths"):
            n = 1 if kind == "path" else self.rng.randint(2, 3)
            chosen = self.rng.sample(self.path_templates(ext), n)
            for _tpl, resolved, feature in chosen:
                self.f(f"loc.{feature}")
                add(resolved)
            if self.chance(0.3):
                decoy(f"roles/{self.pick([r for r in ROLES if r != self.facts['role']])}.{ext}")
            if kind == "path":
                lines.append(f"path: {_dq(chosen[0][0])}")
            else:
                lines.append("paths:")
                lines.extend(f"  - {_dq(t)}" for t, _r, _f in chosen)
        elif kind in ("glob", "globs"):
            patterns = [
                (f"conf.d/*.{ext}", ["conf.d/a.", "conf.d/b1.", "conf.d/zz."]),
                (f"conf.d/{{a,zz}}*.{ext}", ["conf.d/a.", "conf.d/zz.", "conf.d/m."]),
                (f"conf.d/[ab]*.{ext}", ["conf.d/a.", "conf.d/b1."]),
                (
                    f"%{{facts.role}}/*.{ext}",
                    [f"{self.facts['role']}/x.", f"{self.facts['role']}/y."],
                ),
                (f"deep/**/*.{ext}", ["deep/one.", "deep/sub/two.", "deep/sub/inner/three."]),
                (f"none/*.{ext}", []),
            ]
            n = 1 if kind == "glob" else 2
            chosen_g = self.rng.sample(patterns, n)
            for _pat, files in chosen_g:
                for stem in files:
                    if self.chance(0.7):
                        slots.append(Slot(datadir / f"{stem}{ext}", fmt, layer, module))
                if self.chance(0.3):
                    # a directory that matches the pattern is skipped by Puppet
                    self.mkdir(datadir / "conf.d" / f"dir.{ext}")
                    self.f("loc.glob_matches_directory")
            if kind == "glob":
                lines.append(f"glob: {_dq(chosen_g[0][0])}")
            else:
                lines.append("globs:")
                lines.extend(f"  - {_dq(p)}" for p, _f in chosen_g)
        else:
            variant = self.rng.choice(["array", "array", "string", "hash", "missing", "topscope"])
            self.f(f"loc.mapped_paths.{variant}")
            if variant in ("array", "topscope"):
                var = "facts.roles" if variant == "array" else "roles"
                lines.append(f'mapped_paths: [{var}, r, "roles/%{{r}}.{ext}"]')
                for r in self.facts["roles"]:
                    add(f"roles/{r}.{ext}")
            elif variant == "string":
                lines.append(f'mapped_paths: [facts.role, r, "role-%{{r}}.{ext}"]')
                add(f"role-{self.facts['role']}.{ext}")
            elif variant == "hash":
                lines.append(f'mapped_paths: [facts.services, s, "svc/%{{s.0}}-%{{s.1}}.{ext}"]')
                for k, v in self.facts["services"].items():
                    add(f"svc/{k}-{v}.{ext}")
            else:
                lines.append(f'mapped_paths: [facts.nosuch, x, "x/%{{x}}.{ext}"]')
        if fmt == "json":
            lines.append("data_hash: json_data")
            self.f("json_data")
        return lines

    def hiera_yaml(self, root: Path, layer: str, module: str | None, slots: list[Slot]) -> str:
        """A v5 hiera.yaml for ``root``; appends the data slots it can reach."""
        out = ["---", "version: 5"]
        default_datadir = "data"
        explicit_fn = False
        if self.chance(0.5):
            default_datadir = self.pick(["data", "hieradata", "data"])
            out.append("defaults:")
            out.append(f"  datadir: {default_datadir}")
            if self.chance(0.85):
                out.append("  data_hash: yaml_data")
            else:
                explicit_fn = True
                self.f("hiera.defaults_without_function")
            self.f("hiera.defaults")
        n_levels = {"env": self.rng.randint(3, 7), "global": self.rng.randint(2, 4)}.get(
            layer, self.rng.randint(1, 3)
        )
        names: list[str] = []
        out.append("hierarchy:")
        for i in range(n_levels):
            name = (
                self.pick(
                    ["Per-node", "Role", "OS", "Datacenter", "Common", "Extra", "Globbed", "Mapped"]
                )
                + f" {i}"
            )
            names.append(name)
            datadir = root / default_datadir
            extra: list[str] = []
            if self.chance(0.15):
                alt = self.pick(["other", "more_data"])
                datadir = root / alt
                extra.append(f"datadir: {alt}")
                self.f("hiera.datadir_override")
            fmt = "json" if self.chance(0.15) else "yaml"
            lines = self.level(name, datadir, fmt, layer, module, slots)
            lines.extend(extra)
            if explicit_fn and fmt == "yaml":
                lines.append("data_hash: yaml_data")
            out.append("  - " + lines[0])
            out.extend("    " + x for x in lines[1:])
        if layer == "module" and self.chance(0.35):
            self.f("module.default_hierarchy")
            out.append("default_hierarchy:")
            out.append('  - name: "Module defaults"')
            out.append('    path: "defaults.yaml"')
            if explicit_fn:
                out.append("    data_hash: yaml_data")
            dd = root / default_datadir
            slots.append(Slot(dd / "defaults.yaml", "yaml", "default", module))
        if self.want_break("hiera_yaml"):
            bad = self.pick(["dup_name", "unknown_key", "string_version", "method_in_path"])
            self.f(f"broken.hiera_yaml.{bad}")
            if bad == "dup_name" and names:
                out.append(f"  - name: {_dq(names[0])}\n    path: dup.yaml")
            elif bad == "unknown_key":
                out.append("  - name: typo\n    pth: typo.yaml")
            elif bad == "string_version":
                out[1] = "version: '5'"
            else:
                out.append("  - name: method\n    path: \"%{lookup('x')}.yaml\"")
        return "\n".join(out) + "\n"

    # -- data files ---------------------------------------------------------------------------
    def lookup_options(self, fmt: str, module: str | None, pool: Sequence[KeySpec]) -> Node:
        m = Map()
        seen: set[str] = set()
        for _ in range(self.rng.randint(1, 4)):
            roll = self.rng.random()
            kind = "hash"
            if roll < 0.5 and pool:
                spec = self.pick(
                    [k for k in pool if k.kind in ("hash", "array", "hash_arrays")] or pool
                )
                kind = spec.kind
                key: Node = Str(spec.name, "plain" if _PLAIN_SAFE.match(spec.name) else "double")
                self.f("lookup_options.literal")
            elif roll < 0.85 or module:
                patterns = {
                    "^h_": "hash",
                    "^arr_": "array",
                    "^(h|ha)_": "hash_arrays",
                    "^ha_.*[0-9]$": "hash_arrays",
                    "^sc_": "scalar",
                    "^ip_": "interp",
                }
                if module:
                    patterns = {
                        f"^{module}::": "scalar",
                        f"^{module}::h_": "hash",
                        f"^{module}::arr_": "array",
                    }
                pat = self.pick(sorted(patterns))
                kind = patterns[pat]
                key = Str(pat, "double")
                self.f("lookup_options.regex")
            elif roll < 0.93:
                key = Str("h_.*", "double")  # not a regex (does not start with ^)
                self.f("lookup_options.literal_with_regex_chars")
            else:
                key = Str("%{facts.role}_settings", "double")
                self.f("lookup_options.interpolated_key")
            if module and self.want_break("module_lo_key"):
                key = Str(self.pick(["unqualified", "^nomod"]), "double")  # must fail in a module
                self.f("broken.module_lookup_options_key")
            if self.chance(0.1):
                conversions: list[Node] = [
                    Str("Array", "plain"),
                    Seq([Str("Array"), Raw("true")], flow=True),
                    Str("String"),
                    Str("Integer"),
                    Str("Boolean"),
                ]
                conv = self.pick(conversions)
                opts = Map([(Str("convert_to", "plain"), conv)])
                self.f("lookup_options.convert_to")
            else:
                opts = Map([(Str("merge", "plain"), self.merge_node(kind))])
            if isinstance(key, Str) and key.value in seen:
                continue
            seen.add(key.value if isinstance(key, Str) else "")
            m.items.append((key, opts))
        if self.want_break("bad_regex"):
            self.f("broken.bad_regex")
            m.items.append((Str("^a(", "double"), Map([(Str("merge"), Str("deep"))])))
        return m

    def merge_node(self, kind: str) -> Node:
        """A merge option, usually one that suits values of ``kind`` (a mismatch is an error)."""
        roll = self.rng.random()
        suits = {
            "hash": ["deep", "deep", "hash"],
            "array": ["unique", "deep", "unique"],
            "hash_arrays": ["deep", "unique"],
        }.get(kind, ["first", "unique"])
        if roll < 0.5:
            name = (
                self.pick(suits)
                if self.chance(0.9)
                else self.pick(["deep", "hash", "unique", "first"])
            )
            self.f(f"lookup_options.merge_name.{name}")
            return Str(name, "plain")
        if roll < 0.55:
            self.f("lookup_options.interpolated_value")
            return Str("%{facts.merge_name}", "double")
        strategy = (
            self.pick([x for x in suits if x != "first"] or ["deep"])
            if self.chance(0.9)
            else self.pick(["deep", "hash", "unique"])
        )
        items: list[tuple[Node, Node]] = [(Str("strategy"), Str(strategy, "plain"))]
        if strategy == "deep":
            if self.chance(0.6):
                items.append((Str("knockout_prefix"), Str(self.pick(KNOCKOUTS), "double")))
                self.f("lookup_options.knockout_prefix")
            if self.chance(0.5):
                items.append((Str("sort_merged_arrays"), Raw(self.pick(["true", "false"]))))
                self.f("lookup_options.sort_merged_arrays")
            if self.chance(0.5):
                items.append((Str("merge_hash_arrays"), Raw(self.pick(["true", "false"]))))
                self.f("lookup_options.merge_hash_arrays")
        if self.want_break("lo_bad_merge"):
            items.append((Str("bogus_option"), Raw("1")))
            self.f("broken.unknown_merge_option")
        self.f(f"lookup_options.merge_hash.{strategy}")
        return Map(items, flow=self.chance(0.5))

    def data_file(self, slot: Slot) -> str:
        fmt = slot.fmt
        pool = self.module_keys[slot.module] if slot.module is not None else self.keys
        doc = Map()
        p_key = 0.3 if slot.layer == "decoy" else 0.65 if slot.module is not None else 0.45
        for spec in pool:
            if self.chance(p_key):
                key_text = spec.name
                doc.items.append(
                    (
                        Str(key_text, "plain" if _PLAIN_SAFE.match(key_text) else "double"),
                        self.value_for(spec, fmt),
                    )
                )
        if slot.module is not None and self.chance(0.2):
            stray = self.pick(self.keys).name if self.keys else "stray"
            doc.items.append((Str(stray, "plain"), self.plain_string()))
            self.f("module.stray_unqualified_key")
        if slot.layer in ("env", "global") and self.module_keys and self.chance(0.25):
            mod = self.pick(sorted(self.module_keys))
            spec = self.pick(self.module_keys[mod])
            doc.items.append((Str(spec.name, "plain"), self.value_for(spec, fmt)))
            self.f("env.defines_module_key")
        if self.chance(0.25 if slot.layer != "decoy" else 0.1):
            lo = self.lookup_options(fmt, slot.module, pool)
            if self.want_break("lo_not_hash"):
                lo = Seq([Str("not_a_hash")])
                self.f("broken.lookup_options_not_hash")
            doc.items.insert(
                self.rng.randint(0, len(doc.items)), (Str("lookup_options", "plain"), lo)
            )
        # specials: cycles, syntax errors, undefined variables (dedicated keys)
        for special in self.special_values(slot):
            doc.items.append(special)
        if fmt == "json":
            if self.want_break("json"):
                self.f("broken.json")
                return self.pick(["", '{"a": 1,}', "[1, 2]", '{"a": }'])
            return to_json_text(doc) + "\n"
        if self.want_break("top_level_list"):
            self.f("broken.yaml.top_level_list")
            return "- just\n- a list\n"
        if not doc.items and self.chance(0.5):
            self.f("yaml.empty_file")
            return self.pick(["", "# only a comment\n", "---\n", "~\n"])
        lines = ["---"] if self.chance(0.5) else []
        lines.extend(yaml_block(doc, 0))
        lines.extend(self.yaml_extras(slot))
        return "\n".join(lines) + "\n"

    def special_values(self, slot: Slot) -> Iterable[tuple[Node, Node]]:
        if slot.module is not None or slot.layer == "decoy":
            return
        if self.chance(0.08):
            self.f("interp.recursion")
            a, b = "cyc_a", "cyc_b"
            self.special_keys += [a, b]
            yield (Str(a, "plain"), Str(f"%{{lookup('{b}')}}", "double"))
            yield (Str(b, "plain"), Str(f"x %{{hiera('{a}')}}", "double"))
        if self.chance(0.04):
            self.f("interp.self_alias")
            self.special_keys.append("cyc_self")
            yield (Str("cyc_self", "plain"), Str("%{alias('cyc_self')}", "double"))
        if self.chance(0.1):
            bad = self.pick(
                [
                    "%{lookup( 'sc_x' )}",
                    "%{nosuchfn('x')}",
                    "%{facts..role}",
                    "%{'unbalanced}",
                    "%{lookup('a..b')}",
                    "%{literal('}')}",
                ]
            )
            self.f("interp.syntax_error")
            self.special_keys.append("bad_syntax")
            yield (Str("bad_syntax", "plain"), Str(bad, "double"))
        if self.chance(0.15):
            self.f("interp.undefined_variable")
            self.special_keys.append("undef_var")
            yield (
                Str("undef_var", "plain"),
                Str(
                    self.pick(
                        [
                            "%{no_such_var}",
                            "x-%{::no_such_var}",
                            "%{scope('no_such_var')}",
                            "%{facts.role.x}",
                        ]
                    ),
                    "double",
                ),
            )
        if "facts.recursion" in self.feat and self.chance(0.3):
            self.special_keys.append("fact_loop")
            yield (Str("fact_loop", "plain"), Str("%{loop_a}", "double"))
        if "facts.undefined_ref" in self.feat and self.chance(0.3):
            self.special_keys.append("fact_bad_ref")
            yield (Str("fact_bad_ref", "plain"), Str("%{bad_ref}", "double"))

    def yaml_extras(self, slot: Slot) -> list[str]:
        out: list[str] = []
        if self.chance(0.06):
            self.f("yaml.anchor_merge_key")
            out += [
                "anchor_base: &base",
                "  a: 1",
                "  b: [x, y]",
                "anchor_user:",
                "  <<: *base",
                "  b: [z]",
                "anchor_alias: *base",
            ]
            self.special_keys += ["anchor_base", "anchor_user", "anchor_alias", "anchor_user.b"]
        if self.chance(0.05):
            self.f("yaml.duplicate_key")
            out += ["dup_key: first", "dup_key: second"]
            self.special_keys.append("dup_key")
        if self.chance(0.04):
            self.f("yaml.block_scalars")
            out += [
                "block_lit: |",
                "  line one",
                "  line %{facts.role}",
                "block_fold: >-",
                "  folded",
                "  text",
            ]
            self.special_keys += ["block_lit", "block_fold"]
        if self.chance(0.04):
            self.f("yaml.symbol_key")
            out += [":sym_key: symbol key value"]
            self.special_keys.append("sym_key")
        if self.chance(0.04):
            self.f("yaml.symbol_value")
            out += ["sym_value: :sym"]
            self.special_keys.append("sym_value")
        for bad in ("yaml_syntax", "yaml_date", "yaml_time"):
            if slot.layer != "decoy" and self.want_break(bad):
                self.f(f"broken.{bad}")
                out += {
                    "yaml_syntax": ["broken: [1, 2", "other: x"],
                    "yaml_date": ["released: 2021-01-01"],
                    "yaml_time": ["dates:", "  - 2021-01-01T10:00:00Z"],
                }[bad]
        return out

    # -- modules and global layer ------------------------------------------------------------
    def make_modules(self, env_dir: Path, slots: list[Slot]) -> None:
        n = self.rng.choice([0, 1, 1, 2, 2, 3])
        for mod in self.rng.sample(MODULES, n):
            self.f("module")
            kinds = ["scalar", "string", "array", "hash", "hash", "interp"]
            self.module_keys[mod] = [
                KeySpec(
                    f"{mod}::{self.pick(['h', 'arr', 'sc'])}_{self.pick(WORDS)}{i}",
                    self.pick(kinds),
                    mod,
                )
                for i in range(self.rng.randint(3, 6))
            ]
            for ks in self.module_keys[mod]:
                if ks.name.split("::", 1)[1].startswith("h_"):
                    ks.kind = "hash"
                elif ks.name.split("::", 1)[1].startswith("arr_"):
                    ks.kind = "array"
            mroot = env_dir / "modules" / mod
            if self.chance(0.1):
                self.mkdir(mroot / "manifests")
                self.f("module.without_hiera_yaml")
                continue
            mslots: list[Slot] = []
            self.write(mroot / "hiera.yaml", self.hiera_yaml(mroot, "module", mod, mslots))
            slots.extend(mslots)

    def make_global(self, slots: list[Slot]) -> Path | None:
        if not self.chance(0.35):
            return None
        self.f("global_layer")
        groot = self.base / "global"
        gslots: list[Slot] = []
        self.write(groot / "hiera.yaml", self.hiera_yaml(groot, "global", None, gslots))
        slots.extend(gslots)
        return groot / "hiera.yaml"

    # -- lookups ------------------------------------------------------------------------------
    def merges(self, kind: str) -> MergeArg:
        roll = self.rng.random()
        if roll < 0.45:
            return None
        if roll < 0.75:
            if kind in ("hash", "hash_arrays"):
                return self.pick(["deep", "hash", "deep", "first"] * 4 + ["unique"])
            if kind == "array":
                return self.pick(["unique", "deep", "first"] * 4 + ["hash"])
            return self.pick(["first", "unique", "deep", "hash"])
        if roll < 0.99:
            opts: dict[str, Any] = {"strategy": "deep"}
            if self.chance(0.6):
                opts["knockout_prefix"] = self.pick(KNOCKOUTS)
            if self.chance(0.5):
                opts["sort_merged_arrays"] = self.chance(0.5)
            if self.chance(0.5):
                opts["merge_hash_arrays"] = self.chance(0.5)
            if self.chance(0.15):
                opts = {"strategy": self.pick(["hash", "unique", "first"])}
            return opts
        return {"strategy": "deep", "bogus": 1} if self.chance(0.5) else {"strategy": "nope"}

    def make_lookups(self) -> list[Lookup]:
        out: list[Lookup] = []
        target = self.rng.randint(self.opt.min_lookups, self.opt.max_lookups)
        all_keys = list(self.keys) + [k for ks in self.module_keys.values() for k in ks]

        def key_text(spec_name: str) -> str:
            return _record_root(spec_name)

        for spec in all_keys:
            out.append(Lookup(key_text(spec.name), self.merges(spec.kind)))
            self.f("lookup.module_key" if spec.module else "lookup.key")
        while len(out) < target:
            roll = self.rng.random()
            if roll < 0.35 and self.paths:
                k = self.pick(self.paths)
                self.f("lookup.dotted")
                if '"' in k or "'" in k:
                    self.f("lookup.quoted_segment")
                out.append(Lookup(k, self.merges("hash")))
            elif roll < 0.55 and all_keys:
                spec = self.pick(all_keys)
                out.append(Lookup(key_text(spec.name), self.merges(spec.kind)))
                self.f("lookup.key_again")
            elif roll < 0.7 and self.special_keys:
                out.append(Lookup(self.pick(self.special_keys), self.merges("scalar")))
                self.f("lookup.special")
            elif roll < 0.9:
                k = self.pick(
                    [
                        "no_such_key",
                        "h_missing.a",
                        f"{self.pick(MODULES)}::missing",
                        "nomod::x",
                        "sc_x.y",
                    ]
                )
                hashes = [x for x in all_keys if x.kind == "hash"]
                if hashes and self.chance(0.5):
                    k = f"{key_text(self.pick(hashes).name)}.nosuch"
                out.append(Lookup(k, self.merges("scalar")))
                self.f("lookup.missing")
            else:
                k = self.pick(
                    [
                        "lookup_options",
                        "lookup_options.x",
                        "a..b",
                        "h.'x",
                        "'quoted.whole'",
                        '"dotted.top".a',
                        "''",
                        " spaced . key ",
                    ]
                )
                if all_keys and self.chance(0.3):
                    k = f"'{self.pick(all_keys).name}'"
                out.append(Lookup(k, None))
                self.f("lookup.odd_key")
        self.rng.shuffle(out)
        return out

    # -- driver -------------------------------------------------------------------------------
    def run(self) -> GeneratedEnv:
        self.environment = "production" if self.chance(0.8) else self.pick(["staging", "dev_1"])
        self.make_facts()
        envpath = self.base / "environments"
        env_dir = envpath / self.environment
        env_dir.mkdir(parents=True)
        self.make_keys()
        slots: list[Slot] = []
        self.make_modules(env_dir, slots)
        hiera_config = self.make_global(slots)
        if self.chance(0.03):
            self.f("env.without_hiera_yaml")
            self.mkdir(env_dir / "data")
            slots.append(Slot(env_dir / "data" / "common.yaml", "yaml", "decoy"))
        else:
            self.write(env_dir / "hiera.yaml", self.hiera_yaml(env_dir, "env", None, slots))
        if self.chance(0.1):
            self.f("env.conf")
            self.write(env_dir / "environment.conf", "# an environment.conf with defaults only\n")
        seen: set[Path] = set()
        for slot in slots:
            if slot.path in seen:
                continue
            seen.add(slot.path)
            self.write(slot.path, self.data_file(slot))
            self.f(f"data.{slot.layer}.{slot.fmt}")
        if self.fmt_facts == "json":
            facts_path = self.base / "facts.json"
            self.write(facts_path, json.dumps(self.facts, ensure_ascii=False, indent=2) + "\n")
        else:
            facts_path = self.base / "facts.yaml"
            self.write(facts_path, "\n".join(["---", *facts_yaml(self.facts)]) + "\n")
        lookups = self.make_lookups()
        self.paths = sorted(set(self.paths))
        return GeneratedEnv(
            seed=self.seed,
            base=self.base,
            environmentpath=envpath,
            environment=self.environment,
            node=self.node,
            facts=self.facts,
            facts_path=facts_path,
            hiera_config=hiera_config,
            lookups=lookups,
            files=dict(self.files),
            features=self.feat,
        )


def _segment(text: str) -> str:
    """How a lookup key addresses the String hash key ``text``."""
    if re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", text) and not re.fullmatch(r"[+-]?[0-9]+", text):
        return text
    if '"' not in text:
        return f'"{text}"'
    return f"'{text}'"


def _record_root(name: str) -> str:
    return name if "." not in name else f'"{name}"'


def generate(seed: int, base_dir: Path, options: GenOptions | None = None) -> GeneratedEnv:
    """Write the environment for ``seed`` under ``base_dir`` (which must be empty or absent)."""
    base_dir.mkdir(parents=True, exist_ok=True)
    return _Gen(seed, base_dir.resolve(), options or GenOptions()).run()


def write_files(files: dict[str, str], base_dir: Path) -> None:
    """Re-create a (possibly reduced) file set, e.g. while minimising a failure."""
    for rel, text in files.items():
        path = base_dir / rel
        if rel.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
