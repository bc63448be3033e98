"""Puppet's inferred type of a loaded value, as its error messages print it.

When a data file holds a value Puppet cannot use (a Ruby Symbol, a Boolean hash key), the
lookup fails with ``... expects Puppet::LookupValue, got Hash[String, Runtime[ruby,
'Symbol'], 1, 1]``.  The text after ``got`` is Puppet's TypeCalculator#infer of the whole
value, reduced with #common_type.  This module re-derives that for the values our loaders
produce (strings, numbers, booleans, nil, symbols, arrays, hashes, opaque Ruby objects);
tests compare it with Puppet's own output.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from hiera_ls.puppet.ruby_text import number_text
from hiera_ls.puppet.values import RubySymbol

# Abstract types, from the most specific; each accepts everything the ones before it do.
NUMERIC, SCALAR_DATA, DATA, RICH_DATA, ANY = "Numeric", "ScalarData", "Data", "RichData", "Any"


@dataclass(frozen=True, slots=True)
class T:
    """One Puppet type. ``kind`` names it; the other fields are its parameters."""

    kind: str  # Undef Default Unit Boolean Integer Float String Enum Runtime Array Hash, or an abstract name
    lo: float | int | None = None  # Integer/Float range
    hi: float | int | None = None
    value: object = None  # Boolean value, String value, Runtime class name
    values: tuple[str, ...] = ()  # Enum
    elem: T | None = None  # Array element / Hash value
    key: T | None = None  # Hash key
    size: tuple[int, int] | None = None  # Array/Hash size range


UNDEF = T("Undef")
DEFAULT = T("Default")
UNIT = T("Unit")
_ABSTRACT = (NUMERIC, SCALAR_DATA, DATA, RICH_DATA, ANY)


def infer(value: object, memo: dict[int, T] | None = None) -> T:
    memo = {} if memo is None else memo
    if value is None:
        return UNDEF
    if isinstance(value, bool):
        return T("Boolean", value=value)
    if isinstance(value, int):
        return T("Integer", lo=value, hi=value)
    if isinstance(value, float):
        return T("Float", lo=value, hi=value)
    if isinstance(value, str):
        return T("String", value=value)
    if isinstance(value, RubySymbol):
        if value.name == "default":
            return DEFAULT
        if value.name == "undef":
            return UNDEF
        return T("Runtime", value="Symbol")
    if isinstance(value, (list, dict)):
        found = memo.get(id(value))
        if found is not None:
            return found
        memo[id(value)] = T("Any")  # a cycle, which our loaders never build, infers as Any
        result: T
        if isinstance(value, list):
            if not value:
                result = T("Array", elem=UNIT, size=(0, 0))
            else:
                result = T(
                    "Array",
                    elem=_reduce(infer(v, memo) for v in value),
                    size=(len(value), len(value)),
                )
        elif not value:
            result = T("Hash", key=UNIT, elem=UNIT, size=(0, 0))
        else:
            keys = _reduce(infer(getattr(k, "value", k), memo) for k in value)
            elems = _reduce(infer(v, memo) for v in value.values())
            result = T("Hash", key=keys, elem=elems, size=(len(value), len(value)))
        memo[id(value)] = result
        return result
    return T("Runtime", value=getattr(value, "class_name", type(value).__name__))


def _reduce(types: object) -> T:
    result: T | None = None
    for t in types:  # type: ignore[attr-defined]
        result = t if result is None else common(result, t)
    return result if result is not None else UNIT


def _is(kind: str, t: T) -> bool:
    """Is ``t`` assignable to the abstract type ``kind``?"""
    if kind == ANY:
        return True
    k = t.kind
    if k == "Unit":
        return True
    if kind == NUMERIC:
        return k in ("Integer", "Float", NUMERIC)
    if kind == SCALAR_DATA:
        return k in ("Integer", "Float", NUMERIC, "String", "Enum", "Boolean", SCALAR_DATA)
    if kind == DATA:
        if k in ("Undef", DATA) or _is(SCALAR_DATA, t):
            return True
        if k == "Array":
            return _is(DATA, t.elem or UNIT)
        if k == "Hash":
            return (t.key is None or t.key.kind in ("Unit", "String", "Enum")) and _is(
                DATA, t.elem or UNIT
            )
        return False
    if kind == RICH_DATA:
        if k in ("Undef", "Default", RICH_DATA) or _is(DATA, t):
            return True
        if k == "Array":
            return _is(RICH_DATA, t.elem or UNIT)
        if k == "Hash":
            key = t.key or UNIT
            return (
                key.kind == "Unit" or _is(NUMERIC, key) or key.kind in ("String", "Enum")
            ) and _is(RICH_DATA, t.elem or UNIT)
        return False
    return False


def _within(outer: tuple[int, int] | None, inner: tuple[int, int] | None) -> bool:
    if outer is None:
        return True
    if inner is None:
        return False
    return outer[0] <= inner[0] and inner[1] <= outer[1]


def assignable(t1: T, t2: T) -> bool:
    """Is ``t2`` assignable to ``t1``?"""
    if t1.kind in _ABSTRACT:
        return _is(t1.kind, t2)
    if t2.kind == "Unit":
        return True
    if t1 == t2:
        return True
    k1, k2 = t1.kind, t2.kind
    if k1 in ("Integer", "Float") and k1 == k2:
        return _le(t1.lo, t2.lo) and _le(t2.hi, t1.hi)
    if k1 == "Boolean" and k2 == "Boolean":
        return t1.value is None or t1.value == t2.value
    if k1 == "String":
        if k2 == "String":
            return t1.value is None or t1.value == t2.value
        if k2 == "Enum":
            return t1.value is None
        return False
    if k1 == "Enum":
        if k2 == "String":
            return t2.value is not None and t2.value in t1.values
        if k2 == "Enum":
            return bool(t1.values) and set(t2.values) <= set(t1.values)
        return False
    if k1 == "Array" and k2 == "Array":
        return _within(t1.size, t2.size) and assignable(t1.elem or T(ANY), t2.elem or T(ANY))
    if k1 == "Hash" and k2 == "Hash":
        return (
            _within(t1.size, t2.size)
            and assignable(t1.key or T(ANY), t2.key or T(ANY))
            and assignable(t1.elem or T(ANY), t2.elem or T(ANY))
        )
    return False


def _le(a: float | int | None, b: float | int | None) -> bool:
    a_ = -math.inf if a is None else a
    b_ = math.inf if b is None else b
    try:
        return bool(a_ <= b_)
    except TypeError:
        return False


def common(t1: T, t2: T) -> T:
    """Puppet's TypeCalculator#common_type, in its order of rules."""
    if t1.kind == "Undef":
        return t2
    if t2.kind == "Undef":
        return t1
    if t1.kind == "Unit":
        return t2
    if t2.kind == "Unit":
        return t1
    if assignable(t1, t2):
        return t1
    if assignable(t2, t1):
        return t2
    k1, k2 = t1.kind, t2.kind
    if k1 == "Array" and k2 == "Array":
        return T("Array", elem=common(t1.elem or T(ANY), t2.elem or T(ANY)))
    if k1 == "Hash" and k2 == "Hash":
        return T(
            "Hash",
            key=common(t1.key or T(ANY), t2.key or T(ANY)),
            elem=common(t1.elem or T(ANY), t2.elem or T(ANY)),
        )
    if k1 in ("Integer", "Float") and k1 == k2:
        return T(k1, lo=_min(t1.lo, t2.lo), hi=_max(t1.hi, t2.hi))
    if k1 == "String" and k2 in ("String", "Enum"):
        if k2 == "Enum":
            return T("Enum") if t1.value is None else _enum((*t2.values, str(t1.value)))
        if t1.value is None or t2.value is None:
            return T("String")
        return _enum((str(t1.value), str(t2.value)))
    if k1 == "Enum" and k2 in ("String", "Enum"):
        if k2 == "Enum":
            return _enum((*t1.values, *t2.values))
        return T("Enum") if t2.value is None else _enum((*t1.values, str(t2.value)))
    for kind in (NUMERIC, SCALAR_DATA, DATA, RICH_DATA):
        if _is(kind, t1) and _is(kind, t2):
            return T(kind)
    if k1 == "Runtime" and k2 == "Runtime":
        return t1 if t1.value == t2.value else T("Runtime", value="Object")
    return T(ANY)


def _enum(values: tuple[str, ...]) -> T:
    return T("Enum", values=tuple(sorted(set(values))))


def _min(a: float | int | None, b: float | int | None) -> float | int | None:
    if a is None or b is None:
        return None
    return min(a, b)


def _max(a: float | int | None, b: float | int | None) -> float | int | None:
    if a is None or b is None:
        return None
    return max(a, b)


# --------------------------------------------------------------------------- rendering


def type_text(t: T) -> str:
    """Puppet's TypeFormatter output for ``t``."""
    k = t.kind
    if k in ("Integer", "Float"):
        return _range_text(k, t.lo, t.hi)
    if k == "Boolean":
        return "Boolean" if t.value is None else f"Boolean[{'true' if t.value else 'false'}]"
    if k == "Enum":
        if not t.values:
            return "Enum"
        return "Enum[" + ", ".join(_quote(v) for v in t.values) + "]"
    if k == "Runtime":
        return f"Runtime[ruby, '{t.value}']"
    if k == "Array":
        elem = t.elem or T(ANY)
        if t.size == (0, 0) and elem.kind == "Unit":
            return "Array[0, 0]"
        if t.size is None:
            return "Array" if elem.kind == ANY else f"Array[{type_text(elem)}]"
        return f"Array[{type_text(elem)}, {t.size[0]}, {t.size[1]}]"
    if k == "Hash":
        key, elem = t.key or T(ANY), t.elem or T(ANY)
        if t.size == (0, 0) and key.kind == "Unit":
            return "Hash[0, 0]"
        if t.size is None:
            if key.kind == ANY and elem.kind == ANY:
                return "Hash"
            return f"Hash[{type_text(key)}, {type_text(elem)}]"
        return f"Hash[{type_text(key)}, {type_text(elem)}, {t.size[0]}, {t.size[1]}]"
    return k


def _range_text(kind: str, lo: float | int | None, hi: float | int | None) -> str:
    low_default = lo is None or lo == -math.inf
    high_default = hi is None or hi == math.inf
    if low_default and high_default:
        return kind
    low = "default" if low_default else number_text(lo)  # type: ignore[arg-type]
    if high_default:
        return f"{kind}[{low}]"
    assert hi is not None
    return f"{kind}[{low}, {number_text(hi)}]"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "\\'") + "'"


def mismatch_name(value: object) -> str:
    """The short name Puppet's TypeMismatchDescriber gives a non-Hash data_hash result."""
    if value is None:
        return "Undef"
    if isinstance(value, bool):
        return "Boolean"
    if isinstance(value, int):
        return "Integer"
    if isinstance(value, float):
        return "Float"
    if isinstance(value, str):
        return "String"
    if isinstance(value, list):
        return "Tuple"
    if isinstance(value, dict):
        return "Struct"
    return type_text(infer(value))
