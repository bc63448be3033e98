"""How Ruby's Psych (the loader behind Puppet's ``yaml_data``) types one scalar.

Written from a reading of Psych 4's ``ScalarScanner#tokenize`` and ``ToRuby#deserialize``
(the rules, not the code) and checked scalar by scalar against ``ruby -rpsych`` in
tests/differential/test_psych_vs_puppet.py.  The rules are YAML 1.1 as Psych implements it,
quirks included: ``yEs`` is true, ``1e3`` is a String, ``1:30`` is 5400 (every part but the
last is multiplied by 60 once more than base 60 would), and a plain date makes the whole file
fail because ``safe_load`` may not build a ``Date``.

Refusals (what makes Psych or Puppet reject the whole file) are raised as :class:`Refusal`
carrying the text Ruby prints; the loader turns them into a located problem.
"""

from __future__ import annotations

import base64
import codecs
import math
import re
from dataclasses import dataclass
from functools import cache

from hiera_ls.puppet.message import Text, as_value
from hiera_ls.puppet.ruby_text import inspect_string
from hiera_ls.puppet.values import RubySymbol


@dataclass(frozen=True, slots=True)
class RubyObject:
    """A Ruby object Psych builds that no Hiera value can be (an Encoding, a Class).

    Loading succeeds; Puppet rejects it when the key holding it is looked up.
    """

    class_name: str
    text: str


class Refusal(Exception):
    """Psych (or Ruby under it) refuses the document.

    ``disallowed`` is True for ``Psych::DisallowedClass`` (Puppet prefixes the file name);
    ``code`` is the diagnostic family.
    """

    def __init__(self, message: str | Text, code: str, disallowed: bool = False) -> None:
        self.text = Text.of(message)
        super().__init__(self.text.plain)
        self.message = self.text.plain
        self.code = code
        self.disallowed = disallowed


def disallowed(class_name: str) -> Refusal:
    code = "yaml-date-rejected" if class_name in ("Date", "Time", "DateTime") else "yaml-bad-tag"
    return Refusal(f"Tried to load unspecified class: {class_name}", code, disallowed=True)


# --------------------------------------------------------------------------- plain scalars

_RUBY_SPACE = " \t\r\n\f\v"
# string.ascii_letters, written out: the string module cost a cold lookup a millisecond
_ASCII_LETTERS_TEXT = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
# Characters that make Psych decide early that a plain scalar is text: letters, Ruby's \s,
# '_' and a set of punctuation.  Non-ASCII letters are checked with the Unicode
# Alphabetic property, as Onigmo's [[:alpha:]] does.
_TEXTISH_ASCII = frozenset(_ASCII_LETTERS_TEXT + _RUBY_SPACE + "_!@#$%^&*(){}<>|/\\~;=")
_ASCII_LETTERS = frozenset(_ASCII_LETTERS_TEXT)
_NOT_A_LEADER = frozenset("0123456789.:-")

_M_I = re.MULTILINE | re.IGNORECASE
_SHORT_TEXT = re.compile(r"^[^ytonf~]", _M_I)
_NULL_WORD = re.compile(r"^null$", _M_I)
_TRUE_WORD = re.compile(r"^(?:yes|true|on)$", _M_I)
_FALSE_WORD = re.compile(r"^(?:no|false|off)$", _M_I)

_D = "[0-9]"
_TIMESTAMP = re.compile(
    rf"-?{_D}{{4}}-{_D}{{1,2}}-{_D}{{1,2}}(?:[Tt]|[{_RUBY_SPACE}]+){_D}{{1,2}}:{_D}{{2}}:{_D}{{2}}"
    rf"(?:\.{_D}*)?(?:[{_RUBY_SPACE}]*(?:Z|[-+]{_D}{{1,2}}:?(?:{_D}{{2}})?))?"
)
_DATE = re.compile(rf"{_D}{{4}}-(?:1[012]|0{_D}|{_D})-(?:[12]{_D}|3[01]|0{_D}|{_D})")
_POS_INF = re.compile(r"\+?\.inf", re.IGNORECASE)
_NEG_INF = re.compile(r"-\.inf", re.IGNORECASE)
_NAN = re.compile(r"\.nan", re.IGNORECASE)
_QUOTED_SYMBOL = re.compile(r":([\"'])(.*)\1")
_BASE60_INT = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9]){1,2}")
_BASE60_FLOAT = re.compile(r"[-+]?[0-9][0-9_]*(?::[0-5]?[0-9]){1,2}\.[0-9_]*")
_FLOAT = re.compile(r"[-+]?(?:[0-9][0-9_,]*)?\.[0-9]*(?:[eE][-+][0-9]+)?")
_BARE_DOT = re.compile(r"[-+]?\.")
_FLOAT_CLEANUP = re.compile(r"[,_]|\.(?=[Ee]|$)")
_INTEGER = re.compile(
    r"[-+]?0b[01_,]+"
    r"|[-+]?0[0-7_,]+"
    r"|[-+]?(?:0|[1-9](?:[0-9]|,[0-9]|_[0-9])*)"
    r"|[-+]?0x[0-9a-fA-F_,]+"
)
_RUBY_TO_NUM_PREFIX = re.compile(r"[-+]?[0-9]+(?:_[0-9]+)*(?:\.[0-9]+(?:_[0-9]+)*)?")


def _textish(char: str) -> bool:
    if char < "\x80":
        return char in _TEXTISH_ASCII
    return _alphabetic(char)


@cache
def _alphabetic(char: str) -> bool:
    """Onigmo's [[:alpha:]] for a non-ASCII character (``regex`` is imported for the first
    such scalar: ASCII data never loads it)."""
    import regex

    return regex.match(r"\p{Alphabetic}", char) is not None


def looks_like_text(value: str) -> bool:
    """Psych's first test: does the scalar read as words rather than a number?"""
    if "\n" in value or _textish(value[0]):
        return True
    return len(value) > 1 and value[0] not in _NOT_A_LEADER and _textish(value[1])


def tokenize(value: str) -> object:
    """The Ruby value of a plain, untagged scalar; raises :class:`Refusal`."""
    if not value:
        return None
    if len(value) > 5 and value[0] in _ASCII_LETTERS:
        return value  # the common case, decided without a regex
    if looks_like_text(value):
        if len(value) > 5 or _SHORT_TEXT.search(value):
            return value
        if value == "~" or _NULL_WORD.search(value):
            return None
        if _TRUE_WORD.search(value):
            return True
        if _FALSE_WORD.search(value):
            return False
        return value
    # From here on the scalar has no line break, so Ruby's ^...$ is a full match.
    if _TIMESTAMP.fullmatch(value):
        raise disallowed("Time")
    if _DATE.fullmatch(value):
        raise disallowed("Date")
    if _POS_INF.fullmatch(value):
        return math.inf
    if _NEG_INF.fullmatch(value):
        return -math.inf
    if _NAN.fullmatch(value):
        return math.nan
    if value[0] == ":" and len(value) > 1:
        quoted = _QUOTED_SYMBOL.match(value)
        if quoted:
            inner = quoted.group(2)
            return RubySymbol(inner[1:] if inner.startswith(":") else inner)
        return RubySymbol(value[1:])
    if _BASE60_INT.fullmatch(value):
        return sum(_ruby_to_i(part) * 60 ** abs(i - 2) for i, part in enumerate(value.split(":")))
    if _BASE60_FLOAT.fullmatch(value):
        total = 0.0
        for i, part in enumerate(value.split(":")):
            total += _ruby_to_f(part) * 60 ** abs(i - 2)
        return total
    if _FLOAT.fullmatch(value):
        if _BARE_DOT.fullmatch(value):
            return value
        return _float_of(_FLOAT_CLEANUP.sub("", value))
    if _INTEGER.fullmatch(value):
        return _integer_of(value.replace(",", "").replace("_", ""))
    return value


def _ruby_to_i(text: str) -> int:
    """Ruby's String#to_i for the digit runs sexagesimal parts can hold."""
    match = _RUBY_TO_NUM_PREFIX.match(text)
    if not match:
        return 0
    digits = match.group(0).split(".", 1)[0].replace("_", "")
    return _int_of_digits(digits, 10)


def _ruby_to_f(text: str) -> float:
    match = _RUBY_TO_NUM_PREFIX.match(text)
    if not match:
        return 0.0
    return float(match.group(0).replace("_", ""))


def _float_of(cleaned: str) -> float:
    """Ruby's Float() on what Psych left of a YAML 1.1 float: a mantissa needs a digit."""
    mantissa = re.split("[eE]", cleaned, maxsplit=1)[0]
    if not any(c.isdigit() for c in mantissa):
        raise Refusal(
            Text.of("invalid value for Float(): ", as_value(inspect_string(cleaned))),
            "yaml-bad-number",
        )
    return float(cleaned)


def _int_of_digits(digits: str, base: int) -> int:
    """int() without Python's 4300-digit guard, which Ruby's bignums do not have."""
    try:
        return int(digits, base)
    except ValueError:
        if not digits or len(digits) < 4000:
            raise
    sign = -1 if digits[0] == "-" else 1
    body = digits.lstrip("+-")
    total = 0
    step = 1000
    for i in range(0, len(body), step):
        chunk = body[i : i + step]
        total = total * base ** len(chunk) + int(chunk, base)
    return sign * total


def _integer_of(cleaned: str) -> int:
    """Ruby's Integer() on a YAML 1.1 integer with its separators removed."""
    sign = ""
    body = cleaned
    if body[:1] in ("-", "+"):
        sign, body = body[0], body[1:]
    try:
        if body.startswith(("0b", "0x")):
            digits = body[2:]
            if not digits:
                raise ValueError
            return _int_of_digits(sign + digits, 2 if body[1] == "b" else 16)
        if len(body) > 1 and body[0] == "0":
            return _int_of_digits(sign + body[1:], 8)
        return _int_of_digits(sign + body, 10)
    except ValueError:
        raise Refusal(
            Text.of("invalid value for Integer(): ", as_value(inspect_string(cleaned))),
            "yaml-bad-number",
        ) from None


# --------------------------------------------------------------------------- tagged scalars

_RUBY_FLOAT_STRING = re.compile(
    r"[ \t\n\v\f\r]*[-+]?"
    r"(?:0[xX][0-9a-fA-F]+(?:_[0-9a-fA-F]+)*(?:\.[0-9a-fA-F]+(?:_[0-9a-fA-F]+)*)?(?:[pP][-+]?[0-9]+)?"
    r"|(?:[0-9]+(?:_[0-9]+)*(?:\.[0-9]+(?:_[0-9]+)*)?|\.[0-9]+(?:_[0-9]+)*)(?:[eE][-+]?[0-9]+(?:_[0-9]+)*)?)"
    r"[ \t\n\v\f\r]*"
)
_STR_TAG = re.compile(r"!(?:str|ruby/string)(?::(.*))?")
_SYM_TAG = re.compile(r"!ruby/sym(?:bol)?:?(.*)?")


def ruby_float(value: object) -> float:
    """Ruby's Kernel#Float on what tokenize produced (the ``!!float`` tag)."""
    if isinstance(value, bool) or value is None:
        name = "nil" if value is None else ("true" if value else "false")
        raise Refusal(f"can't convert {name} into Float", "yaml-bad-number")
    if isinstance(value, float):
        return value
    if isinstance(value, int):
        try:
            return float(value)
        except OverflowError:
            return math.inf if value > 0 else -math.inf
    if isinstance(value, str):
        if _RUBY_FLOAT_STRING.fullmatch(value):
            text = value.strip(" \t\n\v\f\r").replace("_", "")
            if text.lstrip("+-")[:2] in ("0x", "0X"):
                return float.fromhex(text)
            return float(text)
        raise Refusal(
            Text.of("invalid value for Float(): ", as_value(inspect_string(value, binary=True))),
            "yaml-bad-number",
        )
    kind = "Symbol" if isinstance(value, RubySymbol) else type(value).__name__
    raise Refusal(f"can't convert {kind} into Float", "yaml-bad-number")


def _binary(text: str) -> str:
    """Ruby's lenient ``unpack('m')``: skip what is not base64, tolerate missing padding."""
    alphabet = set(_ASCII_LETTERS_TEXT + "0123456789+/")
    kept = "".join(c for c in text.split("=", 1)[0] if c in alphabet)
    kept = kept[: len(kept) - len(kept) % 4] if len(kept) % 4 == 1 else kept
    raw = base64.b64decode(kept + "=" * (-len(kept) % 4))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def resolve_class(name: str | None) -> None:
    """Psych's restricted class loader: only Symbol is permitted (Puppet's yaml_data)."""
    if name and name != "Symbol":
        raise disallowed(name)


def allocate(name: str | None) -> Refusal:
    """What ``resolve_class(name).allocate`` raises when it cannot build a Hash or Array."""
    if not name:
        return Refusal("undefined method `allocate' for nil:NilClass", "yaml-bad-tag")
    if name == "Symbol":
        return Refusal("allocator undefined for Symbol", "yaml-bad-tag")
    return disallowed(name)


def tagged_scalar(tag: str, text: str) -> object:
    """A scalar with an explicit tag (including ``!``), as ToRuby#deserialize builds it."""
    if tag in ("!binary", "tag:yaml.org,2002:binary"):
        return _binary(text)
    if tag == "tag:yaml.org,2002:str":
        return text
    match = _STR_TAG.fullmatch(tag)
    if match:
        resolve_class(match.group(1))
        return text
    if tag == "!ruby/object:BigDecimal":
        raise disallowed("BigDecimal")
    if tag == "!ruby/object:DateTime":
        raise disallowed("DateTime")
    if tag == "!ruby/encoding":
        try:
            codecs.lookup(text)
        except LookupError:
            raise Refusal(
                Text.of("unknown encoding name - ", as_value(text)), "yaml-bad-tag"
            ) from None
        return RubyObject("Encoding", text)
    if tag == "!ruby/object:Complex":
        raise disallowed("Complex")
    if tag == "!ruby/object:Rational":
        raise disallowed("Rational")
    if tag in ("!ruby/class", "!ruby/module"):
        if not text:
            return None
        resolve_class(text)
        return RubyObject("Class", text)
    if tag in ("tag:yaml.org,2002:float", "!float"):
        return ruby_float(tokenize(text))
    if tag == "!ruby/regexp":
        raise disallowed("Regexp")
    if tag == "!ruby/range":
        raise disallowed("Range")
    if _SYM_TAG.fullmatch(tag):
        return RubySymbol(text)
    return tokenize(text)
