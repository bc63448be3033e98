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

from hiera_ls.engine.number_new import Refused, cannot, number_new
from hiera_ls.puppet.errors import LookupFailure
from hiera_ls.puppet.message import Text, as_value
from hiera_ls.puppet.ruby_text import inspect, puppet_string
from hiera_ls.puppet.type_parser import TypeExpressionError, parse_type
from hiera_ls.puppet.types import TypeReferenceType
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
        said = e.text if isinstance(e, Refused) else Text.of(as_value(str(e)))
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
            raise cannot("new_array", value, "Array")
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
            raise Refused(
                Text.of(
                    "'new_boolean' The string '",
                    as_value(value),
                    "' cannot be converted to Boolean",
                )
            )
        raise cannot("new_boolean", value, "Boolean")
    if type_name in ("Integer", "Float", "Numeric"):
        return number_new(type_name, value)
    if type_name == "String":
        if isinstance(value, str):
            return value
        return puppet_string(value)
    raise _Unsupported
