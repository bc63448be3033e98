"""Puppet's type model: one frozen value per type expression of Puppet's type language.

Everything that reasons about Puppet types shares these classes: the parser of type
expression text (:mod:`hiera_ls.puppet.type_parser`), assignability
(:mod:`hiera_ls.puppet.type_assignable`), inference (:mod:`hiera_ls.puppet.type_infer`),
Puppet's type formatter (:mod:`hiera_ls.puppet.type_format`) and the mismatch describer
(:mod:`hiera_ls.puppet.type_mismatch`).  A ``None`` bound is an open end (Puppet's
``default``); a ``None`` parameter type is Puppet's unparameterised form.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


class PType:
    """Base of every type; concrete types are frozen dataclasses compared by value."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class AnyType(PType):
    """Puppet's ``Any``."""


@dataclass(frozen=True, slots=True)
class UndefType(PType):
    """Puppet's ``Undef``."""


@dataclass(frozen=True, slots=True)
class DefaultType(PType):
    """Puppet's ``Default``."""


@dataclass(frozen=True, slots=True)
class UnitType(PType):
    """Element type of an empty collection: assignable to every type."""


@dataclass(frozen=True, slots=True)
class ScalarType(PType):
    """Puppet's ``Scalar``."""


@dataclass(frozen=True, slots=True)
class ScalarDataType(PType):
    """Puppet's ``ScalarData``."""


@dataclass(frozen=True, slots=True)
class NumericType(PType):
    """Puppet's ``Numeric``."""


@dataclass(frozen=True, slots=True)
class BooleanType(PType):
    """Puppet's ``Boolean`` (and ``Boolean[true]``, ``Boolean[false]``)."""

    value: bool | None = None


@dataclass(frozen=True, slots=True)
class IntegerType(PType):
    """An Integer range; ``None`` is an open end (Puppet's -Infinity / Infinity)."""

    low: int | None = None
    high: int | None = None


@dataclass(frozen=True, slots=True, eq=False)
class FloatType(PType):
    """Puppet's ``Float[min, max]``."""

    low: float | None = None
    high: float | None = None

    def __eq__(self, other: object) -> bool:  # Ruby compares bounds with ==: 1 == 1.0
        return isinstance(other, FloatType) and (self.low, self.high) == (other.low, other.high)

    def __hash__(self) -> int:
        return hash((FloatType, self.low, self.high))


@dataclass(frozen=True, slots=True)
class StringType(PType):
    """``value`` is set only for inferred types (the type of one known string)."""

    size: IntegerType | None = None
    value: str | None = None


@dataclass(frozen=True, slots=True)
class EnumType(PType):
    """Puppet's ``Enum['a', 'b']``."""

    values: tuple[str, ...] = ()
    case_insensitive: bool = False


@dataclass(frozen=True, slots=True)
class PatternType(PType):
    """``patterns`` are Ruby regexp sources, as Puppet prints them between slashes."""

    patterns: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class RegexpType(PType):
    """Puppet's ``Regexp[/.../]``."""

    pattern: str | None = None


@dataclass(frozen=True, slots=True)
class RuntimeType(PType):
    """Puppet's ``Runtime[runtime, name]``."""

    runtime: str | None = None
    name: str | None = None


@dataclass(frozen=True, slots=True)
class ArrayType(PType):
    """Puppet's ``Array[T, min, max]``."""

    element: PType = AnyType()
    size: IntegerType | None = None


@dataclass(frozen=True, slots=True)
class TupleType(PType):
    """Puppet's ``Tuple[T1, T2, ..., min, max]``."""

    types: tuple[PType, ...] = ()
    size: IntegerType | None = None


@dataclass(frozen=True, slots=True)
class HashType(PType):
    """Puppet's ``Hash[K, V, min, max]``."""

    key: PType = AnyType()
    value: PType = AnyType()
    size: IntegerType | None = None


@dataclass(frozen=True, slots=True)
class StructElement:
    """One member of a ``Struct``: its key, whether it may be left out, its type."""

    name: str
    optional: bool  # the key may be absent (Optional['name'], or a value type accepting undef)
    value: PType


@dataclass(frozen=True, slots=True)
class StructType(PType):
    """Puppet's ``Struct[{...}]``."""

    elements: tuple[StructElement, ...] = ()


@dataclass(frozen=True, slots=True)
class CollectionType(PType):
    """Puppet's ``Collection[min, max]``."""

    size: IntegerType | None = None


@dataclass(frozen=True, slots=True)
class VariantType(PType):
    """Puppet's ``Variant[T1, T2, ...]``."""

    types: tuple[PType, ...] = ()


@dataclass(frozen=True, slots=True)
class OptionalType(PType):
    """Puppet's ``Optional[T]``."""

    type: PType | None = None


@dataclass(frozen=True, slots=True)
class NotUndefType(PType):
    """Puppet's ``NotUndef[T]``."""

    type: PType | None = None


@dataclass(frozen=True, slots=True)
class WrapperType(PType):
    """Types with one optional type parameter and no value semantics of their own here:
    ``Type[T]``, ``Sensitive[T]``, ``Iterable[T]``, ``Iterator[T]``."""

    kind: str
    type: PType | None = None


@dataclass(frozen=True, slots=True)
class CallableType(PType):
    """``Callable[...]``: parameters kept as parsed (types, then size bounds, then block)."""

    params: tuple[object, ...] | None = None
    return_type: PType | None = None


@dataclass(frozen=True, slots=True)
class NamedType(PType):
    """A type known by name whose parameters hiera-ls keeps as text: SemVer, SemVerRange,
    Timestamp, Timespan, Init, Object, Binary, URI, TypeSet, CatalogEntry, Class, Resource.
    Instances of these never come out of data files, so only names and identity matter."""

    name: str
    args: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TypeReferenceType(PType):
    """A name that resolves to nothing (Puppet's ``TypeReference['Foo']``)."""

    name: str


@dataclass(frozen=True, slots=True)
class AliasType(PType):
    """A named alias (``Data``, ``Stdlib::Port``); the target is built lazily because an
    alias may refer to itself."""

    name: str
    target: Callable[[], PType] = field(compare=False, hash=False, repr=False)
    builtin: bool = field(default=False, compare=False)  # Puppet's own: printed by name only

    def resolved(self) -> PType:
        return self.target()


EMPTY_ARRAY = ArrayType(UnitType(), IntegerType(0, 0))
EMPTY_HASH = HashType(UnitType(), UnitType(), IntegerType(0, 0))

# Puppet's static aliases (lib/puppet/pops/loader/static_loader.rb), resolved by the parser.
BUILTIN_ALIASES: dict[str, str] = {
    "Data": "Variant[ScalarData, Undef, Hash[String, Data], Array[Data]]",
    "RichDataKey": "Variant[String, Numeric]",
    "RichData": (
        "Variant[Scalar, SemVerRange, Binary, Sensitive, Type, TypeSet, URI, Object, Undef,"
        " Default, Hash[RichDataKey, RichData], Array[RichData]]"
    ),
    "Puppet::LookupKey": "RichDataKey",
    "Puppet::LookupValue": "RichData",
}


def resolve_aliases(t: PType) -> PType:
    seen: set[str] = set()
    while isinstance(t, AliasType) and t.name not in seen:
        seen.add(t.name)
        t = t.resolved()
    return t


def variant_of(types: list[PType] | tuple[PType, ...]) -> PType:
    """Puppet's ``PVariantType.maybe_create``: flatten, drop duplicates, unwrap one."""
    flat: list[PType] = []
    for t in types:
        for m in t.types if isinstance(t, VariantType) else (t,):
            if m not in flat:
                flat.append(m)
    return flat[0] if len(flat) == 1 else VariantType(tuple(flat))


def make_enum(values: list[str] | tuple[str, ...]) -> EnumType:
    """An Enum as common_type and normalize build it: values unique and sorted."""
    return EnumType(tuple(sorted(set(values))))


def generalize(t: PType) -> PType:
    """PAnyType#generalize: the type without its value-specific parameters."""
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
    if isinstance(t, CollectionType):
        return CollectionType()
    if isinstance(t, ArrayType):
        return ArrayType() if t.element == AnyType() else ArrayType(generalize(t.element))
    if isinstance(t, HashType):
        if t == EMPTY_HASH or t == HashType():
            return t
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
