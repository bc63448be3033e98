"""Quick fixes: the text edits that carry out a diagnostic's documented fix.

One answer for the editor's code actions and for ``hiera-ls check --fix``. A fix is computed
from the problem (its code, range and message) and the file's current text only, so an
editor's diagnostic, which may be a keystroke old, gets a fix only if the text under its range
is still what the check saw: every fix re-reads that text and offers nothing when it differs.

Edits replace ranges of the text; nothing is ever re-dumped, so comments, quoting and key order
elsewhere stay as written. ``safe`` fixes are those ``check --fix`` applies unasked: they
cannot change what Puppet reads, except to make a file or token Puppet refuses say what it
evidently meant (docs/diagnostics.md lists them per code). Quoting ``0644`` or ``no`` changes
the value Puppet reads, so those are offered, never applied unasked.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import re
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace

import yaml

from hiera_ls.project.key_index import LineMap
from hiera_ls.source.psych_scalars import Refusal, tokenize
from hiera_ls.source.spans import Position, Problem, Span

MERGE_STRATEGIES = ("first", "unique", "hash", "deep")
LOOKUP_OPTION_NAMES = ("merge", "convert_to")
DISABLE_PREFIX = "# hiera-ls: disable-line="
DISABLE_NEXT_PREFIX = "# hiera-ls: disable-next-line="


@dataclass(frozen=True, slots=True)
class TextEdit:
    """Replace ``span`` (code points, as every Span) with ``new_text``."""

    span: Span
    new_text: str


@dataclass(frozen=True, slots=True)
class Fix:
    title: str
    edits: tuple[TextEdit, ...]
    safe: bool = False  # applied by ``check --fix`` (see the module docstring)
    preferred: bool = False  # the editor's one-key fix for the diagnostic


def fixes_for(problem: Problem, text: str | FixSource) -> tuple[Fix, ...]:
    """Every fix for ``problem`` in ``text`` (the file it is located in), best first.

    The last one is always "Disable CODE on this line" where a YAML comment can hold it.
    ``text`` may be a :class:`FixSource` kept for the file's text, so an editor's code action
    on every cursor move scans the file's tokens once per text, not once per request.
    """
    json = problem.where.path.endswith(".json")
    if isinstance(text, str):
        return _fixes(problem, FixSource(text, json))
    text.json = json
    return _fixes(problem, text)


def safe_fixes(text: str, problems: Iterable[Problem]) -> tuple[Fix, ...]:
    """The safe fixes ``apply_safe_fixes`` makes: the first safe fix of each problem, in file
    order, leaving out any whose edits touch a range an earlier chosen fix edits."""
    source = _Text(text, False)
    chosen: dict[Fix, None] = {}
    taken = _Taken()
    for problem in sorted(problems, key=lambda p: (p.where.span.start, p.where.span.end, p.code)):
        source.json = problem.where.path.endswith(".json")
        fix = next((f for f in _fixes(problem, source, disable=False) if f.safe), None)
        if fix is None:
            continue
        ranges = [source.offsets(e.span) for e in fix.edits]
        if fix in chosen or any(taken.overlaps(r) for r in ranges):
            continue
        chosen[fix] = None
        taken.add(ranges)
    return tuple(chosen)


class _Taken:
    """The ranges chosen fixes edit (they never overlap), sorted: a new fix's ranges are
    checked against their neighbours only, so ``check --fix`` stays linear in the number of
    fixes (it compared each fix with every earlier one: 20,000 fixes took minutes)."""

    def __init__(self) -> None:
        self.ranges: list[tuple[int, int]] = []

    def overlaps(self, r: tuple[int, int]) -> bool:
        # those starting at or before r's end; their ends grow with their starts, so once one
        # ends before r starts, so do all before it
        i = bisect.bisect_right(self.ranges, (r[1], sys.maxsize))
        while i > 0:
            i -= 1
            t = self.ranges[i]
            if t[1] < r[0]:
                return False
            if _overlap(r, t):
                return True
        return False

    def add(self, ranges: Sequence[tuple[int, int]]) -> None:
        for r in ranges:
            bisect.insort(self.ranges, r)


def apply_safe_fixes(text: str, problems: Iterable[Problem]) -> str:
    """``text`` with every safe fix of ``problems`` applied once; the caller re-checks it
    (a fix may reveal what the problem hid, as a file that now parses shows its values)."""
    return apply_edits(text, [e for f in safe_fixes(text, problems) for e in f.edits])


def apply_edits(text: str, edits: Sequence[TextEdit]) -> str:
    """Apply non-overlapping edits (all computed against ``text``)."""
    lines = LineMap(text)
    located = sorted(
        ((lines.offset(e.span.start), lines.offset(e.span.end), e.new_text) for e in edits),
        key=lambda x: (x[0], x[1]),
        reverse=True,
    )
    parts: list[str] = []
    rest = len(text)
    for start, end, new in located:  # from the end: each piece is copied once
        parts += (text[end:rest], new)
        rest = start
    parts.append(text[:rest])
    return "".join(reversed(parts))


def _overlap(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] == a[1] or b[0] == b[1]:  # an insertion: same point or strictly inside
        return a[0] == b[0] or b[0] < a[0] < b[1] or a[0] < b[0] < a[1]
    return a[0] < b[1] and b[0] < a[1]


# --------------------------------------------------------------------------- the text


@dataclass(frozen=True, slots=True)
class _Scalar:
    start: Position
    end: Position
    style: str  # "" plain, "'" or '"' quoted, "|" or ">" block


class FixSource:
    """A file's text with its lines and (lazily) its YAML tokens, shared by the fixes of one
    file so ``check --fix`` scans each file once, and kept by the server for the buffer's
    text so a code action asked on each cursor move does not scan it again.

    ``previous``: the source of the text before an edit. Its tokens up to a top-level key
    line before the edit are this text's too, and libyaml, started afresh at such a line,
    reads what follows exactly as a scan from the top would (no flow collection or scalar
    is open there, and the key is at column 0): so only the lines from there are scanned.
    Below the edit, once the scan meets such a key line in the text the edit left alone,
    and the old text had one there too, the rest is the old scan's, lines shifted.
    """

    def __init__(
        self,
        text: str,
        json: bool,
        previous: FixSource | None = None,
        lines: LineMap | None = None,
    ) -> None:
        self.text = text
        self.json = json
        self.lines = lines if lines is not None and lines.text == text else LineMap(text)
        self._readable: bool | None = None  # see readable
        self._tokens: Iterator[yaml.Token] | None = None
        self._done = False
        self._scalars: list[_Scalar] = []
        self._starts: list[Position] = []  # each scalar's start, to find one by bisection
        self._line_end: dict[int, int] = {}
        self._last = -1
        self._composed: object = None
        self._keys_at: dict[tuple[int, int], tuple[yaml.MappingNode, int]] | None = None
        # where a fresh scan may start: (line, scalars before it), in file order
        self._restarts: list[tuple[int, int]] = []
        self._base = 0  # the line the scan started at
        self._flow = 0  # open flow collections
        self._reach = (0, 0)  # the furthest token end so far
        self._after_key = False
        self._tail: tuple[FixSource, int, int] | None = None  # see _take_tail
        if previous is not None and previous is not self:
            self._resume(previous)

    @property
    def line_count(self) -> int:
        return self.lines.position(len(self.text)).line + 1

    @property
    def newline(self) -> str:
        return "\r\n" if "\r\n" in self.text else "\n"

    def line(self, n: int) -> str:
        return self.lines.line_text(n)

    def at(self, span: Span) -> str:
        return self.text[self.lines.offset(span.start) : self.lines.offset(span.end)]

    def offsets(self, span: Span) -> tuple[int, int]:
        return self.lines.offset(span.start), self.lines.offset(span.end)

    @property
    def readable(self) -> bool:
        """Does libyaml read the text to its end with our line numbers (see _resume)?"""
        if self._readable is None:
            self._readable = _UNSAFE.search(self.text) is None
        return self._readable

    def _resume(self, previous: FixSource) -> None:
        """Take ``previous``'s tokens above the last restart line before the first change.

        Only for texts libyaml reads as our line table does and reads to the end: a line
        break of its own (NEL, LS, PS) or a character it refuses (found where its reader's
        buffer reaches, not where the scanner is) would make a fresh start differ."""
        if not previous._restarts or not self.readable or not previous.readable:
            return
        first_change = _common_prefix(previous.text, self.text)
        same_end = len(self.text) - _common_suffix(previous.text, self.text)
        delta = self.line_count - previous.line_count
        self._tail = (previous, delta, self.lines.position(same_end).line + 1)
        changed_line = self.lines.position(first_change).line
        at = bisect.bisect_left(previous._restarts, (changed_line, -1)) - 1
        if at < 0:
            return
        line, scalars = previous._restarts[at]
        self._restarts = previous._restarts[: at + 1]
        self._scalars = previous._scalars[:scalars]
        self._starts = previous._starts[:scalars]
        self._line_end = {n: c for n, c in previous._line_end.items() if n < line}
        self._last = line - 1
        self._base = line
        self._reach = (line, 0)

    def _scan(self, line: int) -> tuple[list[_Scalar], dict[int, int], int]:
        """Scalars, the column where each line's last token ends, and the last line scanned,
        far enough to know ``line`` (tokens come in order, so a code action near the top of a
        10,000-line file scans only that far). libyaml stops at a syntax error."""
        if self._tokens is None:
            offset = self.lines.offset(Position(self._base, 0))
            self._tokens = iter(yaml.scan(self.text[offset:], Loader=_LOADER))
        base = self._base
        while not self._done and self._last <= line + 1:
            try:
                tok = next(self._tokens)
            except (StopIteration, yaml.YAMLError):
                self._done = True
                break
            first = tok.start_mark
            last = tok.end_mark
            start = Position(first.line + base, first.column)
            end = Position(last.line + base, last.column)
            kind = type(tok)
            if isinstance(tok, yaml.ScalarToken):
                if (
                    start.column == 0
                    and self._after_key
                    and not self._flow
                    and not tok.style
                    and self._reach <= (start.line, 0)
                    and start.line > base
                ):
                    if self._take_tail(start.line):
                        base = self._base
                        continue
                    self._restarts.append((start.line, len(self._scalars)))
                self._scalars.append(_Scalar(start, end, tok.style or ""))
                self._starts.append(start)
            elif kind in _FLOW_OPEN:
                self._flow += 1
            elif kind in _FLOW_CLOSE:
                self._flow -= 1
            self._after_key = kind is yaml.KeyToken
            if end > start:
                self._line_end[end.line] = max(self._line_end.get(end.line, 0), end.column)
                self._reach = max(self._reach, (end.line, end.column))
            self._last = max(self._last, start.line, end.line)
        return self._scalars, self._line_end, self._last

    def _take_tail(self, line: int) -> bool:
        """At a restart ``line`` of the text the edit left alone (it and the line break
        before it): when the old text had a restart at the same line of that text, its
        scan from there is this one's, so its data, shifted by the lines the edit added,
        is taken, and its token stream goes on for this text (the old source starts over
        if it is ever asked again)."""
        if self._tail is None or line < self._tail[2]:
            return False
        previous, delta, _ = self._tail
        at = bisect.bisect_left(previous._restarts, (line - delta, -1))
        if at == len(previous._restarts) or previous._restarts[at][0] != line - delta:
            return False
        if previous._tokens is None:  # its data ends there: the scan goes on by itself
            return False
        self._tail = None
        kept = len(self._scalars)
        first = previous._restarts[at][1]
        if delta == 0:  # an edit within its lines: the same values
            self._scalars.extend(previous._scalars[first:])
            self._starts.extend(previous._starts[first:])
        for s in previous._scalars[first:] if delta else ():
            moved = _Scalar(
                Position(s.start.line + delta, s.start.column),
                Position(s.end.line + delta, s.end.column),
                s.style,
            )
            self._scalars.append(moved)
            self._starts.append(moved.start)
        for n, column in previous._line_end.items():
            if n >= line - delta:
                self._line_end[n + delta] = max(self._line_end.get(n + delta, 0), column)
        self._restarts.extend((n + delta, k - first + kept) for n, k in previous._restarts[at:])
        self._last = max(self._last, previous._last + delta)
        self._done = previous._done
        self._tokens = previous._tokens
        self._base = previous._base + delta
        self._flow = previous._flow
        self._reach = (previous._reach[0] + delta, previous._reach[1])
        self._after_key = previous._after_key
        previous.__init__(previous.text, previous.json, lines=previous.lines)  # type: ignore[misc]
        return True

    def scalar_at(self, span: Span) -> _Scalar | None:
        if self.json:
            return _Scalar(span.start, span.end, '"')
        scalars = self._scan(span.end.line)[0]
        # scalars come in file order and never overlap: only the last two starting at or
        # before the span can hold it (two when one ends where the next starts)
        last = bisect.bisect_right(self._starts, span.start)
        for s in scalars[max(0, last - 2) : last]:
            if s.start <= span.start and span.end <= s.end:
                return s
        return None

    def inside_scalar(self, pos: Position) -> bool:
        """Is ``pos`` strictly inside a scalar's text (a comment there would be content)?"""
        scalars = self._scan(pos.line)[0]
        last = bisect.bisect_left(self._starts, pos)
        return any(s.start < pos < s.end for s in scalars[max(0, last - 1) : last])

    def comment_start(self, line: int) -> int | None:
        """Column of the line's comment, or None; -1 when libyaml never reached the line."""
        _, line_end, last = self._scan(line)
        text = self.line(line)
        if line > last:
            return -1 if "#" in text else None
        begin = line_end.get(line, 0)
        for m in re.finditer("#", text[begin:]):
            col = begin + m.start()
            if col == 0 or text[col - 1] in " \t":
                return col
        return None


_Text = FixSource  # the name the fixes below are written with


def _common_prefix(a: str, b: str) -> int:
    """How many leading code points ``a`` and ``b`` share (compared a block at a time)."""
    size = min(len(a), len(b))
    block = 4096
    i = 0
    while i < size and a[i : i + block] == b[i : i + block]:
        i += block
    end = min(i + block, size)
    while i < end and a[i] == b[i]:
        i += 1
    return min(i, size)


def _common_suffix(a: str, b: str) -> int:
    """How many trailing code points ``a`` and ``b`` share."""
    size = min(len(a), len(b))
    block = 4096
    i = 0
    while (
        i + block <= size
        and a[len(a) - i - block : len(a) - i] == b[len(b) - i - block : len(b) - i]
    ):
        i += block
    while i < size and a[len(a) - i - 1] == b[len(b) - i - 1]:
        i += 1
    return i


# What libyaml counts as a line break where LineMap does not, or refuses to read (the
# printable set of the YAML 1.1 spec, which libyaml enforces as its reader decodes).
_UNSAFE = re.compile(
    "[^\\t\\n\\r\\x20-\\x7e\\xa0-\\u2027\\u202a-\\ud7ff\\ue000-\\ufefe\\uff00-\\ufffd\\U00010000-\\U0010ffff]"
)
_FLOW_OPEN = (yaml.FlowSequenceStartToken, yaml.FlowMappingStartToken)
_FLOW_CLOSE = (yaml.FlowSequenceEndToken, yaml.FlowMappingEndToken)
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# --------------------------------------------------------------------------- dispatch


def _fixes(problem: Problem, src: _Text, disable: bool = True) -> tuple[Fix, ...]:
    found: list[Fix] = []
    make = _BY_CODE.get(problem.code)
    if make is not None:
        # The text may not be what the check saw (a stale diagnostic), or not parse: then no
        # fix rather than a wrong one, and never a failed request or `check --fix`.
        with contextlib.suppress(Exception):
            made = make(problem, src)
            found.extend(f if problem.code in SAFE_CODES else replace(f, safe=False) for f in made)
    comment = _disable_line(problem, src) if disable else None
    if comment is not None:
        found.append(comment)
    return tuple(found)


def _one_line(problem: Problem) -> Span:
    span = problem.where.span
    if span.start.line != span.end.line or span.start == span.end:
        raise ValueError("not a one-line range")
    return span


def _edit(span: Span, new: str) -> tuple[TextEdit, ...]:
    return (TextEdit(span, new),)


# --------------------------------------------------------------------------- quoting


def _quoted(text: str) -> str:
    """``text`` as a YAML quoted scalar with the same characters: double quotes unless the
    text holds one (a plain scalar has no escapes to keep)."""
    if '"' not in text and "\\" not in text:
        return f'"{text}"'
    return "'" + text.replace("'", "''") + "'"


def _plain_text(problem: Problem, src: _Text) -> tuple[Span, str]:
    """The one-line plain scalar under the problem's range, as written."""
    span = _one_line(problem)
    written = src.at(span)
    if not written or written[0] in "\"'|>!&*[{" or written != written.strip():
        raise ValueError("not a plain scalar")
    return span, written


def _reads_as(written: str) -> object:
    try:
        return tokenize(written)
    except Refusal as refusal:
        return refusal


def _quote(safe: bool = False, what: str = "the text") -> Callable[[Problem, _Text], list[Fix]]:
    def make(problem: Problem, src: _Text) -> list[Fix]:
        span, written = _plain_text(problem, src)
        if isinstance(_reads_as(written), str):
            return []  # already a String: the diagnostic is stale
        new = _quoted(written)
        return [Fix(f"Quote {new} ({what})", _edit(span, new), safe=safe, preferred=True)]

    return make


def _symbol_value(problem: Problem, src: _Text) -> list[Fix]:
    span, written = _plain_text(problem, src)
    if not written.startswith(":") or len(written) < 2:
        return []
    quoted = _quoted(written)
    out = [Fix(f"Quote {quoted} (the String '{written}')", _edit(span, quoted), preferred=True)]
    bare = _unsymbol(written)
    if bare is not None:
        out.append(Fix(f"Drop the colon: {bare}", _edit(span, bare)))
    return out


def _unsymbol(written: str) -> str | None:
    """``:name`` without its colon, quoted if the rest would not read as the String name."""
    rest = written[1:]
    if rest[:1] in ("'", '"'):
        return rest
    return rest if _reads_as(rest) == rest else _quoted(rest)


def _symbol_key(problem: Problem, src: _Text) -> list[Fix]:
    span, written = _plain_text(problem, src)
    if not written.startswith(":") or len(written) < 2:
        return []
    bare = _unsymbol(written)
    if bare is None:
        return []
    return [Fix(f"Drop the colon: {bare}", _edit(span, bare), preferred=True)]


def _exponent(problem: Problem, src: _Text) -> list[Fix]:
    span, written = _plain_text(problem, src)
    m = re.fullmatch(r"([+-]?)(\d*)(?:\.(\d*))?[eE]([+-]?)(\d+)", written)
    if m is None:
        return []
    sign, whole, frac, esign, exp = m.groups()
    number = f"{sign}{whole or '0'}.{frac or '0'}e{esign or '+'}{exp}"
    if not isinstance(_reads_as(number), float):
        return []
    return [Fix(f"Write {number} (a Float)", _edit(span, number))]


# --------------------------------------------------------------------------- duplicate keys


def _duplicate_key(problem: Problem, src: _Text) -> list[Fix]:
    """Remove the entry before the reported one with the same key: Psych keeps the last."""
    at = problem.where.span.start
    found = _mapping_with_key_at(src, at)
    if found is None:
        return []
    mapping, index = found
    pairs = mapping.value
    key = _key_identity(pairs[index][0])
    if key is None or mapping.flow_style:
        return []
    earlier = next((i for i in range(index - 1, -1, -1) if _key_identity(pairs[i][0]) == key), None)
    if earlier is None:
        return []
    removed = _entry_lines(src, mapping, earlier)
    if removed is None:
        return []
    first = pairs[earlier][0].start_mark
    title = f"Remove the earlier {_key_text(pairs[earlier][0])} (line {first.line + 1}), which "
    title += "Psych discards"
    return [Fix(title, _edit(removed, ""), safe=True, preferred=True)]


def _merge_override(problem: Problem, src: _Text) -> list[Fix]:
    """Move the ``<<`` line above the mapping's first key, so the keys written win."""
    found = _mapping_with_key_at(src, problem.where.span.start)
    if found is None:
        return []
    mapping, index = found
    if index == 0 or mapping.flow_style:
        return []
    removed = _entry_lines(src, mapping, index)
    first = mapping.value[0][0].start_mark
    if removed is None or removed.end.line - removed.start.line != 1:
        return []  # only a one-line `<<: *anchor`
    if src.line(first.line)[: first.column].strip():
        return []
    line = src.line(removed.start.line)
    moved = " " * first.column + line.lstrip() + src.newline
    at = Position(first.line, 0)
    edits = (TextEdit(Span(at, at), moved), TextEdit(removed, ""))
    return [Fix("Move << first, so the keys written here win", edits, preferred=True)]


def _compose(src: _Text) -> object:
    if src._composed is None:
        src._composed = yaml.compose(src.text, Loader=_LOADER) or False
    return src._composed


def _mapping_with_key_at(src: _Text, at: Position) -> tuple[yaml.MappingNode, int] | None:
    """The mapping holding a key that starts at ``at``, and the key's index in it; every
    key of the file is placed once per text (a walk per problem made ``check --fix``
    quadratic: 20,000 duplicate keys took 90 s)."""
    if src._keys_at is None:
        places: dict[tuple[int, int], tuple[yaml.MappingNode, int]] = {}
        stack = [_compose(src)]
        seen: set[int] = set()
        while stack:
            current = stack.pop()
            if id(current) in seen:
                continue
            seen.add(id(current))
            if isinstance(current, yaml.MappingNode):
                for i, (k, v) in enumerate(current.value):
                    places.setdefault((k.start_mark.line, k.start_mark.column), (current, i))
                    stack.extend((k, v))
            elif isinstance(current, yaml.SequenceNode):
                stack.extend(current.value)
        src._keys_at = places
    return src._keys_at.get((at.line, at.column))


def _key_identity(node: object) -> tuple[str, object] | None:
    """The key as Psych reads it (``yes`` and ``true`` are one key), None when unsure."""
    if not isinstance(node, yaml.ScalarNode) or node.tag.startswith("!"):
        return None
    value = _reads_as(node.value) if not node.style else node.value
    if isinstance(value, Refusal):
        return None
    return type(value).__name__, value


def _key_text(node: yaml.ScalarNode) -> str:
    return f"'{node.value}'" if not node.style else f"{node.style}{node.value}{node.style}"


def _blank_or_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


_ANCHOR = re.compile(r"(?:^|[\s\[{,])&([^\s\[\]{},]+)")


def _defines_used_anchor(removed: str, text: str) -> bool:
    return any(f"*{m.group(1)}" in text for m in _ANCHOR.finditer(removed))


_JSON_TOKEN = re.compile(
    r'(?P<ws>[ \t\r\n]+)|(?P<comment>/\*.*?\*/|//[^\n]*)|(?P<string>"(?:[^"\\]|\\.)*")'
    r"|(?P<punct>[{}\[\]:,])|(?P<other>[^ \t\r\n{}\[\]:,\"/]+)",
    re.DOTALL,
)


@dataclass(slots=True)
class _JsonObject:
    keys: list[tuple[int, str]]  # (offset of the key's opening quote, the key)
    expect_key: bool = True


def _json_duplicate_key(problem: Problem, src: _Text) -> list[Fix]:
    """Remove the member before the reported one with the same key (Ruby keeps the last),
    from its key to the next member's key; comments between stay."""
    at = src.lines.offset(problem.where.span.start)
    stack: list[_JsonObject | None] = []  # None for an array
    for m in _JSON_TOKEN.finditer(src.text):
        kind, token = m.lastgroup, m.group()
        top = stack[-1] if stack else None
        if kind == "punct":
            if token in "{[":
                stack.append(_JsonObject([]) if token == "{" else None)
            elif token in "}]" and stack:
                stack.pop()
            elif token == "," and top is not None:
                top.expect_key = True
            elif token == ":" and top is not None:
                top.expect_key = False
        elif kind == "string" and top is not None and top.expect_key:
            key = _json_key(token)
            if m.start() == at:
                earlier = [o for o, k in top.keys if k == key]
                return _remove_json_member(src, earlier[-1], key) if earlier else []
            top.keys.append((m.start(), key))
            top.expect_key = False
        elif kind is None:
            return []
    return []


def _json_key(token: str) -> str:
    try:
        decoded = json.loads(token)
    except ValueError:
        return token
    return decoded if isinstance(decoded, str) else token


def _remove_json_member(src: _Text, start: int, key: str) -> list[Fix]:
    depth = 0
    for m in _JSON_TOKEN.finditer(src.text, start):
        token = m.group()
        if m.lastgroup == "punct":
            if token in "{[":
                depth += 1
            elif token in "}]":
                if depth == 0:
                    return []
                depth -= 1
            elif token == "," and depth == 0:
                end = m.end()
                gap = re.match(r"[ \t\r\n]*", src.text[end:])
                end += gap.end() if gap else 0
                span = Span(src.lines.position(start), src.lines.position(end))
                line = span.start.line + 1
                title = f"Remove the earlier '{key}' (line {line}), which Ruby's JSON discards"
                return [Fix(title, _edit(span, ""), safe=True, preferred=True)]
    return []


# --------------------------------------------------------------------------- tokens


def _style_quote(problem: Problem, src: _Text) -> tuple[_Scalar, str]:
    """The scalar holding the token, and the quote to write a call's argument with."""
    scalar = src.scalar_at(problem.where.span)
    if scalar is None:
        raise ValueError("no scalar")
    return scalar, '"' if scalar.style == "'" else "'"


def _token(problem: Problem, src: _Text) -> tuple[Span, str]:
    span = _one_line(problem)
    written = src.at(span)
    if not written.startswith("%{"):
        raise ValueError("not a token")
    return span, written


# An argument quote as written in any scalar style: ', '' (single-quoted), " or \" (double).
_Q = r"(?:''|'|\\\"|\")"


def _unknown_method(problem: Problem, src: _Text) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.match(r"%\{(\s*)(\w+)\(", written)
    if m is None:
        return []
    near = [name for name in ("alias", "hiera", "literal", "lookup", "scope")]
    near = [name for name in near if name.lower() == m.group(2).lower()]
    if not near:
        return []
    new = written[: m.start(2)] + near[0] + written[m.end(2) :]
    return [Fix(f"Write {near[0]}", _edit(span, new), safe=True, preferred=True)]


def _alias_not_whole(problem: Problem, src: _Text) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.match(r"%\{(\s*)alias\(", written)
    if m is None:
        return []
    new = written[: m.end(1)] + "lookup(" + written[m.end() :]
    return [Fix("Embed the value as text with lookup()", _edit(span, new), preferred=True)]


def _literal_argument(problem: Problem, src: _Text) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.fullmatch(rf"%\{{\s*literal\(({_Q})(.+?)\1\)\s*\}}", written)
    if m is None:
        return []
    argument = m.group(2)
    scalar = src.scalar_at(span)
    if (
        scalar is None
        or "%" in argument
        or (scalar.style == "" and re.search(r"[:#,\[\]{}]", argument))
    ):
        return []
    before = src.line(span.start.line)[: span.start.column]
    if before.endswith("%") and argument.startswith("{"):
        return []  # would make a new %{ token
    return [Fix("Write the text directly", _edit(span, argument), safe=True, preferred=True)]


def _unquoted_argument(problem: Problem, src: _Text) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.fullmatch(r"%\{\s*(\w+)\s*\(\s*([^'\"()]+?)\s*\)\s*\}", written)
    if m is None or m.group(1) not in ("lookup", "hiera", "alias", "literal", "scope"):
        return []
    _, q = _style_quote(problem, src)
    new = f"%{{{m.group(1)}({q}{m.group(2)}{q})}}"
    return [Fix(f"Quote the argument: {new}", _edit(span, new), safe=True, preferred=True)]


def _syntax_error(problem: Problem, src: _Text) -> list[Fix]:
    """Only the spaced call ``%{lookup( 'b' )}``: the rest has no single evident meaning."""
    span, written = _token(problem, src)
    m = re.fullmatch(rf"%\{{\s*(\w+)\s*\(\s*({_Q})([^'\"]+)\2\s*\)\s*\}}", written)
    if m is None or m.group(1) not in ("lookup", "hiera", "alias", "literal", "scope"):
        return []
    new = f"%{{{m.group(1)}({m.group(2)}{m.group(3)}{m.group(2)})}}"
    if new == written:
        return []
    return [Fix(f"Write {new}", _edit(span, new), safe=True, preferred=True)]


def _keep_percent(problem: Problem, src: _Text) -> list[Fix]:
    """``%{`` -> ``%{literal('%')}{``: the text stays as written, for another tool to read."""
    span = problem.where.span
    if src.at(Span(span.start, Position(span.start.line, span.start.column + 2))) != "%{":
        return []
    _, q = _style_quote(problem, src)
    new = f"%{{literal({q}%{q})}}{{"
    edit = TextEdit(Span(span.start, Position(span.start.line, span.start.column + 2)), new)
    return [Fix("Keep the text as written: %{literal('%')}{", (edit,), preferred=True)]


def _top_scope_variable(problem: Problem, src: _Text) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.match(rf"%\{{\s*(?:scope\(({_Q}))?", written)
    if m is None or not re.match(r"[\w-]", written[m.end() : m.end() + 1]):
        return []
    at = Position(span.start.line, span.start.column + m.end())
    insert = Span(at, at)
    return [
        Fix("Read the fact: %{facts....}", _edit(insert, "facts."), preferred=True),
        Fix("Read the top-scope variable: %{::...}", _edit(insert, "::")),
    ]


def _collection_in_string(problem: Problem, src: _Text) -> list[Fix]:
    span, written = _token(problem, src)
    m = re.match(r"%\{(\s*)(lookup|hiera)\(", written)
    scalar = src.scalar_at(span)
    if m is None or scalar is None:
        return []
    body = src.at(Span(scalar.start, scalar.end))
    if scalar.style in ("'", '"'):
        body = body[1:-1]
    if body != written:
        return []  # alias() keeps the type only as the whole value
    new = written[: m.start(2)] + "alias" + written[m.end(2) :]
    return [Fix("Keep the value's type with alias()", _edit(span, new), preferred=True)]


def _unquoted_value(problem: Problem, src: _Text) -> list[Fix]:
    """``key: %{x} rest`` -> ``key: "%{x} rest"`` (the file does not parse, so by text)."""
    span = _one_line(problem)
    line = src.line(span.start.line)
    rest = line[span.start.column :]
    comment = re.search(r"\s#", rest)
    value = (rest[: comment.start()] if comment else rest).rstrip()
    if not value.startswith("%{"):
        return []
    following = _next_content_line(src, span.start.line)
    indent = len(line) - len(line.lstrip())
    if following is not None and len(following) - len(following.lstrip()) > indent:
        return []  # the plain value may go on over the next lines
    whole = Span(span.start, Position(span.start.line, span.start.column + len(value)))
    return [Fix(f"Quote the value: {_quoted(value)}", _edit(whole, _quoted(value)), True, True)]


def _next_content_line(src: _Text, line: int) -> str | None:
    n = line + 1
    while n < src.line_count:
        text = src.line(n)
        if not _blank_or_comment(text):
            return text
        n += 1
    return None


_DID_YOU_MEAN = re.compile(r"defines '([^']+)':.*Did you mean '([^']+)'\?$")


def _undefined_key(problem: Problem, src: _Text) -> list[Fix]:
    """The key the message suggests, in place of the misspelt one inside the token."""
    named = _DID_YOU_MEAN.search(problem.message)
    span, written = _token(problem, src)
    if named is None:
        return []
    wrong, right = named.groups()
    m = re.fullmatch(
        rf"(%\{{\s*\w+\(\s*{_Q})({re.escape(wrong)})((?:\.[^'\"]*)?{_Q}\s*\)\s*\}})", written
    )
    if m is None:
        return []
    new = m.group(1) + right + m.group(3)
    return [Fix(f"Write '{right}'", _edit(span, new), preferred=True)]


# --------------------------------------------------------------------------- lookup_options


def _nearest(word: str, choices: Sequence[str]) -> str | None:
    scored = sorted((_distance(word.lower(), c), c) for c in choices)
    best = scored[0]
    limit = max(1, len(word) // 3)
    return best[1] if best[0] <= limit else None


def _distance(a: str, b: str) -> int:
    row = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, cb in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (ca != cb))
    return row[-1]


def _word_in_span(problem: Problem, src: _Text) -> tuple[Span, str, str]:
    """The span's text without its quotes, and the quote it had."""
    span = _one_line(problem)
    written = src.at(span)
    quote = written[0] if written[:1] in ("'", '"') else ""
    if quote and not (len(written) > 1 and written.endswith(quote)):
        raise ValueError("unbalanced quotes")
    return span, written[len(quote) : len(written) - len(quote)], quote


def _unknown_merge(problem: Problem, src: _Text) -> list[Fix]:
    span, word, quote = _word_in_span(problem, src)
    best = _nearest(word, MERGE_STRATEGIES)
    if best is None or best == word:
        return []
    return [Fix(f"Write {best}", _edit(span, f"{quote}{best}{quote}"), preferred=True)]


def _unknown_option(problem: Problem, src: _Text) -> list[Fix]:
    span, word, quote = _word_in_span(problem, src)
    best = _nearest(word, LOOKUP_OPTION_NAMES)
    if best is None or best == word:
        return []
    return [Fix(f"Write {best}", _edit(span, f"{quote}{best}{quote}"), preferred=True)]


def _entry_ignored(problem: Problem, src: _Text) -> list[Fix]:
    span, word, _ = _word_in_span(problem, src)
    if word not in MERGE_STRATEGIES:
        return []
    new = f"{{merge: {word}}}"
    return [Fix(f"Write {new}", _edit(span, new), preferred=True)]


def _entry_not_hash(problem: Problem, src: _Text) -> list[Fix]:
    span = _one_line(problem)
    m = re.fullmatch(r"\[\s*(['\"]?)(\w+)\1\s*\]", src.at(span))
    if m is None or m.group(2) not in MERGE_STRATEGIES:
        return []
    new = f"{{merge: {m.group(2)}}}"
    return [Fix(f"Write {new}", _edit(span, new), preferred=True)]


def _literal_pattern(problem: Problem, src: _Text) -> list[Fix]:
    span, word, quote = _word_in_span(problem, src)
    if word.startswith("^"):
        return []
    new = f"{quote}^{word}{'' if word.endswith('$') else '$'}{quote}"
    return [Fix(f"Make it a pattern: {new}", _edit(span, new), preferred=True)]


_MODULE_PREFIX = re.compile(r"must start with '([a-z][a-z0-9_]*)::'")


def _unqualified_key(problem: Problem, src: _Text) -> list[Fix]:
    m = _MODULE_PREFIX.search(problem.message)
    if m is None:
        return []
    span, word, quote = _word_in_span(problem, src)
    if not word or word.startswith(f"{m.group(1)}::"):
        return []
    new = f"{quote}{m.group(1)}::{word}{quote}"
    return [Fix(f"Qualify the key: {m.group(1)}::{word}", _edit(span, new), preferred=True)]


_PARAMETER_GUESS = re.compile(r"has no parameter '([^']+)'.*Did you mean (.*)\?$")


def _unknown_parameter(problem: Problem, src: _Text) -> list[Fix]:
    """The key with each parameter name the message suggests in place of the unknown one."""
    m = _PARAMETER_GUESS.search(problem.message)
    if m is None:
        return []
    wrong, guesses = m.group(1), re.findall(r"'([^']+)'", m.group(2))
    span, word, quote = _word_in_span(problem, src)
    namespace, sep, last = word.rpartition("::")
    if not sep or last != wrong:
        return []
    return [
        Fix(
            f"Write {namespace}::{guess}",
            _edit(span, f"{quote}{namespace}::{guess}{quote}"),
            preferred=i == 0,
        )
        for i, guess in enumerate(guesses)
    ]


# --------------------------------------------------------------------------- hiera.yaml

HIERA_KEYS = (
    "version", "defaults", "hierarchy", "default_hierarchy", "plan_hierarchy", "name", "path",
    "paths", "glob", "globs", "uri", "uris", "mapped_paths", "datadir", "data_hash",
    "lookup_key", "data_dig", "hiera3_backend", "options",
)  # fmt: skip
_UNRECOGNIZED = re.compile(r"unrecognized key '([^']+)'")
_REPLACEMENT = re.compile(r'Use "(data_hash: \w+)" instead of "hiera3_backend: \w+"')


def _unrecognized_key(problem: Problem, src: _Text) -> list[Fix]:
    named = _UNRECOGNIZED.search(problem.message)
    if named is None:
        return []
    span, word, quote = _word_in_span(problem, src)
    best = _nearest(word, HIERA_KEYS)
    if word != named.group(1) or best is None or best == word:
        return []
    return [Fix(f"Write {best}", _edit(span, f"{quote}{best}{quote}"), preferred=True)]


def _hiera3_backend(problem: Problem, src: _Text) -> list[Fix]:
    """``hiera3_backend: yaml`` -> ``data_hash: yaml_data``, as Puppet's message says."""
    wanted = _REPLACEMENT.search(problem.message)
    span = _one_line(problem)
    before = re.search(r"hiera3_backend\s*:\s*$", src.line(span.start.line)[: span.start.column])
    if wanted is None or before is None:
        return []
    whole = Span(Position(span.start.line, before.start()), span.end)
    return [Fix(f"Write {wanted.group(1)}", _edit(whole, wanted.group(1)), preferred=True)]


def _options_refused(problem: Problem, src: _Text) -> list[Fix]:
    """Remove the level's own ``options`` entry (one inherited from defaults is not here)."""
    if src.at(_one_line(problem)) != "options":
        return []
    found = _mapping_with_key_at(src, problem.where.span.start)
    if found is None:
        return []
    mapping, index = found
    removed = _entry_lines(src, mapping, index)
    if removed is None:
        return []
    return [Fix("Remove the options", _edit(removed, ""), preferred=True)]


def _entry_lines(src: _Text, mapping: yaml.MappingNode, index: int) -> Span | None:
    """The whole lines of one block-mapping entry (up to the next entry, or to the end of
    its value when it is the last), when nothing else shares them."""
    key, value = mapping.value[index]
    first = key.start_mark
    if mapping.flow_style or src.line(first.line)[: first.column].strip():
        return None
    if index + 1 < len(mapping.value):
        last = mapping.value[index + 1][0].start_mark.line - 1
        while last > first.line and _blank_or_comment(src.line(last)):
            last -= 1
    elif value.start_mark.index < key.end_mark.index:
        last = first.line  # an alias (`<<: *x`): its node is written at the anchor
    else:
        end = _content_end(value, key.end_mark.index)
        if end is None or end < (first.line, first.column):
            return None
        last = end[0] if end[1] > 0 else end[0] - 1
    if last < first.line:
        return None
    removed = Span(Position(first.line, 0), Position(last + 1, 0))
    return None if _defines_used_anchor(src.at(removed), src.text) else removed


def _content_end(node: object, after: int) -> tuple[int, int] | None:
    """Where a value's own text ends (a block collection ends with its last child); None
    when that is an alias, whose node (and marks) are the anchor's, written before."""
    if not isinstance(node, yaml.Node) or node.start_mark.index < after:
        return None
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and not node.flow_style:
        items = node.value
        if not items:
            return None
        last = items[-1][1] if isinstance(node, yaml.MappingNode) else items[-1]
        return _content_end(last, node.start_mark.index)
    return node.end_mark.line, node.end_mark.column


# --------------------------------------------------------------------------- suppression


def _disable_line(problem: Problem, src: _Text) -> Fix | None:
    """``# hiera-ls: disable-line=CODE`` at the end of the problem's first line; when the
    line has another comment or ends inside a scalar, ``# hiera-ls: disable-next-line=CODE``
    on a line of its own above it. An existing list gets the code added. JSON has no
    comments."""
    line_no = problem.where.span.start.line
    if src.json or line_no >= src.line_count:
        return None
    code = problem.code
    title = f"Disable {code} on this line"
    line = src.line(line_no)
    end = Position(line_no, len(line))
    comment = src.comment_start(line_no)
    if comment is not None and comment >= 0:
        listed = _directive(line, line_no, comment, "disable-line")
        if listed is not None:
            return _with_code(listed, code, title)
    elif comment is None and not src.inside_scalar(end):
        gap = "" if line.endswith((" ", "\t")) else "  "
        return Fix(title, _edit(Span(end, end), f"{gap}{DISABLE_PREFIX}{code}"))
    start = Position(line_no, 0)
    if line_no > 0:
        above = src.line(line_no - 1)
        column = len(above) - len(above.lstrip())
        listed = _directive(above, line_no - 1, column, "disable-next-line")
        if listed is not None:
            return _with_code(listed, code, title)
    if src.inside_scalar(start) or (
        line_no > 0 and src.inside_scalar(Position(line_no - 1, len(src.line(line_no - 1))))
    ):
        return None
    indent = line[: len(line) - len(line.lstrip())]
    new = f"{indent}{DISABLE_NEXT_PREFIX}{code}{src.newline}"
    return Fix(title, _edit(Span(start, start), new))


def _directive(
    line: str, line_no: int, column: int, kind: str
) -> tuple[list[str], Position] | None:
    """The codes of a ``# hiera-ls: <kind>=A,B`` comment at ``column``, and where the list ends."""
    m = re.match(rf"#\s*hiera-ls:\s*{kind}=([\w,-]*)", line[column:])
    if m is None:
        return None
    return [c for c in m.group(1).split(",") if c], Position(line_no, column + m.end(1))


def _with_code(listed: tuple[list[str], Position], code: str, title: str) -> Fix | None:
    codes, at = listed
    if code in codes:
        return None  # already disabled there
    return Fix(title, _edit(Span(at, at), f",{code}" if codes else code))


_BY_CODE: dict[str, Callable[[Problem, _Text], list[Fix]]] = {
    "yaml-date-rejected": _quote(safe=True, what="the String Puppet can load"),
    "yaml-bad-number": _quote(what="the String"),
    "yaml11-boolean": _quote(what="the String, not a Boolean"),
    "yaml11-octal": _quote(what="the String, not an octal Integer"),
    "yaml11-binary": _quote(what="the String, not a binary Integer"),
    "yaml11-sexagesimal": _quote(what="the String, not a base-60 number"),
    "yaml11-number-separator": _quote(what="the String, not a number"),
    "yaml11-exponent-string": _exponent,
    "data-bad-key-type": _quote(what="a String key"),
    "data-unreachable-key": _quote(what="a String key"),
    "yaml-symbol-value": _symbol_value,
    "yaml-symbol-key": _symbol_key,
    "yaml-duplicate-key": _duplicate_key,
    "yaml-merge-override": _merge_override,
    "json-duplicate-key": _json_duplicate_key,
    "interpolation-unquoted": _unquoted_value,
    "interpolation-syntax-error": _syntax_error,
    "interpolation-unknown-method": _unknown_method,
    "interpolation-alias-not-whole": _alias_not_whole,
    "interpolation-unterminated": _keep_percent,
    "interpolation-literal-argument": _literal_argument,
    "interpolation-unquoted-argument": _unquoted_argument,
    "interpolation-not-a-variable": _keep_percent,
    "interpolation-top-scope-variable": _top_scope_variable,
    "interpolation-collection-in-string": _collection_in_string,
    "reference-undefined-key": _undefined_key,
    "lookup-options-entry-ignored": _entry_ignored,
    "lookup-options-entry-not-hash": _entry_not_hash,
    "lookup-options-unknown-option": _unknown_option,
    "lookup-options-unknown-merge": _unknown_merge,
    "lookup-options-literal-pattern": _literal_pattern,
    "module-data-unqualified-key": _unqualified_key,
    "class-parameter-unknown": _unknown_parameter,
    "hiera-config-wrong-type": _unrecognized_key,
    "hiera-config-hiera3-backend-replaced": _hiera3_backend,
    "hiera-config-options-refused": _options_refused,
}
FIXABLE = frozenset(_BY_CODE)
# The codes whose fix ``check --fix`` may apply (docs/diagnostics.md says "safe" for each):
# Puppet refuses the file or the token today, and the fix makes it read what was evidently
# meant, or the fix changes no value at all (a duplicate Psych discards, a needless literal()).
SAFE_CODES = frozenset(
    {
        "yaml-date-rejected",
        "yaml-duplicate-key",
        "json-duplicate-key",
        "interpolation-unquoted",
        "interpolation-syntax-error",
        "interpolation-unknown-method",
        "interpolation-literal-argument",
        "interpolation-unquoted-argument",
    }
)
