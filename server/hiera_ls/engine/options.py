"""lookup_options: validation, Ruby-regex keys, and which options apply to a root key.

Keys starting with ``^`` are Ruby regular expressions matched unanchored against the root
key.  They run on the ``regex`` module (closer to Ruby's Onigmo than ``re``) with a time
limit on every match, so a pathological pattern in user data cannot hang the server.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import regex

from hiera_ls.puppet.errors import LookupFailure, RegexpError

MATCH_TIMEOUT_S = 0.05
PATTERN_START = "^"


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
    return regex.sub(
        r"\(\?([imx]*)m([imx]*)([):])", lambda m: f"(?{m.group(1)}s{m.group(2)}{m.group(3)}", text
    )


def compile_ruby_regex(source: str) -> regex.Pattern[str]:
    """Compile a Ruby pattern; raises RegexpError with a message naming the pattern."""
    try:
        return regex.compile(ruby_regex_source(source), regex.MULTILINE | regex.VERSION0)
    except (regex.error, ValueError) as e:
        raise RegexpError(f"{e}: /{source}/") from e


@dataclass(frozen=True, slots=True)
class CompiledOptions:
    """Literal keys first; then patterns in the iteration order of the merged hash."""

    literal: Mapping[str, object]
    patterns: tuple[tuple[str, regex.Pattern[str], object], ...]

    def for_key(self, root_key: str) -> object | None:
        if root_key in self.literal and self.literal[root_key] is not None:
            return self.literal[root_key]
        for _source, pattern, value in self.patterns:
            if regex_search(pattern, root_key):
                return value
        return None

    def matching(self, root_key: str) -> str | None:
        """The lookup_options key that applies to ``root_key`` (for hover and checks)."""
        if root_key in self.literal and self.literal[root_key] is not None:
            return root_key
        for source, pattern, _value in self.patterns:
            if regex_search(pattern, root_key):
                return source
        return None


class RegexTimeout(LookupFailure):
    """A lookup_options pattern ran out of time on a key: reported, never taken as a miss."""


def regex_search(pattern: regex.Pattern[str], text: str) -> bool:
    """Raises RegexTimeout when the match takes longer than MATCH_TIMEOUT_S."""
    try:
        return pattern.search(text, timeout=MATCH_TIMEOUT_S) is not None
    except TimeoutError:
        raise RegexTimeout(
            f"hiera-ls: the lookup_options pattern '{pattern.pattern}' took longer than "
            f"{int(MATCH_TIMEOUT_S * 1000)} ms to match '{text}'"
        ) from None


def regex_search_or(pattern: regex.Pattern[str], text: str, on_timeout: bool) -> bool:
    """For checks and hovers that only estimate: ``on_timeout`` when the match times out."""
    try:
        return regex_search(pattern, text)
    except RegexTimeout:
        return on_timeout


def validate_options(options: object, module_name: str | None) -> dict[str, object] | None:
    """Puppet's validate_lookup_options: a Hash, and in a module only that module's keys."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise LookupFailure("value of lookup_options must be a hash")
    if module_name is None:
        return options
    prefix = f"{module_name}::"
    for key in options:
        text = key if isinstance(key, str) else str(key)
        if text.startswith(PATTERN_START):
            if text[1 : 1 + len(prefix)] != prefix:
                raise LookupFailure(
                    f"all lookup_options patterns must match a key starting with module name '{module_name}'"
                )
        elif not text.startswith(prefix):
            raise LookupFailure(
                f"all lookup_options keys must start with module name '{module_name}'"
            )
    return options


def compile_options(options: Mapping[Any, object] | None) -> CompiledOptions | None:
    if options is None:
        return None
    literal: dict[str, object] = {}
    patterns: list[tuple[str, regex.Pattern[str], object]] = []
    for key, value in options.items():
        if isinstance(key, str) and key.startswith(PATTERN_START):
            patterns.append((key, compile_ruby_regex(key), value))
        elif isinstance(key, str):
            literal[key] = value
    return CompiledOptions(literal, tuple(patterns))
