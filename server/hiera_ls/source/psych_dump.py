"""A value written as YAML the way Ruby's Psych writes it (``value.to_yaml``).

``puppet lookup`` prints its answer with ``to_yaml``, and a user (or a script) reads that
text back with a YAML 1.1 reader: Psych quotes every string its own reader would take for
something else (``"n"``, ``'yes'``, ``'0x1f'``, ``'2001-01-01'``), and writes numbers,
booleans and nil bare.  PyYAML's emitter (a port of libyaml's, which Psych drives) writes the
text; the choice of style is Psych's, written from a reading of Psych 4's
``YAMLTree#visit_String`` and checked against Ruby in tests/differential/test_render_vs_puppet.py.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Callable

import yaml
from yaml.events import ScalarEvent
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


class _PsychDumper(yaml.SafeDumper):
    """No implicit resolvers: every node carries its text as Psych decided to write it."""

    yaml_implicit_resolvers = {}  # noqa: RUF012 (PyYAML reads it per class)
    kept_breaks = False

    def write_literal(self, text: str) -> None:
        # libyaml: only the last block scalar decides whether the document ends with '...'
        self.kept_breaks = self.determine_block_hints(text).endswith("+")
        super().write_literal(text)

    def resolve(self, kind: type[Node], value: object, implicit: tuple[bool, bool]) -> str:
        if kind is ScalarNode and value == _MERGE_KEY:
            return "tag:yaml.org,2002:merge"  # so the !!str tag is written
        return super().resolve(kind, value, implicit)  # type: ignore[no-any-return,no-untyped-call]

    def check_simple_key(self) -> bool:
        # libyaml writes an empty key as `'': v` (PyYAML as `? ''`), and takes a CR for a
        # line break, which makes a key complex (`? "x\ry"`)
        if isinstance(self.event, ScalarEvent) and self.event.value == "":
            return True
        if isinstance(self.event, ScalarEvent) and "\r" in self.event.value:
            return False
        return bool(super().check_simple_key())

    def write_double_quoted(self, text: str, split: bool = True) -> None:
        """libyaml's way (Psych's emitter): a long line breaks at a space, which the break
        stands for; PyYAML's escapes the break instead (the same string, other text)."""
        self.write_indicator('"', True)
        spaces = False
        for i, ch in enumerate(text):
            if ch == " ":
                if split and not spaces and self.column > self.best_width and 0 < i < len(text) - 1:
                    self.write_indent()
                    if text[i + 1] == " ":
                        self._put("\\")
                else:
                    self._put(ch)
                spaces = True
                continue
            spaces = False
            if _needs_escape(ch, bool(self.allow_unicode)):
                self._put(_escape(ch))
            else:
                self._put(ch)
        self.write_indicator('"', False)

    def _put(self, data: str) -> None:
        self.column += len(data)
        self.whitespace = False
        self.indention = False
        self.stream.write(data)


_ESCAPES = {
    "\0": "0", "\a": "a", "\b": "b", "\t": "t", "\n": "n", "\v": "v", "\f": "f",
    "\r": "r", "\x1b": "e", '"': '"', "\\": "\\", "\x85": "N", "\u2028": "L",
    "\u2029": "P",
}  # fmt: skip


def _needs_escape(ch: str, unicode: bool) -> bool:
    if ch in _ESCAPES or ch == "\ufeff":
        return True
    if "\x20" <= ch <= "\x7e":
        return False
    return not (unicode and ("\xa0" <= ch <= "\ud7ff" or "\ue000" <= ch <= "\ufffd"))


def _escape(ch: str) -> str:
    if ch in _ESCAPES:
        return "\\" + _ESCAPES[ch]
    code = ord(ch)
    if code <= 0xFF:
        return f"\\x{code:02X}"
    if code <= 0xFFFF:
        return f"\\u{code:04X}"
    return f"\\U{code:08X}"


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
    text = stream.getvalue()
    # libyaml (0.2.5, Psych's) ends the document with '...' only when the last block scalar
    # written keeps its final line breaks (`|+`); PyYAML after a top-level plain scalar too
    if text.endswith("\n...\n"):
        text = text.removesuffix("...\n")
    return text + "...\n" if dumper.kept_breaks else text
