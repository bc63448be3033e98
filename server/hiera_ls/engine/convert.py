"""The ``convert_to`` lookup option: the conversions hiera-ls can do without Puppet's type system.

Puppet calls ``new(Type, value, *args)``.  The common cases in real data (``Array`` to
wrap a single value, ``Sensitive`` for secrets, numeric and boolean strings) are done
here; any other type is reported as not evaluated, and the value is left as found, so a
preview never shows a made-up value silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hiera_ls.engine.errors import LookupError_
from hiera_ls.engine.ruby import inspect


@dataclass(frozen=True, slots=True)
class Sensitive:
    """Puppet's Sensitive wrapper: shown redacted, kept for hover on request."""

    value: object


@dataclass(frozen=True, slots=True)
class Converted:
    value: object
    explain: str  # the --explain line
    note: str | None = None  # set when hiera-ls could not do the conversion


_TYPE_NAME = re.compile(r"^[A-Z]\w*(::[A-Z]\w*)*(\[.*\])?$")
_INT = re.compile(r"^\s*[+-]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)\s*$")
_FLOAT = re.compile(r"^\s*[+-]?([0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?)\s*$")


def convert_to(key: str, spec: object, value: object) -> Converted:
    args = list(spec) if isinstance(spec, list) else [spec]
    if not args or not isinstance(args[0], str) or not _TYPE_NAME.match(args[0]):
        source = args[0] if args else ""
        raise LookupError_(
            f"Invalid data type in lookup_options for key '{key}' could not parse '{source}', "
            "error: 'not a type expression"
        )
    type_name, rest = args[0], args[1:]
    explain = f"Applying convert_to lookup_option with arguments [{', '.join([type_name, *map(inspect, rest)])}]"
    try:
        converted = _convert(type_name, value, rest)
    except _Unsupported:
        return Converted(
            value,
            explain,
            f"convert_to {type_name} for key '{key}' is not evaluated by hiera-ls; the value is shown unconverted",
        )
    except ValueError as e:
        raise LookupError_(f"The convert_to lookup_option for key '{key}' raised error: {e}") from e
    return Converted(converted, explain)


class _Unsupported(Exception):
    pass


def _convert(type_name: str, value: object, rest: list[object]) -> object:
    if type_name == "Sensitive":
        return Sensitive(value)
    if type_name == "Array":
        wrap = bool(rest and rest[0] is True)
        if isinstance(value, list):
            return value
        if wrap:
            return [value]
        if isinstance(value, str):
            return list(value)
        if isinstance(value, dict):
            return [[k, v] for k, v in value.items()]
        raise _Unsupported
    if type_name == "Integer" and not rest:
        if isinstance(value, bool):
            return 1 if value else 0
        if isinstance(value, int):
            return value
        if isinstance(value, float):
            return int(value)
        if isinstance(value, str) and _INT.match(value):
            return int(value.strip(), 0) if not re.match(r"^\s*[+-]?0[0-7]+\s*$", value) else int(value.strip(), 8)
        if isinstance(value, str):
            raise ValueError(f"'new' The string '{value}' cannot be converted to Integer")
        raise _Unsupported
    if type_name == "Float" and not rest:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        if isinstance(value, str) and _FLOAT.match(value):
            return float(value)
        raise _Unsupported
    if type_name == "Boolean" and not rest:
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            low = value.lower()
            if low in ("true", "yes", "y"):
                return True
            if low in ("false", "no", "n"):
                return False
            raise ValueError(f"'new' The string '{value}' cannot be converted to Boolean")
        raise _Unsupported
    if type_name == "String" and not rest and isinstance(value, str):
        return value
    raise _Unsupported
