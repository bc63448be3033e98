"""``json.dumps(value, indent=2, ensure_ascii=False)``, the same text, several times faster.

Python's encoder writes indented JSON with its pure-Python generators (its C encoder has no
indentation), one ``yield`` per token: for a ``diff`` report of thousands of profiles that
was seconds.  Here each container is one ``join`` and each string goes through the C string
encoder.  Only the plain types the report holds are written here (str, int, float, bool,
None, dict, list, tuple, keys of str, int, float, bool or None, exactly those classes):
anything else is handed to :func:`json.dumps` whole, so the text is always its text.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from json.encoder import encode_basestring
from typing import Any

INDENT = "  "
_INF = float("inf")
_SCALARS = (str, int, bool, type(None))


def dumps_indented(value: object) -> str:
    """The same text as ``json.dumps(value, indent=2, ensure_ascii=False)``."""
    try:
        return _value(value, "\n")
    except (_Unusual, RecursionError):  # json.dumps says what it says of a cycle
        return json.dumps(value, indent=2, ensure_ascii=False)


class _Unusual(Exception):
    """A value this writer leaves to :func:`json.dumps` (a class of its own, a cycle...)."""


def _value(value: Any, newline: str) -> str:
    """``value`` written at the indentation that ``newline`` (a line break and the
    indentation of the line the value starts on) gives; the commonest classes first (a
    report's values are mostly strings)."""
    cls = value.__class__
    if cls is str:
        return encode_basestring(value)
    if cls is int:
        return int.__repr__(value)
    if cls is dict:
        return _dict(value, newline)
    if cls is list or cls is tuple:
        return _list(value, newline)
    return _scalar(value)


def _scalar(value: Any) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    cls = value.__class__
    if cls is int:
        return int.__repr__(value)
    if cls is float:
        return _float(value)
    raise _Unusual


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == _INF:
        return "Infinity"
    if value == -_INF:
        return "-Infinity"
    return float.__repr__(value)


def _list(items: list[Any] | tuple[Any, ...], newline: str) -> str:
    if not items:
        return "[]"
    inner = newline + INDENT
    if all(item.__class__ is str for item in items):  # a list of names: one pass in C
        parts: Iterable[str] = map(encode_basestring, items)
    else:
        parts = [_value(item, inner) for item in items]
    return "[" + inner + ("," + inner).join(parts) + newline + "]"


def _dict(entries: dict[Any, Any], newline: str) -> str:
    if not entries:
        return "{}"
    inner = newline + INDENT
    parts = [
        (encode_basestring(key) if key.__class__ is str else _key(key)) + ": " + _value(item, inner)
        for key, item in entries.items()
    ]
    return "{" + inner + ("," + inner).join(parts) + newline + "}"


def _key(key: Any) -> str:
    if key.__class__ is str:
        return encode_basestring(key)
    if key.__class__ in _SCALARS or key.__class__ is float:
        return encode_basestring(_scalar(key))
    raise _Unusual
