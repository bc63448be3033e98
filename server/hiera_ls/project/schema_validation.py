"""hiera.yaml checked against its JSON Schema, reported the way Puppet reports it.

The schema (``schemas/hiera.v5.schema.json``) is the single description of hiera.yaml: the
editor reads it for completion and hover, and this module reads it for validation.  Only
the keywords the schema uses are understood.  They are read in two ways:

* As a Puppet type, for the structural check Puppet runs first.  ``type`` object with
  ``properties`` is a Struct (``required`` keys mandatory, ``additionalProperties: false``),
  object with ``propertyNames``/``additionalProperties`` schemas a Hash, ``array`` with
  ``items``/``minItems``/``maxItems`` an Array, ``string`` with ``minLength`` a String,
  with ``pattern`` a Pattern (``^``/``$`` printed as Ruby's ``\\A``/``\\z``), ``integer``
  with ``const``/``minimum``/``maximum`` an Integer, ``enum`` an Enum, an ``anyOf`` a
  Variant, ``x-puppet-alias`` a named alias, ``x-puppet-type`` a built-in type.  Property
  order is significant: Puppet reports mismatches in its type's element order.  A
  property with a ``default`` takes that value when absent, null or false (Puppet's
  ``||=``, in ``x-puppet-fill-order`` when given), so ``null`` in its ``type`` is not
  part of the Puppet type.
* As plain JSON Schema, for the checks Puppet runs after the type check: every subschema
  with ``x-puppet-issue`` that a hash in the value fails is a finding with that issue name (and the
  ``x-puppet-args``); ``x-hiera-layers`` limits a property to some layers, reported with
  its ``x-hiera-layer-issue``.  ``allOf``, ``anyOf``, ``oneOf``, ``not``, ``if``/``then``,
  ``required``, ``enum``, ``const`` and the structural keywords are evaluated.

Keywords outside that subset are a programming error (the tests compile the real schema).
"""

from __future__ import annotations

import copy
import math
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from hiera_ls.puppet.values import RubySymbol

if TYPE_CHECKING:
    from hiera_ls.puppet.types import AliasType, PType

Schema = Mapping[str, Any]
ValuePath = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Finding:
    """A post-type-check rule that the value breaks, at ``path`` inside the value."""

    issue: str
    path: ValuePath
    args: Mapping[str, object] = field(default_factory=dict)


class SchemaReader:
    """One schema document: resolves ``$ref``, compiles Puppet types, evaluates rules."""

    def __init__(self, root: Schema) -> None:
        self.root = root
        # the Puppet types built of it (project/schema_types.py), by alias name and by id()
        self.type_aliases: dict[str, AliasType] = {}
        self.compiled_types: dict[int, PType] = {}
        self._checks: dict[int, list[Any]] = {}  # by id(): the schema outlives this reader

    # ------------------------------------------------------------------ references

    def deref(self, node: Schema) -> Schema:
        while "$ref" in node:
            ref = node["$ref"]
            if not isinstance(ref, str) or not ref.startswith("#/"):
                raise ValueError(f"unsupported $ref {ref!r}")
            target: Any = self.root
            for part in ref[2:].split("/"):
                target = target[part]
            node = target
        return node

    # ------------------------------------------------------------------ Puppet type

    def puppet_type(self, node: Schema | None = None) -> PType:
        """The Puppet type this (sub)schema stands for; the whole schema by default (Puppet's
        type system imported here: :meth:`plainly_accepts` settles most files without it)."""
        from hiera_ls.project.schema_types import compile_schema

        return compile_schema(self, self.root if node is None else node)

    def plainly_accepts(self, value: object, node: Schema | None = None) -> bool:
        """Whether :meth:`puppet_type` surely accepts ``value``, decided on the value alone
        (a value of Python's plain types, walked as the type is built); False sends it to
        the type check, which may yet accept it and otherwise says why not."""
        return self._plain(self.root if node is None else node, value)

    def _plain(self, node: Schema, value: object) -> bool:
        if "$ref" in node:
            target = self.deref(node)
            if isinstance(target.get("x-puppet-alias"), str):
                return self._plain_node(target, value)
            return self._plain(target, value)
        return self._plain_node(node, value)

    def _plain_node(self, node: Schema, value: object) -> bool:
        builtin = node.get("x-puppet-type")
        if isinstance(builtin, str):
            return builtin == "Any" or (builtin == "ScalarData" and _plain_scalar(value))
        if "anyOf" in node and "x-puppet-issue" not in node:
            return any(self._plain(n, value) for n in node["anyOf"])
        if "enum" in node:
            return type(value) is str and value in [str(v) for v in node["enum"]]
        kinds = node.get("type")
        if kinds is None:
            return True
        if isinstance(kinds, list):
            names = [k for k in kinds if not (k == "null" and "default" in node)]
            return any(self._plain_kind(str(k), node, value) for k in names)
        return self._plain_kind(str(kinds), node, value)

    def _plain_kind(self, kind: str, node: Schema, value: object) -> bool:
        if kind == "object":
            return type(value) is dict and self._plain_object(node, value)
        if kind == "array":
            items = node.get("items")
            return (
                type(value) is list
                and _within(len(value), node.get("minItems"), node.get("maxItems"))
                and (not isinstance(items, Mapping) or all(self._plain(items, v) for v in value))
            )
        if kind == "string":
            if type(value) is not str:
                return False
            pattern = node.get("pattern")
            if isinstance(pattern, str):  # Ruby and Python read these patterns alike on ASCII
                rx = _compiled_pattern(pattern)
                return value.isascii() and rx is not None and rx.search(value) is not None
            return _within(len(value), node.get("minLength"), node.get("maxLength"))
        if kind == "integer":
            if type(value) is not int:
                return False
            if "const" in node:
                return value == int(node["const"])
            return _within(value, node.get("minimum"), node.get("maximum"))
        if kind == "number":
            return "minimum" not in node and _plain_scalar(value) and type(value) in (int, float)
        if kind == "boolean":
            return type(value) is bool
        return kind == "null" and value is None

    def _plain_object(self, node: Schema, value: dict[object, object]) -> bool:
        properties = node.get("properties")
        if isinstance(properties, Mapping):  # a Struct: no other keys, the required ones there
            required = node.get("required", ())
            return (
                all(type(k) is str and k in properties for k in value)
                and all(name in value for name in required)
                and all(self._plain(properties[str(k)], v) for k, v in value.items())
            )
        names = node.get("propertyNames")
        values = node.get("additionalProperties")
        return all(
            (self._plain(names, k) if isinstance(names, Mapping) else type(k) is str)
            and (not isinstance(values, Mapping) or self._plain(values, v))
            for k, v in value.items()
        )

    # ------------------------------------------------------------------ defaults

    def fill_defaults(self, value: Mapping[object, object]) -> dict[object, object]:
        """A copy with Puppet's ``||=`` defaults put in for absent, null or false properties."""
        out: dict[object, object] = dict(value)
        properties = self.root.get("properties", {})
        for name in self.root.get("x-puppet-fill-order", properties):
            sub = properties[name]
            if "default" in sub and (out.get(name) is None or out.get(name) is False):
                out[name] = copy.deepcopy(sub["default"])
        return out

    # ------------------------------------------------------------------ JSON Schema rules

    def is_valid(self, node: Schema | bool, value: object) -> bool:
        if isinstance(node, bool):
            return node
        if "$ref" in node and not self.is_valid(self.deref(node), value):
            return False
        checks = self._checks.get(id(node))
        if checks is None:
            checks = self._checks[id(node)] = list(_applicable(node))
        return all(check(self, node, value) for check in checks)

    def findings(self, value: object, layer: str) -> list[Finding]:
        """Post-type-check findings, in the order the schema meets them."""
        out: list[Finding] = []
        self._walk(self.root, value, (), layer, out)
        return out

    def _walk(
        self, node: Schema, value: object, path: ValuePath, layer: str, out: list[Finding]
    ) -> None:
        if "$ref" in node:
            self._walk(self.deref(node), value, path, layer, out)
        issue = node.get("x-puppet-issue")
        if isinstance(issue, str):
            # Puppet runs these rules on hashes only (after its type check has passed).
            if isinstance(value, dict) and not self.is_valid(node, value):
                out.append(Finding(issue, path, dict(node.get("x-puppet-args", {}))))
            return
        layers = node.get("x-hiera-layers")
        if isinstance(layers, list) and layer not in layers:
            out.append(Finding(str(node.get("x-hiera-layer-issue")), path, {}))
        for sub in node.get("allOf", ()):
            self._walk(sub, value, path, layer, out)
        if "if" in node:
            branch = node.get("then") if self.is_valid(node["if"], value) else node.get("else")
            if isinstance(branch, Mapping):
                self._walk(branch, value, path, layer, out)
        if isinstance(value, dict):
            for name, sub in node.get("properties", {}).items():
                if name in value:
                    self._walk(sub, value[name], (*path, name), layer, out)
        items = node.get("items")
        if isinstance(value, list) and isinstance(items, Mapping):
            for i, element in enumerate(value):
                self._walk(items, element, (*path, i), layer, out)


def _within(n: int, low: object, high: object) -> bool:
    return (not isinstance(low, int) or n >= low) and (not isinstance(high, int) or n <= high)


def _plain_scalar(value: object) -> bool:
    """ScalarData of exactly Python's plain types (a NaN is no Float instance)."""
    kind = type(value)
    if kind is float:
        return math.isfinite(value)  # type: ignore[arg-type]
    return kind is str or kind is int or kind is bool


# ----------------------------------------------------------------------- keyword checks


def _json_type(value: object) -> set[str]:
    if value is None:
        return {"null"}
    if isinstance(value, bool):
        return {"boolean"}
    if isinstance(value, int):
        return {"integer", "number"}
    if isinstance(value, float):
        return {"number"}
    if isinstance(value, str):
        return {"string"}
    if isinstance(value, list):
        return {"array"}
    if isinstance(value, dict):
        return {"object"}
    return set()  # a Ruby Symbol, or anything else JSON has no name for


def _same(a: object, b: object) -> bool:
    """JSON equality: 1 and 1.0 are equal, true and 1 are not."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, RubySymbol) or isinstance(b, RubySymbol):
        return False
    return a == b


def _compiled_pattern(pattern: str) -> re.Pattern[str] | None:
    try:
        return re.compile(
            pattern[:-1] + r"\Z"
            if pattern.endswith("$") and not pattern.endswith("\\$")
            else pattern
        )
    except re.error:
        return None


def _check_type(r: SchemaReader, node: Schema, value: object) -> bool:
    kinds = node["type"]
    wanted = {kinds} if isinstance(kinds, str) else set(kinds)
    return bool(_json_type(value) & wanted)


def _check_const(r: SchemaReader, node: Schema, value: object) -> bool:
    return _same(node["const"], value)


def _check_enum(r: SchemaReader, node: Schema, value: object) -> bool:
    return any(_same(v, value) for v in node["enum"])


def _check_required(r: SchemaReader, node: Schema, value: object) -> bool:
    return not isinstance(value, dict) or all(name in value for name in node["required"])


def _check_properties(r: SchemaReader, node: Schema, value: object) -> bool:
    if not isinstance(value, dict):
        return True
    return all(
        r.is_valid(sub, value[name]) for name, sub in node["properties"].items() if name in value
    )


def _check_additional(r: SchemaReader, node: Schema, value: object) -> bool:
    if not isinstance(value, dict):
        return True
    known = node.get("properties", {})
    extra = node["additionalProperties"]
    return all(r.is_valid(extra, v) for k, v in value.items() if k not in known)


def _check_property_names(r: SchemaReader, node: Schema, value: object) -> bool:
    if not isinstance(value, dict):
        return True
    return all(r.is_valid(node["propertyNames"], k) for k in value)


def _check_items(r: SchemaReader, node: Schema, value: object) -> bool:
    return not isinstance(value, list) or all(r.is_valid(node["items"], v) for v in value)


def _check_min_items(r: SchemaReader, node: Schema, value: object) -> bool:
    return not isinstance(value, list) or len(value) >= int(node["minItems"])


def _check_max_items(r: SchemaReader, node: Schema, value: object) -> bool:
    return not isinstance(value, list) or len(value) <= int(node["maxItems"])


def _check_min_length(r: SchemaReader, node: Schema, value: object) -> bool:
    return not isinstance(value, str) or len(value) >= int(node["minLength"])


def _check_max_length(r: SchemaReader, node: Schema, value: object) -> bool:
    return not isinstance(value, str) or len(value) <= int(node["maxLength"])


def _check_pattern(r: SchemaReader, node: Schema, value: object) -> bool:
    if not isinstance(value, str):
        return True
    rx = _compiled_pattern(str(node["pattern"]))
    return rx is not None and rx.search(value) is not None


def _number(value: object) -> float | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value


def _check_minimum(r: SchemaReader, node: Schema, value: object) -> bool:
    n = _number(value)
    return n is None or n >= node["minimum"]


def _check_maximum(r: SchemaReader, node: Schema, value: object) -> bool:
    n = _number(value)
    return n is None or n <= node["maximum"]


def _check_all_of(r: SchemaReader, node: Schema, value: object) -> bool:
    return all(r.is_valid(sub, value) for sub in node["allOf"])


def _check_any_of(r: SchemaReader, node: Schema, value: object) -> bool:
    return any(r.is_valid(sub, value) for sub in node["anyOf"])


def _check_one_of(r: SchemaReader, node: Schema, value: object) -> bool:
    return sum(1 for sub in node["oneOf"] if r.is_valid(sub, value)) == 1


def _check_not(r: SchemaReader, node: Schema, value: object) -> bool:
    return not r.is_valid(node["not"], value)


def _check_if(r: SchemaReader, node: Schema, value: object) -> bool:
    branch = node.get("then") if r.is_valid(node["if"], value) else node.get("else")
    return branch is None or r.is_valid(branch, value)


_CHECKS = {
    "type": _check_type,
    "const": _check_const,
    "enum": _check_enum,
    "required": _check_required,
    "properties": _check_properties,
    "additionalProperties": _check_additional,
    "propertyNames": _check_property_names,
    "items": _check_items,
    "minItems": _check_min_items,
    "maxItems": _check_max_items,
    "minLength": _check_min_length,
    "maxLength": _check_max_length,
    "pattern": _check_pattern,
    "minimum": _check_minimum,
    "maximum": _check_maximum,
    "allOf": _check_all_of,
    "anyOf": _check_any_of,
    "oneOf": _check_one_of,
    "not": _check_not,
    "if": _check_if,
}
# Annotations and keywords handled elsewhere; anything else in the schema is unsupported.
ANNOTATIONS = frozenset(
    {
        "$schema",
        "$id",
        "$comment",
        "$defs",
        "$ref",
        "title",
        "description",
        "default",
        "examples",
        "then",
        "else",
        "x-puppet-issue",
        "x-puppet-args",
        "x-puppet-alias",
        "x-puppet-type",
        "x-hiera-layers",
        "x-hiera-layer-issue",
        "x-puppet-fill-order",
    }
)


def _applicable(node: Schema) -> Iterator[Any]:
    for keyword in node:
        check = _CHECKS.get(keyword)
        if check is not None:
            yield check
        elif keyword not in ANNOTATIONS:
            raise ValueError(f"unsupported schema keyword {keyword!r}")


def unsupported_keywords(node: object) -> list[str]:
    """Keywords this reader does not understand anywhere in ``node`` (for the tests)."""
    found: list[str] = []
    if isinstance(node, Mapping):
        for keyword, sub in node.items():
            if keyword not in _CHECKS and keyword not in ANNOTATIONS:
                found.append(keyword)
            if keyword in ("properties", "$defs"):
                for child in sub.values():
                    found.extend(unsupported_keywords(child))
            elif keyword in (
                "default",
                "examples",
                "enum",
                "const",
                "required",
                "x-puppet-args",
                "x-hiera-layers",
            ):
                continue
            elif isinstance(sub, (Mapping, list)):
                found.extend(unsupported_keywords(sub))
    elif isinstance(node, list):
        for child in node:
            found.extend(unsupported_keywords(child))
    return found
