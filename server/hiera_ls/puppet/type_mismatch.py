"""Puppet's TypeMismatchDescriber: why a value is not an instance of a type, in Puppet's words.

When a value is not an instance of the expected type, Puppet walks both in step and
reports each mismatch with the path that leads to it (``entry 'hierarchy' index 0
unrecognized key 'pth'``).  Several mismatches are reported together, in the order of
the expected type's elements, unknown keys last; variants try every alternative and
merge what the alternatives agree on.  Each mismatch here also keeps the path into the
value, so the caller can point at the exact key or value in the file.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from hiera_ls.puppet.message import Text, as_inferred_type, as_value
from hiera_ls.puppet.type_assignable import assignable
from hiera_ls.puppet.type_format import (
    a_an,
    format_expanded,
    format_type,
    short_name,
    simple_name,
)
from hiera_ls.puppet.type_infer import infer_set, instance_of, normalize
from hiera_ls.puppet.types import (
    AliasType,
    ArrayType,
    EnumType,
    HashType,
    IntegerType,
    NamedType,
    NotUndefType,
    OptionalType,
    PatternType,
    PType,
    StringType,
    StructType,
    TupleType,
    TypeReferenceType,
    UndefType,
    VariantType,
    WrapperType,
    generalize,
    resolve_aliases,
    variant_of,
)

# ---------------------------------------------------------------------------- path elements


@dataclass(frozen=True, slots=True)
class PathElement:
    """One step of a mismatch path; ``kind`` is subject, entry, key, index or variant."""

    kind: str
    key: object

    def __str__(self) -> str:
        if self.kind == "subject":
            return str(self.key)
        if self.kind == "entry":
            return f"entry '{self.key}'"
        if self.kind == "key":
            return f"key of entry '{self.key}'"
        if self.kind == "index":
            return f"index {self.key}"
        return f"variant {self.key}"


def _subject(text: str) -> PathElement:
    return PathElement("subject", text)


def _entry(key: str) -> PathElement:
    return PathElement("entry", key)


def _entry_key(key: str) -> PathElement:
    return PathElement("key", key)


def _index(i: int) -> PathElement:
    return PathElement("index", i)


def _variant(i: int) -> PathElement:
    return PathElement("variant", i)


Path = tuple[PathElement, ...]

# ------------------------------------------------------------------------------- mismatches


@dataclass(frozen=True, slots=True)
class Mismatch:
    """One reported mismatch.  ``kind`` selects the sentence:

    missing-key / unknown-key (``key`` set), type, pattern, size (``expected``/``actual``).
    """

    kind: str
    path: Path
    key: str | None = None
    expected: PType | None = None
    actual: PType | None = None

    @property
    def canonical_path(self) -> Path:
        return tuple(e for e in self.path if e.kind != "variant")

    def value_path(self) -> tuple[object, ...]:
        """Keys and indexes leading to the offending value (the key itself for unknown keys)."""
        steps = tuple(e.key for e in self.path if e.kind in ("entry", "key", "index"))
        if self.kind == "unknown-key":
            return (*steps, self.key)
        return steps

    @property
    def points_at_key(self) -> bool:
        """True when the problem is a key (unknown, or a key failing the key type)."""
        return self.kind == "unknown-key" or (bool(self.path) and self.path[-1].kind == "key")

    def message(self) -> str:
        return self.text().plain

    def text(self) -> Text:
        """Puppet's sentence, the type it got from the data marked: it may hold the value
        (``got 'x'``, ``got Integer[70000, 70000]``)."""
        position = " " + " ".join(str(e) for e in self.path) if self.path else ""
        if self.kind == "missing-key":
            return Text.of(f"{position} expects a value for key '{self.key}'")
        if self.kind == "unknown-key":
            return Text.of(f"{position} unrecognized key '{self.key}'")
        if self.kind == "unresolved":
            return Text.of(f"{position} references an unresolved type '{self.key}'")
        assert self.expected is not None and self.actual is not None
        if self.kind == "size":
            return Text.of(
                f"{position} expects size to be {_range_text(self.expected)}, "
                f"got {_range_text(self.actual)}"
            )
        if self.kind == "pattern":
            return _pattern_message(position, self.expected, self.actual)
        return _type_message(position, self.expected, self.actual)


def _type_mismatch(
    path: Path, expected: PType | Sequence[PType], actual: PType, kind: str = "type"
) -> Mismatch:
    e = variant_of(list(expected)) if isinstance(expected, (list, tuple)) else expected
    assert isinstance(e, PType)
    return Mismatch(kind, path, expected=normalize(e), actual=normalize(actual))


def _size_mismatch(path: Path, expected: IntegerType, actual: IntegerType) -> Mismatch:
    return Mismatch("size", path, expected=expected, actual=actual)


def _range_text(t: PType) -> str:
    assert isinstance(t, IntegerType)
    low = t.low or 0
    high: float = math.inf if t.high is None else t.high
    if low == high:
        return "0" if low == 0 else str(low)
    if low == 0:
        return "unlimited" if high == math.inf else f"at most {int(high)}"
    if high == math.inf:
        return f"at least {low}"
    return f"between {low} and {int(high)}"


def _pattern_message(position: str, e: PType, a: PType) -> Text:
    prefix = ""
    if isinstance(e, OptionalType) and e.type is not None:
        e = e.type
        prefix = "an undef value or "
    expects = f"{position} expects {prefix}a match for {format_expanded(e)}, got "
    if isinstance(a, StringType) and a.value is not None:
        return Text.of(expects, "'", as_value(a.value), "'")
    return Text.of(expects, as_inferred_type(short_name(a)))


def _type_message(position: str, e: PType, a: PType) -> Text:
    optional = False
    if isinstance(e, OptionalType) and e.type is not None:
        e = e.type
        optional = True
    multi = False
    if isinstance(e, VariantType):
        alternatives = list(e.types)
        if _report_detailed(alternatives, a):
            got = _detailed_actual(alternatives, a)
            names = [format_expanded(t) for t in alternatives]
        else:
            names = list(dict.fromkeys(short_name(t) for t in alternatives))
            got = short_name(a)
        if optional:
            names.insert(0, "Undef")
        if len(names) == 1:
            expected_text = names[0]
        elif len(names) == 2:
            expected_text, multi = f"{names[0]} or {names[1]}", True
        else:
            expected_text, multi = f"{', '.join(names[:-1])}, or {names[-1]}", True
    else:
        if _report_detailed([e], a):
            got = _detailed_actual([e], a)
            expected_text = format_expanded(e)
        else:
            expected_text = short_name(e)
            got = short_name(a)
        if optional:
            expected_text, multi = f"Undef or {expected_text}", True
    if multi:
        return Text.of(
            f"{position} expects a value of type {expected_text}, got ", as_inferred_type(got)
        )
    return Text.of(f"{position} expects {a_an(expected_text)} value, got ", as_inferred_type(got))


def _specialization(e: PType, a: PType) -> bool:
    return (isinstance(e, StructType) and isinstance(a, HashType)) or (
        isinstance(e, TupleType) and isinstance(a, ArrayType)
    )


def _always_detailed(es: Sequence[PType], a: PType) -> bool:
    return any(
        type(e) is type(a)
        or isinstance(e, AliasType)
        or isinstance(a, AliasType)
        or _specialization(e, a)
        for e in es
    )


def _default_of(e: PType) -> PType:
    """The unparameterised type of ``e``'s kind (Puppet's ``e.class::DEFAULT``)."""
    name = simple_name(e)
    if name == "Struct":
        return HashType()  # Struct's default accepts any hash
    if name == "Tuple":
        return ArrayType()
    if name in ("Variant", "TypeAlias"):
        return VariantType(())
    if name == "Optional":
        return OptionalType(None)
    if isinstance(e, WrapperType):
        return WrapperType(e.kind)
    if isinstance(e, NamedType):
        return NamedType(e.name)
    if isinstance(e, TypeReferenceType):
        return e
    return type(e)()


def _report_detailed(es: Sequence[PType], a: PType) -> bool:
    if _always_detailed(es, a):
        return True
    return any(assignable(_default_of(resolve_aliases(e)), a) for e in es)


def _detailed_actual(es: Sequence[PType], a: PType) -> str:
    resolved = [resolve_aliases(e) for e in es]
    if _always_detailed(resolved, a):
        return format_type(a)
    general = generalize(a)
    if any(assignable(e, general) for e in resolved):
        return format_type(a)
    return simple_name(a)


# ------------------------------------------------------------------------------- describing


def describe_mismatch(subject: str, expected: PType, value: object) -> list[Mismatch]:
    """The mismatches Puppet reports for ``value`` (empty when it is an instance)."""
    inferred: list[PType] = []  # the value's type, inferred once
    if instance_of(expected, value, inferred):
        return []
    actual = inferred[0] if inferred else infer_set(value)
    return _describe(expected, actual, (_subject(subject),))


def render(mismatches: Sequence[Mismatch]) -> str:
    """The exception text: one mismatch stripped, several joined as Puppet joins them."""
    return render_text(mismatches).plain


def render_text(mismatches: Sequence[Mismatch]) -> Text:
    """:func:`render` as parts (what the data holds marked)."""
    if not mismatches:
        return Text()
    if len(mismatches) == 1:
        return mismatches[0].text().strip()
    parts: list[Text | str] = []
    for i, m in enumerate(mismatches):
        parts.extend(("\n " if i else "", m.text()))
    return Text.of(*parts)


def _describe(expected: PType, actual: PType, path: Path) -> list[Mismatch]:
    unresolved = _unresolved(expected, set())
    if unresolved is not None:
        return [Mismatch("unresolved", path, key=unresolved)]
    return _internal(normalize(expected), expected, actual, path)


def _unresolved(t: PType, seen: set[str]) -> str | None:
    """The first name in ``t`` that resolves to nothing (Puppet's UnresolvedTypeFinder)."""
    if isinstance(t, TypeReferenceType):
        return t.name
    if isinstance(t, AliasType):
        if t.name in seen:
            return None
        seen.add(t.name)
        return _unresolved(t.resolved(), seen)
    children: tuple[PType | None, ...] = ()
    if isinstance(t, VariantType | TupleType):
        children = t.types
    elif isinstance(t, ArrayType):
        children = (t.element,)
    elif isinstance(t, HashType):
        children = (t.key, t.value)
    elif isinstance(t, StructType):
        children = tuple(e.value for e in t.elements)
    elif isinstance(t, OptionalType | NotUndefType | WrapperType):
        children = (t.type,)
    for child in children:
        found = None if child is None else _unresolved(child, seen)
        if found is not None:
            return found
    return None


def _internal(expected: PType, original: PType, actual: PType, path: Path) -> list[Mismatch]:
    if isinstance(expected, VariantType):
        return _describe_variant(expected, original, actual, path)
    if isinstance(expected, StructType):
        return _describe_struct(expected, original, actual, path)
    if isinstance(expected, HashType):
        return _describe_hash(expected, original, actual, path)
    if isinstance(expected, TupleType):
        return _describe_tuple(expected, original, actual, path)
    if isinstance(expected, ArrayType):
        return _describe_array(expected, original, actual, path)
    if isinstance(expected, OptionalType):
        if isinstance(actual, UndefType) or expected.type is None:
            return []
        return _internal(
            expected.type, original if isinstance(original, AliasType) else expected, actual, path
        )
    if isinstance(expected, (PatternType, EnumType)):
        return [_type_mismatch(path, original, actual, "pattern")]
    if isinstance(expected, AliasType):
        return _internal(normalize(expected.resolved()), expected, actual, path)
    if assignable(expected, actual):
        return []
    return [_type_mismatch(path, original, actual)]


def _describe_variant(
    expected: VariantType, original: PType, actual: PType, path: Path
) -> list[Mismatch]:
    alternatives = list(expected.types)
    if isinstance(original, OptionalType):
        alternatives.insert(0, UndefType())
    found: list[list[Mismatch]] = []
    for i, t in enumerate(alternatives):
        d = _describe(t, actual, (*path, _variant(i)))
        if not d:
            return []
        found.append(d)
    merged = _merge_descriptions(len(path), found)
    if isinstance(original, AliasType) and len(merged) == 1:
        return [_type_mismatch(path, original, actual)]
    return merged


def _merge_descriptions(position: int, found: list[list[Mismatch]]) -> list[Mismatch]:
    if not found:  # an empty Variant: Puppet finds nothing to say
        return []
    flat = [m for d in found for m in d]
    for kinds in (("size",), ("type", "pattern")):
        same = [m for m in flat if m.kind in kinds]
        if len(same) != len(found):
            continue
        merged: Mismatch | None = same[0]
        for other in same[1:]:
            assert merged is not None
            if merged.canonical_path != other.canonical_path:
                merged = None
                break
            merged = _merge_pair(merged, other)
        if merged is not None:
            flat = [merged]
            break
    if len(flat) == 1:
        only = flat[0]
        if position < len(only.path):
            only = replace(only, path=only.path[:position] + only.path[position + 1 :])
        return [only]
    return flat


def _merge_pair(a: Mismatch, b: Mismatch) -> Mismatch:
    assert a.expected is not None and b.expected is not None and a.actual is not None
    if a.kind == "size":
        ea, eb = a.expected, b.expected
        assert isinstance(ea, IntegerType) and isinstance(eb, IntegerType)
        low = min(ea.low or 0, eb.low or 0)
        high = None if ea.high is None or eb.high is None else max(ea.high, eb.high)
        return _size_mismatch(a.path, IntegerType(low, high), a.actual)  # type: ignore[arg-type]
    alternatives: list[PType] = []
    for e in (a.expected, b.expected):
        for t in e.types if isinstance(e, VariantType) else (e,):
            if t not in alternatives:
                alternatives.append(t)
    return _type_mismatch(a.path, alternatives, a.actual, a.kind)


def _size_of(a: TupleType | StructType) -> IntegerType:
    n = len(a.types) if isinstance(a, TupleType) else len(a.elements)
    return IntegerType(n, n)


def _size_fits(expected: IntegerType | None, actual: IntegerType | None) -> bool:
    return expected is None or assignable(expected, actual or IntegerType(0, None))


def _describe_array(
    expected: ArrayType, original: PType, actual: PType, path: Path
) -> list[Mismatch]:
    if isinstance(actual, TupleType):
        size = actual.size or _size_of(actual)
        wanted = expected.size or IntegerType(0, None)
        if not _size_fits(wanted, size):
            return [_size_mismatch(path, wanted, size)]
        out: list[Mismatch] = []
        for i, t in enumerate(actual.types):
            if not assignable(expected.element, t):
                out.extend(_describe(expected.element, t, (*path, _index(i))))
        return out
    if isinstance(actual, ArrayType):
        if _size_fits(expected.size, actual.size):
            return [_type_mismatch(path, original, ArrayType(actual.element))]
        assert expected.size is not None
        return [_size_mismatch(path, expected.size, actual.size or IntegerType(0, None))]
    return [_type_mismatch(path, original, actual)]


def _tuple_size(t: TupleType) -> IntegerType:
    if t.size is not None:
        return t.size
    return IntegerType(len(t.types), len(t.types))


def _describe_tuple(
    expected: TupleType, original: PType, actual: PType, path: Path
) -> list[Mismatch]:
    if expected == actual or (not expected.types and isinstance(actual, ArrayType)):
        return []
    wanted = _tuple_size(expected)
    if isinstance(actual, TupleType):
        size = _tuple_size(actual)
        if not _size_fits(wanted, size):
            return [_size_mismatch(path, wanted, size)]
        out: list[Mismatch] = []
        if expected.types:
            last = len(expected.types) - 1
            for i, t in enumerate(actual.types):
                at = min(i, last)
                # every element is described, matched or not, as Puppet does (a matching
                # string still yields a Pattern mismatch there)
                out.extend(_describe(expected.types[at], t, (*path, _index(at))))
        return out
    if isinstance(actual, ArrayType):
        size = actual.size or IntegerType(0, None)
        if not _size_fits(wanted, size):
            return [_size_mismatch(path, wanted, size)]
        found: list[Mismatch] = []
        for i, et in enumerate(expected.types):
            found.extend(_describe(et, actual.element, (*path, _index(i))))
        return found
    return [_type_mismatch(path, original, actual)]


def _describe_hash(
    expected: HashType, original: PType, actual: PType, path: Path
) -> list[Mismatch]:
    if isinstance(actual, StructType):
        size = _size_of(actual)
        wanted = expected.size or IntegerType(0, None)
        if not _size_fits(wanted, size):
            return [_size_mismatch(path, wanted, size)]
        out: list[Mismatch] = []
        for el in actual.elements:
            key_type = StringType(None, el.name)
            if not assignable(expected.key, key_type):
                out.extend(_describe(expected.key, key_type, (*path, _entry_key(el.name))))
            if not assignable(expected.value, el.value):
                out.extend(_describe(expected.value, el.value, (*path, _entry(el.name))))
        return out
    if isinstance(actual, HashType):
        if _size_fits(expected.size, actual.size):
            return [_type_mismatch(path, original, HashType(actual.key, actual.value))]
        assert expected.size is not None
        return [_size_mismatch(path, expected.size, actual.size or IntegerType(0, None))]
    return [_type_mismatch(path, original, actual)]


def _describe_struct(
    expected: StructType, original: PType, actual: PType, path: Path
) -> list[Mismatch]:
    if isinstance(actual, StructType):
        given = {el.name: el for el in actual.elements}
        out: list[Mismatch] = []
        for el in expected.elements:
            other = given.pop(el.name, None)
            if other is None:
                if not el.optional:
                    out.append(Mismatch("missing-key", path, key=el.name))
            elif not assignable(el.value, other.value):
                out.extend(_describe(el.value, other.value, (*path, _entry(el.name))))
        out.extend(Mismatch("unknown-key", path, key=name) for name in given)
        return out
    if isinstance(actual, HashType):
        required = sum(1 for el in expected.elements if not el.optional)
        wanted = IntegerType(required, len(expected.elements))
        if _size_fits(wanted, actual.size):
            return [_type_mismatch(path, original, HashType(actual.key, actual.value))]
        return [_size_mismatch(path, wanted, actual.size or IntegerType(0, None))]
    return [_type_mismatch(path, original, actual)]
