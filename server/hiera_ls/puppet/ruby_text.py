"""The text Ruby and Puppet print for a value: one implementation of each rendering.

Values end up as text in interpolated strings (Ruby's ``to_s``), in explain output and
error messages (Ruby's ``inspect``, ``Float#to_s``), and in Puppet's own messages and
``String.new`` (Puppet's quoting).  Each differs from Python's ``str``/``repr`` in ways a
user sees (``1.0e+15``, ``{"a"=>nil}``, ``'it\\'s'``), so they live here once, checked
against Ruby 3.1 / Puppet 7.23 by ``tests/differential/test_types_vs_puppet.py``.
"""

from __future__ import annotations

import math
import unicodedata

from hiera_ls.puppet.value_size import check_text_size
from hiera_ls.puppet.values import RubySymbol

# ---------------------------------------------------------------------------- class names


def ruby_class(value: object) -> str:
    """The Ruby class name of a loaded value (``NilClass``, ``TrueClass``, ``Hash`` ...)."""
    if value is None:
        return "NilClass"
    if value is True:
        return "TrueClass"
    if value is False:
        return "FalseClass"
    if isinstance(value, int):
        return "Integer"
    if isinstance(value, float):
        return "Float"
    if isinstance(value, str):
        return "String"
    if isinstance(value, RubySymbol):
        return "Symbol"
    if isinstance(value, list):
        return "Array"
    if isinstance(value, dict):
        return "Hash"
    return str(getattr(value, "class_name", type(value).__name__))


# ---------------------------------------------------------------------------- numbers


def _shortest_digits(value: float) -> tuple[str, int]:
    """The shortest round-trip digits of a positive finite float and its decimal exponent
    (the position of the decimal point relative to the first digit, as dtoa's ``decpt``)."""
    text = repr(value)
    mantissa, _, exp_text = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    all_digits = whole + frac
    lead = len(all_digits) - len(all_digits.lstrip("0"))
    digits = all_digits.strip("0") or "0"
    return digits, len(whole) + int(exp_text or "0") - lead


def float_to_s(value: float) -> str:
    """Ruby's ``Float#to_s`` (also ``inspect``): shortest round-trip digits.

    Ruby writes fixed notation when the decimal point falls inside the digits (up to 16
    integer digits: ``1234567890123456.8``), or after them with at most 15 integer digits
    (``100000000000000.0``), or up to three zeros after the point (``0.0001``); otherwise
    exponent form: ``1.0e+15``, ``9.999999999999998e+15``, ``1.0e-05``.
    """
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    sign = "-" if math.copysign(1.0, value) < 0 else ""
    if value == 0:
        return sign + "0.0"
    digits, decpt = _shortest_digits(abs(value))
    if 0 < decpt < len(digits):
        return f"{sign}{digits[:decpt]}.{digits[decpt:]}"
    if 0 < decpt <= 15:
        return f"{sign}{digits}{'0' * (decpt - len(digits))}.0"
    if -4 < decpt <= 0:
        return f"{sign}0.{'0' * -decpt}{digits}"
    exp = decpt - 1
    return f"{sign}{digits[0]}.{digits[1:] or '0'}e{'+' if exp >= 0 else '-'}{abs(exp):02d}"


def number_text(value: int | float) -> str:
    return float_to_s(value) if isinstance(value, float) else str(value)


# ---------------------------------------------------------------------------- Ruby inspect / to_s


def to_s(value: object) -> str:
    """Ruby's ``to_s`` (what Hiera interpolation and ``"%{x}" %`` formatting produce)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, RubySymbol):
        return value.name
    if isinstance(value, list | dict | bool | int | float):
        check_text_size(value)
        return inspect(value)
    return str(value)


_SPECIAL_ESCAPES = {
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\f": "\\f",
    "\v": "\\v",
    "\b": "\\b",
    "\a": "\\a",
    "\x1b": "\\e",
}
_NON_PRINTING_CATEGORIES = frozenset({"Cn", "Cs", "Cc", "Zl", "Zp"})


def _printable(ch: str) -> bool:
    """Onigmo's [[:print:]] for UTF-8: all but unassigned, surrogates, controls and Zl/Zp.

    Onigmo counts U+0085 as printable.  Python's Unicode tables may be newer than Ruby's, so
    characters assigned after Ruby's Unicode version print literally here and escaped there.
    """
    if " " <= ch <= "~":
        return True
    if ch == "\x85":
        return True
    return unicodedata.category(ch) not in _NON_PRINTING_CATEGORIES


def inspect_string(text: str, binary: bool = False) -> str:
    """String#inspect for a UTF-8 string (default external encoding UTF-8, as Puppet runs).

    ``binary``: the string is a byte string (Kernel#Float quotes its argument that way), so
    every non-ASCII byte shows as a hex escape.
    """
    out = ['"']
    n = len(text)
    for i, ch in enumerate(text):
        if binary and ch > "\x7f":
            out.extend(f"\\x{b:02X}" for b in ch.encode("utf-8", "surrogateescape"))
        elif ch in '"\\':
            out.append("\\" + ch)
        elif ch == "#" and i + 1 < n and text[i + 1] in "{$@":
            out.append("\\#")
        elif ch in _SPECIAL_ESCAPES:
            out.append(_SPECIAL_ESCAPES[ch])
        elif _printable(ch):
            out.append(ch)
        else:
            cp = ord(ch)
            out.append(f"\\u{cp:04X}" if cp < 0x10000 else f"\\u{{{cp:X}}}")
    out.append('"')
    return "".join(out)


_OPERATOR_SYMBOLS = frozenset(
    [
        "+",
        "-",
        "*",
        "/",
        "%",
        "**",
        "==",
        "===",
        "!=",
        "<=>",
        "<",
        "<=",
        ">",
        ">=",
        "<<",
        ">>",
        "!",
        "~",
        "+@",
        "-@",
        "[]",
        "[]=",
        "=~",
        "!~",
        "&",
        "|",
        "^",
        "`",
    ]
)


def _symbol_is_plain(name: str) -> bool:
    if name in _OPERATOR_SYMBOLS:
        return True
    body = name
    if body.startswith("@@"):
        body = body[2:]
    elif body[:1] in ("@", "$"):
        body = body[1:]
    elif body[-1:] in ("?", "!", "="):
        body = body[:-1]
    if not body or body[0].isdigit():
        return False
    return all(c == "_" or c.isalnum() or ord(c) > 0x7F for c in body)


def inspect(value: object) -> str:
    """Ruby's ``inspect`` as Ruby 3.1 prints it (hashes as ``{"k"=>v}``)."""
    return _inspect(value, set())


def _inspect(value: object, active: set[int]) -> str:
    if value is None:
        return "nil"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return float_to_s(value)
    if isinstance(value, str):
        return inspect_string(value)
    if isinstance(value, RubySymbol):
        name = value.name
        return ":" + (name if _symbol_is_plain(name) else inspect_string(name))
    if isinstance(value, list | dict):
        if id(value) in active:  # YAML aliases can build cycles; Ruby prints them like this
            return "[...]" if isinstance(value, list) else "{...}"
        active.add(id(value))
        try:
            if isinstance(value, list):
                return "[" + ", ".join(_inspect(v, active) for v in value) + "]"
            items = (f"{_inspect(k, active)}=>{_inspect(v, active)}" for k, v in value.items())
            return "{" + ", ".join(items) + "}"
        finally:
            active.discard(id(value))
    composite = getattr(value, "value", None)  # a CompositeKey prints as the value it wraps
    if isinstance(composite, list | dict):
        return _inspect(composite, active)
    return str(value)


# ---------------------------------------------------------------------------- Puppet's text


def puppet_quote(text: str) -> str:
    """StringConverter#puppet_quote: single quotes unless control characters force double."""
    if any(ord(c) < 0x20 for c in text):
        return _puppet_double_quote(text)
    out = ["'"]
    escaped = False
    for c in text:
        if escaped:
            out.append("\\" + c)
            escaped = False
        elif c == "'":
            out.append("\\'")
        elif c == "\\":
            escaped = True
        else:
            out.append(c)
    if escaped:
        out.append("\\")
    out.append("'")
    return "".join(out)


_DOUBLE_QUOTE_ESCAPES = {
    "\t": "\\t",
    "\n": "\\n",
    "\r": "\\r",
    '"': '\\"',
    "$": "\\$",
    "\\": "\\\\",
}


def _puppet_double_quote(text: str) -> str:
    out = ['"']
    for c in text:
        if c in _DOUBLE_QUOTE_ESCAPES:
            out.append(_DOUBLE_QUOTE_ESCAPES[c])
        elif ord(c) < 0x20:
            out.append(f"\\u{{{ord(c):X}}}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def puppet_string(value: object, nested: bool = False) -> str:
    """Puppet's default String conversion (``String(v)``): ``[1, 'a']``, ``{'k' => undef}``.

    ``nested`` is how a value prints inside a collection, which is also ``String(v, '%p')``.
    """
    if value is None:
        return "undef" if nested else ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and not nested:
        return _percent_f(value)  # Puppet's default format for a Float is '%f'
    if isinstance(value, int | float):
        return to_s(value)
    if isinstance(value, str):
        return puppet_quote(value) if nested else value
    if isinstance(value, list):
        return "[" + ", ".join(puppet_string(v, True) for v in value) + "]"
    if isinstance(value, dict):
        items = (f"{puppet_string(k, True)} => {puppet_string(v, True)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    return to_s(value)


def _percent_f(value: float) -> str:
    """Ruby's ``format('%f', value)``."""
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Inf" if value > 0 else "-Inf"
    return f"{value:f}"


# ---------------------------------------------------------------------------- symbol keys


def symkeys_to_string(value: object, memo: dict[int, object] | None = None) -> object:
    """Puppet's HieraConfig.symkeys_to_string: Symbol keys become Strings at every depth.

    Ruby rebuilds every hash and array; a shared (aliased) collection is converted once
    here, so an alias bomb stays a small graph and a cyclic one terminates.
    """
    memo = {} if memo is None else memo
    if isinstance(value, dict):
        done = memo.get(id(value))
        if done is not None:
            return done
        out: dict[object, object] = {}
        memo[id(value)] = out
        for k, v in value.items():
            out[k.name if isinstance(k, RubySymbol) else k] = symkeys_to_string(v, memo)
        return out
    if isinstance(value, list):
        done = memo.get(id(value))
        if done is not None:
            return done
        items: list[object] = []
        memo[id(value)] = items
        items.extend(symkeys_to_string(v, memo) for v in value)
        return items
    return value
