"""The slice of Puppet's type system that hiera.yaml validation messages are made of.

Puppet validates hiera.yaml against a Puppet type and, on failure, its type-mismatch
describer prints both the expected type and the *inferred* type of the offending value
(``got Tuple``, ``got Hash[Integer[1, 1], String]`` ...).  Reproducing those texts
needs Puppet's inference, its assignability rule, its normalisation of variants and its
type formatter, for the handful of type kinds a configuration can involve.  Nothing here
knows about hiera.yaml; :mod:`hiera_ls.puppet.type_describer` builds the messages.
(:mod:`hiera_ls.puppet.inferred_types` answers a different question: Puppet's reduced
``infer`` of a data value, for data-file messages.)
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from hiera_ls.puppet.ruby_text import float_to_s, puppet_quote
from hiera_ls.puppet.values import CompositeKey, RubySymbol


class PType:
    """Base of every type; concrete types are frozen dataclasses compared by value."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class AnyType(PType):
    pass


@dataclass(frozen=True, slots=True)
class UndefType(PType):
    pass


@dataclass(frozen=True, slots=True)
class UnitType(PType):
    """Element type of an empty collection: assignable to every type."""


@dataclass(frozen=True, slots=True)
class ScalarDataType(PType):
    pass


@dataclass(frozen=True, slots=True)
class NumericType(PType):
    pass


@dataclass(frozen=True, slots=True)
class BooleanType(PType):
    value: bool | None = None


@dataclass(frozen=True, slots=True)
class IntegerType(PType):
    """An Integer range; ``None`` is an open end (Puppet's -Infinity / Infinity)."""

    low: int | None = None
    high: int | None = None


@dataclass(frozen=True, slots=True)
class FloatType(PType):
    low: float | None = None
    high: float | None = None


@dataclass(frozen=True, slots=True)
class StringType(PType):
    size: IntegerType | None = None
    value: str | None = None


@dataclass(frozen=True, slots=True)
class EnumType(PType):
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class PatternType(PType):
    """``patterns`` are Ruby regexp sources, as Puppet prints them between slashes."""

    patterns: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RuntimeType(PType):
    runtime: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class ArrayType(PType):
    element: PType = AnyType()
    size: IntegerType | None = None


@dataclass(frozen=True, slots=True)
class TupleType(PType):
    types: tuple[PType, ...] = ()
    size: IntegerType | None = None


@dataclass(frozen=True, slots=True)
class HashType(PType):
    key: PType = AnyType()
    value: PType = AnyType()
    size: IntegerType | None = None


@dataclass(frozen=True, slots=True)
class StructElement:
    name: str
    optional: bool  # the key is written Optional['name']
    value: PType


@dataclass(frozen=True, slots=True)
class StructType(PType):
    elements: tuple[StructElement, ...] = ()


@dataclass(frozen=True, slots=True)
class VariantType(PType):
    types: tuple[PType, ...] = ()


@dataclass(frozen=True, slots=True)
class OptionalType(PType):
    type: PType | None = None


@dataclass(frozen=True, slots=True)
class NotUndefType(PType):
    type: PType | None = None


@dataclass(frozen=True, slots=True)
class AliasType(PType):
    """A named alias (Puppet's built-in ``Data``); the target is built lazily because it
    refers to itself."""

    name: str
    target: Callable[[], PType] = field(compare=False, hash=False, repr=False)

    def resolved(self) -> PType:
        return self.target()


EMPTY_ARRAY = ArrayType(UnitType(), IntegerType(0, 0))
EMPTY_HASH = HashType(UnitType(), UnitType(), IntegerType(0, 0))
BUILTIN_ALIASES = frozenset({"Data", "RichData", "RichDataKey"})

# ---------------------------------------------------------------------------------- inference


def infer_set(value: object) -> PType:
    """The type Puppet infers for a loaded value, keeping every element (``infer_set``)."""
    if value is None:
        return UndefType()
    if isinstance(value, bool):
        return BooleanType(value)
    if isinstance(value, int):
        return IntegerType(value, value)
    if isinstance(value, float):
        return FloatType(value, value)
    if isinstance(value, str):
        return StringType(None, value)
    if isinstance(value, list):
        if not value:
            return EMPTY_ARRAY
        return TupleType(tuple(infer_set(v) for v in value))
    if isinstance(value, dict):
        if not value:
            return EMPTY_HASH
        if all(isinstance(k, str) and k for k in value):
            return StructType(
                tuple(StructElement(str(k), False, infer_set(v)) for k, v in value.items())
            )
        keys = _unwrap_single(variant_of([infer_set(k) for k in value]))
        values = _unwrap_single(variant_of([infer_set(v) for v in value.values()]))
        return HashType(keys, values, IntegerType(len(value), len(value)))
    if isinstance(value, RubySymbol):
        return RuntimeType("ruby", "Symbol")
    if isinstance(value, CompositeKey):  # a list or hash used as a key
        return infer_set(value.value)
    return RuntimeType("ruby", type(value).__name__)


def _unwrap_single(t: PType) -> PType:
    if isinstance(t, VariantType) and len(t.types) == 1:
        return t.types[0]
    return t


def variant_of(types: Sequence[PType]) -> PType:
    """Puppet's ``PVariantType.maybe_create``: flatten, drop duplicates, unwrap one."""
    flat = _unique(_flatten_variants(types))
    return flat[0] if len(flat) == 1 else VariantType(tuple(flat))


def _flatten_variants(types: Sequence[PType]) -> list[PType]:
    out: list[PType] = []
    for t in types:
        if isinstance(t, VariantType):
            out.extend(t.types)
        else:
            out.append(t)
    return out


def _unique(types: Sequence[PType]) -> list[PType]:
    out: list[PType] = []
    for t in types:
        if t not in out:
            out.append(t)
    return out


# ---------------------------------------------------------------------------- assignability


def instance(t: PType, value: object) -> bool:
    return assignable(t, infer_set(value))


def _int_range(t: IntegerType | None) -> tuple[float, float]:
    if t is None:
        return (0, math.inf)
    return (-math.inf if t.low is None else t.low, math.inf if t.high is None else t.high)


def _range_within(inner: tuple[float, float], outer: tuple[float, float]) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1]


def _num_range(t: IntegerType | FloatType) -> tuple[float, float]:
    return (-math.inf if t.low is None else t.low, math.inf if t.high is None else t.high)


def _regex(pattern: str) -> re.Pattern[str] | None:
    py = pattern.replace("\\z", r"\Z")
    try:
        return re.compile(py)
    except re.error:
        return None


def _pattern_matches(patterns: tuple[str, ...], text: str) -> bool:
    if not patterns:
        return True
    for p in patterns:
        rx = _regex(p)
        if rx is not None and rx.search(text):
            return True
    return False


def assignable(e: PType, a: PType) -> bool:
    """Whether every value of ``a`` is an instance of ``e`` (Puppet's ``assignable?``)."""
    if isinstance(e, AnyType) or isinstance(a, UnitType):
        return True
    if isinstance(e, AliasType):
        return assignable(e.resolved(), a)
    if isinstance(a, AliasType):
        return assignable(e, a.resolved())
    if isinstance(e, OptionalType):
        if e.type is None or isinstance(a, UndefType):
            return True
        if isinstance(a, OptionalType):
            return a.type is None or assignable(e.type, a.type)
        return assignable(e.type, a)
    if isinstance(e, NotUndefType):
        if isinstance(a, (UndefType, OptionalType)):
            return False
        return e.type is None or assignable(e.type, a)
    if isinstance(a, VariantType):
        return bool(a.types) and all(assignable(e, t) for t in a.types)
    if isinstance(a, OptionalType):
        return assignable(e, UndefType()) and (a.type is None or assignable(e, a.type))
    if isinstance(e, VariantType):
        return any(assignable(t, a) for t in e.types)
    if isinstance(e, UndefType):
        return isinstance(a, UndefType)
    if isinstance(e, ScalarDataType):
        return isinstance(
            a,
            (
                IntegerType,
                FloatType,
                NumericType,
                StringType,
                EnumType,
                PatternType,
                BooleanType,
                ScalarDataType,
            ),
        )
    if isinstance(e, NumericType):
        return isinstance(a, (IntegerType, FloatType, NumericType))
    if isinstance(e, BooleanType):
        return isinstance(a, BooleanType) and (e.value is None or e.value == a.value)
    if isinstance(e, IntegerType):
        return isinstance(a, IntegerType) and _range_within(_num_range(a), _num_range(e))
    if isinstance(e, FloatType):
        return isinstance(a, FloatType) and _range_within(_num_range(a), _num_range(e))
    if isinstance(e, StringType):
        return _string_assignable(e, a)
    if isinstance(e, EnumType):
        if isinstance(a, StringType):
            return not e.values or (a.value is not None and a.value in e.values)
        if isinstance(a, EnumType):
            return not e.values or (bool(a.values) and set(a.values) <= set(e.values))
        return isinstance(a, PatternType) and not e.values
    if isinstance(e, PatternType):
        if isinstance(a, StringType):
            return not e.patterns or (a.value is not None and _pattern_matches(e.patterns, a.value))
        if isinstance(a, EnumType):
            return not e.patterns or (
                bool(a.values) and all(_pattern_matches(e.patterns, v) for v in a.values)
            )
        return isinstance(a, PatternType) and (not e.patterns or set(a.patterns) <= set(e.patterns))
    if isinstance(e, RuntimeType):
        return isinstance(a, RuntimeType) and (
            e.runtime is None or (e.runtime, e.name) == (a.runtime, a.name)
        )
    if isinstance(e, ArrayType):
        return _array_assignable(e, a)
    if isinstance(e, HashType):
        return _hash_assignable(e, a)
    if isinstance(e, StructType):
        return _struct_assignable(e, a)
    if isinstance(e, TupleType):
        if isinstance(a, TupleType):
            return len(a.types) == len(e.types) and all(
                assignable(x, y) for x, y in zip(e.types, a.types, strict=True)
            )
        return False
    return False


def _string_assignable(e: StringType, a: PType) -> bool:
    size = _int_range(e.size)
    if isinstance(a, StringType):
        if a.value is not None:
            return (e.value is None or e.value == a.value) and size[0] <= len(a.value) <= size[1]
        return e.value is None and _range_within(_int_range(a.size), size)
    if isinstance(a, EnumType):
        return (
            e.value is None
            and bool(a.values)
            and all(size[0] <= len(v) <= size[1] for v in a.values)
        )
    if isinstance(a, PatternType):
        return e.value is None and e.size is None
    return False


def _collection_size(a: ArrayType | HashType) -> tuple[float, float]:
    return _int_range(a.size)


def _array_assignable(e: ArrayType, a: PType) -> bool:
    size = _int_range(e.size)
    if isinstance(a, TupleType):
        n = _int_range(a.size) if a.size is not None else (len(a.types), len(a.types))
        return _range_within(n, size) and all(assignable(e.element, t) for t in a.types)
    if isinstance(a, ArrayType):
        return _range_within(_collection_size(a), size) and assignable(e.element, a.element)
    return False


def _hash_assignable(e: HashType, a: PType) -> bool:
    size = _int_range(e.size)
    if isinstance(a, StructType):
        n = len(a.elements)
        return (
            size[0] <= n <= size[1]
            and all(assignable(e.key, StringType(None, el.name)) for el in a.elements)
            and all(assignable(e.value, el.value) for el in a.elements)
        )
    if isinstance(a, HashType):
        return (
            _range_within(_collection_size(a), size)
            and assignable(e.key, a.key)
            and assignable(e.value, a.value)
        )
    return False


def _struct_assignable(e: StructType, a: PType) -> bool:
    if isinstance(a, StructType):
        given = {el.name: el for el in a.elements}
        for el in e.elements:
            other = given.pop(el.name, None)
            if other is None:
                if not el.optional:
                    return False
            elif not assignable(el.value, other.value):
                return False
        return not given
    if isinstance(a, HashType):
        return _int_range(a.size) == (0, 0) and all(el.optional for el in e.elements)
    return False


# --------------------------------------------------------------- normalise and generalise


def normalize(t: PType) -> PType:
    """Puppet's ``normalize``: what mismatch reports print (variants merged, undef lifted)."""
    if isinstance(t, VariantType):
        return _normalize_variant(t)
    if isinstance(t, OptionalType):
        if t.type is None:
            return t
        inner = normalize(t.type)
        return inner if isinstance(inner, OptionalType) else OptionalType(inner)
    if isinstance(t, ArrayType):
        return ArrayType(normalize(t.element), t.size)
    if isinstance(t, HashType):
        return HashType(normalize(t.key), normalize(t.value), t.size)
    if isinstance(t, TupleType):
        return TupleType(tuple(normalize(x) for x in t.types), t.size)
    if isinstance(t, StructType):
        return StructType(
            tuple(StructElement(e.name, e.optional, normalize(e.value)) for e in t.elements)
        )
    return t


def _normalize_variant(t: VariantType) -> PType:
    if not t.types:
        return t
    types = [normalize(x) for x in t.types]
    modified = types != list(t.types)
    if len(types) == 1:
        return types[0]
    if any(isinstance(x, (UndefType, OptionalType)) for x in types):
        rest = [
            x.type if isinstance(x, OptionalType) and x.type is not None else x
            for x in types
            if not isinstance(x, UndefType)
        ]
        return normalize(OptionalType(variant_of(rest)))
    types = _flatten_variants(types)
    before = len(types)
    types = _merge_enums(types)
    types = _merge_patterns(types)
    types = _merge_ranges(types, IntegerType)
    types = _merge_ranges(types, FloatType)
    if len(types) == 1:
        return types[0]
    if modified or len(types) != before:
        return variant_of(types)
    return t


def _merge_enums(types: list[PType]) -> list[PType]:
    def enum_like(x: PType) -> bool:
        return (isinstance(x, EnumType) and bool(x.values)) or (
            isinstance(x, StringType) and x.value is not None
        )

    enums = [x for x in types if enum_like(x)]
    if len(types) < 2 or len(enums) < 2:
        return types
    values: list[str] = []
    for x in enums:
        values.extend(
            [x.value]
            if isinstance(x, StringType) and x.value is not None
            else getattr(x, "values", ())
        )
    return [x for x in types if not enum_like(x)] + [make_enum(values)]


def make_enum(values: Sequence[str]) -> EnumType:
    return EnumType(tuple(sorted(set(values))))


def _merge_patterns(types: list[PType]) -> list[PType]:
    patterns = [x for x in types if isinstance(x, PatternType)]
    if len(types) < 2 or len(patterns) < 2:
        return types
    merged: list[str] = []
    for x in patterns:
        for p in x.patterns:
            if p not in merged:
                merged.append(p)
    return [x for x in types if not isinstance(x, PatternType)] + [PatternType(tuple(merged))]


def _merge_ranges(types: list[PType], cls: type[IntegerType] | type[FloatType]) -> list[PType]:
    ranges = [x for x in types if isinstance(x, cls)]
    if len(types) < 2 or len(ranges) < 2:
        return types
    result: list[PType] = []
    pending: list[IntegerType | FloatType] = [
        x for x in ranges if isinstance(x, (IntegerType, FloatType))
    ]
    while pending:
        memo = pending.pop()
        unmerged: list[IntegerType | FloatType] = []
        for y in pending:
            merged = _merge_range(memo, y)
            if merged is None:
                unmerged.append(y)
            else:
                memo = merged
        result.append(memo)
        pending = unmerged
    return result + [x for x in types if not isinstance(x, cls)]


def _merge_range(
    a: IntegerType | FloatType, b: IntegerType | FloatType
) -> IntegerType | FloatType | None:
    lo_a, hi_a = _num_range(a)
    lo_b, hi_b = _num_range(b)
    touching = lo_a <= hi_b and lo_b <= hi_a
    if isinstance(a, IntegerType) and not touching:
        touching = hi_a + 1 == lo_b or hi_b + 1 == lo_a
    if not touching:
        return None
    lo, hi = min(lo_a, lo_b), max(hi_a, hi_b)
    if isinstance(a, IntegerType):
        return IntegerType(
            None if lo == -math.inf else int(lo), None if hi == math.inf else int(hi)
        )
    return FloatType(None if lo == -math.inf else lo, None if hi == math.inf else hi)


def generalize(t: PType) -> PType:
    """Puppet's ``generalize``: the type without its value-specific parameters."""
    if isinstance(t, IntegerType):
        return IntegerType()
    if isinstance(t, FloatType):
        return FloatType()
    if isinstance(t, StringType):
        return StringType()
    if isinstance(t, BooleanType):
        return BooleanType()
    if isinstance(t, EnumType):
        if not t.values:
            return StringType()
        lengths = [len(v) for v in t.values]
        return StringType(IntegerType(min(lengths), max(lengths)))
    if isinstance(t, ArrayType):
        return ArrayType(generalize(t.element))
    if isinstance(t, HashType):
        return HashType(generalize(t.key), generalize(t.value))
    if isinstance(t, TupleType):
        return TupleType(tuple(generalize(x) for x in t.types), t.size)
    if isinstance(t, StructType):
        return StructType(
            tuple(StructElement(e.name, e.optional, generalize(e.value)) for e in t.elements)
        )
    if isinstance(t, VariantType):
        return variant_of([generalize(x) for x in t.types])
    if isinstance(t, OptionalType) and t.type is not None:
        return OptionalType(generalize(t.type))
    return t


def resolve_aliases(t: PType) -> PType:
    while isinstance(t, AliasType):
        t = t.resolved()
    return t


# -------------------------------------------------------------------------------- names


_SIMPLE_NAMES: dict[type, str] = {
    AnyType: "Any",
    UndefType: "Undef",
    UnitType: "Unit",
    ScalarDataType: "ScalarData",
    NumericType: "Numeric",
    BooleanType: "Boolean",
    IntegerType: "Integer",
    FloatType: "Float",
    StringType: "String",
    EnumType: "Enum",
    PatternType: "Pattern",
    RuntimeType: "Runtime",
    ArrayType: "Array",
    TupleType: "Tuple",
    HashType: "Hash",
    StructType: "Struct",
    VariantType: "Variant",
    OptionalType: "Optional",
    NotUndefType: "NotUndef",
    AliasType: "TypeAlias",
}


def simple_name(t: PType) -> str:
    return _SIMPLE_NAMES.get(type(t), "Any")


def type_name(t: PType) -> str:
    return t.name if isinstance(t, AliasType) else simple_name(t)


def short_name(t: PType) -> str:
    """The name the describer prints when details would not help (``Optional[String]``)."""
    if (
        isinstance(t, (OptionalType, NotUndefType))
        and t.type is not None
        and not isinstance(t.type, AnyType)
    ):
        return f"{type_name(t)}[{type_name(t.type)}]"
    return type_name(t)


# ---------------------------------------------------------------------------- formatting


def _range_parts(t: IntegerType | FloatType | None) -> list[str]:
    if t is None or (t.low is None and t.high is None):
        return []

    def num(v: float) -> str:
        return float_to_s(v) if isinstance(v, float) else str(v)

    parts = ["default" if t.low is None else num(t.low)]
    if t.high is not None:
        parts.append(num(t.high))
    return parts


def _with_params(name: str, params: list[str]) -> str:
    return f"{name}[{', '.join(params)}]" if params else name


def format_type(t: PType) -> str:
    """Puppet's alias-expanded type string (built-in aliases such as Data stay named)."""
    if isinstance(t, AliasType):
        return t.name
    if isinstance(t, BooleanType):
        return "Boolean" if t.value is None else f"Boolean[{str(t.value).lower()}]"
    if isinstance(t, (IntegerType, FloatType)):
        return _with_params(simple_name(t), _range_parts(t))
    if isinstance(t, StringType):
        return _with_params("String", _range_parts(t.size))
    if isinstance(t, EnumType):
        return _with_params("Enum", [puppet_quote(v) for v in t.values])
    if isinstance(t, PatternType):
        return _with_params("Pattern", [f"/{p}/" for p in t.patterns])
    if isinstance(t, RuntimeType):
        if t.runtime is None and t.name is None:
            return "Runtime"
        return f"Runtime[{t.runtime}, {puppet_quote(t.name or '')}]"  # the runtime is a Symbol
    if isinstance(t, ArrayType):
        if _int_range(t.size) == (0, 0):
            return "Array[0, 0]"
        if t.element == AnyType() and t.size is None:
            return "Array"
        return _with_params("Array", [format_type(t.element), *_range_parts(t.size)])
    if isinstance(t, HashType):
        if _int_range(t.size) == (0, 0):
            return "Hash[0, 0]"
        if t.key == AnyType() and t.value == AnyType() and t.size is None:
            return "Hash"
        return _with_params(
            "Hash", [format_type(t.key), format_type(t.value), *_range_parts(t.size)]
        )
    if isinstance(t, TupleType):
        if not t.types:
            return "Tuple"
        return _with_params("Tuple", [format_type(x) for x in t.types] + _range_parts(t.size))
    if isinstance(t, StructType):
        if not t.elements:
            return "Struct"
        return "Struct[{" + ", ".join(_struct_pair(e) for e in t.elements) + "}]"
    if isinstance(t, VariantType):
        return _with_params("Variant", [format_type(x) for x in t.types])
    if isinstance(t, (OptionalType, NotUndefType)):
        inner = t.type
        if inner is None:
            return simple_name(t)
        if isinstance(inner, StringType) and inner.value is not None:
            return f"{simple_name(t)}[{puppet_quote(inner.value)}]"
        return f"{simple_name(t)}[{format_type(inner)}]"
    return simple_name(t)


def _struct_pair(e: StructElement) -> str:
    value_optional = assignable(e.value, UndefType())
    name = puppet_quote(e.name)
    if e.optional:
        key = name if value_optional else f"Optional[{name}]"
    else:
        key = f"NotUndef[{name}]" if value_optional else name
    return f"{key} => {format_type(e.value)}"


def a_an(text: str) -> str:
    return f"an {text}" if text[:1].lower() in "aeiou" and text else f"a {text}"
