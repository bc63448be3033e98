"""YAML data files written as JSON, one top-level key a line (``"key": {"a": [1, "b"]}``,
what a generator writes with ``json.dumps`` per key), read by Python's JSON decoder.

Within this file's vocabulary YAML's flow style reads the same values as JSON: strings
double-quoted, printable ASCII without ``"`` or ``\\`` (no escapes, no line breaks, nothing
YAML folds), keys at most 1,000 characters (libyaml's simple keys stop at 1,024), integers
without sign or leading zero, ``[]`` and ``{}``, ``", "`` and ``": "`` between.  Anything
else (a float, ``true``, a comment, a tab, another spacing, a duplicate key, a ``<<`` key)
is left to the YAML loader, which reads every file alike; so is any file whose lines are
not all of this shape.  Used where a file's values alone are read (``diff``):
source/data_file.load_yaml_values.
"""

from __future__ import annotations

import json
import re

_STRING = r'"[ !#-\[\]-~]{0,1000}"'
_TOKEN = rf"(?:{_STRING}|(?:0|[1-9][0-9]{{0,17}})(?![0-9])|[\[\]{{}}]|, |: )"
_LINE = re.compile(rf"({_STRING}): ((?:{_TOKEN})+)")
MAX_BRACKETS = 200  # a bound on a line's nesting (libyaml's own bound is far deeper)
MERGE_KEY = "<<"


class _Refused(ValueError):
    """A hash with a repeated key or a merge key: the YAML loader's to read."""


def _pairs(pairs: list[tuple[str, object]]) -> dict[str, object]:
    found = dict(pairs)
    if len(found) != len(pairs) or MERGE_KEY in found:
        raise _Refused
    return found


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs)


def json_lines_values(text: str) -> dict[object, object] | None:
    """The top-level hash of ``text`` when every line is a key and a JSON value of this
    module's vocabulary (what the YAML loader reads from it, cleanly), else None."""
    if not text.endswith("\n"):
        return None
    out: dict[object, object] = {}
    decode = _DECODER.decode
    for line in text[:-1].split("\n"):
        match = _LINE.fullmatch(line)
        if match is None:
            return None
        key, value = match.group(1)[1:-1], match.group(2)
        if key in out or key == MERGE_KEY or value.count("[") + value.count("{") > MAX_BRACKETS:
            return None
        try:
            out[key] = decode(value)
        except ValueError:  # not one JSON value (``1, 2``), or refused above
            return None
    return out
