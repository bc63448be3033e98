"""Ruby's value semantics for the plain Python values the engine works with.

Loaded data is plain Python (dict, list, str, int, float, bool, None, plus RubySymbol), but
Puppet computes on Ruby objects, and the two languages disagree where it shows:
``True == 1 == 1.0`` and ``hash(True) == hash(1)`` in Python, while Ruby's ``eql?`` (used by
``uniq``, ``|`` and Hash keys) tells Integer, Float and true apart and its ``==`` (used by
``Array#delete``) only equates Integer with Float.  Text must also come out as Ruby prints it,
because it ends up in interpolated strings, explain output and error messages.

Also here: what Puppet's type inference calls a value (``got Tuple``), including the full type
strings some merge and option errors print, since those come from the same value analysis.

Checked against Ruby 3.1 and Puppet 7.23 by ``tests/engine/test_merge_differential.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from hiera_ls.puppet.ruby_text import inspect, number_text, puppet_quote, ruby_class
from hiera_ls.puppet.values import RubySymbol

# Ruby's Integer is a tagged immediate ("fixnum") in this range; error texts treat it specially.
_FIXNUM_MIN = -(2**62)
_FIXNUM_MAX = 2**62 - 1


class ComparisonFailed(ValueError):
    """Ruby's ArgumentError from ``<=>`` returning nil while sorting; ``str(e)`` is Ruby's text."""


# ---------------------------------------------------------------------------- equality


def _is_num(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _is_nan(value: object) -> bool:
    return isinstance(value, float) and math.isnan(value)


def eql_key(value: object) -> Hashable:
    """A key that is equal for two values exactly when Ruby's ``eql?`` holds.

    NaN is not ``eql?`` to NaN, but Ruby finds an object ``eql?`` to itself, and both Psych
    and JSON hand out the one ``Float::NAN`` object for every NaN they read, so for loaded
    data all NaNs are the same object.
    """
    if value is None or isinstance(value, bool):
        return ("b", value)
    if isinstance(value, int):
        return ("i", value)
    if isinstance(value, float):
        return ("nan",) if math.isnan(value) else ("f", value)
    if isinstance(value, str):
        return ("s", value)
    if isinstance(value, RubySymbol):
        return ("y", value.name)
    if isinstance(value, list):
        return ("a", tuple(eql_key(v) for v in value))
    if isinstance(value, dict):
        return ("h", frozenset((eql_key(k), eql_key(v)) for k, v in value.items()))
    return ("o", id(value))


def ruby_equal(a: object, b: object) -> bool:
    """Ruby's ``a == b``: Integer and Float compare by value, nothing else crosses types."""
    if _is_num(a) and _is_num(b):
        return a == b
    if a is None or isinstance(a, bool):
        return a is b
    if type(a) is not type(b):
        return False
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(rb_equal(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        if len(a) != len(b):
            return False
        index = {eql_key(k): v for k, v in b.items()}
        for k, v in a.items():
            key = eql_key(k)
            if key not in index or not rb_equal(v, index[key]):
                return False
        return True
    return a == b


def rb_equal(a: object, b: object) -> bool:
    """Ruby's internal ``rb_equal``: identity first, then ``==`` (what Array#delete, Array#==
    and Hash#== use on elements).  Every loaded NaN is the same Ruby object (see eql_key)."""
    return a is b or ruby_equal(a, b) or (_is_nan(a) and _is_nan(b))


def ruby_uniq(values: Iterable[object]) -> list[object]:
    """``Array#uniq`` / the element order of ``a | b``: first occurrence by ``eql?`` wins."""
    seen: set[Hashable] = set()
    out: list[object] = []
    for v in values:
        key = eql_key(v)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return out


def ruby_flatten(values: Sequence[object]) -> list[object]:
    out: list[object] = []
    for v in values:
        if isinstance(v, list):
            out.extend(ruby_flatten(v))
        else:
            out.append(v)
    return out


def truthy(value: object) -> bool:
    """Ruby truthiness: only nil and false are false."""
    return value is not None and value is not False


# ---------------------------------------------------------------------------- ordering


def ruby_compare(a: object, b: object) -> int | None:
    """Ruby's ``a <=> b`` for data values; None where Ruby answers nil."""
    if isinstance(a, int | float) and isinstance(b, int | float) and _is_num(a) and _is_num(b):
        if (isinstance(a, float) and math.isnan(a)) or (isinstance(b, float) and math.isnan(b)):
            return None
        return int(a > b) - int(a < b)
    if isinstance(a, str) and isinstance(b, str):
        return (a > b) - (a < b)  # code point order == UTF-8 byte order
    if isinstance(a, RubySymbol) and isinstance(b, RubySymbol):
        return (a.name > b.name) - (a.name < b.name)
    if isinstance(a, list) and isinstance(b, list):
        if a is b:
            return 0
        for x, y in zip(a, b, strict=False):
            c = ruby_compare(x, y)
            if c is None or c != 0:
                return c
        return (len(a) > len(b)) - (len(a) < len(b))
    if _is_num(a) or isinstance(a, str | RubySymbol | list):
        return None
    return 0 if rb_equal(a, b) else None  # Object#<=>


def _describe_operand(value: object) -> str:
    """How rb_cmperr names the right operand: immediates and floats inspected, else the class."""
    if value is None or isinstance(value, bool | float | RubySymbol):
        return inspect(value)
    if isinstance(value, int):
        return str(value) if _FIXNUM_MIN <= value <= _FIXNUM_MAX else "Integer"
    return ruby_class(value)


def _sort_cmp(a: object, b: object) -> int:
    c = ruby_compare(a, b)
    if c is None:
        raise ComparisonFailed(f"comparison of {ruby_class(a)} with {_describe_operand(b)} failed")
    return c


def ruby_sort(values: Sequence[object]) -> list[object]:
    """``Array#sort`` as Ruby on glibc does it: a top-down merge sort (glibc's qsort_r).

    The algorithm matters for which pair is compared first, and so for whether and how a
    mixed array fails (``comparison of String with 1 failed``).
    """
    items = list(values)
    _msort(items, _sort_cmp)
    return items


def _msort(items: list[object], cmp: Callable[[object, object], int]) -> None:
    n = len(items)
    if n <= 1:
        return
    n1 = n // 2
    left, right = items[:n1], items[n1:]
    _msort(left, cmp)
    _msort(right, cmp)
    i = j = 0
    out: list[object] = []
    while i < len(left) and j < len(right):
        if cmp(left[i], right[j]) <= 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    out.extend(left[i:])
    out.extend(right[j:])
    items[:] = out


# ---------------------------------------------------------------------------- Puppet's type inference
#
# Puppet describes a mismatching value by its inferred type (TypeCalculator#infer_set) after
# normalisation.  Only the shapes data can take are modelled: scalars, Undef, Tuple for
# arrays, Struct for hashes whose keys are all non-empty strings, Hash otherwise.


@dataclass(frozen=True, slots=True)
class PType:
    """Base of the inferred types; equality is Ruby's ``eql?`` on types (order-sensitive)."""


@dataclass(frozen=True, slots=True)
class PInteger(PType):
    lo: int | float
    hi: int | float


@dataclass(frozen=True, slots=True, eq=False)
class PFloat(PType):
    lo: float
    hi: float

    def __eq__(self, other: object) -> bool:  # Ruby compares the bounds with ==: NaN differs
        return isinstance(other, PFloat) and self.lo == other.lo and self.hi == other.hi

    def __hash__(self) -> int:
        return hash((PFloat, self.lo, self.hi))


@dataclass(frozen=True, slots=True)
class PString(PType):
    value: str | None


@dataclass(frozen=True, slots=True)
class PEnum(PType):
    values: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PBoolean(PType):
    value: bool | None


@dataclass(frozen=True, slots=True)
class PUndef(PType):
    pass


@dataclass(frozen=True, slots=True)
class PDefault(PType):
    pass


@dataclass(frozen=True, slots=True)
class PRuntime(PType):
    name: str


@dataclass(frozen=True, slots=True)
class PTuple(PType):
    types: tuple[PType, ...]


@dataclass(frozen=True, slots=True)
class PEmptyArray(PType):
    pass


@dataclass(frozen=True, slots=True)
class PEmptyHash(PType):
    pass


@dataclass(frozen=True, slots=True)
class PStruct(PType):
    elements: tuple[tuple[str, PType], ...]


@dataclass(frozen=True, slots=True)
class PHash(PType):
    key: PType
    value: PType
    size: int | None


@dataclass(frozen=True, slots=True)
class PVariant(PType):
    types: tuple[PType, ...]


@dataclass(frozen=True, slots=True)
class POptional(PType):
    type: PType


def infer_set(value: object) -> PType:
    """TypeCalculator#infer_set for data values."""
    if value is None:
        return PUndef()
    if isinstance(value, bool):
        return PBoolean(value)
    if isinstance(value, int):
        return PInteger(value, value)
    if isinstance(value, float):
        return PFloat(value, value)
    if isinstance(value, str):
        return PString(value)
    if isinstance(value, RubySymbol):
        if value.name == "default":
            return PDefault()
        if value.name == "undef":
            return PUndef()
        return PRuntime("Symbol")
    if isinstance(value, list):
        return PTuple(tuple(infer_set(v) for v in value)) if value else PEmptyArray()
    if isinstance(value, dict):
        if not value:
            return PEmptyHash()
        if all(isinstance(k, str) and k for k in value):
            return PStruct(tuple((k, infer_set(v)) for k, v in value.items()))
        keys = _maybe_variant([infer_set(k) for k in value])
        values = _maybe_variant([infer_set(v) for v in value.values()])
        return PHash(keys, values, len(value))
    return PRuntime(type(value).__name__)


def _flatten_variants(types: Iterable[PType]) -> list[PType]:
    out: list[PType] = []
    for t in types:
        if isinstance(t, PVariant):
            out.extend(t.types)
        else:
            out.append(t)
    return out


def _uniq_types(types: Iterable[PType]) -> list[PType]:
    out: list[PType] = []
    for t in types:
        if t not in out:
            out.append(t)
    return out


def _maybe_variant(types: Iterable[PType]) -> PType:
    flat = _uniq_types(_flatten_variants(types))
    return flat[0] if len(flat) == 1 else PVariant(tuple(flat))


def normalize(t: PType) -> PType:
    """PAnyType#normalize; returns ``t`` itself when nothing changed (Puppet relies on that)."""
    if isinstance(t, PTuple):
        types, changed = _normalize_all(t.types)
        return PTuple(tuple(types)) if changed else t
    if isinstance(t, PStruct):
        values, changed = _normalize_all([v for _, v in t.elements])
        if not changed:
            return t
        return PStruct(tuple((name, v) for (name, _), v in zip(t.elements, values, strict=True)))
    if isinstance(t, PHash):
        key, value = normalize(t.key), normalize(t.value)
        if t.size is None and key is t.key and value is t.value:
            return t
        return PHash(key, value, t.size)
    if isinstance(t, POptional):
        inner = normalize(t.type)
        if _accepts_undef(inner):
            return inner
        return t if inner is t.type else POptional(inner)
    if isinstance(t, PVariant):
        return _normalize_variant(t)
    return t


def _normalize_all(types: Sequence[PType]) -> tuple[list[PType], bool]:
    out = [normalize(t) for t in types]
    return out, any(n is not o for n, o in zip(out, types, strict=True))


def _accepts_undef(t: PType) -> bool:
    if isinstance(t, PUndef | POptional):
        return True
    return isinstance(t, PVariant) and any(_accepts_undef(m) for m in t.types)


def _normalize_variant(t: PVariant) -> PType:
    if not t.types:
        return t
    types, modified = _normalize_all(t.types)
    if not modified:
        types = list(t.types)
    if len(types) == 1:
        return types[0]
    if any(isinstance(m, PUndef | POptional) for m in types):
        rest = [
            m.type if isinstance(m, POptional) else m for m in types if not isinstance(m, PUndef)
        ]
        return normalize(POptional(_maybe_variant(rest)))
    types = _flatten_variants(types)
    size_before = len(types)
    types = _merge_enums(types)
    types = _merge_numbers(PInteger, types)
    types = _merge_numbers(PFloat, types)
    if len(types) == 1:
        return types[0]
    return _maybe_variant(types) if modified or len(types) != size_before else t


def _merge_enums(types: list[PType]) -> list[PType]:
    enums = [
        m
        for m in types
        if (isinstance(m, PEnum) and m.values) or (isinstance(m, PString) and m.value is not None)
    ]
    if len(enums) <= 1:
        return types
    others = [m for m in types if not any(m is e for e in enums)]
    values: list[str] = []
    for e in enums:
        values.extend(e.values if isinstance(e, PEnum) else [e.value or ""])
    return [*others, PEnum(tuple(sorted(dict.fromkeys(values), key=lambda s: s.encode())))]


def _merge_numbers(cls: type[PInteger] | type[PFloat], types: list[PType]) -> list[PType]:
    ranges = [m for m in types if isinstance(m, cls)]
    if len(ranges) <= 1:
        return types
    others = [m for m in types if not isinstance(m, cls)]
    result: list[PType] = []
    pending: list[PInteger | PFloat] = [m for m in ranges if isinstance(m, PInteger | PFloat)]
    while pending:
        memo = pending.pop()
        unmerged: list[PInteger | PFloat] = []
        for other in pending:
            merged = _merge_range(memo, other)
            if merged is None:
                unmerged.append(other)
            else:
                memo = merged
        result.append(memo)
        pending = unmerged
    return [*result, *others]


def _merge_range(a: PInteger | PFloat, b: PInteger | PFloat) -> PInteger | PFloat | None:
    intersect = not (a.hi < b.lo or b.hi < a.lo)
    adjacent = isinstance(a, PInteger) and (a.hi + 1 == b.lo or b.hi + 1 == a.lo)
    if not (intersect or adjacent):
        return None
    lo = a.lo if a.lo <= b.lo else b.lo
    hi = a.hi if a.hi >= b.hi else b.hi
    return PInteger(lo, hi) if isinstance(a, PInteger) else PFloat(float(lo), float(hi))


def _range_part(lo: float, hi: float) -> list[str]:
    if lo == -math.inf and hi == math.inf:
        return []
    parts = ["default" if lo == -math.inf else number_text(lo)]
    if hi != math.inf:
        parts.append(number_text(hi))
    return parts


def type_to_s(t: PType) -> str:
    """TypeFormatter#string for the inferred types."""
    if isinstance(t, PInteger | PFloat):
        name = "Integer" if isinstance(t, PInteger) else "Float"
        parts = _range_part(t.lo, t.hi)
        return f"{name}[{', '.join(parts)}]" if parts else name
    if isinstance(t, PString):
        return "String"
    if isinstance(t, PEnum):
        return f"Enum[{', '.join(puppet_quote(v) for v in t.values)}]" if t.values else "Enum"
    if isinstance(t, PBoolean):
        return "Boolean" if t.value is None else f"Boolean[{'true' if t.value else 'false'}]"
    if isinstance(t, PUndef):
        return "Undef"
    if isinstance(t, PDefault):
        return "Default"
    if isinstance(t, PRuntime):
        return f"Runtime[ruby, {puppet_quote(t.name)}]"
    if isinstance(t, PTuple):
        return f"Tuple[{', '.join(type_to_s(m) for m in t.types)}]"
    if isinstance(t, PEmptyArray):
        return "Array[0, 0]"
    if isinstance(t, PEmptyHash):
        return "Hash[0, 0]"
    if isinstance(t, PStruct):
        pairs = []
        for name, vt in t.elements:
            key = f"NotUndef[{puppet_quote(name)}]" if _accepts_undef(vt) else puppet_quote(name)
            pairs.append(f"{key} => {type_to_s(vt)}")
        return "Struct[{" + ", ".join(pairs) + "}]"
    if isinstance(t, PHash):
        size = f", {t.size}, {t.size}" if t.size is not None else ""
        return f"Hash[{type_to_s(t.key)}, {type_to_s(t.value)}{size}]"
    if isinstance(t, PVariant):
        return f"Variant[{', '.join(type_to_s(m) for m in t.types)}]"
    if isinstance(t, POptional):
        inner = t.type
        if isinstance(inner, PString) and inner.value is not None:
            return f"Optional[{puppet_quote(inner.value)}]"
        return f"Optional[{type_to_s(inner)}]"
    return type(t).__name__


_SIMPLE_NAMES: dict[type[PType], str] = {
    PInteger: "Integer",
    PFloat: "Float",
    PString: "String",
    PEnum: "Enum",
    PBoolean: "Boolean",
    PUndef: "Undef",
    PDefault: "Default",
    PRuntime: "Runtime",
    PTuple: "Tuple",
    PEmptyArray: "Array",
    PEmptyHash: "Hash",
    PStruct: "Struct",
    PHash: "Hash",
    PVariant: "Variant",
    POptional: "Optional",
}


def simple_type_name(t: PType) -> str:
    return _SIMPLE_NAMES[type(t)]


def type_name(value: object) -> str:
    """The short type name Puppet prints for a value in ``... has wrong type, ... got X``.

    String, Integer, Float, Boolean, Undef (nil), Tuple (non-empty array), Array (``[]``),
    Struct (non-empty hash whose keys are all non-empty strings), Hash (any other hash),
    Runtime (a Ruby Symbol).
    """
    return simple_type_name(infer_set(value))
