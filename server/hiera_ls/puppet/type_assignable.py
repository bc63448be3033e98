"""Puppet's ``assignable?`` and ``instance?``: does every value of one type belong to another.

Follows the class hierarchy of lib/puppet/pops/types/types.rb (Integer < Numeric <
ScalarData < Scalar < Any, Array/Hash < Collection ...).  Recursive aliases are compared
coinductively, as Puppet's RecursionGuard does: meeting the same pair again while checking
it counts as assignable.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

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
    StructType,
    TupleType,
    TypeReferenceType,
    UndefType,
    UnitType,
    VariantType,
    WrapperType,
)

if TYPE_CHECKING:
    import regex

_Guard = frozenset[tuple[object, object]]
_NO_GUARD: _Guard = frozenset()
_REGEX_TIMEOUT_S = 0.05

# Kinds by Puppet class: what counts as "o.is_a?(PScalarType)" and so on.
_SCALAR_DATA_KINDS = (
    ScalarDataType,
    NumericType,
    IntegerType,
    FloatType,
    StringType,
    EnumType,
    PatternType,
    BooleanType,
)
_SCALAR_NAMED = ("SemVer", "Timestamp", "Timespan")


def num_range(t: IntegerType | FloatType | None, floor: float = -math.inf) -> tuple[float, float]:
    if t is None:
        return (floor, math.inf)
    return (floor if t.low is None else t.low, math.inf if t.high is None else t.high)


def size_range(t: IntegerType | None) -> tuple[float, float]:
    """A size constraint as (min, max); no constraint is 0..infinity."""
    return num_range(t, 0) if t is None else num_range(t)


def _within(inner: tuple[float, float], outer: tuple[float, float]) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1]


def ruby_regex(source: str) -> regex.Pattern[str] | None:
    """A Ruby regexp source compiled with the ``regex`` module (None when it does not compile)."""
    import regex

    py = source.replace("\\z", "\\Z").replace("\\h", "[0-9a-fA-F]").replace("(?<", "(?P<")
    py = py.replace("(?P<=", "(?<=").replace("(?P<!", "(?<!")
    try:
        return regex.compile(py, regex.VERSION0)
    except (regex.error, ValueError):
        return None


def pattern_matches(patterns: tuple[str, ...], text: str) -> bool:
    if not patterns:
        return True
    for p in patterns:
        rx = ruby_regex(p)
        try:
            if rx is not None and rx.search(text, timeout=_REGEX_TIMEOUT_S):
                return True
        except TimeoutError:
            continue
    return False


def assignable(e: PType, a: PType) -> bool:
    """Whether every value of ``a`` is an instance of ``e`` (Puppet's ``assignable?``)."""
    return _assignable(e, a, _NO_GUARD)


def accepts_undef(t: PType) -> bool:
    return assignable(t, UndefType())


def _assignable(e: PType, a: PType, guard: _Guard) -> bool:
    if isinstance(e, AnyType) or isinstance(a, UnitType):
        return True
    if isinstance(e, AliasType) or isinstance(a, AliasType):
        if isinstance(e, AliasType) and isinstance(a, AliasType) and e.name == a.name:
            return True
        pair = (_guard_key(e), _guard_key(a))
        if pair in guard:
            return True
        guard = guard | {pair}
        if isinstance(a, AliasType):
            return _assignable(e, a.resolved(), guard)
        assert isinstance(e, AliasType)
        return _assignable(e.resolved(), a, guard)
    if isinstance(a, VariantType) and not isinstance(e, VariantType | NotUndefType):
        return bool(a.types) and all(_assignable(e, t, guard) for t in a.types)
    if isinstance(a, OptionalType) and not isinstance(e, OptionalType | NotUndefType):
        return _assignable(e, UndefType(), guard) and (
            a.type is None or _assignable(e, a.type, guard)
        )
    return _by_kind(e, a, guard)


def _guard_key(t: PType) -> object:
    return ("alias", t.name) if isinstance(t, AliasType) else id(t)


def _by_kind(e: PType, a: PType, guard: _Guard) -> bool:
    if isinstance(e, OptionalType):
        if e.type is None or isinstance(a, UndefType):
            return True
        if isinstance(a, OptionalType):
            return a.type is None or _assignable(e.type, a.type, guard)
        return _assignable(e.type, a, guard)
    if isinstance(e, NotUndefType):
        if isinstance(a, UndefType | OptionalType):
            return False
        if isinstance(a, VariantType):
            return bool(a.types) and all(_assignable(e, t, guard) for t in a.types)
        return e.type is None or _assignable(e.type, a, guard)
    if isinstance(e, VariantType):
        if isinstance(a, UndefType) and not e.types:
            return False
        if isinstance(a, VariantType):
            if not e.types:
                return True
            return bool(a.types) and all(_assignable(e, t, guard) for t in a.types)
        return any(_assignable(t, a, guard) for t in e.types)
    if isinstance(e, UndefType):
        return isinstance(a, UndefType)
    if isinstance(e, DefaultType):
        return isinstance(a, DefaultType)
    if isinstance(e, ScalarType):
        return isinstance(a, (ScalarType, RegexpType, *_SCALAR_DATA_KINDS)) or (
            isinstance(a, NamedType) and a.name in _SCALAR_NAMED
        )
    if isinstance(e, ScalarDataType):
        return isinstance(a, _SCALAR_DATA_KINDS)
    if isinstance(e, NumericType):
        return isinstance(a, IntegerType | FloatType | NumericType)
    if isinstance(e, BooleanType):
        return isinstance(a, BooleanType) and (e.value is None or e.value == a.value)
    if isinstance(e, IntegerType):
        return isinstance(a, IntegerType) and _within(num_range(a), num_range(e))
    if isinstance(e, FloatType):
        return isinstance(a, FloatType) and _within(num_range(a), num_range(e))
    if isinstance(e, StringType):
        return _string(e, a)
    if isinstance(e, EnumType):
        return _enum(e, a)
    if isinstance(e, PatternType):
        if isinstance(a, StringType):
            return not e.patterns or (a.value is not None and pattern_matches(e.patterns, a.value))
        if isinstance(a, EnumType):
            return not e.patterns or (
                bool(a.values) and all(pattern_matches(e.patterns, v) for v in a.values)
            )
        return isinstance(a, PatternType) and (not e.patterns or set(a.patterns) <= set(e.patterns))
    if isinstance(e, RegexpType):
        return isinstance(a, RegexpType) and (e.pattern is None or e.pattern == a.pattern)
    if isinstance(e, RuntimeType):
        return isinstance(a, RuntimeType) and (
            e.runtime is None or (e.runtime, e.name) == (a.runtime, a.name)
        )
    if isinstance(e, CollectionType):
        return _collection(e, a)
    if isinstance(e, ArrayType):
        return _array(e, a, guard)
    if isinstance(e, HashType):
        return _hash(e, a, guard)
    if isinstance(e, StructType):
        return _struct(e, a, guard)
    if isinstance(e, TupleType):
        return _tuple(e, a, guard)
    if isinstance(e, WrapperType):
        if not isinstance(a, WrapperType) or a.kind != e.kind:
            return False
        if e.type is None:
            return True
        return a.type is not None and _assignable(e.type, a.type, guard)
    if isinstance(e, CallableType):
        return isinstance(a, CallableType) and (e.params is None or e == a)
    if isinstance(e, NamedType):
        return isinstance(a, NamedType) and a.name == e.name and (not e.args or e.args == a.args)
    if isinstance(e, TypeReferenceType):
        return e == a
    return False


def _string(e: StringType, a: PType) -> bool:
    size = size_range(e.size)
    if isinstance(a, StringType):
        if a.value is not None:
            return (e.value is None or e.value == a.value) and size[0] <= len(a.value) <= size[1]
        return e.value is None and _within(size_range(a.size), size)
    if isinstance(a, EnumType):
        if e.value is not None:
            return False
        if not a.values:
            return e.size is None or size == (0, math.inf)
        return all(size[0] <= len(v) <= size[1] for v in a.values)
    if isinstance(a, PatternType):
        return e.value is None and (e.size is None or size == (0, math.inf))
    return False


def _enum(e: EnumType, a: PType) -> bool:
    def contains(v: str) -> bool:
        if e.case_insensitive:
            return v.lower() in {x.lower() for x in e.values}
        return v in e.values

    if isinstance(a, StringType):
        return not e.values or (a.value is not None and contains(a.value))
    if isinstance(a, EnumType):
        return not e.values or (bool(a.values) and all(contains(v) for v in a.values))
    return isinstance(a, PatternType) and not e.values


def _collection(e: CollectionType, a: PType) -> bool:
    size = size_range(e.size)
    if isinstance(a, TupleType):
        return _within(_tuple_size(a), size)
    if isinstance(a, StructType):
        return _within(_struct_size(a), size)
    if isinstance(a, ArrayType | HashType | CollectionType):
        return _within(size_range(a.size), size)
    return False


def _tuple_size(a: TupleType) -> tuple[float, float]:
    if a.size is not None:
        return num_range(a.size)
    return (len(a.types), len(a.types))


def _struct_size(a: StructType) -> tuple[float, float]:
    return (sum(1 for el in a.elements if not el.optional), len(a.elements))


def _array(e: ArrayType, a: PType, guard: _Guard) -> bool:
    size = size_range(e.size)
    if isinstance(a, TupleType):
        if not _within(_tuple_size(a), size):
            return False
        if not a.types:
            return True
        # the last type repeats when the tuple's size allows more elements than types
        return all(_assignable(e.element, t, guard) for t in a.types)
    if isinstance(a, ArrayType):
        return _within(size_range(a.size), size) and _assignable(e.element, a.element, guard)
    return False


def _hash(e: HashType, a: PType, guard: _Guard) -> bool:
    size = size_range(e.size)
    if isinstance(a, StructType):
        return (
            _within(_struct_size(a), size)
            and all(_assignable(e.key, StringType(None, el.name), guard) for el in a.elements)
            and all(_assignable(e.value, el.value, guard) for el in a.elements)
        )
    if isinstance(a, HashType):
        if size_range(a.size) == (0, 0):
            return size[0] == 0
        return (
            _within(size_range(a.size), size)
            and _assignable(e.key, a.key, guard)
            and _assignable(e.value, a.value, guard)
        )
    return False


def _struct(e: StructType, a: PType, guard: _Guard) -> bool:
    if isinstance(a, StructType):
        given = {el.name: el for el in a.elements}
        for el in e.elements:
            other = given.pop(el.name, None)
            if other is None:
                if not el.optional:
                    return False
            elif not (other.optional <= el.optional) or not _assignable(
                el.value, other.value, guard
            ):
                return False
        return not given
    if isinstance(a, HashType):
        # no keys known: each required member needs the hash's value type and a String key
        required = [el for el in e.elements if not el.optional]
        for el in required:
            if not _assignable(el.value, a.value, guard) or not _assignable(
                StringType(), a.key, guard
            ):
                return False
        return _within(size_range(a.size), (len(required), len(e.elements)))
    return False


def _tuple(e: TupleType, a: PType, guard: _Guard) -> bool:
    if isinstance(a, TupleType):
        if not e.types:
            return _within(_tuple_size(a), size_range(e.size))
        if not _within(_tuple_size(a), _tuple_size(e)):
            return False
        for i, t in enumerate(a.types):
            et = e.types[min(i, len(e.types) - 1)]
            if not _assignable(et, t, guard):
                return False
        return True
    if isinstance(a, ArrayType):
        if size_range(a.size) == (0, 0):
            return _tuple_size(e)[0] == 0
        return False
    return False
