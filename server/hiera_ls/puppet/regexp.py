"""Ruby regular expressions (lookup_options keys, knockout patterns) run on ``regex``.

``regex`` is closer to Ruby's Onigmo than ``re``; the Ruby-only syntax is rewritten, and
every match has a time limit, so a pathological pattern in user data cannot hang the server.

Most lookup_options patterns are literal text, anchors and a group of literal alternatives
(``^profile::ssh::(settings|options)$``, ``^.*::users$``): Ruby, ``regex`` and ``re`` read
those alike, and none of them can backtrack for long, so ``re`` runs them and ``regex``
(a tenth of a cold ``hiera-ls lookup``) is imported only for the others.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from hiera_ls.puppet.errors import LookupFailure, RegexpError

if TYPE_CHECKING:
    from typing import TypeAlias

    import regex

    # A compiled Ruby pattern: ``re``'s for the plain ones (see the module's docstring)
    RubyRegex: TypeAlias = re.Pattern[str] | regex.Pattern[str]

# Literal characters, ``^`` and ``$``, at most one ``.*`` or ``.+``, and groups of literal
# alternatives, none nested or repeated: no quantifier on a group, so a match tries each
# group's alternatives once per place, and the one ``.*`` at most once per character.
_LITERAL = r"[A-Za-z0-9_:/\-]"
_PLAIN_RUBY_PATTERN = re.compile(
    rf"\^?(?:{_LITERAL}|\((?:\?:)?(?:{_LITERAL}|\|)*\))*"
    rf"(?:\.[*+](?:{_LITERAL}|\((?:\?:)?(?:{_LITERAL}|\|)*\))*)?\$?"
)
_MAX_PLAIN_GROUPS = 4

_DOT_ALL_FLAG = re.compile(r"\(\?([imx]*)m([imx]*)([):])")

MATCH_TIMEOUT_S = 0.05


def ruby_regex_source(source: str) -> str:
    """Rewrite the Ruby-only parts of a pattern into ``regex`` syntax.

    Ruby: ``\\z`` is end of string (Python ``\\Z``), ``\\Z`` allows a final newline,
    ``\\h`` is a hex digit, ``(?m)`` means dot-all; ``^``/``$`` always match at lines.
    """
    out: list[str] = []
    i = 0
    while i < len(source):
        c = source[i]
        if c == "\\" and i + 1 < len(source):
            n = source[i + 1]
            if n == "z":
                out.append(r"\Z")
            elif n == "Z":
                out.append(r"(?=\n?\Z)")
            elif n == "h":
                out.append("[0-9a-fA-F]")
            elif n == "H":
                out.append("[^0-9a-fA-F]")
            else:
                out.append(c + n)
            i += 2
            continue
        out.append(c)
        i += 1
    text = "".join(out)
    return _DOT_ALL_FLAG.sub(lambda m: f"(?{m.group(1)}s{m.group(2)}{m.group(3)}", text)


def plain_ruby_regex(source: str) -> re.Pattern[str] | None:
    """A plain Ruby pattern (see the module's docstring) compiled by ``re``, else None."""
    if _PLAIN_RUBY_PATTERN.fullmatch(source) and source.count("(") <= _MAX_PLAIN_GROUPS:
        return re.compile(source, re.MULTILINE)
    return None


def compile_ruby_regex(source: str) -> RubyRegex:
    """Compile a Ruby pattern; raises RegexpError with a message naming the pattern."""
    plain = plain_ruby_regex(source)
    if plain is not None:
        return plain
    import regex

    try:
        return regex.compile(ruby_regex_source(source), regex.MULTILINE | regex.VERSION0)
    except (regex.error, ValueError) as e:
        raise RegexpError(f"{e}: /{source}/") from e


class RegexTimeout(LookupFailure):
    """A lookup_options pattern ran out of time on a key: reported, never taken as a miss."""


def regex_search(pattern: RubyRegex, text: str) -> bool:
    """Raises RegexTimeout when the match takes longer than MATCH_TIMEOUT_S and its
    top-level alternatives cannot settle it.

    An unanchored search of ``A|B`` finds a match exactly when ``A`` or ``B`` does, so a
    pattern such as ``^(a|aa)+$|b$`` (whose first branch backtracks for ever) is still
    answered through ``b$``, as Ruby answers it.
    """
    if isinstance(pattern, re.Pattern):  # a plain pattern: it cannot run long
        return pattern.search(text) is not None
    try:
        return pattern.search(text, timeout=MATCH_TIMEOUT_S) is not None
    except TimeoutError:
        settled = _by_alternatives(pattern, text)
        if settled is not None:
            return settled
        raise RegexTimeout(
            f"hiera-ls: the lookup_options pattern '{pattern.pattern}' took longer than "
            f"{int(MATCH_TIMEOUT_S * 1000)} ms to match '{text}'"
        ) from None


def regex_search_or(pattern: RubyRegex, text: str, on_timeout: bool) -> bool:
    """For checks and hovers that only estimate: ``on_timeout`` when the match times out."""
    try:
        return regex_search(pattern, text)
    except RegexTimeout:
        return on_timeout


def _by_alternatives(pattern: regex.Pattern[str], text: str) -> bool | None:
    """True when one top-level alternative matches, False when none does, None when one of
    them also runs out of time (or the pattern has a single alternative)."""
    parts = top_level_alternatives(pattern.pattern)
    if len(parts) < 2:
        return None
    import regex

    undecided = False
    for part in parts:
        try:
            compiled = regex.compile(part, pattern.flags)
        except (regex.error, ValueError):
            return None
        try:
            if compiled.search(text, timeout=MATCH_TIMEOUT_S) is not None:
                return True
        except TimeoutError:
            undecided = True
    return None if undecided else False


def top_level_alternatives(source: str) -> list[str]:
    """``source`` split at the ``|`` outside groups and character classes (escapes kept).

    A pattern with inline flags at its start (``(?i)...``) is not split: the flags would
    only apply to the first part.
    """
    if source.startswith("(?") and not source.startswith(("(?:", "(?=", "(?!", "(?<")):
        return [source]
    parts: list[str] = []
    depth = 0
    in_class = False
    start = 0
    i = 0
    while i < len(source):
        c = source[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        elif c == "[":
            in_class = True
            if source[i + 1 : i + 2] == "]":
                i += 1  # a ']' right after '[' is a literal
        elif c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif c == "|" and depth == 0:
            parts.append(source[start:i])
            start = i + 1
        i += 1
    parts.append(source[start:])
    return parts


def ruby_regexp_error(pattern: str) -> str | None:
    """The message of the RegexpError Ruby raises for the commonest broken patterns."""
    depth = 0
    in_class = 0
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            if i + 1 >= len(pattern):
                return "too short escape sequence"
            i += 2
            continue
        if in_class:
            if c == "[":
                in_class += 1
            elif c == "]":
                in_class -= 1
        elif c == "[":
            in_class = 1
        elif c == "(":
            depth += 1
        elif c == ")":
            if depth == 0:
                return "unmatched close parenthesis"
            depth -= 1
        i += 1
    if in_class:
        return "premature end of char-class"
    if depth:
        return "end pattern with unmatched parenthesis"
    return None
