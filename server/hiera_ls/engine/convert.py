"""The ``convert_to`` lookup option: the conversions hiera-ls can do without Puppet's type system.

Puppet calls ``new(Type, value, *args)``.  The common cases in real data (``Array`` to
wrap a single value, ``Sensitive`` for secrets, numeric and boolean strings) are done
here; any other type is reported as not evaluated, and the value is left as found, so a
preview never shows a made-up value silently.  A name that is no type at all (no Puppet
type, no alias file) fails the lookup, as it does in Puppet.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from hiera_ls.puppet.errors import LookupFailure
from hiera_ls.puppet.message import Text, as_type, as_value
from hiera_ls.puppet.ruby_text import inspect, puppet_string, to_s
from hiera_ls.puppet.type_format import format_type
from hiera_ls.puppet.type_infer import infer
from hiera_ls.puppet.type_parser import TypeExpressionError, parse_type
from hiera_ls.puppet.types import TypeReferenceType, generalize
from hiera_ls.puppet.values import Sensitive


class NotConverted(str):
    """The note of a conversion hiera-ls did not do (the value is the one found): a check of
    the value against a type would judge what Puppet never binds."""

    __slots__ = ()


@dataclass(frozen=True, slots=True)
class Converted:
    """A value after ``convert_to``, with the line ``--explain`` prints for the conversion."""

    value: object
    explain: str  # the --explain line
    note: NotConverted | None = None  # set when hiera-ls could not do the conversion


_TYPE_NAME = re.compile(r"^[A-Z]\w*(::[A-Z]\w*)*(\[.*\])?$")
_INT = re.compile(r"^\s*[+-]?(0[xX][0-9a-fA-F]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)\s*$")
_FLOAT = re.compile(r"^\s*[+-]?([0-9]+(\.[0-9]+)?([eE][+-]?[0-9]+)?)\s*$")


def convert_to(
    key: str, spec: object, value: object, alias_may_exist: Callable[[str], bool] = bool
) -> Converted:
    """``alias_may_exist(name)`` says whether a type alias of that name may be defined (its
    file exists): a name that is neither Puppet's nor an alias makes Puppet fail the lookup."""
    args = list(spec) if isinstance(spec, list) else [spec]
    if not args or not isinstance(args[0], str) or not _TYPE_NAME.match(args[0]):
        source = args[0] if args else ""
        raise LookupFailure(
            f"Invalid data type in lookup_options for key '{key}' could not parse '{source}', "
            "error: 'not a type expression"
        )
    type_name, rest = args[0], args[1:]
    explain = (
        "Applying convert_to lookup_option with arguments "
        f"[{', '.join([type_name, *map(inspect, rest)])}]"
    )
    try:
        converted = _convert(type_name, value, rest)
    except _Unsupported:
        if _unresolved_reference(type_name, alias_may_exist):
            raise LookupFailure(
                f"The convert_to lookup_option for key '{key}' raised error: Creation of new "
                f"instance of type 'TypeReference['{type_name}']' is not supported"
            ) from None
        return Converted(
            value,
            explain,
            NotConverted(
                f"convert_to {type_name} for key '{key}' is not evaluated by hiera-ls; the value "
                "is shown unconverted"
            ),
        )
    except ValueError as e:
        said = e.text if isinstance(e, _Refused) else Text.of(as_value(str(e)))
        raise LookupFailure(
            Text.of(f"The convert_to lookup_option for key '{key}' raised error: ", said)
        ) from e
    return Converted(converted, explain)


class _Unsupported(Exception):
    pass


def _unresolved_reference(type_name: str, alias_may_exist: Callable[[str], bool]) -> bool:
    """A name Puppet resolves to nothing: not one of its types, and no alias file for it."""
    try:
        parsed = parse_type(type_name)
    except TypeExpressionError:
        return False
    if not isinstance(parsed, TypeReferenceType):
        return False
    return not alias_may_exist(type_name.split("[", 1)[0].strip())


def type_of(value: object) -> str:
    """Puppet's generalized inferred type, as ``new`` error messages print it."""
    return format_type(generalize(infer(value)))


class _Refused(ValueError):
    """What ``new`` raises for a value it cannot convert, in Puppet's words (as parts)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.plain)
        self.text = text


def _cannot(fn: str, value: object, target: str) -> _Refused:
    kind = as_type(type_of(value))
    return _Refused(Text.of(f"'{fn}' Value of type ", kind, f" cannot be converted to {target}"))


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
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return list(range(value))  # Puppet's Integer is Iterable
        if value is None or isinstance(value, (bool, float, int)):
            raise _cannot("new_array", value, "Array")
        raise _Unsupported
    if rest:
        raise _Unsupported
    if type_name == "Boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, (int, float)):
            return value != 0
        if isinstance(value, str):
            low = value.lower()
            if low in ("true", "yes", "y"):
                return True
            if low in ("false", "no", "n"):
                return False
            raise _Refused(
                Text.of(
                    "'new_boolean' The string '",
                    as_value(value),
                    "' cannot be converted to Boolean",
                )
            )
        raise _cannot("new_boolean", value, "Boolean")
    if type_name in ("Integer", "Float", "Numeric"):
        if isinstance(value, dict):
            keys = "\n".join(
                f"  {type_name}.new has wrong type, unrecognized key '{k}'"
                for k in value
                if k != "from"
            )
            raise _Refused(
                Text.of(
                    f" {type_name}.new has wrong type, expects a value for key 'from'"
                    + ("\n" + keys if keys else "")
                )
            )
        if isinstance(value, bool):
            return (1 if value else 0) if type_name != "Float" else (1.0 if value else 0.0)
        if isinstance(value, (int, float)):
            if type_name == "Integer":
                if value != value or value in (float("inf"), float("-inf")):
                    raise _Refused(Text.of(as_value(to_s(value))))  # Ruby's FloatDomainError
                return int(value)
            return float(value) if type_name == "Float" else value
        if isinstance(value, str):
            number = _parse_number(value, integer=type_name == "Integer")
            if number is None:
                fn = {"Integer": "new", "Float": "new_float", "Numeric": "new_numeric"}[type_name]
                raise _Refused(
                    Text.of(
                        f"'{fn}' The string '",
                        as_value(value),
                        f"' cannot be converted to {type_name}",
                    )
                )
            return number if type_name != "Float" else float(number)
        raise _cannot("new", value, type_name)
    if type_name == "String":
        if isinstance(value, str):
            return value
        return puppet_string(value)
    raise _Unsupported


def _parse_number(text: str, integer: bool) -> int | float | None:
    t = text.strip()
    m = _INT.match(t)
    if m:
        body = t.lstrip("+-")
        sign = -1 if t.startswith("-") else 1
        if body[:2] in ("0x", "0X"):
            return sign * int(body[2:], 16)
        if body[:2] in ("0b", "0B"):
            return sign * int(body[2:], 2)
        if len(body) > 1 and body.startswith("0"):
            return sign * int(body, 8)
        return sign * int(body)
    if not integer and _FLOAT.match(t):
        return float(t)
    return None
