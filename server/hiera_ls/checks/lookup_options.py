"""``lookup_options`` in one data file: what Puppet refuses, ignores, or matches literally.

Puppet reads lookup_options like a data key (hash merge), compiles every key that starts
with ``^`` as a Ruby regexp, and takes each matching entry's ``merge`` and ``convert_to``;
other option names are ignored.  An entry that is not a hash is read with Ruby's ``[]``:
a String is searched for the substring 'merge' (usually absent, so ignored), an Integer or
Array raises a TypeError, true/false/Float raise NoMethodError (all verified on Puppet 7.23).
In a module's data every key must belong to the module (Puppet's ModuleDataProvider).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING

from hiera_ls.checks import lookup_options_fixes as fixes
from hiera_ls.engine.merge import parse_merge
from hiera_ls.puppet.errors import MergeError, PuppetError
from hiera_ls.puppet.regexp import compile_ruby_regex, regex_search_or
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.node_table import NodeSpans
from hiera_ls.source.rules import Needs, Rule
from hiera_ls.source.spans import Details, Problem, Severity, Span

if TYPE_CHECKING:
    from hiera_ls.puppet.regexp import RubyRegex

E, W = Severity.ERROR, Severity.WARNING

NOT_HASH = Rule(
    "lookup-options-not-hash",
    E,
    "lookup_options is not a hash: every lookup that reads it fails",
    cause=True,
)
ENTRY_NOT_HASH = Rule(
    "lookup-options-entry-not-hash",
    E,
    "An entry's options are a list, number or Boolean (or a String holding 'merge'): lookups "
    "of matching keys fail",
    fix=fixes.entry_not_hash,
    cause=True,
)
ENTRY_IGNORED = Rule(
    "lookup-options-entry-ignored",
    W,
    "An entry's options are a String such as deep: Puppet ignores it",
    fix=fixes.entry_ignored,
)
UNKNOWN_OPTION = Rule(
    "lookup-options-unknown-option",
    W,
    "An option other than merge and convert_to: Puppet ignores it",
    fix=fixes.unknown_option,
)
UNKNOWN_MERGE = Rule(
    "lookup-options-unknown-merge",
    E,
    "merge names no strategy Puppet knows, or a merge hash lacks strategy: lookups of the key fail",
    fix=fixes.unknown_merge,
    cause=True,
)
MERGE_OPTIONS = Rule(
    "lookup-options-merge-options",
    E,
    "Merge options with a wrong type, or deep-only options on another strategy: lookups of the "
    "key fail",
    cause=True,
)
BAD_REGEX = Rule(
    "lookup-options-bad-regex",
    E,
    "A ^pattern that Ruby cannot compile: every lookup fails",
    cause=True,
)
LITERAL_PATTERN = Rule(
    "lookup-options-literal-pattern",
    W,
    "A key that looks like a pattern but lacks the leading ^: Puppet matches it as plain text",
    fix=fixes.literal_pattern,
)
MODULE_NAMESPACE = Rule(
    "lookup-options-module-namespace",
    E,
    "In module data, a lookup_options key outside the module: every lookup of the module's "
    "keys fails",
    cause=True,
)
UNUSED_PATTERN = Rule(
    "lookup-options-unused-pattern",
    Severity.HINT,
    "A ^pattern that matches no key of the data the environment can load",
    needs=Needs.INDEX,
)
RULES = (
    NOT_HASH,
    ENTRY_NOT_HASH,
    ENTRY_IGNORED,
    UNKNOWN_OPTION,
    UNKNOWN_MERGE,
    MERGE_OPTIONS,
    BAD_REGEX,
    LITERAL_PATTERN,
    MODULE_NAMESPACE,
    UNUSED_PATTERN,
)

KNOWN_OPTIONS = fixes.LOOKUP_OPTION_NAMES
PATTERN_START = "^"

# Constructs Onigmo (Ruby) and the ``regex`` module disagree on: a compile failure of a
# pattern holding one of these is not reported, since Ruby may well accept it.
_DIALECT_GAPS = re.compile(r"\\[kgeEcCMQ]|\(\?~|\(\?&|\(\?P|\\x\{|\(\?R\)|\(\?\d")
# Onigmo's words for the failures the regex module describes differently.
_RUBY_WORDS = (
    ("missing )", "end pattern with unmatched parenthesis"),
    ("unbalanced parenthesis", "unmatched close parenthesis"),
    ("unterminated character set", "premature end of char-class"),
    ("invalid group reference", "invalid backref number/name"),
    ("nothing to repeat", "target of repeat operator is not specified"),
    ("multiple repeat", "nested repeat operator"),
    ("bad character range", "empty range in char class"),
    ("unknown group", "undefined name reference"),
)
# A key written as a pattern but without the leading ^: Puppet compares it as plain text.
_REGEX_LOOK = re.compile(r"\.\*|\.\+|\\[dDwWsSAzZbh.]|[*+?|()\[\]$]|\{\d")


def check_lookup_options(
    path: str,
    data_file: DataFile,
    *,
    module_name: str | None = None,
    all_keys: Collection[str] | None = None,
) -> list[Problem]:
    """Problems of the file's ``lookup_options``; ``all_keys`` enables the unused-pattern hint."""
    if LOOKUP_OPTIONS not in data_file.data:
        return []
    nodes = data_file.nodes
    options = data_file.data[LOOKUP_OPTIONS]
    root = nodes.get((LOOKUP_OPTIONS,))
    where = root.value if root is not None else Span.of(0, 0, 0, 0)
    if options is None:
        return []
    if not isinstance(options, dict):
        return [
            NOT_HASH.at(
                "Puppet fails every lookup that reads this file's lookup_options with: "
                "value of lookup_options must be a hash",
                path,
                where,
                Details(key=LOOKUP_OPTIONS, place=(LOOKUP_OPTIONS,)),
            )
        ]
    out: list[Problem] = []
    for key, value in options.items():
        spans = nodes.get((LOOKUP_OPTIONS, key))
        if spans is None:
            continue
        key_span = spans.key or spans.value

        def report(rule: Rule, message: str, span: Span = key_span, key: object = key) -> None:
            details = (
                Details(key=key, place=(LOOKUP_OPTIONS, key)) if isinstance(key, str) else Details()
            )
            out.append(rule.at(message, path, span, details))

        if not isinstance(key, str):
            continue
        if module_name is not None and _outside_module(key, module_name, report):
            continue
        if key.startswith(PATTERN_START):
            compiled = _compile(key, report)
            if (
                compiled is not None
                and all_keys is not None
                and not _matches_any(compiled, all_keys)
            ):
                report(
                    UNUSED_PATTERN,
                    f"The pattern {key} matches no key of the data this environment can load, "
                    "so these options apply to nothing",
                )
        elif _REGEX_LOOK.search(key) and "%{" not in key:
            report(
                LITERAL_PATTERN,
                f"'{key}' looks like a regular expression, but Puppet compares it with key names "
                f"as plain text (only keys that start with ^ are patterns): write '^{key}' if you "
                "mean a pattern",
            )
        _check_entry(path, key, value, spans, nodes, report, out)
    return out


def _outside_module(key: str, module_name: str, report: Callable[..., None]) -> bool:
    prefix = f"{module_name}::"
    if key.startswith(PATTERN_START):
        if key[1 : 1 + len(prefix)] == prefix:
            return False
        report(
            MODULE_NAMESPACE,
            "Puppet fails every lookup of this module's keys with: all lookup_options patterns "
            f"must match a key starting with module name '{module_name}' (start the pattern with "
            f"^{prefix})",
        )
        return True
    if key.startswith(prefix):
        return False
    report(
        MODULE_NAMESPACE,
        "Puppet fails every lookup of this module's keys with: all lookup_options keys must start "
        f"with module name '{module_name}' (options for other keys belong in the environment's "
        "data)",
    )
    return True


def _compile(key: str, report: Callable[..., None]) -> RubyRegex | None:
    try:
        return compile_ruby_regex(key)
    except PuppetError as e:
        if _DIALECT_GAPS.search(key):
            return None
        report(
            BAD_REGEX,
            "Puppet cannot compile this pattern, so every lookup fails with: "
            f"{_ruby_words(e.message)}",
        )
        return None


def _ruby_words(message: str) -> str:
    text, sep, source = message.rpartition(": /")
    if not sep:
        return message
    text = re.sub(r" at position \d+$", "", text)
    for ours, ruby in _RUBY_WORDS:
        if text.startswith(ours):
            text = ruby
            break
    return f"{text}: /{source}"


def _matches_any(pattern: RubyRegex, keys: Collection[str]) -> bool:
    return any(regex_search_or(pattern, k, True) for k in keys)


def _check_entry(
    path: str,
    key: str,
    value: object,
    spans: NodeSpans,
    nodes: Mapping[tuple[object, ...], NodeSpans],
    report: Callable[..., None],
    out: list[Problem],
) -> None:
    if value is None:
        return
    if isinstance(value, str):
        if "merge" in value or "convert_to" in value:
            found = "merge" if "merge" in value else "convert_to"
            report(
                ENTRY_NOT_HASH,
                f"The options for '{key}' must be a hash such as {{merge: deep}}: Puppet reads "
                f"this String with String#[] and finds the text '{found}' in it"
                + (
                    ", so lookups of the key fail with: Unknown merge strategy: 'merge'"
                    if found == "merge"
                    else ""
                ),
                spans.value,
            )
            return
        example = value if value in fixes.MERGE_STRATEGIES else "deep"
        report(
            ENTRY_IGNORED,
            f"Puppet ignores the String '{value}' here: the options for '{key}' must be a hash, "
            f"e.g. {{merge: {example}}}",
            spans.value,
        )
        return
    if not isinstance(value, dict):
        report(
            ENTRY_NOT_HASH,
            f"The options for '{key}' must be a hash such as {{merge: deep}}: every lookup this "
            f"entry applies to fails with: {_ruby_index_error(value)}",
            spans.value,
        )
        return
    for option in value:
        if option in KNOWN_OPTIONS:
            continue
        option_spans = nodes.get((LOOKUP_OPTIONS, key, option))
        span = (option_spans.key or option_spans.value) if option_spans is not None else spans.value
        inside = (
            f", and a deep merge takes it inside merge: {{merge: {{strategy: deep, {option}: "
            "...}}"
            if option in fixes.DEEP_MERGE_OPTIONS
            else ""
        )
        out.append(
            UNKNOWN_OPTION.at(
                f"Puppet ignores the option '{option}': lookup_options entries know only merge and "
                f"convert_to{inside}",
                path,
                span,
                Details(key=key, option=str(option), place=(LOOKUP_OPTIONS, key, str(option))),
            )
        )
    if "merge" in value:
        _check_merge(path, key, value["merge"], nodes, out)


def _ruby_index_error(value: object) -> str:
    """What Ruby raises for ``value['merge']`` when value is not a Hash or String."""
    if isinstance(value, bool):
        return f"undefined method `[]' for {'true:TrueClass' if value else 'false:FalseClass'}"
    if isinstance(value, (int, list)):
        return "no implicit conversion of String into Integer"
    if isinstance(value, float):
        return f"undefined method `[]' for {value!r}:Float"
    return f"undefined method `[]' for {type(value).__name__}"


def _check_merge(
    path: str,
    key: str,
    merge: object,
    nodes: Mapping[tuple[object, ...], NodeSpans],
    out: list[Problem],
) -> None:
    merge_spans = nodes.get((LOOKUP_OPTIONS, key, "merge"))
    if merge_spans is None:
        return
    try:
        parse_merge(merge)
    except MergeError as e:
        message = e.message
        if message.startswith(("Unknown merge strategy", "The hash given as 'merge'")):
            rule, span = UNKNOWN_MERGE, merge_spans.value
            if isinstance(merge, dict) and "strategy" in merge:
                strategy_spans = nodes.get((LOOKUP_OPTIONS, key, "merge", "strategy"))
                span = strategy_spans.value if strategy_spans is not None else span
            hint = " (the strategies are first, unique, hash and deep)"
        else:
            rule, span, hint = MERGE_OPTIONS, merge_spans.value, ""
            named = re.search(r"(?:entry|unrecognized key) '([^']+)'", message)
            if named is not None and isinstance(merge, dict):
                option_spans = nodes.get((LOOKUP_OPTIONS, key, "merge", named.group(1)))
                if option_spans is not None:
                    span = option_spans.key or option_spans.value
                    if message.find("entry '") >= 0:
                        span = option_spans.value
            strategy = merge.get("strategy") if isinstance(merge, dict) else None
            if "unrecognized key" in message and strategy != "deep":
                hint = (
                    " (knockout_prefix, sort_merged_arrays, merge_hash_arrays and merge_debug are "
                    f"options of the deep strategy only, not of {strategy})"
                )
        message = f"Every lookup of '{key}' fails with: {message}{hint}"
        details = Details(key=key, option="merge", place=(LOOKUP_OPTIONS, key, "merge"))
        out.append(rule.at(message, path, span, details))
