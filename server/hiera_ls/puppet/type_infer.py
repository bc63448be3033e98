"""Puppet's TypeCalculator on loaded values: ``infer``, ``infer_set``, ``common_type``, and the
``normalize`` and ``generalize`` of types.

Two inferences, because Puppet's messages use both: ``infer`` reduces a collection's
elements to one common type (``Hash[String, Runtime[ruby, 'Symbol'], 1, 1]``, what data-file
errors print), ``infer_set`` keeps every element (``Tuple``/``Struct``, what the mismatch
describer compares and prints).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from functools import cache

from hiera_ls.puppet.type_assignable import assignable, num_range, size_range
from hiera_ls.puppet.type_parser import parse_type
from hiera_ls.puppet.types import (
    EMPTY_ARRAY,
    EMPTY_HASH,
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
    UndefType,
    UnitType,
    VariantType,
    WrapperType,
    generalize,
    make_enum,
    resolve_aliases,
    variant_of,
)
from hiera_ls.puppet.values import CompositeKey, RubySymbol, Sensitive


@cache
def builtin(name: str) -> PType:
    """One of Puppet's built-in aliases (``Data``, ``RichData``), parsed once."""
    return parse_type(name)


def _runtime(value: object) -> PType:
    return RuntimeType("ruby", str(getattr(value, "class_name", type(value).__name__)))


def _scalar(value: object) -> PType | None:
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
    if isinstance(value, RubySymbol):
        if value.name == "default":
            return DefaultType()
        if value.name == "undef":
            return UndefType()
        return RuntimeType("ruby", "Symbol")
    return None


# ---------------------------------------------------------------------------- infer_set


def infer_set(value: object) -> PType:
    """TypeCalculator#infer_set: every element kept (Tuple, Struct, Hash of variants)."""
    return _infer_set(value, set())


def _infer_set(value: object, active: set[int]) -> PType:
    found = _scalar(value)
    if found is not None:
        return found
    if isinstance(value, CompositeKey):  # a list or hash used as a key
        return _infer_set(value.value, active)
    if isinstance(value, Sensitive):
        return sensitive_type(value)
    if not isinstance(value, list | dict):
        return _runtime(value)
    if id(value) in active:  # a cycle (YAML aliases): Puppet would recurse forever
        return AnyType()
    active.add(id(value))
    try:
        if isinstance(value, list):
            return TupleType(tuple(_infer_set(v, active) for v in value)) if value else EMPTY_ARRAY
        if not value:
            return EMPTY_HASH
        if all(isinstance(k, str) and k for k in value):
            return StructType(
                tuple(StructElement(str(k), False, _infer_set(v, active)) for k, v in value.items())
            )
        keys = variant_of([_infer_set(k, active) for k in value])
        values = variant_of([_infer_set(v, active) for v in value.values()])
        return HashType(keys, values, IntegerType(len(value), len(value)))
    finally:
        active.discard(id(value))


# types no Array, Tuple, Hash or Struct is assignable to: no list or hash is their instance
_SCALAR_ONLY = (
    UndefType,
    DefaultType,
    ScalarType,
    ScalarDataType,
    NumericType,
    BooleanType,
    IntegerType,
    FloatType,
    StringType,
    EnumType,
    PatternType,
    RegexpType,
)


def instance_of(t: PType, value: object, inferred: list[PType] | None = None) -> bool:
    """Puppet's ``instance?``: is ``value`` a value of type ``t``.

    The same as assignability from the value's inferred type, except for a bare
    ``Optional``: any type is assignable to it, yet only undef is an instance of it.
    ``inferred``: where ``infer_set(value)`` is kept once inferred (a caller describing the
    mismatch next needs it; each member of a Variant asks it too).
    """
    t = resolve_aliases(t)
    if isinstance(t, OptionalType):
        return value is None or (t.type is not None and instance_of(t.type, value, inferred))
    if isinstance(t, NotUndefType):
        return value is not None and (t.type is None or instance_of(t.type, value, inferred))
    if isinstance(t, VariantType):
        return any(instance_of(m, value, inferred) for m in t.types)
    if isinstance(t, _SCALAR_ONLY) and isinstance(value, list | dict):
        return False  # (a collection's inferred type is one of those four)
    if isinstance(t, ArrayType) and isinstance(value, list):
        low, high = size_range(t.size)
        return low <= len(value) <= high and all(instance_of(t.element, v) for v in value)
    if isinstance(t, HashType) and isinstance(value, dict):
        low, high = size_range(t.size)
        return low <= len(value) <= high and all(
            instance_of(t.key, k) and instance_of(t.value, v) for k, v in value.items()
        )
    if isinstance(t, TupleType) and isinstance(value, list) and t.types:
        size = t.size or IntegerType(len(t.types), len(t.types))
        low, high = size_range(size)
        last = len(t.types) - 1
        return low <= len(value) <= high and all(
            instance_of(t.types[min(i, last)], v) for i, v in enumerate(value)
        )
    if isinstance(t, StructType) and isinstance(value, dict):
        matched = 0
        for e in t.elements:
            if e.name in value:
                matched += 1
                if not instance_of(e.value, value[e.name]):
                    return False
            elif not e.optional:
                return False
        return matched == len(value)
    if inferred is None:
        return assignable(t, infer_set(value))
    if not inferred:
        inferred.append(infer_set(value))
    return assignable(t, inferred[0])


# ---------------------------------------------------------------------------- infer (reduced)


def infer(value: object, memo: dict[int, PType] | None = None) -> PType:
    """TypeCalculator#infer: a collection's elements reduced with :func:`common_type`."""
    memo = {} if memo is None else memo
    found = _scalar(value)
    if found is not None:
        return found
    if isinstance(value, CompositeKey):
        return infer(value.value, memo)
    if isinstance(value, Sensitive):
        return sensitive_type(value)
    if not isinstance(value, list | dict):
        return _runtime(value)
    known = memo.get(id(value))
    if known is not None:
        return known
    memo[id(value)] = AnyType()  # a cycle, which our loaders never build, infers as Any
    result: PType
    size = IntegerType(len(value), len(value))
    if isinstance(value, list):
        result = ArrayType(_reduce(infer(v, memo) for v in value), size) if value else EMPTY_ARRAY
    elif not value:
        result = EMPTY_HASH
    else:
        keys = _reduce(infer(k, memo) for k in value)
        result = HashType(keys, _reduce(infer(v, memo) for v in value.values()), size)
    memo[id(value)] = result
    return result


def sensitive_type(value: Sensitive) -> PType:
    """TypeCalculator#infer_Sensitive: ``Sensitive[T]``, ``T`` the generalized type of what
    it wraps (PSensitiveType generalizes its type: ``Sensitive[String]``, never a size)."""
    return WrapperType("Sensitive", generalize(infer(value.value)))


def _reduce(types: Iterable[PType]) -> PType:
    result: PType | None = None
    for t in types:
        result = t if result is None else common_type(result, t)
    return result if result is not None else UnitType()


def common_type(t1: PType, t2: PType) -> PType:
    """TypeCalculator#common_type, in its order of rules."""
    if isinstance(t1, UndefType):
        return t2
    if isinstance(t2, UndefType):
        return t1
    if isinstance(t1, UnitType):
        return t2
    if isinstance(t2, UnitType):
        return t1
    if assignable(t1, t2):
        return t1
    if assignable(t2, t1):
        return t2
    if isinstance(t1, ArrayType) and isinstance(t2, ArrayType):
        return ArrayType(common_type(t1.element, t2.element))
    if isinstance(t1, HashType) and isinstance(t2, HashType):
        return HashType(common_type(t1.key, t2.key), common_type(t1.value, t2.value))
    if isinstance(t1, IntegerType) and isinstance(t2, IntegerType):
        lo, hi = _hull(t1, t2)
        return IntegerType(
            None if lo == -math.inf else int(lo), None if hi == math.inf else int(hi)
        )
    if isinstance(t1, FloatType) and isinstance(t2, FloatType):
        lo, hi = _hull(t1, t2)
        return FloatType(None if lo == -math.inf else lo, None if hi == math.inf else hi)
    if isinstance(t1, StringType) and isinstance(t2, StringType | EnumType):
        if isinstance(t2, EnumType):
            return EnumType() if t1.value is None else make_enum((*t2.values, t1.value))
        if t1.size is None or t2.size is None:
            if t1.value is None or t2.value is None:
                return StringType()
            return make_enum((t1.value, t2.value))
        size = common_type(t1.size, t2.size)
        return StringType(size if isinstance(size, IntegerType) else None)
    if isinstance(t1, PatternType) and isinstance(t2, PatternType):
        return PatternType(tuple(dict.fromkeys((*t1.patterns, *t2.patterns))))
    if isinstance(t1, EnumType) and isinstance(t2, StringType | EnumType):
        if isinstance(t2, EnumType):
            return make_enum((*t1.values, *t2.values))
        return EnumType() if t2.value is None else make_enum((*t1.values, t2.value))
    if isinstance(t1, VariantType) and isinstance(t2, VariantType):
        return variant_of([*t1.types, *t2.types])
    if isinstance(t1, RegexpType) and isinstance(t2, RegexpType):
        return RegexpType()
    if isinstance(t1, CallableType) and isinstance(t2, CallableType):
        return CallableType()
    for abstract in (NumericType(), ScalarDataType(), ScalarType(), builtin("Data")):
        if assignable(abstract, t1) and assignable(abstract, t2):
            return abstract
    if (
        isinstance(t1, WrapperType)
        and isinstance(t2, WrapperType)
        and t1.kind == t2.kind == "Type"
        and t1.type is not None
        and t2.type is not None
    ):
        return WrapperType("Type", common_type(t1.type, t2.type))
    rich = builtin("RichData")
    if assignable(rich, t1) and assignable(rich, t2):
        return rich
    if isinstance(t1, RuntimeType) and isinstance(t2, RuntimeType):
        return t1 if t1 == t2 else RuntimeType("ruby", "Object")
    return AnyType()


def _hull(a: IntegerType | FloatType, b: IntegerType | FloatType) -> tuple[float, float]:
    (lo_a, hi_a), (lo_b, hi_b) = num_range(a), num_range(b)
    return min(lo_a, lo_b), max(hi_a, hi_b)


# ---------------------------------------------------------------------------- normalize


def normalize(t: PType) -> PType:
    """PAnyType#normalize: what mismatch reports print (variants merged, undef lifted)."""
    if isinstance(t, VariantType):
        return _normalize_variant(t)
    if isinstance(t, OptionalType):
        if t.type is None:
            return t
        inner = normalize(t.type)
        if isinstance(inner, NotUndefType):  # no point in a NotUndef inside an Optional
            return normalize(OptionalType(inner.type))
        return inner if assignable(inner, UndefType()) else OptionalType(inner)
    if isinstance(t, NotUndefType) and t.type is not None:
        inner = normalize(t.type)
        if isinstance(inner, OptionalType):  # no point in an Optional inside a NotUndef
            return normalize(NotUndefType(inner.type))
        return NotUndefType(inner) if assignable(inner, UndefType()) else inner
    if isinstance(t, CollectionType):
        return CollectionType()  # Puppet drops the size (so describes no size mismatch)
    if isinstance(t, ArrayType):
        if t.element == AnyType():
            return ArrayType()  # Puppet drops the size of an Array of Any
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
    if any(isinstance(x, UndefType | OptionalType) for x in types):
        rest = [
            x.type if isinstance(x, OptionalType) else x
            for x in types
            if not isinstance(x, UndefType)
        ]
        return normalize(OptionalType(variant_of([x for x in rest if x is not None])))
    flat: list[PType] = []
    for x in types:
        flat.extend(x.types if isinstance(x, VariantType) else (x,))
    before = len(flat)
    flat = _swap_not_undefs(flat)
    flat = _merge_enums(flat)
    flat = _merge_patterns(flat)
    flat = _merge_ranges(flat, IntegerType)
    flat = _merge_ranges(flat, FloatType)
    if len(flat) == 1:
        return flat[0]
    if modified or len(flat) != before:
        return variant_of(flat)
    return t


def _swap_not_undefs(types: list[PType]) -> list[PType]:
    not_undefs = [x for x in types if isinstance(x, NotUndefType)]
    if len(types) < 2 or len(not_undefs) < 2:
        return types
    inner = variant_of([x.type or AnyType() for x in not_undefs])
    others = [x for x in types if not isinstance(x, NotUndefType)]
    return [*others, normalize(NotUndefType(normalize(inner)))]


def _merge_enums(types: list[PType]) -> list[PType]:
    def enum_like(x: PType) -> bool:
        return (isinstance(x, EnumType) and bool(x.values) and not x.case_insensitive) or (
            isinstance(x, StringType) and x.value is not None
        )

    enums = [x for x in types if enum_like(x)]
    if len(types) < 2 or len(enums) < 2:
        return types
    values: list[str] = []
    for x in enums:
        if isinstance(x, StringType) and x.value is not None:
            values.append(x.value)
        elif isinstance(x, EnumType):
            values.extend(x.values)
    return [x for x in types if not enum_like(x)] + [make_enum(values)]


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
    ranges: list[IntegerType | FloatType] = [x for x in types if isinstance(x, cls)]
    if len(types) < 2 or len(ranges) < 2:
        return types
    result: list[PType] = []
    pending = ranges
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
    lo_a, hi_a = num_range(a)
    lo_b, hi_b = num_range(b)
    touching = not (hi_a < lo_b or hi_b < lo_a)  # as Ruby compares: NaN bounds touch
    if isinstance(a, IntegerType) and not touching:
        touching = hi_a + 1 == lo_b or hi_b + 1 == lo_a
    if not touching:
        return None
    lo = a.low if lo_a <= lo_b else b.low
    hi = a.high if hi_a >= hi_b else b.high
    if isinstance(a, IntegerType):
        return IntegerType(None if lo is None else int(lo), None if hi is None else int(hi))
    return FloatType(lo, hi)
