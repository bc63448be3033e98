"""lookup_options: validation, Ruby-regex keys, and which options apply to a root key.

Keys starting with ``^`` are Ruby regular expressions matched unanchored against the root
key (:mod:`hiera_ls.puppet.regexp`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hiera_ls.puppet.errors import Cause, LookupFailure, PuppetError
from hiera_ls.puppet.regexp import compile_ruby_regex, regex_search

if TYPE_CHECKING:
    from hiera_ls.puppet.regexp import RubyRegex

PATTERN_START = "^"


@dataclass(frozen=True, slots=True)
class CompiledOptions:
    """Literal keys first; then patterns in the iteration order of the merged hash."""

    literal: Mapping[str, object]
    patterns: tuple[tuple[str, RubyRegex, object], ...]

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


def validate_options(options: object, module_name: str | None) -> dict[str, object] | None:
    """Puppet's validate_lookup_options: a Hash, and in a module only that module's keys."""
    if options is None:
        return None
    if not isinstance(options, dict):
        raise LookupFailure(
            "value of lookup_options must be a hash", cause=Cause(key="lookup_options")
        )
    if module_name is None:
        return options
    prefix = f"{module_name}::"
    for key in options:
        text = key if isinstance(key, str) else str(key)
        if text.startswith(PATTERN_START):
            if text[1 : 1 + len(prefix)] != prefix:
                raise LookupFailure(
                    "all lookup_options patterns must match a key starting with module name "
                    f"'{module_name}'",
                    cause=Cause(key=text),
                )
        elif not text.startswith(prefix):
            raise LookupFailure(
                f"all lookup_options keys must start with module name '{module_name}'",
                cause=Cause(key=text),
            )
    return options


def compile_options(options: Mapping[Any, object] | None) -> CompiledOptions | None:
    if options is None:
        return None
    literal: dict[str, object] = {}
    patterns: list[tuple[str, RubyRegex, object]] = []
    for key, value in options.items():
        if isinstance(key, str) and key.startswith(PATTERN_START):
            try:
                compiled = compile_ruby_regex(key)
            except PuppetError as e:
                e.cause = Cause(key=key)  # the entry's pattern: reported there
                raise
            patterns.append((key, compiled, value))
        elif isinstance(key, str):
            literal[key] = value
    return CompiledOptions(literal, tuple(patterns))
