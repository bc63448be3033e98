"""Puppet type expression text -> :class:`~hiera_ls.puppet.types.PType`.

The text is what a class parameter, a ``type X = ...`` alias or ``convert_to`` writes:
``Optional[Hash[String, Integer]]``, ``Enum['a', "b"]``, ``Pattern[/^x\\/y$/]``,
``Struct[{Optional['a'] => Integer, b => String}]``, ``Integer[default, 10]``.  Names Puppet
does not know itself are handed to a resolver (name -> the alias's type expression text,
as a module's ``types/*.pp`` defines it); an alias may refer to itself
(``type Tree = Hash[String, Variant[Integer, Tree]]``) without the parser looping.  Names
nobody resolves become ``TypeReference['Name']``, as Puppet makes them.

Bad text raises :class:`TypeExpressionError` with the offset of the offending token.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from hiera_ls.puppet.ruby_text import number_text, puppet_quote
from hiera_ls.puppet.type_format import format_type
from hiera_ls.puppet.types import (
    BUILTIN_ALIASES,
    AliasType,
    AnyType,
    ArrayType,
    BooleanType,
    CallableType,
    CollectionType,
    DefaultType,
    EnumType,
    FloatType,
    HashType,
    IntegerType,
    NamedType,
    NotUndefType,
    NumericType,
    OptionalType,
    PatternType,
    PType,
    RegexpType,
    RuntimeType,
    ScalarDataType,
    ScalarType,
    StringType,
    StructElement,
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

Resolver = Callable[[str], str | None]


class TypeExpressionError(ValueError):
    """Text that is not a valid type expression; ``position`` is a 0-based offset."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(f"{message} (at offset {position})")
        self.message = message
        self.position = position


@dataclass(frozen=True, slots=True)
class _Regex:
    """A regexp literal inside a type expression (a Pattern's)."""

    source: str


@dataclass(frozen=True, slots=True)
class _Default:
    """The ``default`` literal inside a type expression."""


@dataclass(frozen=True, slots=True)
class _Access:
    """``Name[params]`` before interpretation (also a bare ``Name`` with ``params=None``)."""

    name: str
    params: tuple[object, ...] | None
    position: int


@dataclass(frozen=True, slots=True)
class _HashLiteral:
    """A hash literal inside a type expression (a Struct's members)."""

    pairs: tuple[tuple[object, object], ...]


_TOKEN = re.compile(
    r"""
    (?P<space>\s+|\#[^\n]*)
  | (?P<name>(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*)
  | (?P<word>(?:::)?[a-z_]\w*(?:::[a-z_]\w*)*)
  | (?P<float>-?(?:\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+))
  | (?P<int>-?(?:0[xX][0-9a-fA-F]+|\d+))
  | (?P<sq>'(?:[^'\\]|\\.)*')
  | (?P<dq>"(?:[^"\\]|\\.)*")
  | (?P<regex>/(?:[^/\\\n]|\\.)*/)
  | (?P<punct>=>|[\[\]{},])
    """,
    re.VERBOSE | re.DOTALL,
)

_DQ_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "s": " ", "$": "$", '"': '"', "\\": "\\"}


def _single_quoted(body: str) -> str:
    return re.sub(r"\\([\\'])", r"\1", body)


def _double_quoted(body: str) -> str:
    def unescape(m: re.Match[str]) -> str:
        e = m.group(1)
        if e in _DQ_ESCAPES:
            return _DQ_ESCAPES[e]
        if e.startswith("u{"):
            return chr(int(e[2:-1], 16))
        if e.startswith("u"):
            return chr(int(e[1:], 16))
        return "\\" + e

    return re.sub(r"\\(u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|.)", unescape, body, flags=re.DOTALL)


class _Tokens:
    def __init__(self, text: str) -> None:
        self.items: list[tuple[str, str, int]] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                raise TypeExpressionError(f"unexpected character {text[pos]!r}", pos)
            kind = m.lastgroup or ""
            if kind != "space":
                self.items.append((kind, m.group(), pos))
            pos = m.end()
        self.end = len(text)
        self.i = 0

    def peek(self) -> tuple[str, str, int]:
        return self.items[self.i] if self.i < len(self.items) else ("end", "", self.end)

    def take(self) -> tuple[str, str, int]:
        token = self.peek()
        self.i += 1
        return token

    def expect(self, value: str) -> None:
        kind, text, pos = self.take()
        if text != value or kind == "end":
            found = "end of text" if kind == "end" else repr(text)
            raise TypeExpressionError(f"expected '{value}', found {found}", pos)


def _expression(tokens: _Tokens) -> object:
    kind, text, pos = tokens.take()
    if kind == "name":
        name = text.removeprefix("::")
        if tokens.peek()[1] == "[":
            tokens.take()
            return _Access(name, _list(tokens, "]"), pos)
        return _Access(name, None, pos)
    if kind == "word":
        if text == "default":
            return _Default()
        if text == "undef":
            return None
        if text in ("true", "false"):
            return text == "true"
        return text  # a bare word is a string
    if kind == "int":
        negative = text.startswith("-")
        digits = text.lstrip("-")
        if digits[:2] in ("0x", "0X"):
            value = int(digits, 16)
        elif len(digits) > 1 and digits.startswith("0"):
            try:
                value = int(digits, 8)
            except ValueError:
                raise TypeExpressionError(f"invalid octal number {text}", pos) from None
        else:
            value = int(digits)
        return -value if negative else value
    if kind == "float":
        return float(text)
    if kind == "sq":
        return _single_quoted(text[1:-1])
    if kind == "dq":
        return _double_quoted(text[1:-1])
    if kind == "regex":
        return _Regex(text[1:-1])
    if text == "[":
        return list(_list(tokens, "]"))
    if text == "{":
        return _hash(tokens)
    found = "end of text" if kind == "end" else repr(text)
    raise TypeExpressionError(f"expected a type, found {found}", pos)


def _list(tokens: _Tokens, close: str) -> tuple[object, ...]:
    items: list[object] = []
    while tokens.peek()[1] != close or tokens.peek()[0] == "end":
        if tokens.peek()[0] == "end":
            raise TypeExpressionError(f"expected '{close}', found end of text", tokens.end)
        items.append(_expression(tokens))
        if tokens.peek()[1] == ",":
            tokens.take()
        elif tokens.peek()[1] != close:
            kind, text, pos = tokens.peek()
            found = "end of text" if kind == "end" else repr(text)
            raise TypeExpressionError(f"expected ',' or '{close}', found {found}", pos)
    tokens.take()
    return tuple(items)


def _hash(tokens: _Tokens) -> _HashLiteral:
    pairs: list[tuple[object, object]] = []
    while tokens.peek()[1] != "}":
        key = _expression(tokens)
        tokens.expect("=>")
        pairs.append((key, _expression(tokens)))
        if tokens.peek()[1] == ",":
            tokens.take()
        elif tokens.peek()[1] != "}":
            kind, text, pos = tokens.peek()
            found = "end of text" if kind == "end" else repr(text)
            raise TypeExpressionError(f"expected ',' or '}}', found {found}", pos)
    tokens.take()
    return _HashLiteral(tuple(pairs))


# ---------------------------------------------------------------------------- interpretation

_SIMPLE: dict[str, PType] = {
    "any": AnyType(),
    "undef": UndefType(),
    "default": DefaultType(),
    "scalar": ScalarType(),
    "scalardata": ScalarDataType(),
    "numeric": NumericType(),
}
_WRAPPERS = {
    "type": "Type",
    "sensitive": "Sensitive",
    "iterable": "Iterable",
    "iterator": "Iterator",
    "init": "Init",
}
_NAMED = {
    n.lower(): n
    for n in (
        "SemVer",
        "SemVerRange",
        "Timestamp",
        "Timespan",
        "Object",
        "Binary",
        "URI",
        "TypeSet",
        "CatalogEntry",
        "Class",
        "Resource",
        "Error",
        "Deferred",
    )
}


# Each parameterised kind without parameters.
_BARE: dict[str, PType] = {
    "boolean": BooleanType(),
    "integer": IntegerType(),
    "float": FloatType(),
    "string": StringType(),
    "enum": EnumType(),
    "pattern": PatternType(),
    "regexp": RegexpType(),
    "array": ArrayType(),
    "tuple": TupleType(),
    "hash": HashType(),
    "struct": StructType(),
    "collection": CollectionType(),
    "variant": VariantType(),
    "optional": OptionalType(),
    "notundef": NotUndefType(),
    "runtime": RuntimeType(),
    "callable": CallableType(),
}


class _Interpreter:
    def __init__(self, resolver: Resolver | None) -> None:
        self.resolver = resolver
        self.aliases: dict[str, AliasType] = {}
        self.pending: set[str] = set()  # aliases whose text is being parsed

    def type_of(self, node: object, pos: int) -> PType:
        if isinstance(node, _Access):
            return self.access(node)
        if isinstance(node, _Default):
            return DefaultType()
        if node is None:
            return UndefType()
        raise TypeExpressionError(f"expected a type, got {_describe(node)}", pos)

    def access(self, node: _Access) -> PType:
        key = node.name.lower()
        if node.params is None:
            return self.bare(node)
        params = node.params
        p = node.position
        if key == "boolean":
            if len(params) != 1 or not isinstance(params[0], bool):
                raise TypeExpressionError("Boolean takes one parameter, true or false", p)
            return BooleanType(params[0])
        if key in ("integer", "float"):
            return self.range_type(key, params, p)
        if key == "string":
            return StringType(self.size(params, p, "String"))
        if key == "collection":
            return CollectionType(self.size(params, p, "Collection"))
        if key == "enum":
            return self.enum(params, p)
        if key == "pattern":
            return PatternType(tuple(dict.fromkeys(self.pattern_source(x, p) for x in params)))
        if key == "regexp":
            if len(params) != 1:
                raise TypeExpressionError("Regexp takes one parameter", p)
            return RegexpType(self.pattern_source(params[0], p))
        if key == "array":
            return self.array(params, p)
        if key == "tuple":
            types, size = self.types_then_size(params, p, "Tuple")
            return TupleType(tuple(types), size)
        if key == "hash":
            return self.hash(params, p)
        if key == "struct":
            return self.struct(params, p)
        if key == "variant":
            return variant_of([self.type_of(x, p) for x in params])
        if key in ("optional", "notundef"):
            if len(params) != 1:
                raise TypeExpressionError(f"{node.name} takes one parameter", p)
            inner = params[0]
            t = StringType(None, inner) if isinstance(inner, str) else self.type_of(inner, p)
            return OptionalType(t) if key == "optional" else NotUndefType(t)
        if key == "init" and len(params) > 1:  # Init[T, args...]
            args = tuple(_arg_text(self, x, p) for x in params)
            return NamedType("Init", args)
        if key in _WRAPPERS:
            if len(params) != 1:
                raise TypeExpressionError(f"{node.name} takes one parameter", p)
            inner = self.type_of(params[0], p)
            if key == "sensitive":  # PSensitiveType keeps its type generalized
                inner = generalize(inner)
            return WrapperType(_WRAPPERS[key], inner)
        if key == "runtime":
            if len(params) != 2 or not all(isinstance(x, str) for x in params):
                raise TypeExpressionError("Runtime takes a runtime name and a type name", p)
            return RuntimeType(str(params[0]), str(params[1]))
        if key == "callable":
            return self.callable(params, p)
        if key in _NAMED:
            if key == "class":  # class names print bare: Class[foo]
                return NamedType("Class", tuple(str(x) for x in params))
            return NamedType(_NAMED[key], tuple(_arg_text(self, x, p) for x in params))
        if key in _SIMPLE:
            raise TypeExpressionError(f"{node.name} takes no parameters", p)
        target = self.bare(node)
        if isinstance(target, AliasType):
            raise TypeExpressionError(f"type alias {node.name} takes no parameters", p)
        return target  # a TypeReference with parameters: Puppet keeps the name only

    def bare(self, node: _Access) -> PType:
        key = node.name.lower()
        if key in _SIMPLE:
            return _SIMPLE[key]
        if key in _BARE:
            return _BARE[key]
        if key in _WRAPPERS:
            return WrapperType(_WRAPPERS[key])
        if key in _NAMED:
            return NamedType(_NAMED[key])
        return self.alias(node.name, node.position)

    def alias(self, name: str, position: int) -> PType:
        cache_key = name.lower()
        found = self.aliases.get(cache_key)
        if found is not None:
            return found
        builtin = {k.lower(): (k, v) for k, v in BUILTIN_ALIASES.items()}.get(cache_key)
        if builtin is not None:
            name, text = builtin
        else:
            resolved = self.resolver(name) if self.resolver is not None else None
            if resolved is None:
                return TypeReferenceType(name)
            text = resolved
        holder: list[PType] = []
        alias = AliasType(name, lambda: holder[0], builtin is not None)
        self.aliases[cache_key] = alias
        self.pending.add(cache_key)
        try:
            holder.append(self.parse(text))
        except TypeExpressionError as e:
            if builtin is not None:
                raise
            raise TypeExpressionError(f"in type alias {name}: {e.message}", position) from e
        finally:
            self.pending.discard(cache_key)
        target = holder[0]
        while isinstance(target, AliasType):  # an alias of an alias ... of itself
            key = target.name.lower()
            if key == cache_key or key in self.pending:
                raise TypeExpressionError(
                    f"type alias {name} cannot be resolved to a real type", position
                )
            target = target.resolved()
        return alias

    def parse(self, text: str) -> PType:
        tokens = _Tokens(text)
        node = _expression(tokens)
        kind, rest, pos = tokens.peek()
        if kind != "end":
            raise TypeExpressionError(f"unexpected {rest!r} after the type", pos)
        return self.type_of(node, 0)

    # -- parameters

    def range_type(self, key: str, params: tuple[object, ...], p: int) -> PType:
        if not 1 <= len(params) <= 2:
            raise TypeExpressionError(f"{key.capitalize()} takes 1 or 2 parameters", p)
        bounds: list[int | float | None] = []
        for x in params:
            if isinstance(x, _Default):
                bounds.append(None)
            elif key == "integer" and isinstance(x, int) and not isinstance(x, bool):
                bounds.append(x)
            elif key == "float" and isinstance(x, int | float) and not isinstance(x, bool):
                bounds.append(float(x))
            else:
                raise TypeExpressionError(
                    f"{key.capitalize()} parameters must be numbers or default, got {_describe(x)}",
                    p,
                )
        low = bounds[0]
        high = bounds[1] if len(bounds) == 2 else None
        if low is not None and high is not None and low > high:
            raise TypeExpressionError(
                f"{key.capitalize()} range: 'from' must be less or equal to 'to'", p
            )
        if key == "integer":
            return IntegerType(
                None if low is None else int(low), None if high is None else int(high)
            )
        return FloatType(low, high)

    def size(self, params: tuple[object, ...], p: int, name: str) -> IntegerType | None:
        if not params:
            return None
        if len(params) > 2:
            raise TypeExpressionError(f"{name} takes at most 2 size parameters", p)
        bounds: list[int | None] = []
        for x in params:
            if isinstance(x, _Default):
                bounds.append(None)
            elif isinstance(x, int) and not isinstance(x, bool):
                bounds.append(x)
            elif isinstance(x, _Access) and x.name.lower() == "integer":
                t = self.access(x)
                assert isinstance(t, IntegerType)
                if len(params) == 1:
                    return t
                raise TypeExpressionError(f"{name} size must be integers", p)
            else:
                raise TypeExpressionError(
                    f"{name} size must be integers or default, got {_describe(x)}", p
                )
        low = 0 if bounds[0] is None else bounds[0]
        high = bounds[1] if len(bounds) == 2 else None
        if high is not None and low > high:
            raise TypeExpressionError(f"{name} size: 'from' must be less or equal to 'to'", p)
        return IntegerType(low, high)

    def enum(self, params: tuple[object, ...], p: int) -> EnumType:
        values = list(params)
        case_insensitive = False
        if values and isinstance(values[-1], bool):
            case_insensitive = bool(values.pop())
        strings: list[str] = []
        for x in values:
            if isinstance(x, str):
                strings.append(x)
            elif isinstance(x, list) and all(isinstance(s, str) for s in x):
                strings.extend(str(s) for s in x)
            else:
                raise TypeExpressionError(f"Enum parameters must be strings, got {_describe(x)}", p)
        return EnumType(tuple(sorted(set(strings))), case_insensitive)

    def pattern_source(self, x: object, p: int) -> str:
        if isinstance(x, _Regex):
            return x.source
        if isinstance(x, str):
            return x
        if isinstance(x, _Access) and x.name.lower() in ("regexp", "pattern"):
            t = self.access(x)
            if isinstance(t, RegexpType) and t.pattern is not None:
                return t.pattern
        raise TypeExpressionError(f"expected a regular expression, got {_describe(x)}", p)

    def types_then_size(
        self, params: tuple[object, ...], p: int, name: str
    ) -> tuple[list[PType], IntegerType | None]:
        types: list[PType] = []
        rest = list(params)
        while rest and not _is_size_param(rest[0]):
            types.append(self.type_of(rest.pop(0), p))
        return types, self.size(tuple(rest), p, name) if rest else None

    def array(self, params: tuple[object, ...], p: int) -> ArrayType:
        if not params or len(params) > 3:
            raise TypeExpressionError("Array takes 1 to 3 parameters", p)
        if _is_size_param(params[0]):
            if len(params) != 2:
                raise TypeExpressionError("Array takes a type before its size", p)
            return ArrayType(DefaultType(), self.size(params, p, "Array"))
        return ArrayType(self.type_of(params[0], p), self.size(params[1:], p, "Array"))

    def hash(self, params: tuple[object, ...], p: int) -> HashType:
        if not params or len(params) > 4:
            raise TypeExpressionError("Hash takes 1 to 4 parameters", p)
        if _is_size_param(params[0]):
            if len(params) != 2:
                raise TypeExpressionError("Hash takes key and value types before its size", p)
            return HashType(DefaultType(), DefaultType(), self.size(params, p, "Hash"))
        if len(params) == 1:
            raise TypeExpressionError("Hash takes a key type and a value type", p)
        return HashType(
            self.type_of(params[0], p),
            self.type_of(params[1], p),
            self.size(params[2:], p, "Hash"),
        )

    def struct(self, params: tuple[object, ...], p: int) -> StructType:
        if len(params) != 1 or not isinstance(params[0], _HashLiteral):
            raise TypeExpressionError("Struct takes one hash of member types", p)
        elements: list[StructElement] = []
        for key, value in params[0].pairs:
            value_type = self.type_of(value, p)
            if isinstance(key, str):
                if not key:
                    raise TypeExpressionError("Struct element key cannot be an empty String", p)
                name, optional = key, _accepts_undef(value_type)
            else:
                key_type = self.type_of(key, p)
                inner = (
                    key_type.type if isinstance(key_type, OptionalType | NotUndefType) else key_type
                )
                if not (isinstance(inner, StringType) and inner.value):
                    raise TypeExpressionError(
                        "Struct element key must be a non-empty String, Optional or NotUndef", p
                    )
                name = inner.value
                if isinstance(key_type, OptionalType):
                    optional = True
                elif isinstance(key_type, NotUndefType):
                    optional = False
                else:
                    optional = _accepts_undef(value_type)
            elements.append(StructElement(name, optional, value_type))
        return StructType(tuple(elements))

    def callable(self, params: tuple[object, ...], p: int) -> CallableType:
        items = list(params)
        return_type: PType | None = None
        if len(items) == 2 and isinstance(items[0], list):
            return_type = self.type_of(items[1], p)
            items = list(items[0])
        out: list[object] = []
        for x in items:
            if isinstance(x, int) and not isinstance(x, bool):
                out.append(x)
            elif isinstance(x, _Default):
                out.append(None)
            else:
                out.append(self.type_of(x, p))
        return CallableType(tuple(out), return_type)


def _is_size_param(x: object) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or isinstance(x, _Default)


def _accepts_undef(t: PType) -> bool:
    """Can the value be undef? (decides whether a Struct key written as a string is optional)"""
    t = resolve_aliases(t)
    if isinstance(t, UndefType | OptionalType | AnyType):
        return True
    if isinstance(t, VariantType):
        return any(_accepts_undef(m) for m in t.types)
    return False


def _describe(x: object) -> str:
    if isinstance(x, _Regex):
        return f"/{x.source}/"
    if isinstance(x, _Default):
        return "default"
    if isinstance(x, _HashLiteral):
        return "a hash"
    if isinstance(x, _Access):
        return x.name
    if x is None:
        return "undef"
    return repr(x)


def _arg_text(interp: _Interpreter, x: object, p: int) -> str:
    if isinstance(x, str):
        return puppet_quote(x)
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int | float):
        return number_text(x)
    if isinstance(x, _Default):
        return "default"
    if isinstance(x, _Access):
        return format_type(interp.access(x))
    return _describe(x)


def parse_type(text: str, resolver: Resolver | None = None) -> PType:
    """The type ``text`` denotes; unknown names go to ``resolver`` (None: TypeReference)."""
    return _Interpreter(resolver).parse(text)
