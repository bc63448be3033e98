"""Seeded random Puppet manifests, for comparing hiera-ls's code reader with Puppet's parser.

``generate(seed)`` writes the text of one .pp file: classes, defined types, type aliases and
functions whose parameters have random type expressions (nested Struct, Variant, Enum with
awkward strings, Pattern with regexes) and random defaults (hashes, arrays, calls, method
chains, lambdas, selectors, operators, interpolated strings, regexes, heredocs), with bodies
that look keys up and include classes every way Puppet allows.  Between tokens it puts
whatever Puppet lets a person put there: spaces, tabs, line breaks, ``#`` and ``/* */``
comments.  The generator predicts nothing: Puppet says what the file declares.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

WORDS = ["web", "db", "port", "mode", "x", "ensure", "name_2", "a_b"]
SIMPLE_TYPES = [
    "String",
    "Integer",
    "Boolean",
    "Any",
    "Data",
    "Scalar",
    "Undef",
    "Float",
    "Numeric",
    "Stdlib::Absolutepath",
    "Tricky::Port",
    "Hash",
    "Array",
    "Regexp",
    "Callable",
]
AWKWARD_STRINGS = ["a", "b,c", "d)", "e]", "f}", "g#h", "i/*j*/", "k'l", 'm"n', "é✓", "😀"]
REGEXES = ["/^a+$/", "/a,b/", r"/\//", r"/[\]}]/", "/(x|y)?/", "/#/"]
FUNCTIONS = ["lookup", "hiera", "hiera_array", "hiera_hash", "hiera_include"]
INCLUDERS = ["include", "contain", "require"]


@dataclass(frozen=True, slots=True)
class Tok:
    """A piece of code; ``glue`` when nothing may separate it from the piece before
    (``Integer[``, ``f(``, ``$a.b``), ``line`` when a line break follows it."""

    text: str
    glue: bool = False
    line: bool = False
    heredoc: str = ""  # a heredoc opener's body (and end tag line)


class _Gen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.heredocs: list[str] = []  # bodies owed after the line being rendered
        self.count = 0

    # -- pieces ---------------------------------------------------------------------------

    def name(self) -> str:
        self.count += 1
        return f"{self.rng.choice(WORDS)}{self.count}"

    def string(self) -> list[Tok]:
        rng = self.rng
        text = rng.choice(AWKWARD_STRINGS)
        if rng.random() < 0.5:
            return [Tok("'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'")]
        escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$")
        if rng.random() < 0.5:
            inner = rng.choice(["${x}", "${facts['os']['family']}", "${join(['a', 'b)'], ',')}"])
            escaped += inner
        return [Tok('"' + escaped + '"')]

    def type_expr(self, depth: int = 0) -> list[Tok]:
        rng = self.rng
        if depth > 2 or rng.random() < 0.35:
            return [Tok(rng.choice(SIMPLE_TYPES))]
        kind = rng.randrange(9)
        if kind == 0:
            return [Tok("Integer"), Tok("[", glue=True), Tok("1"), Tok(","), Tok("65535"), Tok("]")]
        if kind == 1:
            inner = self.type_expr(depth + 1)
            return [
                Tok(rng.choice(["Optional", "Array", "Sensitive", "NotUndef"])),
                Tok("[", True),
                *inner,
                Tok("]"),
            ]
        if kind == 2:
            a, b = self.type_expr(depth + 1), self.type_expr(depth + 1)
            return [Tok("Variant"), Tok("[", True), *a, Tok(","), *b, Tok("]")]
        if kind == 3:
            v = self.type_expr(depth + 1)
            return [Tok("Hash"), Tok("[", True), Tok("String"), Tok(","), *v, Tok("]")]
        if kind == 4:
            items: list[Tok] = []
            for i in range(rng.randint(1, 3)):
                if i:
                    items.append(Tok(","))
                items.extend(self.string_plain())
            return [Tok("Enum"), Tok("[", True), *items, Tok("]")]
        if kind == 5:
            return [Tok("Pattern"), Tok("[", True), Tok(rng.choice(REGEXES)), Tok("]")]
        if kind == 6:
            entries: list[Tok] = []
            for i in range(rng.randint(1, 3)):
                if i:
                    entries.append(Tok(","))
                key = [Tok(self.name())]
                if rng.random() < 0.4:
                    key = [Tok("Optional"), Tok("[", True), Tok(f"'{self.name()}'"), Tok("]")]
                entries.extend([*key, Tok("=>"), *self.type_expr(depth + 1)])
            if rng.random() < 0.3:
                entries.append(Tok(","))
            return [Tok("Struct"), Tok("[", True), Tok("{"), *entries, Tok("}"), Tok("]")]
        if kind == 7:
            a, b = self.type_expr(depth + 1), self.type_expr(depth + 1)
            return [Tok("Tuple"), Tok("[", True), *a, Tok(","), *b, Tok("]")]
        return [Tok("String"), Tok("[", True), Tok("1"), Tok("]")]

    def string_plain(self) -> list[Tok]:
        text = self.rng.choice(AWKWARD_STRINGS)
        return [Tok("'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'")]

    def value(self, depth: int = 0, top: bool = False) -> list[Tok]:
        rng = self.rng
        if depth > 2 or rng.random() < 0.3:
            return self.literal()
        kind = rng.randrange(11)
        if kind == 0:
            items: list[Tok] = []
            for i in range(rng.randint(0, 3)):
                if i:
                    items.append(Tok(","))
                items.extend(self.value(depth + 1))
            if items and rng.random() < 0.3:
                items.append(Tok(","))
            return [Tok("["), *items, Tok("]")]
        if kind == 1:
            entries: list[Tok] = []
            for i in range(rng.randint(0, 3)):
                if i:
                    entries.append(Tok(","))
                entries.extend([*self.string(), Tok("=>"), *self.value(depth + 1)])
            if entries and rng.random() < 0.3:
                entries.append(Tok(","))
            return [Tok("{"), *entries, Tok("}")]
        if kind == 2:
            return [Tok("lookup"), Tok("(", True), *self.key(), Tok(")")]
        if kind == 3:
            args = self.value(depth + 1)
            return [
                Tok(rng.choice(["join", "pick", "String", "Integer"])),
                Tok("(", True),
                *args,
                Tok(")"),
            ]
        if kind == 4:
            return [
                Tok("$facts"),
                Tok("[", True),
                Tok("'os'"),
                Tok("]"),
                Tok(".", True),
                Tok("downcase", True),
            ]
        if kind == 5:
            return [
                Tok("["),
                Tok("1"),
                Tok(","),
                Tok("2"),
                Tok("]"),
                Tok(".", True),
                Tok("map", True),
                Tok("|"),
                Tok("$v", True),
                Tok("|", True),
                Tok("{"),
                *self.value(depth + 1),
                Tok("}"),
            ]
        if kind == 6:
            return [
                Tok("$facts"),
                Tok("[", True),
                Tok("'k'"),
                Tok("]"),
                Tok("?"),
                Tok("{"),
                *self.string(),
                Tok("=>"),
                *self.value(depth + 1),
                Tok(","),
                Tok("default"),
                Tok("=>"),
                *self.value(depth + 1),
                Tok("}"),
            ]
        if kind == 7:
            return [Tok("1024"), Tok(rng.choice(["*", "+", "-", "/", "%"])), Tok("2")]
        if kind == 8:
            tag = f"END{self.count}"
            self.count += 1
            body = rng.choice(["text (a, b) ]", "${x} and ${lookup('k')}", "plain"])
            return [Tok(f"@({tag})", heredoc=f"  {body}\n  | {tag}\n")]
        if kind == 9:
            return [Tok(rng.choice(REGEXES))]
        return [Tok("-"), Tok("1", True)]

    def literal(self) -> list[Tok]:
        rng = self.rng
        choice = rng.randrange(7)
        if choice < 3:
            return self.string()
        return [Tok(rng.choice(["1", "0x1F", "1.5e3", "true", "false", "undef", "bare_word"]))]

    def key(self) -> list[Tok]:
        """A lookup's first argument: a literal key mostly, else every other form Puppet
        takes (a bare word, an array of names, lookup's options hash, a built key)."""
        rng = self.rng
        r = rng.random()
        if r < 0.6:
            return [Tok(f"'tricky::{self.name()}'")]
        if r < 0.7:
            return [Tok(f"tricky::{self.name()}")]
        if r < 0.8:
            return [
                Tok("["),
                Tok(f"'tricky::{self.name()}'"),
                Tok(","),
                Tok(f'"tricky::{self.name()}"'),
                Tok("]"),
            ]
        if r < 0.9:
            return [Tok("\"tricky::${facts['x']}::" + self.name() + '"')]
        return [Tok(f"'Tricky::{self.name()}'")]

    # -- statements ---------------------------------------------------------------------------

    def params(self) -> list[Tok]:
        rng = self.rng
        toks: list[Tok] = [Tok("(")]
        for i in range(rng.randint(0, 5)):
            if i:
                toks.append(Tok(","))
            if rng.random() < 0.7:
                toks.extend(self.type_expr())
            toks.append(Tok("$" + self.name()))
            if rng.random() < 0.7:
                toks.append(Tok("="))
                toks.extend(self.value(top=True))
        if rng.random() < 0.3 and len(toks) > 1:
            toks.append(Tok(","))
        toks.append(Tok(")"))
        return toks

    def body(self, depth: int = 0) -> list[Tok]:
        rng = self.rng
        toks: list[Tok] = [Tok("{")]
        for _ in range(rng.randint(0, 5)):
            kind = rng.randrange(10)
            cls = f"tricky::{self.name()}"
            if kind == 0:
                fn = rng.choice(FUNCTIONS)
                toks.extend(
                    [
                        Tok("$" + self.name()),
                        Tok("="),
                        Tok(fn),
                        Tok("(", True),
                        *self.key(),
                        Tok(")"),
                    ]
                )
            elif kind == 5 and depth < 1:
                inner = Tok(self.name())  # a nested definition: Puppet qualifies its name
                toks.extend(
                    [
                        Tok(rng.choice(["class", "define"])),
                        inner,
                        *self.params(),
                        *self.body(depth + 1),
                    ]
                )
            elif kind == 6:
                toks.extend(
                    [
                        Tok("include"),
                        Tok(f"'{cls}'"),
                        Tok(","),
                        Tok(f"{cls}_b"),
                        Tok(","),
                        Tok("Class"),
                        Tok("[", True),
                        Tok(f"'{cls}_c'"),
                        Tok("]"),
                    ]
                )
            elif kind == 7:
                toks.extend(
                    [
                        Tok("class"),
                        Tok("{"),
                        Tok(f"'::{cls}'"),
                        Tok(":", True),
                        Tok(self.name()),
                        Tok("=>"),
                        *self.value(1),
                        Tok(","),
                        Tok("}"),
                    ]
                )
            elif kind == 8:
                toks.extend(
                    [
                        Tok("if"),
                        Tok("$" + self.name()),
                        Tok("{"),
                        Tok(rng.choice(INCLUDERS)),
                        Tok(cls),
                        Tok("}"),
                        Tok("else"),
                        Tok("{"),
                        Tok("file"),
                        Tok("{"),
                        *self.string(),
                        Tok(":", True),
                        Tok("require"),
                        Tok("=>"),
                        Tok("Class"),
                        Tok("[", True),
                        Tok(f"'{cls}_r'"),
                        Tok("]"),
                        Tok("}"),
                        Tok("}"),
                    ]
                )
            elif kind == 9:
                toks.extend(
                    [
                        Tok("$" + self.name()),
                        Tok("="),
                        *self.key(),
                        Tok(".", True),
                        Tok("lookup", True),
                    ]
                )
            elif kind == 1:
                toks.extend(
                    [Tok(rng.choice(INCLUDERS)), Tok(rng.choice([cls, "::" + cls, f"'{cls}'"]))]
                )
            elif kind == 2:
                toks.extend([Tok("class"), Tok("{"), Tok(f"'{cls}'"), Tok(":", True), Tok("}")])
            elif kind == 3:
                toks.extend([Tok(f"'{cls}'"), Tok(".", True), Tok(rng.choice(INCLUDERS), True)])
            else:
                toks.extend([Tok("$" + self.name()), Tok("="), *self.value(top=True)])
            toks.append(Tok("", line=self.rng.random() < 0.5))
        toks.append(Tok("}"))
        return toks

    def definition(self) -> list[Tok]:
        rng = self.rng
        kind = rng.randrange(5)
        name = f"tricky::{self.name()}"
        if kind == 0:
            return [Tok("type"), Tok(name.title()), Tok("="), *self.type_expr(), Tok("", line=True)]
        if kind == 1:
            return [Tok("define"), Tok(name), *self.params(), *self.body()]
        if kind == 2:
            head = [Tok("function"), Tok(name), *self.params()]
            if rng.random() < 0.5:
                head.extend([Tok(">>"), *self.type_expr()])
            return [*head, Tok("{"), *self.literal(), Tok("}")]
        if kind == 3 and rng.random() < 0.3:
            regex = rng.choice(["/^web\\d+\\./", "/^db[12]\\.example\\./", "'a.example.com'"])
            return [Tok("node"), Tok(regex), *self.body()]
        head = [Tok("class"), Tok(name)]
        if rng.random() < 0.8:
            head.extend(self.params())
        if rng.random() < 0.3:
            head.extend([Tok("inherits"), Tok("tricky")])
        return [*head, *self.body()]

    # -- text -----------------------------------------------------------------------------

    def separator(self) -> str:
        rng = self.rng
        r = rng.random()
        if r < 0.6:
            return " "
        if r < 0.75:
            return "\n  "
        if r < 0.82:
            return "\t"
        if r < 0.9:
            return " # a comment, with ) and ]\n  "
        return " /* a ) comment */ "

    def render(self, toks: list[Tok]) -> str:
        """The tokens with separators between them; a heredoc's body goes right after the
        first line break that follows its opener, as Puppet reads it."""
        out: list[str] = []
        for tok in toks:
            if out and not tok.glue:
                self.emit(out, self.separator())
            out.append(tok.text)
            if tok.heredoc:
                self.heredocs.append(tok.heredoc)
            if tok.line:
                self.emit(out, "\n")
        self.emit(out, "\n")
        return "".join(out)

    def emit(self, out: list[str], separator: str) -> None:
        before, newline, after = separator.partition("\n")
        out.append(before + newline)
        if newline:
            out.extend(self.heredocs)
            self.heredocs.clear()
        out.append(after)


def generate(seed: int) -> str:
    """The text of one .pp file: a few definitions, made from ``seed`` alone."""
    gen = _Gen(seed)
    parts = []
    for _ in range(gen.rng.randint(1, 4)):
        toks = gen.definition()
        parts.append(gen.render(toks))
    text = "\n".join(parts) + "\n"
    if gen.rng.random() < 0.1:
        text = text.replace("\n", "\r\n")  # Windows line endings
    return text
