"""Puppet's TypeFormatter: the text of a type as Puppet's messages print it.

Aliases print by name (``Data``, ``Stdlib::Port``), as in ``expects a Data value``; the
mismatch describer expands them itself where Puppet does.
"""

from __future__ import annotations

import math

from hiera_ls.puppet.ruby_text import number_text, puppet_quote
from hiera_ls.puppet.type_assignable import accepts_undef, size_range
from hiera_ls.puppet.types import (
    AliasType,
    AnyType,
    ArrayType,
    BooleanType,
    CallableType,
    CollectionType,
    DefaultType,
    EnumType,
    FloatType,
    HashType,
    IntegerType,
    NamedType,
    NotUndefType,
    NumericType,
    OptionalType,
    PatternType,
    PType,
    RegexpType,
    RuntimeType,
    ScalarDataType,
    ScalarType,
    StringType,
    StructElement,
    StructType,
    TupleType,
    TypeReferenceType,
    UndefType,
    UnitType,
    VariantType,
    WrapperType,
)

_SIMPLE_NAMES: dict[type, str] = {
    AnyType: "Any",
    UndefType: "Undef",
    DefaultType: "Default",
    UnitType: "Unit",
    ScalarType: "Scalar",
    ScalarDataType: "ScalarData",
    NumericType: "Numeric",
    BooleanType: "Boolean",
    IntegerType: "Integer",
    FloatType: "Float",
    StringType: "String",
    EnumType: "Enum",
    PatternType: "Pattern",
    RegexpType: "Regexp",
    RuntimeType: "Runtime",
    CollectionType: "Collection",
    ArrayType: "Array",
    TupleType: "Tuple",
    HashType: "Hash",
    StructType: "Struct",
    VariantType: "Variant",
    OptionalType: "Optional",
    NotUndefType: "NotUndef",
    CallableType: "Callable",
    TypeReferenceType: "TypeReference",
    AliasType: "TypeAlias",
}


def simple_name(t: PType) -> str:
    """The name of the type's kind (``Integer`` for ``Integer[1, 2]``)."""
    if isinstance(t, WrapperType):
        return t.kind
    if isinstance(t, NamedType):
        return t.name
    return _SIMPLE_NAMES.get(type(t), "Any")


def type_name(t: PType) -> str:
    return t.name if isinstance(t, AliasType) else simple_name(t)


def short_name(t: PType) -> str:
    """The name the describer prints when details would not help (``Optional[String]``)."""
    if (
        isinstance(t, OptionalType | NotUndefType | WrapperType)
        and t.type is not None
        and not isinstance(t.type, AnyType)
    ):
        return f"{type_name(t)}[{type_name(t.type)}]"
    return type_name(t)


def _range_parts(t: IntegerType | FloatType | None) -> list[str]:
    if t is None:
        return []
    low_open = t.low is None or t.low == -math.inf
    high_open = t.high is None or t.high == math.inf
    if low_open and high_open:
        return []
    parts = ["default" if low_open or t.low is None else number_text(t.low)]
    if not high_open and t.high is not None:
        parts.append(number_text(t.high))
    return parts


def _with_params(name: str, params: list[str]) -> str:
    return f"{name}[{', '.join(params)}]" if params else name


def regexp_text(source: str) -> str:
    """A regexp between slashes as Ruby's Regexp#inspect writes it (a bare ``/`` escaped)."""
    out: list[str] = []
    escaped = False
    for c in source:
        if escaped:
            out.append(c)
            escaped = False
        elif c == "\\":
            out.append(c)
            escaped = True
        elif c == "/":
            out.append("\\/")
        else:
            out.append(c)
    return "/" + "".join(out) + "/"


_NO_EXPANSION = frozenset({"*"})  # aliases inside the type print by name


def format_type(t: PType) -> str:
    """Puppet's ``to_s`` of a type: an alias of a module prints expanded
    (``Name = <its type>``), aliases inside other types (and Puppet's own, such as Data)
    by name."""
    if isinstance(t, AliasType) and not t.builtin:
        return format_expanded(t)
    return _format(t, _NO_EXPANSION)


def format_expanded(t: PType, expanding: frozenset[str] = frozenset()) -> str:
    """Puppet's ``to_alias_expanded_s`` (what mismatch messages print): every alias of a
    module expanded, a self-reference inside its own expansion by name."""
    return _format(t, expanding)


def _format_alias(t: AliasType, expanding: frozenset[str]) -> str:
    if t.builtin or "*" in expanding or t.name in expanding:
        return t.name
    return f"{t.name} = {_format(t.resolved(), expanding | {t.name})}"


def _format(t: PType, expanding: frozenset[str]) -> str:
    if isinstance(t, AliasType):
        return _format_alias(t, expanding)
    if isinstance(t, BooleanType):
        return "Boolean" if t.value is None else f"Boolean[{str(t.value).lower()}]"
    if isinstance(t, IntegerType | FloatType):
        return _with_params(simple_name(t), _range_parts(t))
    if isinstance(t, StringType):
        return _with_params("String", _range_parts(t.size))
    if isinstance(t, CollectionType):
        return _with_params("Collection", _range_parts(t.size))
    if isinstance(t, EnumType):
        params = [puppet_quote(v) for v in t.values]
        if params and t.case_insensitive:
            params.append("true")
        return _with_params("Enum", params)
    if isinstance(t, PatternType):
        return _with_params("Pattern", [regexp_text(p) for p in t.patterns])
    if isinstance(t, RegexpType):
        return "Regexp" if t.pattern is None else f"Regexp[{regexp_text(t.pattern)}]"
    if isinstance(t, RuntimeType):
        if t.runtime is None and t.name is None:
            return "Runtime"
        return f"Runtime[{t.runtime}, {puppet_quote(t.name or '')}]"  # the runtime is a Symbol
    if isinstance(t, ArrayType):
        if size_range(t.size) == (0, 0):
            return "Array[0, 0]"
        if t.element == AnyType() and t.size is None:
            return "Array"
        return _with_params("Array", [_format(t.element, expanding), *_range_parts(t.size)])
    if isinstance(t, HashType):
        if size_range(t.size) == (0, 0):
            return "Hash[0, 0]"
        if t.key == AnyType() and t.value == AnyType() and t.size is None:
            return "Hash"
        return _with_params(
            "Hash", [_format(t.key, expanding), _format(t.value, expanding), *_range_parts(t.size)]
        )
    if isinstance(t, TupleType):
        if not t.types:
            return "Tuple"
        return _with_params(
            "Tuple", [_format(x, expanding) for x in t.types] + _range_parts(t.size)
        )
    if isinstance(t, StructType):
        if not t.elements:
            return "Struct"
        return "Struct[{" + ", ".join(_struct_pair(e, expanding) for e in t.elements) + "}]"
    if isinstance(t, VariantType):
        return _with_params("Variant", [_format(x, expanding) for x in t.types])
    if isinstance(t, OptionalType | NotUndefType):
        inner = t.type
        if inner is None or (isinstance(t, NotUndefType) and isinstance(inner, AnyType)):
            return simple_name(t)
        if isinstance(inner, StringType) and inner.value is not None:
            return f"{simple_name(t)}[{puppet_quote(inner.value)}]"
        return f"{simple_name(t)}[{_format(inner, expanding)}]"
    if isinstance(t, WrapperType):
        if t.type is None or (t.kind == "Sensitive" and isinstance(t.type, AnyType)):
            return t.kind
        return f"{t.kind}[{_format(t.type, expanding)}]"
    if isinstance(t, CallableType):
        return _callable_text(t, expanding)
    if isinstance(t, NamedType):
        if t.name == "Object" and not t.args:
            return "Object[{}]"
        return _with_params(t.name, list(t.args))
    if isinstance(t, TypeReferenceType):
        return f"TypeReference[{puppet_quote(t.name)}]"
    return simple_name(t)


def _callable_text(t: CallableType, expanding: frozenset[str]) -> str:
    if t.params is None and t.return_type is None:
        return "Callable"
    parts: list[str] = []
    for p in t.params or ():
        if isinstance(p, PType):
            parts.append(_format(p, expanding))
        else:
            parts.append("default" if p is None else str(p))
    if t.return_type is None:
        return _with_params("Callable", parts)
    return f"Callable[[{', '.join(parts)}], {_format(t.return_type, expanding)}]"


def _struct_pair(e: StructElement, expanding: frozenset[str]) -> str:
    value_optional = accepts_undef(e.value)
    name = puppet_quote(e.name)
    if e.optional:
        key = name if value_optional else f"Optional[{name}]"
    else:
        key = f"NotUndef[{name}]" if value_optional else name
    return f"{key} => {_format(e.value, expanding)}"


def a_an(text: str) -> str:
    return f"an {text}" if text[:1].lower() in "aeiou" and text else f"a {text}"
