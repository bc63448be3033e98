"""Puppet's ``Integer.new``, ``Float.new`` and ``Numeric.new``, as ``convert_to`` calls them.

Each function first dispatches on its ``Convertible`` type (numbers, booleans, and strings
matching one of Puppet's patterns), then on a hash of named arguments (``from``, ``radix``,
``abs``), and otherwise fails with its own words.  A string that passes the pattern is then
converted by Ruby's ``Integer()`` or ``Float()`` (``Numeric.new`` by Puppet's ``to_n``),
which refuse some of what the pattern lets through (``'019'``: octal, ``'- 3'``: a space
after the sign, which Puppet retries without).  The rules are Puppet 7.23's and 8.10's
(``lib/puppet/pops/types/types.rb``, ``utils.rb``, ``patterns.rb``: the same in both);
Ruby's own words are Ruby 3.1's, as everywhere in hiera-ls (docs/differences.md).
"""

from __future__ import annotations

import functools
import re

from hiera_ls.puppet.message import Text, as_type, as_value
from hiera_ls.puppet.ruby_text import inspect, to_s
from hiera_ls.puppet.type_format import format_type
from hiera_ls.puppet.type_infer import infer, instance_of
from hiera_ls.puppet.type_parser import parse_type
from hiera_ls.puppet.types import PType, generalize

# Puppet's pattern sources, as its messages print them
_INTEGER_LENIENT = r"\A[+-]?\s*(?:(?:\d+)|(?:0[xX][0-9A-Fa-f]+)|(?:0[bB][01]+))\z"
_FLOAT = (
    r"\A[+-]?\s*(?:(?:(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE]-?\d+)?)|(?:0[xX][0-9A-Fa-f]+)"
    r"|(?:0[0-7]+)|(?:0[bB][01]+))\z"
)
# the same in Python: Ruby's \d and \s are ASCII, its \z the very end
_SPACE = " \t\n\v\f\r"  # Ruby's \s, and what Integer() and Float() skip around a number
_INTEGER_STRING = re.compile(r"[+-]?[ \t\n\v\f\r]*(?:[0-9]+|0[xX][0-9A-Fa-f]+|0[bB][01]+)")
_FLOAT_STRING = re.compile(
    r"[+-]?[ \t\n\v\f\r]*(?:(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE]-?[0-9]+)?"
    r"|0[xX][0-9A-Fa-f]+|0[0-7]+|0[bB][01]+)"
)
_WS_AFTER_SIGN = re.compile(r"([+-])[ \t]+(.*)")  # Patterns::WS_BETWEEN_SIGN_AND_NUMBER
_NUMERIC = re.compile(  # Patterns::NUMERIC, which Puppet's to_n reads
    r"[ \t]*([-+]?)[ \t]*((0[xX][0-9A-Fa-f]+)|(0?[0-9]+)((?:\.[0-9]+)?(?:[eE]-?[0-9]+)?))[ \t]*"
)
_ZERO_POWER = re.compile(r"\.?0*[eE].*")
_RUBY_FLOAT = re.compile(
    r"[+-]?(?:0[xX][0-9A-Fa-f]+|[0-9]+(?:_[0-9]+)*(?:\.[0-9]+(?:_[0-9]+)*)?(?:[eE][+-]?[0-9]+)?)"
)
_DIGITS = {2: "01", 8: "01234567", 10: "0123456789", 16: "0123456789abcdefABCDEF"}
_PREFIX = {"0x": 16, "0b": 2, "0o": 8, "0d": 10}

# Ruby 3.1's NoMethodError texts (error_highlight's snippet of Puppet's line included) where
# Puppet's own code fails: Float.new('0') reads a second character that is not there, and
# Numeric.new's abs of a string to_n makes nothing of
_FLOAT_OF_ZERO = (
    "undefined method `casecmp' for nil:NilClass\n\n"
    "            if from[0] == '0' && from[1].casecmp('b').zero?\n"
    "                                        ^^^^^^^^"
)
_ABS_OF_NOTHING = (
    "undefined method `abs' for nil:NilClass\n\n"
    "        abs ? result.abs : result\n"
    "                    ^^^^"
)


class Refused(ValueError):
    """What ``new`` raises for a value it cannot convert, in Puppet's words (as parts)."""

    def __init__(self, text: Text) -> None:
        super().__init__(text.plain)
        self.text = text


def type_of(value: object) -> str:
    """Puppet's generalized inferred type, as ``new`` error messages print it."""
    return format_type(generalize(infer(value)))


def cannot(fn: str, value: object, target: str) -> Refused:
    """``on_error``'s words for a value that is not a string."""
    kind = as_type(type_of(value))
    return Refused(Text.of(f"'{fn}' Value of type ", kind, f" cannot be converted to {target}"))


_FUNCTION = {"Integer": "new", "Float": "new_float", "Numeric": "new_numeric"}


def number_new(type_name: str, value: object) -> int | float:
    """``new(type_name, value)`` for Integer, Float and Numeric; raises :class:`Refused`."""
    if isinstance(value, dict):
        return _from_hash(type_name, value)
    if _convertible(type_name, value):
        return _from_args(type_name, value, None, False)
    raise _on_error(type_name, value)


def _convertible(type_name: str, value: object) -> bool:
    if isinstance(value, (bool, int, float)):
        return True
    if not isinstance(value, str):
        return False
    pattern = _INTEGER_STRING if type_name == "Integer" else _FLOAT_STRING
    return pattern.fullmatch(value) is not None


def _on_error(type_name: str, value: object) -> Refused:
    fn = _FUNCTION[type_name]
    if isinstance(value, str):
        said = f"' cannot be converted to {type_name}"
        return Refused(Text.of(f"'{fn}' The string '", as_value(value), said))
    return cannot(fn, value, type_name)


@functools.cache
def _named_args(type_name: str) -> PType:
    """The function's ``NamedArgs`` type, its local aliases printed as Puppet prints them."""
    pattern = _INTEGER_LENIENT if type_name == "Integer" else _FLOAT
    numbers = "Integer, Float" if type_name == "Numeric" else "Numeric"
    aliases = {
        "Radix": "Variant[Default, Integer[2,2], Integer[8,8], Integer[10,10], Integer[16,16]]",
        "Convertible": f"Variant[{numbers}, Boolean, Pattern[/{pattern}/], Timespan, Timestamp]",
        "NamedArgs": (
            "Struct[{from => Convertible, Optional[radix] => Radix, Optional[abs] => Boolean}]"
            if type_name == "Integer"
            else "Struct[{from => Convertible, Optional[abs] => Boolean}]"
        ),
    }
    return parse_type("NamedArgs", aliases.get)


def _from_hash(type_name: str, args: dict[object, object]) -> int | float:
    if instance_of(_named_args(type_name), args):
        radix = args.get("radix")  # (NamedArgs: 2, 8, 10, 16 or none)
        base = radix if isinstance(radix, int) else None
        return _from_args(type_name, args["from"], base, bool(args.get("abs")))
    if type_name != "Integer":  # Float's and Numeric's on_error: the hash is the value
        raise cannot(_FUNCTION[type_name], args, type_name)
    # Integer's on_error_hash: the value first, then the radix, then the whole hash
    if "from" in args and not _convertible(type_name, args["from"]):
        raise _on_error(type_name, args["from"])
    radix = args.get("radix")
    if radix is not None and not (isinstance(radix, (int, float)) and radix in (2, 8, 10, 16)):
        raise Refused(
            Text.of("Illegal radix: ", as_value(to_s(radix)), ", expected 2, 8, 10, 16, or default")
        )
    from hiera_ls.puppet.type_mismatch import describe_mismatch, render_text

    subject = "Integer.new has wrong type,"
    raise Refused(render_text(describe_mismatch(subject, _named_args(type_name), args)))


def _from_args(type_name: str, value: object, radix: int | None, absolute: bool) -> int | float:
    """``from_args``: the value converted, then made absolute where asked."""
    if isinstance(value, str):
        found = _from_string(type_name, value, radix)
        if found is None:  # Numeric: to_n made nothing of it
            if absolute:
                raise Refused(Text.of(_ABS_OF_NOTHING))
            raise Refused(
                Text.of(
                    f"Converted value from {type_name}.new() has wrong type, expects a "
                    f"{type_name} value, got Undef"
                )
            )
    elif isinstance(value, bool):
        found = (1.0 if value else 0.0) if type_name == "Float" else int(value)
    elif isinstance(value, float) and type_name == "Integer":
        if value != value or value in (float("inf"), float("-inf")):
            raise Refused(Text.of(as_value(to_s(value))))  # Ruby's FloatDomainError
        found = int(value)
    elif isinstance(value, (int, float)):
        found = _float(value) if type_name == "Float" else value
    else:
        raise _on_error(type_name, value)
    return abs(found) if absolute else found


def _float(value: int | float) -> float:
    """Ruby's Float() of a number: an Integer too big for a float is Infinity."""
    try:
        return float(value)
    except OverflowError:
        return float("inf") if value > 0 else float("-inf")


def _from_string(type_name: str, text: str, radix: int | None) -> int | float | None:
    """``from_convertible`` of a string: Ruby's conversion, retried once without the blanks
    after a sign where it fails (Integer and Float); None where Numeric's to_n finds no
    number."""
    if type_name == "Numeric":
        if text[:1] == "0" and text[1:2].lower() in ("b", "x"):
            return _integer_or_refuse(text, None)
        return _to_n(text)
    if type_name == "Float" and text[:1] == "0":
        if not text[1:]:
            raise Refused(Text.of(_FLOAT_OF_ZERO))
        if text[1].lower() == "b":
            return float(_integer_or_refuse(text, None))
    found = ruby_float(text) if type_name == "Float" else ruby_integer(text, radix or 0)
    if found is not None:
        return found
    match = _WS_AFTER_SIGN.fullmatch(text)
    if match is not None:
        retried = match.group(1) + match.group(2)
        again = ruby_float(retried) if type_name == "Float" else ruby_integer(retried, radix or 0)
        if again is not None:
            return again
    kind = "Float" if type_name == "Float" else "Integer"
    raise Refused(Text.of(f"invalid value for {kind}(): ", as_value(inspect(text))))


def _integer_or_refuse(text: str, radix: int | None) -> int:
    found = ruby_integer(text, radix or 0)
    if found is None:
        raise Refused(Text.of("invalid value for Integer(): ", as_value(inspect(text))))
    return found


def _to_n(text: str) -> int | float | None:
    """Puppet's ``Utils.to_n``: the number a string holds, or None."""
    match = _NUMERIC.fullmatch(text[2:] if text.startswith("::") else text)
    if match is None:
        return None
    sign, number, _, whole, fraction = match.groups()
    if fraction:
        leading = ruby_integer(whole)
        if leading is None or (leading == 0 and _ZERO_POWER.fullmatch(fraction)):
            return None
        found = ruby_float(number)
        if found is None or found == float("inf"):
            return None
        return -found if sign == "-" else found
    value = ruby_integer(number)
    if value is None:
        return None
    return -value if sign == "-" else value


def ruby_integer(text: str, base: int = 0) -> int | None:
    """Ruby's ``Integer(text)`` (``base`` 0) or ``Integer(text, base)``; None where it raises
    ArgumentError: no space after the sign, a leading 0 making octal, underscores only
    between digits."""
    s = text.strip(_SPACE)
    sign = -1 if s[:1] == "-" else 1
    if s[:1] in ("+", "-"):
        s = s[1:]
    prefix = _PREFIX.get(s[:2].lower())
    if base == 0:
        if prefix is not None:
            base, s = prefix, s[2:]
        else:
            base = 8 if len(s) > 1 and s[0] == "0" else 10
    elif prefix == base:
        s = s[2:]
    if not s or s[0] == "_" or s[-1] == "_" or "__" in s:
        return None
    digits = s.replace("_", "")
    if any(c not in _DIGITS[base] for c in digits):
        return None
    return sign * int(digits, base)


def ruby_float(text: str) -> float | None:
    """Ruby's ``Float(text)`` for the strings Puppet hands it (decimal, or hexadecimal
    integers); None where it raises ArgumentError."""
    s = text.strip(_SPACE)
    if _RUBY_FLOAT.fullmatch(s) is None:
        return None
    body = s.lstrip("+-")
    found = float(int(body[2:], 16)) if body[:2].lower() == "0x" else float(body.replace("_", ""))
    return -found if s[:1] == "-" else found
