"""Quick fixes of interpolation tokens: the call Puppet evidently meant (``%{lookup('k')}``
quoted, spaced or capitalised), the text kept as written (``%{literal('%')}``), the fact or
top-scope variable named explicitly. Each re-reads the token under the problem's range."""

from __future__ import annotations

import re

from hiera_ls.project.legacy_facts import legacy_fact
from hiera_ls.source.fix_source import FixSource, Scalar
from hiera_ls.source.spans import Position, Problem, Span
from hiera_ls.source.text_edits import Fix, TextEdit, edit
from hiera_ls.source.yaml_edits import next_content_line, one_line, quoted

METHODS = ("alias", "hiera", "literal", "lookup", "scope")


def _style_quote(problem: Problem, src: FixSource) -> tuple[Scalar, str]:
    """The scalar holding the token, and the quote to write a call's argument with."""
    scalar = src.scalar_at(problem.where.span)
    if scalar is None:
        raise ValueError("no scalar")
    return scalar, '"' if scalar.style == "'" else "'"


def _token(problem: Problem, src: FixSource) -> tuple[Span, str]:
    span = one_line(problem)
    written = src.at(span)
    if not written.startswith("%{"):
        raise ValueError("not a token")
    return span, written


# An argument quote as written in any scalar style: ', '' (single-quoted), " or \" (double).
ARGUMENT_QUOTE = _Q = r"(?:''|'|\\\"|\")"


def unknown_method(problem: Problem, src: FixSource) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.match(r"%\{(\s*)(\w+)\(", written)
    if m is None:
        return []
    near = [name for name in METHODS if name.lower() == m.group(2).lower()]
    if not near:
        return []
    new = written[: m.start(2)] + near[0] + written[m.end(2) :]
    return [Fix(f"Write {near[0]}", edit(span, new), safe=True, preferred=True)]


def alias_not_whole(problem: Problem, src: FixSource) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.match(r"%\{(\s*)alias\(", written)
    if m is None:
        return []
    new = written[: m.end(1)] + "lookup(" + written[m.end() :]
    return [Fix("Embed the value as text with lookup()", edit(span, new), preferred=True)]


def literal_argument(problem: Problem, src: FixSource) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.fullmatch(rf"%\{{\s*literal\(({_Q})(.+?)\1\)\s*\}}", written)
    if m is None:
        return []
    argument = m.group(2)
    scalar = src.scalar_at(span)
    if (
        scalar is None
        or "%" in argument
        or (scalar.style == "" and re.search(r"[:#,\[\]{}]", argument))
    ):
        return []
    before = src.line(span.start.line)[: span.start.column]
    if before.endswith("%") and argument.startswith("{"):
        return []  # would make a new %{ token
    return [Fix("Write the text directly", edit(span, argument), safe=True, preferred=True)]


def unquoted_argument(problem: Problem, src: FixSource) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.fullmatch(r"%\{\s*(\w+)\s*\(\s*([^'\"()]+?)\s*\)\s*\}", written)
    if m is None or m.group(1) not in METHODS:
        return []
    _, q = _style_quote(problem, src)
    new = f"%{{{m.group(1)}({q}{m.group(2)}{q})}}"
    return [Fix(f"Quote the argument: {new}", edit(span, new), safe=True, preferred=True)]


def syntax_error(problem: Problem, src: FixSource) -> list[Fix]:
    """Only the spaced call ``%{lookup( 'b' )}``: the rest has no single evident meaning."""
    span, written = _token(problem, src)
    m = re.fullmatch(rf"%\{{\s*(\w+)\s*\(\s*({_Q})([^'\"]+)\2\s*\)\s*\}}", written)
    if m is None or m.group(1) not in METHODS:
        return []
    new = f"%{{{m.group(1)}({m.group(2)}{m.group(3)}{m.group(2)})}}"
    if new == written:
        return []
    return [Fix(f"Write {new}", edit(span, new), safe=True, preferred=True)]


def keep_percent(problem: Problem, src: FixSource) -> list[Fix]:
    """``%{`` -> ``%{literal('%')}{``: the text stays as written, for another tool to read."""
    span = problem.where.span
    if src.at(Span(span.start, Position(span.start.line, span.start.column + 2))) != "%{":
        return []
    _, q = _style_quote(problem, src)
    new = f"%{{literal({q}%{q})}}{{"
    edit = TextEdit(Span(span.start, Position(span.start.line, span.start.column + 2)), new)
    return [Fix("Keep the text as written: %{literal('%')}{", (edit,), preferred=True)]


def top_scope_variable(problem: Problem, src: FixSource) -> list[Fix]:
    """``%{role}`` -> ``%{facts.role}`` or ``%{::role}``; a legacy fact's name is read as its
    structured fact (``%{osfamily}`` -> ``%{facts.os.family}``), the one Puppet 8 has."""
    span, written = _token(problem, src)
    m = re.match(rf"%\{{\s*(?:scope\(({_Q}))?", written)
    if m is None or not re.match(r"[\w-]", written[m.end() : m.end() + 1]):
        return []
    at = Position(span.start.line, span.start.column + m.end())
    insert = Span(at, at)
    name = re.match(r"[\w-]+", written[m.end() :])
    fact = legacy_fact(name.group(0)) if name is not None else None
    if name is not None and fact is not None and fact.exact and not fact.per_instance:
        start = Position(at.line, at.column)
        end = Position(at.line, at.column + len(name.group(0)))
        read_fact = edit(Span(start, end), f"facts.{fact.modern}")
        title = f"Read the fact: %{{facts.{fact.modern}}}"
    else:
        read_fact, title = edit(insert, "facts."), "Read the fact: %{facts....}"
    return [
        Fix(title, read_fact, preferred=True),
        Fix("Read the top-scope variable: %{::...}", edit(insert, "::")),
    ]


def structured_fact(problem: Problem, src: FixSource) -> list[Fix]:
    """A legacy fact's token -> the structured fact's (``problem.details.suggestions``)."""
    span, _written = _token(problem, src)
    if not problem.details.suggestions:
        return []
    new = problem.details.suggestions[0]
    return [Fix(f"Read the structured fact: {new}", edit(span, new), preferred=True)]


def collection_in_string(problem: Problem, src: FixSource) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.match(r"%\{(\s*)(lookup|hiera)\(", written)
    scalar = src.scalar_at(span)
    if m is None or scalar is None:
        return []
    body = src.at(Span(scalar.start, scalar.end))
    if scalar.style in ("'", '"'):
        body = body[1:-1]
    if body != written:
        return []  # alias() keeps the type only as the whole value
    new = written[: m.start(2)] + "alias" + written[m.end(2) :]
    return [Fix("Keep the value's type with alias()", edit(span, new), preferred=True)]


def unquoted_value(problem: Problem, src: FixSource) -> list[Fix]:
    """``key: %{x} rest`` -> ``key: "%{x} rest"`` (the file does not parse, so by text). In a
    flow collection (``{a: %{x}}``) the value ends where the collection's next entry or its
    end starts, so its closing bracket stays outside the quotes."""
    span = one_line(problem)
    line = src.line(span.start.line)
    rest = line[span.start.column :]
    comment = re.search(r"\s#", rest)
    value = (rest[: comment.start()] if comment else rest).rstrip()
    if not value.startswith("%{"):
        return []
    if _flow_depth(src.text[: src.lines.offset(span.start)]):
        token_end = value.find("}")
        stop = re.search(r"[,\[\]{}]", value[token_end + 1 :]) if token_end > 0 else None
        if token_end < 0:
            return []
        value = value[: token_end + 1 + (stop.start() if stop else len(value))].rstrip()
        if stop is None:
            return []  # the collection goes on past this line: not one evident value
    else:
        following = next_content_line(src, span.start.line)
        indent = len(line) - len(line.lstrip())
        if following is not None and len(following) - len(following.lstrip()) > indent:
            return []  # the plain value may go on over the next lines
    whole = Span(span.start, Position(span.start.line, span.start.column + len(value)))
    return [Fix(f"Quote the value: {quoted(value)}", edit(whole, quoted(value)), True, True)]


def _flow_depth(text: str) -> int:
    """How many flow collections (``[``, ``{``) are open at the end of ``text``: quoted
    scalars and comments skipped."""
    depth = 0
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "'":
            close = text.find("'", i + 1)
            while close >= 0 and text[close + 1 : close + 2] == "'":
                close = text.find("'", close + 2)
            i = n if close < 0 else close + 1
            continue
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c == "#" and (i == 0 or text[i - 1] in " \t\n\r"):
            newline = text.find("\n", i)
            i = n if newline < 0 else newline
            continue
        if c in "[{":
            depth += 1
        elif c in "]}" and depth:
            depth -= 1
        i += 1
    return depth
