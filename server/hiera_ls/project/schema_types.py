"""The Puppet type a hiera.yaml schema stands for (the structural check Puppet runs first).

``project/schema_validation.py`` reads the schema; this module builds its Puppet type, read
the way that module's docstring says. Apart so that Puppet's type system is imported only
when a file needs the type check (``SchemaReader.plainly_accepts`` settles the others).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from hiera_ls.puppet.types import (
    AliasType,
    AnyType,
    ArrayType,
    BooleanType,
    FloatType,
    HashType,
    IntegerType,
    NumericType,
    PatternType,
    PType,
    ScalarDataType,
    StringType,
    StructElement,
    StructType,
    UndefType,
    VariantType,
    make_enum,
)

if TYPE_CHECKING:
    from hiera_ls.project.schema_validation import Schema, SchemaReader

_BUILTIN_TYPES: dict[str, PType] = {
    "ScalarData": ScalarDataType(),
    "Any": AnyType(),
    "Numeric": NumericType(),
}


def compile_schema(reader: SchemaReader, node: Schema) -> PType:
    """The Puppet type of ``node``, a (sub)schema of ``reader``'s document (kept by the
    reader, so each subschema and alias is built once)."""
    if "$ref" in node:
        target = reader.deref(node)
        alias = target.get("x-puppet-alias")
        if isinstance(alias, str):
            return _alias(reader, alias, target)
        return compile_schema(reader, target)
    key = id(node)
    found = reader.compiled_types.get(key)
    if found is None:
        found = _compile_node(reader, node)
        reader.compiled_types[key] = found
    return found


def _alias(reader: SchemaReader, name: str, target: Schema) -> PType:
    alias = reader.type_aliases.get(name)
    if alias is None:
        body = {k: v for k, v in target.items() if k != "x-puppet-alias"}
        holder: list[PType] = []

        def resolve() -> PType:
            if not holder:
                holder.append(_compile_node(reader, body))
            return holder[0]

        alias = AliasType(name, resolve, builtin=True)
        reader.type_aliases[name] = alias
    return alias


def _compile_node(reader: SchemaReader, node: Schema) -> PType:
    builtin = node.get("x-puppet-type")
    if isinstance(builtin, str):
        return _BUILTIN_TYPES[builtin]
    alias = node.get("x-puppet-alias")
    if isinstance(alias, str):
        return _alias(reader, alias, node)
    if "anyOf" in node and "x-puppet-issue" not in node:
        return VariantType(tuple(compile_schema(reader, n) for n in node["anyOf"]))
    if "enum" in node:
        return make_enum([str(v) for v in node["enum"]])
    kinds = node.get("type")
    if kinds is None:
        return AnyType()
    if isinstance(kinds, list):
        names = [k for k in kinds if not (k == "null" and "default" in node)]
        if len(names) != 1:
            return VariantType(tuple(_compile_kind(reader, k, node) for k in names))
        kinds = names[0]
    return _compile_kind(reader, str(kinds), node)


def _compile_kind(reader: SchemaReader, kind: str, node: Schema) -> PType:
    if kind == "object":
        return _compile_object(reader, node)
    if kind == "array":
        items = node.get("items")
        element = compile_schema(reader, items) if isinstance(items, Mapping) else AnyType()
        return ArrayType(element, _size(node.get("minItems"), node.get("maxItems")))
    if kind == "string":
        pattern = node.get("pattern")
        if isinstance(pattern, str):
            return PatternType((ruby_pattern_source(pattern),))
        return StringType(_size(node.get("minLength"), node.get("maxLength")))
    if kind == "integer":
        if "const" in node:
            return IntegerType(int(node["const"]), int(node["const"]))
        return IntegerType(node.get("minimum"), node.get("maximum"))
    if kind == "number":
        return (
            NumericType()
            if "minimum" not in node
            else FloatType(node.get("minimum"), node.get("maximum"))
        )
    if kind == "boolean":
        return BooleanType()
    if kind == "null":
        return UndefType()
    raise ValueError(f"unsupported schema type {kind!r}")


def _compile_object(reader: SchemaReader, node: Schema) -> PType:
    properties = node.get("properties")
    if isinstance(properties, Mapping):
        required = set(node.get("required", ()))
        return StructType(
            tuple(
                StructElement(name, name not in required, compile_schema(reader, sub))
                for name, sub in properties.items()
            )
        )
    names = node.get("propertyNames")
    values = node.get("additionalProperties")
    key = compile_schema(reader, names) if isinstance(names, Mapping) else StringType()
    value = compile_schema(reader, values) if isinstance(values, Mapping) else AnyType()
    return HashType(key, value)


def ruby_pattern_source(pattern: str) -> str:
    """A JSON Schema (ECMA) pattern anchored with ^...$ as Ruby's \\A...\\z source."""
    source = pattern
    if source.startswith("^"):
        source = "\\A" + source[1:]
    if source.endswith("$") and not source.endswith("\\$"):
        source = source[:-1] + "\\z"
    return source


def _size(low: object, high: object) -> IntegerType | None:
    if low is None and high is None:
        return None
    return IntegerType(
        int(low) if isinstance(low, int) else 0, int(high) if isinstance(high, int) else None
    )
