"""Messages for reports that leave the machine: keys, paths and lines, never data values.

A CI log or a code-scanning upload is read by more people than the repository's data (which
may hold passwords that eyaml does not cover).  Each code's message was read for what it
embeds: most name keys, tokens, files and types only and are shown as they are (``SAFE``);
the few that quote the data's text get that part masked; a code not classified here (one
added later) shows its documented summary, never its message.  As a last guard, any string
value of the file that still appears in a message is masked.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator

from hiera_ls.codes import CODES
from hiera_ls.source.spans import Problem

MASK = "…"
MIN_GUARDED_VALUE = 8  # shorter values (true, 8080, Integer) may be words of the messages

# Messages made of keys, anchors, tokens, paths, types and Puppet's fixed words.
SAFE = frozenset(
    {
        "yaml-unknown-alias",
        "yaml-recursive-alias",
        "yaml-alias-expansion",
        "yaml-too-deep",
        "yaml-duplicate-key",
        "yaml-merge-override",
        "yaml-symbol-key",
        "data-not-a-hash",
        "data-large-file",
        "data-empty-file",
        "data-bad-key-type",
        "data-unreachable-key",
        "json-duplicate-key",
        "file-invalid-utf8",
        "file-not-regular",
        "file-too-large",
        "file-unreadable",
        "hiera-reads-outside-workspace",
        "interpolation-syntax-error",
        "interpolation-unknown-method",
        "interpolation-alias-not-whole",
        "interpolation-unterminated",
        "interpolation-literal-argument",
        "interpolation-unquoted-argument",
        "interpolation-not-a-variable",
        "interpolation-top-scope-variable",
        "lookup-options-not-hash",
        "lookup-options-entry-not-hash",
        "lookup-options-entry-ignored",
        "lookup-options-unknown-option",
        "lookup-options-unknown-merge",
        "lookup-options-merge-options",
        "lookup-options-bad-regex",
        "lookup-options-literal-pattern",
        "lookup-options-module-namespace",
        "lookup-options-unused-pattern",
        "module-data-unqualified-key",
        "reference-undefined-key",
        "reference-cycle",
        "hiera-datadir-missing",
        "hiera-path-matches-nothing",
        "hiera-data-file-unused",
        "class-parameter-unknown",
        "class-not-found",
        "class-parameter-of-define",
        "class-parameter-missing",
        "key-unused",
    }
)
# hiera.yaml, .hiera-ls.yaml and suppression comments are configuration, not data: their
# messages quote it as written.
SAFE_PREFIXES = ("hiera-config-", "config-", "suppression-")  # .hiera-ls.yaml and its comments
# The message is the scalar's text and what Psych makes of it: only the summary is safe.
SUMMARY_ONLY = frozenset(
    {
        "yaml-date-rejected",
        "yaml-bad-tag",
        "yaml-bad-number",
        "yaml-symbol-value",
        "yaml11-boolean",
        "yaml11-octal",
        "yaml11-binary",
        "yaml11-sexagesimal",
        "yaml11-number-separator",
        "yaml11-exponent-string",
    }
)
# Psych's and the engine's words, which quote what they met: quoted text is masked.
MASK_QUOTED = frozenset({"yaml-syntax", "interpolation-unquoted", "lookup-fails-for-profile"})

# Puppet's words before a quoted name, not a value: "Undefined variable 'x'", "for key 'k'".
_NAMES_BEFORE = ("variable ", "for key ")
# Quoted words of Puppet's own in such messages (`raised error: 'new' The string ...`)
_PUPPET_WORDS = frozenset({"new"})
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")
# Ruby's JSON error quotes the rest of the file (quotes and all) up to the message's end.
_JSON_TOKEN = re.compile(r"(unexpected token at )'.*'", re.DOTALL)
_RUBY_TEXT = re.compile(r"(Ruby's text of it) \(.*\)( into this string)", re.DOTALL)
_LOOKING_UP = re.compile(r"\A(Looking up '[^']*' fails: )")
# Puppet's type mismatch names the type it got, which may hold the value (``got 'x'``,
# ``got Integer[70000, 70000]``): keep the type's name only.
_GOT_VALUE = re.compile(r"(\bgot )(?:'[^']*'|\"[^\"]*\"|(Integer|Float|String)\[[^\]]*\])")


def classified(code: str) -> bool:
    return (
        code in SAFE
        or code.startswith(SAFE_PREFIXES)
        or code in SUMMARY_ONLY
        or code in MASK_QUOTED
        or code
        in ("json-syntax", "interpolation-collection-in-string", "class-parameter-type-mismatch")
    )


def report_message(
    problem: Problem, values: Collection[str] = (), keys: Collection[str] = ()
) -> str:
    """``problem``'s message without data values.

    ``values``: the string values of the problem's file (the last guard); ``keys``: names a
    masked quotation may keep (the file's keys: keys are not secret, and they say where).
    """
    code, message = problem.code, problem.message
    if code in SAFE or code.startswith(SAFE_PREFIXES):
        return message
    if code == "json-syntax":
        shown = _JSON_TOKEN.sub(rf"\g<1>'{MASK}'", message)
    elif code == "interpolation-collection-in-string":
        shown = _RUBY_TEXT.sub(r"\1\2", message)
    elif code == "class-parameter-type-mismatch":
        shown = _GOT_VALUE.sub(lambda m: m.group(1) + (m.group(2) or f"'{MASK}'"), message)
    elif code in MASK_QUOTED:
        head = _LOOKING_UP.match(message)
        start = head.end() if head is not None else 0
        rest = _JSON_TOKEN.sub(rf"\g<1>'{MASK}'", message[start:])
        shown = message[:start] + _mask_quoted(rest, keys)
    else:
        known = CODES.get(code)
        shown = known.summary if known is not None else f"{code} (message withheld)"
    return _guard(shown, values)


def _mask_quoted(text: str, keys: Collection[str]) -> str:
    def mask(m: re.Match[str]) -> str:
        quote, inner = m.group(0)[0], m.group(0)[1:-1]
        named = text[max(0, m.start() - len(_NAMES_BEFORE[0])) : m.start()].endswith(_NAMES_BEFORE)
        kept = inner in keys or inner in _PUPPET_WORDS or named
        return m.group(0) if kept else f"{quote}{MASK}{quote}"

    return _QUOTED.sub(mask, text)


def _guard(message: str, values: Collection[str]) -> str:
    for value in sorted(values, key=len, reverse=True):
        if value in message:
            message = message.replace(value, MASK)
    return message


def string_values(data: object, keys: Collection[str] = ()) -> set[str]:
    """The file's string values long enough to guard, except those that are also keys."""
    return {
        v for v in strings_in(data) if len(v) >= MIN_GUARDED_VALUE and v not in keys and v.strip()
    }


def strings_in(data: object) -> Iterator[str]:
    """Every string value inside ``data`` (hash values, array and tuple items), keys aside."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            yield item
        elif isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)


def key_names(data: object) -> set[str]:
    """Every hash key of the file, at any depth."""
    out: set[str] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.update(k for k in item if isinstance(k, str))
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return out
