"""Interpolation tokens (``%{...}``) that Puppet refuses, ignores, or reads differently.

Puppet's rules (puppet/pops/lookup/interpolation.rb, verified on Puppet 7.23): the stripped
expression is a method call only if it matches ``name('arg')`` / ``name("arg")`` exactly; anything
else is a variable path, split like a lookup key, and a split failure is ``Syntax error in
string``.  A token ends at the first ``}``; an unclosed ``%{`` stays literal text.

The checks here need nothing but the string itself; whether a looked-up key exists, or a
variable is defined for a node, is for the reference and profile checks.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from hiera_ls.checks import interpolation_fixes as fixes
from hiera_ls.checks.hiera_functions import HIERA_FUNCTION, data_token_message
from hiera_ls.checks.legacy_facts import LEGACY_FACT, LegacyFacts
from hiera_ls.project.legacy_facts import legacy_fact
from hiera_ls.puppet.message import Text, as_value
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.interpolation import (
    CALL_LIKE_RE,
    METHODS,
    Token,
    TokenKind,
    scan,
    unterminated_at,
)
from hiera_ls.source.keys import KeySyntaxError, LookupKey, Segment, split_key
from hiera_ls.source.loader_rules import YAML_SYNTAX
from hiera_ls.source.rules import Needs, Payload, Rule
from hiera_ls.source.scalars import Locator, StringSite, iter_strings
from hiera_ls.source.spans import NO_DETAILS, Details, Problem, Severity, Span

SpanOf = Callable[[int, int], Span]

E, W = Severity.ERROR, Severity.WARNING

UNQUOTED = Rule(
    "interpolation-unquoted",
    E,
    "A plain YAML value starts with %{: YAML cannot parse it, so Puppet refuses the whole file",
    payload=Payload.VALUES,
    fix=fixes.unquoted_value,
    fix_safe=True,
    cause=True,
)
SYNTAX_ERROR = Rule(
    "interpolation-syntax-error",
    E,
    "A token Puppet cannot read (spaces in a call, two arguments, brackets, a bad key): the "
    "lookup fails",
    payload=Payload.VALUES,
    fix=fixes.syntax_error,
    fix_safe=True,
    cause=True,
)
UNKNOWN_METHOD = Rule(
    "interpolation-unknown-method",
    E,
    "%{name('x')} with a method other than lookup, hiera, alias, literal, scope: the lookup fails",
    fix=fixes.unknown_method,
    fix_safe=True,
    cause=True,
)
ALIAS_NOT_WHOLE = Rule(
    "interpolation-alias-not-whole",
    E,
    "%{alias('k')} with other text around it: the lookup fails",
    fix=fixes.alias_not_whole,
    cause=True,
)
UNTERMINATED = Rule(
    "interpolation-unterminated",
    W,
    "A %{ without a closing }: Puppet keeps the text literally",
    fix=fixes.keep_percent,
)
LITERAL_ARGUMENT = Rule(
    "interpolation-literal-argument",
    W,
    "%{literal('x')} with x other than %: it is just the text x",
    payload=Payload.VALUES,
    fix=fixes.literal_argument,
    fix_safe=True,
)
UNQUOTED_ARGUMENT = Rule(
    "interpolation-unquoted-argument",
    W,
    "%{lookup(a)}: an unquoted argument makes Puppet read a variable named 'lookup(a)'",
    fix=fixes.unquoted_argument,  # not safe: under Puppet 7's defaults it changes the value
)
NOT_A_VARIABLE = Rule(
    "interpolation-not-a-variable",
    W,
    "%{[beat.version]}: text that cannot name a Puppet variable, read as an undefined one",
    fix=fixes.keep_percent,
)
TOP_SCOPE_VARIABLE = Rule(
    "interpolation-top-scope-variable",
    W,
    "%{role}: a bare variable can be hidden by a local one; write %{::role} or, for a fact, "
    "%{facts.role}",
    fix=fixes.top_scope_variable,
)
COLLECTION_IN_STRING = Rule(  # found by the profile check (checks/profile.py)
    "interpolation-collection-in-string",
    W,
    "For the active profile, a looked-up Array or Hash is turned into Ruby's text inside a string",
    needs=Needs.PROFILE,
    payload=Payload.VALUES,
    fix=fixes.collection_in_string,
)
RULES = (
    UNQUOTED,
    SYNTAX_ERROR,
    UNKNOWN_METHOD,
    ALIAS_NOT_WHOLE,
    UNTERMINATED,
    LITERAL_ARGUMENT,
    UNQUOTED_ARGUMENT,
    NOT_A_VARIABLE,
    TOP_SCOPE_VARIABLE,
    COLLECTION_IN_STRING,
)

KEY_METHODS = frozenset({"lookup", "hiera", "alias"})
# Variables that are meant to be read without ``::``: Puppet's own top-scope hashes, and the
# names that are local to the scope running the lookup (module_name) or Hiera 3 leftovers.
UNQUALIFIED_OK = frozenset(
    {
        "facts",
        "trusted",
        "server_facts",
        "environment",
        "module_name",
        "calling_module",
        "calling_class",
        "calling_class_path",
    }
)
METHOD_LIST = "alias, hiera, literal, lookup and scope"


def token_problems(
    value: str,
    span_of: SpanOf,
    path: str,
    *,
    config: bool = False,
    local_variable: str | None = None,
    key: str | None = None,
    legacy: LegacyFacts | None = None,
    node_scope: frozenset[str] = frozenset(),
) -> list[Problem]:
    """Problems of one string's tokens; ``span_of(start, end)`` maps value offsets to source.

    ``config`` is for hiera.yaml strings (method calls there are hiera_config's business);
    ``local_variable`` is the name a mapped_paths entry binds for its own template; ``key``:
    the data's root key whose value holds the string (lookups of it fail on a bad token);
    ``legacy``: the target sends no legacy facts (checks/legacy_facts.py), None: it does.
    ``node_scope``: the variables the code's node definitions set (CodeIndex.node_variables).
    """
    out: list[Problem] = []
    context = _Context(path, span_of, config, local_variable, key, legacy, node_scope)
    for token in scan(value):
        found = _token_problem(value, token, context)
        if found is not None:
            out.append(found)
    start = unterminated_at(value)
    if start is not None:
        out.append(
            UNTERMINATED.at(
                "This `%{` has no closing `}`: Puppet does not interpolate it and keeps the text "
                "as it is (to write a literal `%{`, use `%{literal('%')}{`)",
                path,
                span_of(start, len(value)),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class _Context:
    """Where one string's tokens are, and what its checks need to know."""

    path: str
    span_of: SpanOf
    config: bool
    local_variable: str | None
    key: str | None
    legacy: LegacyFacts | None
    node_scope: frozenset[str]


Report = Callable[..., Problem]


def _token_problem(value: str, token: Token, context: _Context) -> Problem | None:
    def report(rule: Rule, message: str | Text, suggestions: tuple[str, ...] = ()) -> Problem:
        details = Details(key=context.key, suggestions=suggestions)
        return rule.at(
            message,
            context.path,
            context.span_of(token.start, token.end),
            details if details != NO_DETAILS else None,
        )

    if token.kind is TokenKind.EMPTY:
        return None
    if token.kind is TokenKind.METHOD:
        if context.config:
            return None  # hiera_config reports every method call in hiera.yaml
        method, argument = token.method or "", token.argument or ""
        if method not in METHODS:
            return report(UNKNOWN_METHOD, _unknown_method(method))
        if method == "alias" and value != token.text:
            return report(
                ALIAS_NOT_WHOLE,
                "Puppet fails the lookup with: 'alias' interpolation is only permitted if the "
                "expression is equal to the entire string. Make the value exactly "
                f"\"%{{alias('{argument}')}}\", or use %{{lookup('{argument}')}} to embed the "
                "value as text",
            )
        if method in KEY_METHODS:
            try:
                LookupKey.parse(argument)
            except KeySyntaxError:
                return report(
                    SYNTAX_ERROR, f"Puppet fails the lookup with: Syntax error in key: '{argument}'"
                )
            if method == "hiera":
                return report(HIERA_FUNCTION, data_token_message(token.text))
            return None
        if method == "literal":
            if argument == "%":
                return None
            text = as_value(argument)
            return report(
                LITERAL_ARGUMENT,
                Text.of(
                    "%{literal('",
                    text,
                    "')} is just the text '",
                    text,
                    "': literal() is meant for a `%` that Puppet must not interpolate "
                    "(%{literal('%')}); write '",
                    text,
                    "' directly",
                ),
            )
        # scope('var')
        return _variable_problem(value, argument, report, context, scope_call=True)
    return _variable_problem(value, token.expression, report, context, scope_call=False)


def _variable_problem(
    value: str, expression: str, report: Report, context: _Context, scope_call: bool
) -> Problem | None:
    segments = split_key(expression)
    if segments is None:
        return report(
            SYNTAX_ERROR,
            Text.of(
                "Puppet fails the lookup with: Syntax error in string: ",
                as_value(value),
                f". {_syntax_hint(expression)}",
            ),
        )
    call = CALL_LIKE_RE.match(expression)
    if call is not None and not scope_call:
        name = call.group(1)
        argument = expression[call.end() :].rstrip()
        argument = argument[:-1] if argument.endswith(")") else argument
        return report(
            UNQUOTED_ARGUMENT,
            f"Puppet reads `{expression}` as the name of a variable, not as a call of {name}(): "
            f"with strict_variables the lookup fails with Undefined variable '{segments[0]}', "
            f"otherwise it gives ''. Quote the argument: %{{{name}('{argument.strip()}')}}",
        )
    root = str(segments[0])
    if not _VARIABLE_NAME.match(root):
        return report(
            NOT_A_VARIABLE,
            f"Puppet reads `{expression.strip()}` as a variable named '{root}', which no scope can "
            "hold: with strict_variables (Puppet 8's default) the lookup fails with Undefined "
            f"variable '{root}', otherwise it gives ''. Text meant for another tool (Logstash, "
            f"Fluentd) keeps its %{{ with %{{literal('%')}}{{{expression.strip()}}}",
        )
    if root in context.node_scope:
        # a node definition sets it (node default { $role = ... }): Puppet reads it from node
        # scope, where %{::role} (top scope) and %{facts.role} would not
        return None
    if context.legacy is not None:
        found = context.legacy.finding(segments, context.local_variable, config=context.config)
        if found is not None:
            return report(LEGACY_FACT, found.message, found.suggestions)
    if root.startswith("::") or root in UNQUALIFIED_OK or root == context.local_variable:
        return None
    if "::" in root:
        # a qualified name (%{passwords::cassandra::super_password}) names a class's variable:
        # no local variable can hide it, and no fact is named so
        return None
    rest = expression.strip()
    return report(
        TOP_SCOPE_VARIABLE,
        f"Puppet looks up '{root}' in the scope that runs the lookup, where a local variable of "
        f"that name hides the top-scope one: write %{{::{rest}}} for the top-scope variable, or "
        f"{_fact_token(segments)} for the fact",
    )


def _fact_token(segments: list[Segment]) -> str:
    """The token that reads a variable as a fact: a legacy fact's structured one."""
    name = str(segments[0])
    fact = legacy_fact(name)
    if fact is not None and fact.exact and not fact.per_instance:
        name = fact.modern
    return "%{facts." + ".".join([name, *(str(s) for s in segments[1:])]) + "}"


def _unknown_method(method: str) -> str:
    text = (
        f"Puppet fails the lookup with: Unknown interpolation method '{method}' (the methods are "
        f"{METHOD_LIST})"
    )
    near = [m for m in sorted(METHODS) if m.lower() == method.lower()]
    if near:
        text += f"; method names are case-sensitive: write {near[0]}"
    return text


# Names a scope can hold: Puppet's lexer takes word characters and `::`; facts, which become
# top-scope variables, may also hold `-`.
_VARIABLE_NAME = re.compile(r"^(?:::)?[\w-]+(?:::[\w-]+)*$")
_SPACED_CALL = re.compile(r"^\s*(\w+)\s*\(\s*(['\"])([^'\"]+)\2\s*\)\s*$")


def _syntax_hint(expression: str) -> str:
    spaced = _SPACED_CALL.match(expression)
    if spaced is not None:
        return (
            "A call takes one quoted argument with no spaces inside the parentheses: "
            f"%{{{spaced.group(1)}('{spaced.group(3)}')}}"
        )
    if CALL_LIKE_RE.match(expression):
        return (
            "A call takes exactly one non-empty quoted argument, with no spaces inside the "
            "parentheses, e.g. %{lookup('key')}"
        )
    if "[" in expression:
        return "Dig into a variable with dots, not brackets: e.g. %{facts.os.family}"
    return (
        "A token holds a variable name (dots to dig in, quotes around a segment that contains "
        "dots) or one call such as %{lookup('key')}"
    )


# --------------------------------------------------------------------------- data files


def check_data_tokens(
    path: str,
    data_file: DataFile,
    locator: Locator,
    legacy: LegacyFacts | None = None,
    node_scope: frozenset[str] = frozenset(),
) -> list[Problem]:
    """Token problems of every string (values and keys) of one data file; ``node_scope`` as
    :func:`token_problems`'."""
    out: list[Problem] = []
    if not locator.may_have_tokens:
        return out
    written: set[Span] = set()  # a string a merge key (<<: *anchor) copies is reported once
    for site in iter_strings(data_file, locator.lines):
        if site.alias or site.scalar in written:
            continue
        written.add(site.scalar)
        root = site.root_key
        key = root if isinstance(root, str) and not site.in_key else None
        span_of = _span_of(locator, site)
        out.extend(
            token_problems(site.value, span_of, path, key=key, legacy=legacy, node_scope=node_scope)
        )
    return out


def _span_of(locator: Locator, site: StringSite) -> SpanOf:
    return lambda start, end: locator.span(site, start, end)


# --------------------------------------------------------------------------- YAML errors

_VALUE_START = re.compile(r"(?:^|[:\-?,\[{])\s*$")


def unquoted_token_problem(syntax: Problem, text: str) -> Problem | None:
    """A clearer message for libyaml's error when a plain value starts with ``%{``.

    ``%`` may not start a plain scalar (it is YAML's directive indicator), so ``key: %{x}``
    makes the whole file unparsable; the error libyaml reports says nothing about quoting.
    """
    if syntax.code != YAML_SYNTAX.code:
        return None
    where = syntax.where.span.start
    lines = text.splitlines()
    if where.line >= len(lines):
        return None
    line = lines[where.line]
    column = where.column
    if line[column : column + 2] != "%{":
        if column == 1 and line.startswith("%{"):  # at a line start libyaml reads a directive
            column = 0
        else:
            return None
    if not _VALUE_START.search(line[:column]):
        return None
    close = line.find("}", column)
    end = len(line.rstrip()) if close < 0 else close + 1
    return UNQUOTED.at(
        Text.of(
            "A plain YAML value cannot start with `%`: put the whole value in quotes "
            '(key: "%{...}"). Puppet cannot load this file: ',
            syntax.text,
        ),
        syntax.where.path,
        Span.of(where.line, column, where.line, end),
    )
