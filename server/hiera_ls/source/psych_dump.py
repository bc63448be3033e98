"""A value written as YAML the way Ruby's Psych writes it (``value.to_yaml``).

``puppet lookup`` prints its answer with ``to_yaml``, and a user (or a script) reads that
text back with a YAML 1.1 reader: Psych quotes every string its own reader would take for
something else (``"n"``, ``'yes'``, ``'0x1f'``, ``'2001-01-01'``), and writes numbers,
booleans and nil bare.  libyaml's emitter (PyYAML's C binding; Psych drives the same one)
writes the text, in time linear in the value's size; the choice of style is Psych's, written
from a reading of Psych 4's ``YAMLTree#visit_String`` and checked against Ruby in
tests/differential/test_render_vs_puppet.py.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from hiera_ls.puppet.ruby_text import float_to_s
from hiera_ls.source.psych_scalars import Refusal, tokenize

_STR = "tag:yaml.org,2002:str"
_SEQ = "tag:yaml.org,2002:seq"
_MAP = "tag:yaml.org,2002:map"
# Psych writes '<<' with an explicit !!str tag: a plain '<<' would be a merge key.
_MERGE_KEY = "<<"
# Ruby's ``/\n(?!\Z)/``: a line break that is not the final one.
_MULTILINE = re.compile(r"\n(?!\n?\Z)")
# Ruby's ``/^[^[:word:]][^"]*$/`` (^ and $ are line anchors in Ruby).
_STARTS_WITH_NON_WORD = re.compile(r'^[^\w][^"]*$', re.MULTILINE)
_OCTAL_LOOKALIKE = re.compile(r"0[0-7]*[89]")


class _PsychDumper(yaml.CSafeDumper):
    """libyaml's emitter, the one Psych drives, with no implicit resolvers: every node carries
    its text as Psych decided to write it."""

    yaml_implicit_resolvers = {}  # noqa: RUF012 (PyYAML reads it per class)

    def resolve(self, kind: type[Node], value: object, implicit: tuple[bool, bool]) -> str:
        if kind is ScalarNode:
            # '<<' as a merge key, so its !!str tag is written; any other scalar a string
            return "tag:yaml.org,2002:merge" if value == _MERGE_KEY else _STR
        return _SEQ if kind is SequenceNode else _MAP


def _string_style(text: str) -> str | None:
    """Psych's style for a String: None (plain), ``"'"``, ``'"'`` or ``'|'``."""
    if _MULTILINE.search(text):
        return "|"
    if text == _MERGE_KEY:
        return "'"
    if text in ("y", "n"):
        return '"'
    if _STARTS_WITH_NON_WORD.search(text):
        return '"'
    try:
        typed = tokenize(text)
    except Refusal:  # a date or a time: not a String
        return "'"
    if not isinstance(typed, str) or _OCTAL_LOOKALIKE.match(text):
        return "'"
    return None


def _scalar(text: str, style: str | None = None) -> ScalarNode:
    return ScalarNode(_STR, text, style=style)


def _node(value: object, leaf: Callable[[object], object]) -> Node:
    if isinstance(value, bool):
        return _scalar("true" if value else "false")
    if value is None:
        return _scalar("")
    if isinstance(value, int):
        return _scalar(str(value))
    if isinstance(value, float):
        if math.isnan(value):
            return _scalar(".nan")
        if math.isinf(value):
            return _scalar(".inf" if value > 0 else "-.inf")
        return _scalar(float_to_s(value))
    if isinstance(value, str):
        return _scalar(str(value), _string_style(value))
    if isinstance(value, dict):
        pairs = [(_node(k, leaf), _node(v, leaf)) for k, v in value.items()]
        return MappingNode(_MAP, pairs, flow_style=not pairs)
    if isinstance(value, list):
        items = [_node(v, leaf) for v in value]
        return SequenceNode(_SEQ, items, flow_style=not items)
    shown = leaf(value)
    if shown is value:
        raise TypeError(f"cannot write a {type(value).__name__} as YAML")
    return _node(shown, leaf)


def _no_leaf(value: object) -> object:
    return value


def psych_dump(value: object, leaf: Callable[[object], object] = _no_leaf) -> str:
    """``value.to_yaml``: a document starting with ``---``, ending with a line break.

    ``leaf`` turns a value that is not data (a Sensitive) into the data to write.
    """
    stream = io.StringIO()
    dumper = _PsychDumper(stream, explicit_start=True, allow_unicode=True, width=80)
    dumper.open()
    dumper.serialize(_node(value, leaf))
    dumper.close()
    return stream.getvalue()
