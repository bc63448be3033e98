"""Puppet's lexical grammar, enough to find definitions and calls without parsing bodies.

hiera-ls needs the headers of classes, defined types, functions and type aliases and the
calls of a few functions; a full parse of every body is not needed, and a parser that fails
on one odd body would lose the file's header. So the manifest reader works on tokens: this
lexer follows Puppet's own (``Puppet::Pops::Parser::Lexer2``) where it matters for finding
where one token ends and the next begins: single- and double-quoted strings (with ``${...}``
interpolation lexed recursively, so a ``lookup()`` inside a string is seen), heredocs
``@("END")`` whose bodies begin on the next line, regular expressions (``/.../`` only where
Puppet accepts one), and ``#`` and ``/* */`` comments. Nothing is evaluated.

Offsets are indexes into the text (code points); the reader turns them into positions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

NAME = "name"
CLASSREF = "classref"
VARIABLE = "variable"
NUMBER = "number"
SQ = "sq"  # single-quoted string
DQ = "dq"  # double-quoted string (parts: literal text and interpolations)
HEREDOC = "heredoc"
REGEX = "regex"
PUNCT = "punct"
WORD = "word"  # a bare word with a dash (``foo-bar``)

_SIMPLE = re.compile(
    r"""
    (?P<ws>[^\S\n]+)
  | (?P<comment>\#[^\n]*)
  | (?P<var>\$(?:::)?(?:\w+::)*\w+)
  | (?P<classref>(?:::)?[A-Z]\w*(?:::[A-Z]\w*)*)
  | (?P<number>0[xX][0-9A-Fa-f]+|\d+(?:\.\d+)?(?:[eE]-?\d+)?)
  | (?P<name>(?:::)?[a-z_]\w*(?:::[a-z_]\w*)*(?P<dash>(?:-[\w]+)+)?)
  | (?P<punct>=>|\+>|==|!=|<=|>=|=~|!~|->|~>|<-|<~|<<\||\|>>|<\||\|>|<<|>>|\+=|-=|@@
        |[-+*/%=<>!?:;,.(){}\[\]|@~$&^`\\])
    """,
    re.VERBOSE,
)
# After these a ``/`` divides; elsewhere it starts a regular expression (Lexer2's
# ``regexp_acceptable?``).
_NO_REGEX_AFTER = frozenset({NAME, CLASSREF, NUMBER, SQ, DQ, HEREDOC, REGEX, VARIABLE, WORD})
_NO_REGEX_AFTER_PUNCT = frozenset({")", "]", "|>", "|>>"})
# Puppet's keywords are tokens of their own, so a regular expression may follow them
# (``node /^web\d+/ {``); ``true`` and ``false`` are values.
_KEYWORDS = frozenset(
    [
        "and",
        "application",
        "apply",
        "attr",
        "case",
        "class",
        "consumes",
        "default",
        "define",
        "elsif",
        "else",
        "function",
        "if",
        "in",
        "inherits",
        "node",
        "or",
        "plan",
        "private",
        "produces",
        "site",
        "type",
        "undef",
        "unless",
    ]
)
_HEREDOC_TAG = re.compile(
    r"@\(([^:/\r\n)]+)(?::[ \t]*([a-z][a-zA-Z0-9_+]+)[ \t]*)?(?:/((?:\w|[$])*)[ \t]*)?\)"
)
_SPACE = re.compile(r"(?:\s+|\#[^\n]*)+")
_SPACE_START = frozenset(" \t\r\n\f\v#\xa0")
_SQ_STOP = re.compile(r"['\\]")
_DQ_STOP = re.compile(r'["\\$]')
_UNICODE = re.compile(r"u(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{4}))")
_DQ_VAR = re.compile(r"\$(?:::)?(?:\w+::)*\w+")
_SQ_ESCAPES = {"\\": "\\", "'": "'"}
_DQ_ESCAPES = {
    "\\": "\\",
    '"': '"',
    "'": "'",
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "s": " ",
    "$": "$",
}
_MAX_HEREDOC_TAG = 256  # `@(...)` longer than this is not a heredoc (bounds a rescan)
MAX_DEPTH = 50  # interpolations inside interpolations: deeper is not read


@dataclass(slots=True)
class Token:
    """One token of Puppet code, with its place in the text."""

    kind: str
    start: int
    end: int
    text: str  # the token's value: a name, a string's unescaped content, a punctuator
    # a double-quoted string: literal pieces (start, end, unescaped text) and the tokens of
    # each interpolation, in order
    parts: list[tuple[int, int, str] | list[Token]] | None = None
    # a string's content range (without quotes), for spans that rename replaces
    inner: tuple[int, int] | None = None


@dataclass(slots=True)
class LexError:
    """A stretch of Puppet code the lexer could not read."""

    start: int
    end: int
    message: str


@dataclass(slots=True)
class Lexed:
    """The tokens of a Puppet file, and where it could not be read."""

    tokens: list[Token]
    errors: list[LexError] = field(default_factory=list)


class _Lexer:
    def __init__(self, text: str) -> None:
        self.text = text
        self.errors: list[LexError] = []
        # heredocs whose bodies start on the next line: end tag, token, interpolating
        self.pending: list[tuple[str, Token, bool]] = []

    def run(self) -> list[Token]:
        tokens, _ = self.scan(0, 0, in_interpolation=False)
        return tokens

    def scan(
        self, pos: int, depth: int, *, in_interpolation: bool, stop: int | None = None
    ) -> tuple[list[Token], int]:
        """Tokens from ``pos`` (up to ``stop``); inside an interpolation, up to its closing
        brace (the returned position is after it)."""
        text = self.text
        n = len(text) if stop is None else stop
        out: list[Token] = []
        braces = 0
        last: Token | None = None
        while pos < n:
            c = text[pos]
            if c in _SPACE_START:
                if not self.pending:  # blanks, newlines and comments in one step
                    pos = _SPACE.match(text, pos).end()  # type: ignore[union-attr]
                    continue
                if c == "\n":
                    pos = self.skip_heredoc_bodies(pos + 1)
                    continue
            if c == "'":
                tok, pos = self.single(pos)
            elif c == '"':
                tok, pos = self.double(pos, depth)
            elif c == "/" and text.startswith("/*", pos):
                end = text.find("*/", pos + 2)
                if end < 0:
                    self.errors.append(LexError(pos, n, "Unclosed comment"))
                    return out, n
                pos = end + 2
                continue
            elif c == "/" and self.regex_acceptable(last):
                tok, pos = self.regex(pos)
            elif c == "@" and text.startswith("@(", pos):
                tok, pos = self.heredoc(pos)
            else:
                m = _SIMPLE.match(text, pos)
                if m is None:  # a character no token starts with: Puppet refuses it
                    self.errors.append(LexError(pos, pos + 1, f"Illegal character {c!r}"))
                    pos += 1
                    continue
                kind = m.lastgroup
                end = m.end()
                if kind in ("ws", "comment"):
                    pos = end
                    continue
                value = m.group()
                if kind == "var":
                    tok = Token(VARIABLE, pos, end, value[1:])
                elif kind == "classref":
                    tok = Token(CLASSREF, pos, end, value)
                elif kind == "number":
                    tok = Token(NUMBER, pos, end, value)
                elif kind == "name":
                    tok = Token(WORD if m.group("dash") else NAME, pos, end, value)
                else:
                    tok = Token(PUNCT, pos, end, value)
                    if in_interpolation:
                        if value == "{":
                            braces += 1
                        elif value == "}":
                            if braces == 0:
                                return out, end
                            braces -= 1
                pos = end
            if tok is None:
                return out, n
            out.append(tok)
            last = tok
        if in_interpolation:
            self.errors.append(LexError(n, n, "Unclosed interpolation"))
        return out, n

    @staticmethod
    def regex_acceptable(last: Token | None) -> bool:
        if last is None:
            return True
        if last.kind == NAME and last.text in _KEYWORDS:
            return True
        if last.kind in _NO_REGEX_AFTER:
            return False
        return not (last.kind == PUNCT and last.text in _NO_REGEX_AFTER_PUNCT)

    def single(self, pos: int) -> tuple[Token | None, int]:
        text = self.text
        i = pos + 1
        chunks: list[str] = []
        while True:
            m = _SQ_STOP.search(text, i)
            j = m.start() if m else -1
            if j < 0:
                self.errors.append(LexError(pos, len(text), 'Unclosed quote after "\'"'))
                return None, len(text)
            chunks.append(text[i:j])
            if text[j] == "'":
                return Token(SQ, pos, j + 1, "".join(chunks), inner=(pos + 1, j)), j + 1
            nxt = text[j + 1 : j + 2]
            chunks.append(_SQ_ESCAPES.get(nxt, "\\" + nxt))
            i = j + 2

    def double(self, pos: int, depth: int) -> tuple[Token | None, int]:
        text = self.text
        n = len(text)
        i = pos + 1
        parts: list[tuple[int, int, str] | list[Token]] = []
        lit_start = i
        chunks: list[str] = []

        def flush(end: int) -> None:
            if end > lit_start or chunks:
                parts.append((lit_start, end, "".join(chunks)))

        while True:
            m = _DQ_STOP.search(text, i)
            j = m.start() if m else -1
            if j < 0:
                self.errors.append(LexError(pos, n, "Unclosed quote after '\"'"))
                return None, n
            chunks.append(text[i:j])
            ch = text[j]
            if ch == '"':
                flush(j)
                value = "".join(p[2] for p in parts if isinstance(p, tuple))
                return Token(DQ, pos, j + 1, value, parts=parts, inner=(pos + 1, j)), j + 1
            if ch == "\\":
                nxt = text[j + 1 : j + 2]
                if nxt == "u":
                    m = _UNICODE.match(text, j + 1)
                    if m:
                        try:
                            chunks.append(chr(int(m.group(1) or m.group(2), 16)))
                        except ValueError:
                            chunks.append("\ufffd")
                        i = m.end()
                        continue
                if nxt == "\n":
                    chunks.append("\\\n")
                else:
                    chunks.append(_DQ_ESCAPES.get(nxt, "\\" + nxt))
                i = j + 2
                continue
            # "$": an interpolation, or a plain dollar
            if text.startswith("${", j):
                flush(j)
                if depth >= MAX_DEPTH:
                    self.errors.append(LexError(j, j + 2, "Interpolations nested too deep"))
                    return None, n
                inner, end = self.scan(j + 2, depth + 1, in_interpolation=True)
                parts.append(inner)
                i = lit_start = end
                chunks = []
                continue
            m = _DQ_VAR.match(text, j)
            if m:
                flush(j)
                parts.append([Token(VARIABLE, j, m.end(), m.group()[1:])])
                i = lit_start = m.end()
                chunks = []
                continue
            chunks.append("$")
            i = j + 1

    def regex(self, pos: int) -> tuple[Token | None, int]:
        text = self.text
        end = text.find("/", pos + 1)
        while end >= 0 and _escaped(text, pos + 1, end):
            end = text.find("/", end + 1)
        if end < 0:  # Puppet then lexes a division
            return Token(PUNCT, pos, pos + 1, "/"), pos + 1
        return Token(REGEX, pos, end + 1, text[pos + 1 : end]), end + 1

    def heredoc(self, pos: int) -> tuple[Token | None, int]:
        text = self.text
        m = _HEREDOC_TAG.match(text, pos, pos + _MAX_HEREDOC_TAG)
        if m is None:
            return Token(PUNCT, pos, pos + 1, "@"), pos + 1
        tag = m.group(1).strip()
        interpolating = len(tag) >= 2 and tag.startswith('"') and tag.endswith('"')
        if interpolating:
            tag = tag[1:-1].strip()
        if not tag:
            self.errors.append(LexError(pos, m.end(), "Heredoc without end-tag"))
            return Token(HEREDOC, pos, m.end(), ""), m.end()
        tok = Token(HEREDOC, pos, m.end(), tag)
        self.pending.append((tag, tok, interpolating))
        return tok, m.end()

    def skip_heredoc_bodies(self, pos: int) -> int:
        """Past the bodies of the heredocs opened on the line that just ended; the
        interpolations of a ``@("TAG")`` body are lexed into its token's parts."""
        text = self.text
        n = len(text)
        pending, self.pending = self.pending, []
        for tag, tok, interpolating in pending:
            end_line = re.compile(
                r"[ \t]*(?:\|[ \t]*)?(?:-[ \t]*)?" + re.escape(tag) + r"[ \t]*\r?$"
            )
            start = pos
            while True:
                if pos >= n:
                    self.errors.append(LexError(start, n, f"Heredoc without end-tag '{tag}'"))
                    return n
                eol = text.find("\n", pos)
                line_end = n if eol < 0 else eol
                if end_line.search(text, pos, line_end):
                    if interpolating:
                        tok.parts = self.interpolations(start, pos)
                    pos = line_end + 1
                    break
                pos = line_end + 1
        return pos

    def interpolations(self, start: int, end: int) -> list[tuple[int, int, str] | list[Token]]:
        parts: list[tuple[int, int, str] | list[Token]] = []
        i = start
        while True:
            j = self.text.find("${", i, end)
            if j < 0:
                return parts
            # bounded by the body: an unclosed one must not lex the rest of the file again
            inner, i = self.scan(j + 2, 1, in_interpolation=True, stop=end)
            parts.append(inner)


def _escaped(text: str, start: int, slash: int) -> bool:
    """The ``/`` at ``slash`` is preceded by an odd number of backslashes."""
    count = 0
    i = slash - 1
    while i >= start and text[i] == "\\":
        count += 1
        i -= 1
    return count % 2 == 1


def lex(text: str) -> Lexed:
    """The tokens of a .pp file (comments and whitespace dropped), and what Puppet would refuse
    to lex; lexing stops at an unclosed string or comment."""
    lexer = _Lexer(text)
    tokens = lexer.run()
    return Lexed(tokens, lexer.errors)
