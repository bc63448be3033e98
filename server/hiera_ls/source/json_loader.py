"""JSON text -> the value Puppet's ``json_data`` sees, with the source range of every node.

Puppet parses JSON with Ruby's ``JSON.parse`` (json 2.6 on Puppet 7's Ruby 3.1), which is
not Python's json: it skips ``/* */`` and ``//`` comments, takes ``\\q`` as ``q``, refuses
NaN/Infinity, stops at 100 levels of nesting, and words its errors after the state machine
that failed (``451: unexpected token at ']'`` from an array, ``859: ...`` from the top level,
which reports the start of the outermost failed object).  This scanner follows those rules so
hiera-ls accepts and refuses the same files with the same text; checked against ``ruby -rjson``
in tests/source/test_json_loader.py.
"""

from __future__ import annotations

import bisect
import re

from hiera_ls.puppet.message import Text, as_key, as_path, as_value
from hiera_ls.source.loader_rules import JSON_DUPLICATE_KEY, JSON_SYNTAX
from hiera_ls.source.node_table import EMPTY_NODES, NodeTable, Path
from hiera_ls.source.psych_scalars import _int_of_digits
from hiera_ls.source.spans import Details, Span
from hiera_ls.source.yaml_document import LOAD_ERROR_PREFIX, YamlDocument

MAX_NESTING = 100

_WS = re.compile(r"[ \t\r\n]+")
_PLAIN_STRING = re.compile(r'"([^"\\\x00-\x1f]*)"')
_STRING = re.compile(r'"(?:[^"\\\x00-\x1f]|\\u[0-9a-fA-F]{4}|\\[^u\x00-\x1f])*"')
_ESCAPE = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_FLOAT = re.compile(
    r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+(?:[eE][+-]?[0-9]+)?|[eE][+-]?[0-9]+)(?![0-9Ee.\-])"
)
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]*)(?![0-9])")
_SIMPLE_ESCAPES = {"b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
# A hash's or array's place in the node table, taken before its children are read: the
# table, like the YAML reader's, lists each node before its children (NodeTable.index_items
# builds a child's path from its parent's), and the marks are known only at the value's end.
# A failed value fails the whole file, so no placeholder outlives a parse.
_PENDING = (-1, -1, -1, -1, -1, -1, -1, -1, None)


class _Error(Exception):
    """Ruby raised: ``where`` is the index the message quotes from."""

    def __init__(self, message: str, where: int) -> None:
        super().__init__(message)
        self.message = message
        self.where = where


class _Scanner:
    __slots__ = ("entries", "line_starts", "problems", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        # lines as an editor counts them: a lone \r ends one too
        self.line_starts = [0] + [m.end() for m in re.finditer("\r\n|\r|\n", text)]
        self.entries: dict[Path, tuple[int, int, int, int, int, int, int, int, str | None]] = {}
        self.problems: list[tuple[tuple[int, int, int, int], str]] = []

    def pos(self, index: int) -> tuple[int, int]:
        line = bisect.bisect_right(self.line_starts, index) - 1
        return line, index - self.line_starts[line]

    # ------------------------------------------------------------------ whitespace

    def skip(self, i: int) -> int:
        """Skip blanks and comments; raises _Incomplete where a broken comment stops Ruby."""
        text = self.text
        n = len(text)
        while i < n:
            c = text[i]
            if c in " \t\r\n":
                m = _WS.match(text, i)
                i = m.end() if m else i + 1
            elif c == "/":
                nxt = text[i + 1 : i + 2]
                if nxt == "*":
                    end = text.find("*/", i + 2)
                    if end < 0:
                        raise _Incomplete(n)
                    i = end + 2
                elif nxt == "/":
                    end = min(
                        (e for e in (text.find("\n", i + 2), text.find("\r", i + 2)) if e >= 0),
                        default=-1,
                    )
                    if end < 0:
                        raise _Incomplete(n)
                    i = end + 1
                else:
                    raise _Incomplete(i + 1)
            else:
                return i
        return i

    # ------------------------------------------------------------------ values

    def value(
        self, i: int, path: Path | None, depth: int, key: tuple[int, int, int, int] | None
    ) -> tuple[object, int] | None:
        """Parse one value at ``i``; None when Ruby's value machine fails without raising."""
        text = self.text
        c = text[i : i + 1]
        if c == '"':
            parsed = self.string(i)
            if parsed is None:
                return None
            result: tuple[object, int] = parsed
            style: str | None = '"'
        elif c == "{":
            if path is not None:
                self.entries[path] = _PENDING
            obj = self.parse_object(i, path, depth + 1)
            if obj is None:
                return None
            result, style = obj, None
        elif c == "[":
            if path is not None:
                self.entries[path] = _PENDING
            result, style = self.parse_array(i, path, depth + 1), None
        elif c == "t" and text.startswith("true", i):
            result, style = (True, i + 4), None
        elif c == "f" and text.startswith("false", i):
            result, style = (False, i + 5), None
        elif c == "n" and text.startswith("null", i):
            result, style = (None, i + 4), None
        elif c == "N" and text.startswith("NaN", i):
            raise _Error("225: unexpected token at '{}'", i)
        elif c == "I" and text.startswith("Infinity", i):
            raise _Error("232: unexpected token at '{}'", max(i - 1, 0))
        elif c == "-" and text.startswith("-Infinity", i):
            raise _Error("249: unexpected token at '{}'", i)
        else:
            m = _FLOAT.match(text, i)
            if m:
                result, style = (float(m.group(0)), m.end()), None
            else:
                m = _INTEGER.match(text, i)
                if not m:
                    return None
                result, style = (_int_of_digits(m.group(0), 10), m.end()), None
        if path is not None:
            sl, sc = self.pos(i)
            el, ec = self.pos(result[1])
            k = key or (-1, -1, -1, -1)
            self.entries[path] = (k[0], k[1], k[2], k[3], sl, sc, el, ec, style)
        return result

    def string(self, i: int) -> tuple[str, int] | None:
        text = self.text
        m = _PLAIN_STRING.match(text, i)
        if m:
            return m.group(1), m.end()
        m = _STRING.match(text, i)
        if not m:
            return None
        body = m.group(0)[1:-1]
        return self.unescape(body, i + 1), m.end()

    def unescape(self, body: str, base: int) -> str:
        out: list[str] = []
        last = 0
        pending_high: tuple[int, int] | None = None  # (code, index of its backslash)
        for m in _ESCAPE.finditer(body):
            out.append(body[last : m.start()])
            last = m.end()
            esc = m.group(1)
            if esc[0] == "u" and len(esc) == 5:
                code = int(esc[1:], 16)
                if pending_high is not None:
                    high = pending_high[0]
                    pending_high = None
                    out.append(chr(0x10000 + ((high & 0x3FF) << 10) + (code & 0x3FF)))
                    continue
                if 0xD800 <= code <= 0xDBFF:
                    nxt = body[m.end() : m.end() + 2]
                    if nxt != "\\u" or not re.fullmatch(
                        r"[0-9a-fA-F]{4}", body[m.end() + 2 : m.end() + 6]
                    ):
                        raise _Error("521: incomplete surrogate pair at '{}'", base + m.start())
                    pending_high = (code, m.start())
                    continue
                out.append(chr(code))
            else:
                out.append(_SIMPLE_ESCAPES.get(esc, esc))
        out.append(body[last:])
        return "".join(out)

    def parse_object(self, i: int, path: Path | None, depth: int) -> tuple[object, int] | None:
        if depth > MAX_NESTING:
            raise _Error(f"nesting of {depth} is too deep", i)
        text = self.text
        result: dict[object, object] = {}
        j = self._skip_in_object(i + 1)
        if j is None:
            return None
        if text[j : j + 1] == "}":
            return result, j + 1
        while True:
            if text[j : j + 1] != '"':
                return None
            parsed = self.string(j)
            if parsed is None:
                return None
            name, after = parsed
            key_marks = (*self.pos(j), *self.pos(after))
            j = self._skip_in_object(after)
            if j is None or text[j : j + 1] != ":":
                return None
            j = self._skip_in_object(j + 1)
            if j is None:
                return None
            if name in result:
                self.problems.append((key_marks, name))
                self.drop(path, name)
            child = None if path is None else (*path, name)
            item = self.value(j, child, depth, key_marks)
            if item is None:
                return None
            result[name] = item[0]
            j = self._skip_in_object(item[1])
            if j is None:
                return None
            c = text[j : j + 1]
            if c == "}":
                return result, j + 1
            if c != ",":
                return None
            j = self._skip_in_object(j + 1)
            if j is None:
                return None

    def _skip_in_object(self, i: int) -> int | None:
        try:
            return self.skip(i)
        except _Incomplete:
            return None

    def parse_array(self, i: int, path: Path | None, depth: int) -> tuple[object, int]:
        if depth > MAX_NESTING:
            raise _Error(f"nesting of {depth} is too deep", i)
        text = self.text
        result: list[object] = []
        j = self._skip_in_array(i + 1)
        if text[j : j + 1] == "]":
            return result, j + 1
        while True:
            child = None if path is None else (*path, len(result))
            item = self.value(j, child, depth, None)
            if item is None:
                raise _Error("451: unexpected token at '{}'", j)
            result.append(item[0])
            j = self._skip_in_array(item[1])
            c = text[j : j + 1]
            if c == "]":
                return result, j + 1
            if c != ",":
                raise _Error("451: unexpected token at '{}'", j)
            j = self._skip_in_array(j + 1)

    def _skip_in_array(self, i: int) -> int:
        try:
            return self.skip(i)
        except _Incomplete as broken:
            raise _Error("451: unexpected token at '{}'", broken.where) from None

    def drop(self, path: Path | None, name: str) -> None:
        if path is None:
            return
        prefix = (*path, name)
        cut = len(prefix)
        for p in [p for p in self.entries if p[:cut] == prefix]:
            del self.entries[p]


class _Incomplete(Exception):
    """A comment that never ends; Ruby's machine stops at ``where``."""

    def __init__(self, where: int) -> None:
        super().__init__(where)
        self.where = where


def load_json(path: str, text: str) -> YamlDocument:
    """The file as Puppet's json_data loads it; never raises on any text."""
    scanner = _Scanner(text)
    try:
        value, _end = _top(scanner)
    except _Error as error:
        return _fatal(path, scanner, error)
    except RecursionError:  # cannot happen below MAX_NESTING, kept for safety
        return _fatal(path, scanner, _Error("nesting of 101 is too deep", 0))
    problems = []
    for marks, name in scanner.problems:
        message = Text.of(
            "Duplicate key '",
            as_key(name),
            "' in this object: Ruby's JSON keeps the value given last",
        )
        problems.append(JSON_DUPLICATE_KEY.at(message, path, Span.of(*marks), Details(key=name)))
    return YamlDocument(path, value, NodeTable(dict(scanner.entries)), tuple(problems), None)


def _top(scanner: _Scanner) -> tuple[object, int]:
    text = scanner.text
    try:
        i = scanner.skip(0)
    except _Incomplete as broken:
        raise _Error("859: unexpected token at '{}'", broken.where) from None
    if i >= len(text):
        raise _Error("859: unexpected token at '{}'", len(text))
    item = scanner.value(i, (), 0, None)
    if item is None:
        raise _Error("859: unexpected token at '{}'", i)
    try:
        j = scanner.skip(item[1])
    except _Incomplete as broken:
        raise _Error("859: unexpected token at '{}'", broken.where) from None
    if j < len(text):
        raise _Error("859: unexpected token at '{}'", j)
    return item


def _fatal(path: str, scanner: _Scanner, error: _Error) -> YamlDocument:
    text = scanner.text
    before, quoted, after = error.message.partition("{}")
    # Ruby's parser quotes the rest of the file from where it stopped: data, never shown
    message = Text.of(before, as_value(text[error.where :]), after) if quoted else error.message
    line, col = scanner.pos(min(error.where, len(text)))
    problem = JSON_SYNTAX.at(
        Text.of(LOAD_ERROR_PREFIX, "(", as_path(path), "): ", message),
        path,
        Span.of(line, col, line, col),
    )
    return YamlDocument(path, None, EMPTY_NODES, (), problem)
