"""Ruby's value semantics for the plain Python values the engine works with.

Loaded data is plain Python (dict, list, str, int, float, bool, None, plus RubySymbol), but
Puppet computes on Ruby objects, and the two languages disagree where it shows:
``True == 1 == 1.0`` and ``hash(True) == hash(1)`` in Python, while Ruby's ``eql?`` (used by
``uniq``, ``|`` and Hash keys) tells Integer, Float and true apart and its ``==`` (used by
``Array#delete``) only equates Integer with Float.  Text must also come out as Ruby prints it,
because it ends up in interpolated strings, explain output and error messages.

Checked against Ruby 3.1 and Puppet 7.23 by ``tests/differential/test_merge_vs_puppet.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence

from hiera_ls.puppet.ruby_text import inspect, ruby_class
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
