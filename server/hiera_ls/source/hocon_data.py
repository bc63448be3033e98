"""A HOCON file as Puppet's built-in ``hocon_data`` hands it to a lookup.

Puppet parses the file with the ``hocon`` gem (``Hocon::ConfigFactory.parse_file``) and
resolves it into a plain hash; we parse with ``pyhocon``. pyhocon keeps no source ranges,
so a top-level key's place is found by a scan of the text: the first line that starts (after
indentation) with the key, bare or quoted, followed by ``=``, ``:``, ``{`` or ``+=``.
Definition and hover point there; a key not found by the scan points at the file's start.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from hiera_ls.puppet.message import Text, as_path, as_value
from hiera_ls.source.node_table import NodeSpans, Path
from hiera_ls.source.spans import Span

START = Span.of(0, 0, 0, 0)


def load_hocon_data(path: str, text: str) -> tuple[object, Text | None, Mapping[Path, NodeSpans]]:
    """(the top-level hash, Puppet's error text or None, each top-level key's place)."""
    from pyhocon import ConfigFactory  # only repositories with hocon levels pay for it
    from pyhocon.exceptions import ConfigException

    try:
        tree = ConfigFactory.parse_string(text, resolve=True)
        data = _plain(tree.as_plain_ordered_dict())
    except (ConfigException, ValueError, TypeError, KeyError, RecursionError) as e:
        return {}, _unparsed(path, e), {}
    except Exception as e:  # pyhocon raises pyparsing's errors for some syntax errors
        return {}, _unparsed(path, e), {}
    if not isinstance(data, dict):
        return {}, Text.of(as_path(path), ": file does not contain a valid hash"), {}
    return data, None, _key_places(text, data)


def _unparsed(path: str, e: BaseException) -> Text:
    """The parser's first line quotes the text it met: data, masked in reports."""
    return Text.of("Unable to parse (", as_path(path), "): ", as_value(_first_line(e)))


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
