"""A HOCON file as Puppet's built-in ``hocon_data`` hands it to a lookup.

Puppet parses the file with the ``hocon`` gem (``Hocon.parse`` of its text) and resolves it
into a plain hash; we parse with ``pyhocon``. pyhocon keeps no source ranges, so a top-level
key's place is found by a scan of the text: the first line that starts (after indentation)
with the key, bare or quoted, followed by ``=``, ``:``, ``{`` or ``+=``. Definition and
hover point there; a key not found by the scan points at the file's start.

pyhocon never opens a file or a URL itself: its ``include`` handling is run with a factory
that hands it only what :mod:`hiera_ls.source.hocon_includes` read through the data files'
guards (pyhocon's own parser code, with those names bound differently: nothing of pyhocon's
module is changed, so other users of it in the process are not affected).
"""

from __future__ import annotations

import functools
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from hiera_ls.puppet.message import Text, as_path, as_value
from hiera_ls.source import loader_rules
from hiera_ls.source.hocon_includes import IncludeFailure, IncludeReader, Prepared, prepare
from hiera_ls.source.node_table import NodeSpans, Path
from hiera_ls.source.rules import Rule
from hiera_ls.source.spans import Problem, Span

START = Span.of(0, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class HoconFailure:
    """Puppet's error text, and where the problem lies (an include directive, else the
    file's start); ``rule``: hocon-syntax or hocon-include."""

    message: Text
    span: Span = START
    rule: Rule = loader_rules.HOCON_SYNTAX


def load_hocon_data(
    path: str, text: str, includes: IncludeReader | None = None
) -> tuple[object, HoconFailure | None, Mapping[Path, NodeSpans]]:
    """(the top-level hash, why Puppet fails or None, each top-level key's place)."""
    from pyhocon.exceptions import ConfigException

    prepared = prepare(path, text, includes)
    if isinstance(prepared, IncludeFailure):
        return {}, _include_failure(path, prepared), {}
    try:
        tree = _parse(prepared, resolve=True)
        data = _plain(tree.as_plain_ordered_dict())
    except (ConfigException, ValueError, TypeError, KeyError, RecursionError) as e:
        return {}, HoconFailure(_unparsed(path, _first_line(e))), {}
    except Exception as e:  # pyhocon raises pyparsing's errors for some syntax errors
        return {}, HoconFailure(_unparsed(path, _first_line(e))), {}
    if not isinstance(data, dict):
        return {}, HoconFailure(not_a_hash(path)), {}
    return data, None, _key_places(text, data)


def _unparsed(path: str, error: str) -> Text:
    """The parser's words quote the text it met: data, masked in reports."""
    return Text.of("Unable to parse (", as_path(path), "): ", as_value(error))


def not_a_hash(path: str) -> Text:
    return Text.of(as_path(path), ": file does not contain a valid hash")


def _include_failure(path: str, failure: IncludeFailure) -> HoconFailure:
    span = Span.of(failure.line, failure.column, failure.line, failure.end_column)
    if failure.message.startswith("String: "):  # the gem's own syntax error
        return HoconFailure(_unparsed(path, failure.message), span)
    where = f"{path}:{failure.line + 1}:{failure.column + 1}"
    # the include's target (a file name, a URL) is shown; a syntax error of an included file,
    # or the text after a bare `include`, quotes the data
    quoted = "String: " in failure.message or "but by: " in failure.message
    words = as_value(failure.message) if quoted else failure.message
    return HoconFailure(Text.of(as_path(where), ": ", words), span, loader_rules.HOCON_INCLUDE)


class _Includes:
    """What pyhocon's ``include`` handling calls, in place of its ConfigFactory and glob:
    only the files :func:`prepare` read, by the name the directive gives."""

    def __init__(self, files: Mapping[str, list[Prepared]]) -> None:
        self.files = files

    def parse_file(self, filename: str, *args: object, **kwargs: object) -> Any:
        from pyhocon.config_tree import ConfigTree

        found = self.files.get(filename)
        if not found:
            return []  # as a missing file that is not required
        merged: Any = None
        for prepared in found:  # name.json, then name.conf over it
            tree = _parse(prepared, resolve=False)
            merged = tree if merged is None else ConfigTree.merge_configs(merged, tree)
        return merged

    def parse_URL(self, url: str, *args: object, **kwargs: object) -> Any:
        from pyhocon.exceptions import ConfigException

        raise ConfigException(f"hiera-ls never reads a URL ({url})")

    def glob(self, pattern: str, recursive: bool = False) -> list[str]:
        return [pattern] if pattern in self.files else []


def _parse(prepared: Prepared, resolve: bool) -> Any:
    """pyhocon's ``ConfigParser.parse`` of the prepared text, its includes served by
    :class:`_Includes` (the function's own code, with other globals)."""
    from pyhocon import config_parser
    from pyhocon.config_parser import DEFAULT_SUBSTITUTION, NO_SUBSTITUTION, ConfigParser

    includes = _Includes(prepared.files)
    scope = dict(vars(config_parser))
    scope.update(ConfigFactory=includes, glob=includes.glob, urlopen=None)
    parse = ConfigParser.__dict__["parse"].__func__
    guarded = types.FunctionType(
        parse.__code__, scope, parse.__name__, parse.__defaults__, parse.__closure__
    )
    unresolved = DEFAULT_SUBSTITUTION if resolve else NO_SUBSTITUTION
    return guarded(_parser_class(), prepared.text, None, resolve, unresolved)


@functools.cache
def _parser_class() -> Any:
    """pyhocon's parser, but ``include package(...)`` (which imports Python packages to find
    a file) fails: made on first use, as pyhocon is imported only for hocon levels."""
    from pyhocon.config_parser import ConfigParser
    from pyhocon.exceptions import ConfigException

    class Parser(ConfigParser):  # type: ignore[misc]
        @classmethod
        def resolve_package_path(cls, package_path: str) -> str:
            raise ConfigException(f"hiera-ls never imports a package ({package_path})")

    return Parser


def hocon_problem(path: str, failure: HoconFailure) -> Problem:
    return failure.rule.at(failure.message, path, failure.span)


def _first_line(e: BaseException) -> str:
    text = str(e).strip() or type(e).__name__
    return text.splitlines()[0]


def _plain(value: object) -> object:
    """pyhocon's ordered dicts and lists as plain dicts and lists; HOCON's null as None."""
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if type(value).__name__ == "NoneValue":
        return None
    return value


def _key_places(text: str, data: Mapping[object, object]) -> dict[Path, NodeSpans]:
    lines = text.splitlines()
    places: dict[Path, NodeSpans] = {}
    for key in data:
        name = str(key)
        pattern = re.compile(
            r"^(\s*)(" + re.escape(name) + r'|"' + re.escape(name) + r'")\s*(=|:|\{|\+=)'
        )
        for number, line in enumerate(lines):
            m = pattern.match(line)
            if m is not None:
                start, end = m.start(2), m.end(2)
                span = Span.of(number, start, number, end)
                places[(key,)] = NodeSpans(span, Span.of(number, end, number, len(line)), None)
                break
    return places
