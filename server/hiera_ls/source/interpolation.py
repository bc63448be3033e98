"""Puppet's interpolation token grammar, with each token's offsets in the string value.

Puppet scans ``%{...}`` with ``/%\\{([^}]*)\\}/`` left to right and never rescans its
output, so a token ends at the first ``}`` and cannot nest.  The engine resolves tokens;
the checks and the language server use the same tokens (with their offsets) to point at
problems, so the grammar lives here, below both.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

TOKEN_RE = re.compile(r"%\{([^}]*)\}")
# The whole stripped expression must match this to be a method call (Puppet's rule).
METHOD_RE = re.compile(r"^(\w+)\((?:\"([^\"]+)\"|'([^']+)')\)$")
# Expressions Puppet replaces by '' (the escape idiom %%{}{x} relies on it).
EMPTY_EXPRESSIONS = frozenset({"", "::", '""', "''", '"::"', "'::'"})
METHODS = frozenset({"lookup", "hiera", "alias", "literal", "scope"})
# Looks like a call that Puppet will not read as one (spaces, two arguments, no quotes ...).
CALL_LIKE_RE = re.compile(r"^\s*(\w+)\s*\(")


class TokenKind(Enum):
    EMPTY = "empty"  # one of EMPTY_EXPRESSIONS: produces ''
    VARIABLE = "variable"  # a scope variable path such as facts.os.family
    METHOD = "method"  # name('argument')


@dataclass(frozen=True, slots=True)
class Token:
    """One ``%{...}`` occurrence; ``start``/``end`` are offsets in the string value."""

    start: int
    end: int
    text: str  # the whole token, '%{' to '}'
    expression: str  # stripped inner text
    kind: TokenKind
    method: str | None = None  # for METHOD tokens
    argument: str | None = None  # for METHOD tokens (quotes removed)


def scan(value: str) -> list[Token]:
    """All tokens of ``value`` in order; the empty list when there is no ``%{``."""
    if "%{" not in value:
        return []
    return [token_of(m) for m in TOKEN_RE.finditer(value)]


def holds_token(value: object) -> bool:
    """Whether some string in ``value`` (hashes and lists walked, their keys too) holds
    ``%{``: without one, interpolation gives the value back as it is.  Each collection is
    visited once, however many aliases name it."""
    stack = [value]
    seen: set[int] = set()
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "%{" in item:
                return True
        elif isinstance(item, list | dict) and id(item) not in seen:
            seen.add(id(item))
            if isinstance(item, dict):
                stack.extend(item)
                stack.extend(item.values())
            else:
                stack.extend(item)
    return False


def token_of(m: re.Match[str]) -> Token:
    """The token ``TOKEN_RE`` matched (a caller meeting the same text again may skip this)."""
    expr = m.group(1).strip()
    if expr in EMPTY_EXPRESSIONS:
        return Token(m.start(), m.end(), m.group(0), expr, TokenKind.EMPTY)
    mm = METHOD_RE.match(expr)
    if mm:
        arg = mm.group(2) if mm.group(2) is not None else mm.group(3)
        return Token(m.start(), m.end(), m.group(0), expr, TokenKind.METHOD, mm.group(1), arg)
    return Token(m.start(), m.end(), m.group(0), expr, TokenKind.VARIABLE)


def unterminated_at(value: str) -> int | None:
    """Offset of a ``%{`` that has no closing brace (Puppet leaves it as literal text)."""
    pos = 0
    while True:
        i = value.find("%{", pos)
        if i < 0:
            return None
        j = value.find("}", i + 2)
        if j < 0:
            return i
        pos = j + 1
