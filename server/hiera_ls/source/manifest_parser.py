"""Read a .pp file's definitions, lookups and inclusions from its tokens.

Only headers are parsed (``class x (...) inherits y {``, ``define``, ``function``,
``type X = ...``); bodies are walked token by token for the calls hiera-ls cares about, so an
expression this reader does not understand costs nothing but itself. Parameter types and
defaults are kept as the source text Puppet's parser would give for them (from the first
token to the last). Nothing is evaluated; what cannot be read is told as a
:class:`~hiera_ls.source.manifest_model.ManifestProblem` and the rest of the file is kept.

Lookup keys: a plain string gives ``key`` (its span covers the string's content, without the
quotes, so a rename replaces just that); a double-quoted string with interpolations and some
literal text gives ``pattern`` (``"${x}::port"`` -> ``^.*::port\\Z``); a key that is wholly
unknown (``lookup($k)``) gives neither.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from hiera_ls.source.manifest_model import (
    Definition,
    DefinitionKind,
    HieraCall,
    Inclusion,
    LookupCall,
    LookupFunction,
    ManifestFacts,
    ManifestProblem,
    MergeArg,
    Parameter,
)
from hiera_ls.source.puppet_lexer import (
    CLASSREF,
    DQ,
    HEREDOC,
    NAME,
    NUMBER,
    PUNCT,
    REGEX,
    SQ,
    VARIABLE,
    WORD,
    Token,
    lex,
)
from hiera_ls.source.spans import Position, Span

LOOKUP_FUNCTIONS = {f.value: f for f in LookupFunction}
INCLUDING = frozenset({"include", "contain", "require"})
_DEFINING = frozenset({"class", "define", "function", "plan"})  # keywords before a name
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(_OPEN.values())
_TAG = re.compile(r"@(\w+)\s*(.*)$")
_MAX_TITLE_TOKENS = 64  # `class { 'x': }`: a title longer than this is not a class name
_NODE_MATCHERS = frozenset({SQ, DQ, REGEX, NAME, WORD})  # node 'a', "b", /c/, default, d.e {
_PARAM_TAG = re.compile(r"(?:\[[^\]]*\]\s*)?\$?(\w+)\s*(.*)$")


class LineTable:
    """Offsets to 0-based (line, column) positions."""

    def __init__(self, text: str) -> None:
        self.starts = [0]
        self.starts.extend(m.end() for m in re.finditer("\n", text))

    def position(self, offset: int) -> Position:
        line = bisect.bisect_right(self.starts, offset) - 1
        return Position(line, offset - self.starts[line])

    def span(self, start: int, end: int) -> Span:
        return Span(self.position(start), self.position(end))


def read_manifest(path: str, text: str) -> ManifestFacts:
    """What ``path`` (a .pp file whose content is ``text``) defines, looks up and includes."""
    try:
        return _Reader(path, text).read()
    except Exception as e:  # a bug here must cost one file, never the index or the server
        return ManifestFacts(
            path,
            problems=(
                ManifestProblem(
                    path, Span.of(0, 0, 0, 0), f"hiera-ls could not read this file: {e}"
                ),
            ),
        )


def read_calls(path: str, text: str) -> ManifestFacts:
    """Only the lookups of Puppet code that defines nothing (an EPP template's code)."""
    try:
        return _Reader(path, text).read(definitions=False)
    except Exception as e:  # as in read_manifest
        return ManifestFacts(
            path,
            problems=(
                ManifestProblem(
                    path, Span.of(0, 0, 0, 0), f"hiera-ls could not read this file: {e}"
                ),
            ),
        )


class _Reader:
    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self.lines = LineTable(text)
        self.definitions: list[Definition] = []
        self.lookups: list[LookupCall] = []
        self.inclusions: list[Inclusion] = []
        self.hiera_calls: list[HieraCall] = []
        self.problems: list[ManifestProblem] = []
        self._closers: dict[int, tuple[Sequence[Token], list[int], list[int]]] = {}
        self._docs: dict[int, tuple[str | None, dict[str, str]]] = {}

    def matching(self, toks: Sequence[Token], k: int) -> int | None:
        """The index of the bracket closing the one at ``k``; None when it is not closed.
        Every list's brackets are paired once: an unclosed bracket costs no rescan (a file
        of ten thousand ``lookup(`` must not take quadratic time)."""
        j = self._pairs(toks)[0][k]
        return j if j >= 0 else None

    def opening(self, toks: Sequence[Token], k: int) -> int | None:
        """The index of the bracket the one at ``k`` closes; None when it closes none."""
        j = self._pairs(toks)[1][k]
        return j if j >= 0 else None

    def _pairs(self, toks: Sequence[Token]) -> tuple[list[int], list[int]]:
        found = self._closers.get(id(toks))
        if found is None:
            found = (toks, *_pairs(toks))  # the list is kept, so its id stays its own
            self._closers[id(toks)] = found
        return found[1], found[2]

    def problem(self, start: int, end: int, message: str) -> None:
        self.problems.append(ManifestProblem(self.path, self.lines.span(start, end), message))

    def read(self, *, definitions: bool = True) -> ManifestFacts:
        lexed = lex(self.text)
        if definitions:
            self.walk_definitions(lexed.tokens)
        if lexed.errors:  # what follows from them (an unclosed list ...) is not said again
            self.problems = []
        for error in lexed.errors:
            self.problem(error.start, error.end, error.message)
        self.walk_calls(lexed.tokens)
        return ManifestFacts(
            self.path,
            tuple(self.definitions),
            tuple(self.lookups),
            tuple(self.inclusions),
            tuple(self.problems),
            tuple(self.hiera_calls),
            self.node_variables(lexed.tokens) if definitions else frozenset(),
        )

    def node_variables(self, toks: list[Token]) -> frozenset[str]:
        """The variables node definitions assign, in their bodies and the if, unless and case
        blocks there (node scope), not in a lambda's body (its own scope)."""
        found: set[str] = set()
        n = len(toks)
        i = 0
        while i < n:
            t = toks[i]
            after = toks[i + 1] if i + 1 < n else None
            if not (
                t.kind == NAME
                and t.text == "node"
                and after is not None
                and after.kind in _NODE_MATCHERS
                and (i == 0 or not _is(toks[i - 1], "."))
            ):
                i += 1
                continue
            j = i + 1
            while j < n and j - i <= _MAX_TITLE_TOKENS and not _is(toks[j], "{"):
                j += 1
            close = self.matching(toks, j) if j < n and _is(toks[j], "{") else None
            if close is None:
                i += 1
                continue
            k = j + 1
            while k < close:
                tok = toks[k]
                if _is(tok, "{") and _is(toks[k - 1], "|"):  # a lambda's body
                    k = (self.matching(toks, k) or close) + 1
                    continue
                if tok.kind == VARIABLE and k + 1 < close and _is(toks[k + 1], "="):
                    found.add(tok.text)
                k += 1
            i = close + 1
        return frozenset(found)

    # ---------------------------------------------------------------- definitions

    def walk_definitions(self, toks: list[Token]) -> None:
        stack: list[str | None] = []  # per open brace: the class whose body it opens
        i = 0
        n = len(toks)
        while i < n:
            t = toks[i]
            if t.kind == PUNCT:
                if t.text == "{":
                    stack.append(None)
                elif t.text == "}" and stack:
                    stack.pop()
                i += 1
                continue
            nxt = toks[i + 1] if i + 1 < n else None
            if t.kind != NAME or nxt is None or (i > 0 and _is(toks[i - 1], ".")):
                i += 1
                continue
            word = t.text
            named = nxt.kind in (NAME, CLASSREF, WORD)
            if word in ("class", "define") and named:
                namespace = "::".join(s for s in stack if s is not None)
                i = self.header(toks, i, DefinitionKind(word), namespace, stack)
            elif word == "function" and named:
                i = self.header(toks, i, DefinitionKind.FUNCTION, "", stack)
            elif word == "type" and nxt.kind == CLASSREF and i + 2 < n and _is(toks[i + 2], "="):
                i = self.type_alias(toks, i)
            else:
                i += 1

    def header(
        self,
        toks: list[Token],
        i: int,
        kind: DefinitionKind,
        namespace: str,
        stack: list[str | None],
    ) -> int:
        """Read the header at ``toks[i]``; returns the index after its opening brace."""
        keyword, name_tok = toks[i], toks[i + 1]
        raw = name_tok.text.lower()
        name = f"{namespace}::{raw}" if namespace else raw
        name = name.removeprefix("::")
        k = i + 2
        params: list[Parameter] = []
        if k < len(toks) and _is(toks[k], "("):
            close = self.matching(toks, k)
            if close is None:
                self.problem(toks[k].start, toks[-1].end, f"Unclosed parameter list of '{name}'")
                return len(toks)
            params = self.parameters(toks[k + 1 : close], self.docs(keyword.start)[1])
            k = close + 1
        parent = None
        if kind is DefinitionKind.CLASS and k + 1 < len(toks) and _is_name(toks[k], "inherits"):
            parent = toks[k + 1].text.lower().removeprefix("::")
            k += 2
        if kind is DefinitionKind.FUNCTION:  # an optional return type: `>> Type[...]`
            while k < len(toks) and not _is(toks[k], "{"):
                k = (self.matching(toks, k) or k) + 1 if toks[k].text in _OPEN else k + 1
        doc = self.docs(keyword.start)[0]
        self.definitions.append(
            Definition(
                kind,
                name,
                self.path,
                self.lines.span(name_tok.start, name_tok.end),
                tuple(params),
                doc=doc,
                parent=parent,
            )
        )
        if k < len(toks) and _is(toks[k], "{"):
            stack.append(raw if kind is DefinitionKind.CLASS else None)
            return k + 1
        where = toks[k] if k < len(toks) else toks[-1]
        self.problem(where.start, where.end, f"Expected '{{' to start the body of '{name}'")
        return k

    def parameters(self, toks: list[Token], docs: dict[str, str]) -> list[Parameter]:
        out: list[Parameter] = []
        for group in _split_commas(toks):
            if not group:
                continue
            at = next((j for j, t in _depth0(group) if t.kind == VARIABLE), None)
            if at is None:
                self.problem(group[0].start, group[-1].end, "Expected a parameter ($name)")
                continue
            var = group[at]
            type_toks = group[:at]
            if type_toks and _is(type_toks[-1], "*"):
                type_toks = type_toks[:-1]
            type_text = self.text[type_toks[0].start : type_toks[-1].end] if type_toks else None
            default_text = None
            rest = group[at + 1 :]
            if rest:
                if _is(rest[0], "=") and len(rest) > 1:
                    default_text = self.text[rest[1].start : rest[-1].end]
                else:
                    self.problem(rest[0].start, rest[-1].end, f"Unexpected text after ${var.text}")
            name = var.text
            out.append(
                Parameter(
                    name,
                    self.lines.span(var.start, var.end),
                    type_text,
                    default_text,
                    docs.get(name),
                )
            )
        return out

    def type_alias(self, toks: list[Token], i: int) -> int:
        name_tok = toks[i + 1]
        k = i + 3
        if k >= len(toks):
            self.problem(toks[i].start, name_tok.end, "Expected a type after '='")
            return k
        first = toks[k]
        last = k
        if first.kind == CLASSREF:
            if k + 1 < len(toks) and toks[k + 1].text in ("[", "{") and toks[k + 1].kind == PUNCT:
                last = self.matching(toks, k + 1) or len(toks) - 1
        elif first.kind == PUNCT and first.text in ("[", "{"):
            last = self.matching(toks, k) or len(toks) - 1
        else:
            self.problem(first.start, first.end, "Expected a type after '='")
            return k
        self.definitions.append(
            Definition(
                DefinitionKind.TYPE_ALIAS,
                name_tok.text.lower().removeprefix("::"),
                self.path,
                self.lines.span(name_tok.start, name_tok.end),
                (),
                doc=self.docs(toks[i].start)[0],
                alias_text=self.text[first.start : toks[last].end],
            )
        )
        return last + 1

    # ---------------------------------------------------------------- puppet-strings

    def doc_lines(self, offset: int) -> list[str]:
        """The ``#`` comment lines right above the line holding ``offset``, without ``#``."""
        line = self.lines.position(offset).line
        out: list[str] = []
        starts = self.lines.starts
        while line > 0:
            line -= 1
            end = starts[line + 1] - 1 if line + 1 < len(starts) else len(self.text)
            stripped = self.text[starts[line] : end].strip()
            if not stripped.startswith("#"):
                break
            body = stripped[1:]
            out.append(body[1:] if body.startswith(" ") else body)
        out.reverse()
        return out

    def docs(self, offset: int) -> tuple[str | None, dict[str, str]]:
        """The summary and the ``@param`` texts above the line of ``offset`` (read once per
        line: definitions sharing a line share the comment above it)."""
        line = self.lines.position(offset).line
        cached = self._docs.get(line)
        if cached is None:
            cached = self._docs[line] = self._read_docs(offset)
        return cached

    def _read_docs(self, offset: int) -> tuple[str | None, dict[str, str]]:
        free, tags = self._read_tags(offset)
        summary = next((body for tag, body in tags if tag == "summary" and body), None)
        if summary is None:
            summary = "\n".join(free).strip() or None
        params: dict[str, str] = {}
        for tag, body in tags:
            m = _PARAM_TAG.match(body) if tag == "param" else None
            if m and m.group(2).strip():
                params.setdefault(m.group(1), m.group(2).strip())
        return summary, params

    def _read_tags(self, offset: int) -> tuple[list[str], list[tuple[str, str]]]:
        free: list[str] = []
        tags: list[tuple[str, list[str], int]] = []
        for line in self.doc_lines(offset):
            indent = len(line) - len(line.lstrip())
            m = _TAG.match(line.strip())
            if m:
                tags.append((m.group(1), [m.group(2).rstrip()], indent))
            elif tags and (not line.strip() or indent > tags[-1][2]):
                tags[-1][1].append(line.strip())
            elif not tags:
                free.append(line.rstrip())
            else:
                tags.append(("", [], indent))  # text after a tag, not part of it
        return free, [(tag, "\n".join(body).strip()) for tag, body, _ in tags if tag]

    # ---------------------------------------------------------------- calls

    def walk_calls(self, toks: list[Token], depth: int = 0) -> None:
        n = len(toks)
        for i, t in enumerate(toks):
            if t.kind in (DQ, HEREDOC) and t.parts and depth < 20:
                for part in t.parts:
                    if isinstance(part, list):
                        self.walk_calls(part, depth + 1)
                continue
            if t.kind != NAME:
                continue
            after = toks[i + 1] if i + 1 < n else None
            before = toks[i - 1] if i > 0 else None
            function = LOOKUP_FUNCTIONS.get(t.text.removeprefix("::"))
            if function is not None and before is not None and _defines(before):
                continue  # class hiera (...): a definition's name, not a call
            if function is not None:
                if before is not None and _is(before, ".") and i >= 2:
                    receiver = [toks[i - 2]]  # 'k'.lookup, a::b.lookup, ['a', 'b'].lookup
                    opener = self.opening(toks, i - 2) if _is(toks[i - 2], "]") else None
                    if opener is not None:
                        receiver = toks[opener : i - 1]
                    close = self.matching(toks, i + 1) if after and _is(after, "(") else None
                    rest = _split_commas(toks[i + 2 : close]) if close is not None else []
                    self.lookup(function, t, receiver, t.end, rest)  # 'k'.lookup(Hash, 'deep')
                    last = close if close is not None else i
                    self.hiera_call(function, toks, receiver[0].start, last, [receiver, *rest])
                elif after is not None and _is(after, "("):
                    close = self.matching(toks, i + 1)
                    args = toks[i + 2 : close if close is not None else i + 3]
                    groups = _split_commas(args)
                    first = groups[0] if groups else []
                    end = toks[close].end if close is not None else toks[-1].end
                    self.lookup(function, t, first, end, groups[1:])
                    if close is not None:
                        self.hiera_call(function, toks, t.start, close, groups)
                continue
            if t.text in INCLUDING and before is not None and _is(before, ".") and i >= 2:
                self.included(toks[i - 2 : i - 1])  # 'x'.include
            elif t.text in INCLUDING and not (before is not None and _is(before, ".")):
                if after is None or _is(after, "=>") or _is(after, "+>"):
                    continue
                self.include_args(toks, i + 1)
            elif t.text == "class" and after is not None and _is(after, "{"):
                self.class_resource(toks, i + 2)

    def lookup(
        self,
        function: LookupFunction,
        name: Token,
        arg: list[Token],
        end: int,
        rest: Sequence[list[Token]] = (),
    ) -> None:
        """One call: its key (``arg``, the first argument) and the merge its other arguments
        (``rest``) ask for."""
        call = self.lines.span(name.start, end)
        merge = self.merge_arg(arg, rest) if function is LookupFunction.LOOKUP else None
        if len(arg) == 1 and arg[0].kind in (SQ, DQ):
            self.lookups.append(self.keyed(function, arg[0], call, merge))
            return
        if len(arg) == 1 and arg[0].kind == NAME:  # lookup(a::b): a bare word is a string
            t = arg[0]
            span = self.lines.span(t.start, t.end)
            self.lookups.append(LookupCall(function, self.path, span, t.text, merge=merge))
            return
        if arg and _is(arg[0], "[") and self.matching(arg, 0) == len(arg) - 1:
            # lookup(['a', 'b']): each name is a key Puppet reads (the first found wins)
            keys = [g[0] for g in _split_commas(arg[1:-1]) if len(g) == 1 and g[0].kind in (SQ, DQ)]
            if keys:
                self.lookups.extend(self.keyed(function, k, call, merge) for k in keys)
                return
        if arg and _is(arg[0], "{"):  # lookup({'name' => 'k', ...})
            inner = arg[1:-1]
            for j, t in _depth0(inner):
                if t.kind in (SQ, DQ) and t.text == "name" and j + 2 < len(inner):
                    value = inner[j + 2]
                    if _is(inner[j + 1], "=>") and value.kind in (SQ, DQ):
                        self.lookups.append(self.keyed(function, value, call, merge))
                        return
        self.lookups.append(LookupCall(function, self.path, call, None, merge=merge))

    def hiera_call(
        self,
        function: LookupFunction,
        toks: Sequence[Token],
        start: int,
        last: int,
        args: Sequence[list[Token]],
    ) -> None:
        """A ``hiera*()`` call as written, from ``start`` (an offset) to the token at
        ``last`` (its closing parenthesis, or its name when it has none)."""
        if function is LookupFunction.LOOKUP:
            return
        texts = tuple(self.text[g[0].start : g[-1].end] for g in args if g)
        key = _literal(args[0]) if args else None
        block = last + 1 < len(toks) and _is(toks[last + 1], "|")
        span = self.lines.span(start, toks[last].end)
        literal = key if isinstance(key, str) else None
        closed = self.lambda_close(toks, last + 1) if block else None
        found = HieraCall(function, self.path, span, texts, literal, block)
        if closed is not None:
            end = toks[closed].end
            lambda_text = self.text[toks[last].end : end]
            found = replace(found, lambda_end=self.lines.position(end), lambda_text=lambda_text)
        self.hiera_calls.append(found)

    def lambda_close(self, toks: Sequence[Token], bar: int) -> int | None:
        """The index of the brace closing the lambda whose parameters open at ``bar``
        (``|$k| { ... }``); None when it is not that simple."""
        close = next((j for j in range(bar + 1, len(toks)) if _is(toks[j], "|")), None)
        if close is None or close + 1 >= len(toks) or not _is(toks[close + 1], "{"):
            return None
        return self.matching(toks, close + 1)

    def merge_arg(self, arg: list[Token], rest: Sequence[list[Token]]) -> MergeArg | None:
        """What ``lookup``'s arguments pass as the merge: the third (``lookup(name, type,
        merge[, default])``), or the options hash's ``merge`` (``lookup(name, {merge =>
        ...})``, ``lookup({name => ..., merge => ...})``); None when they pass none."""
        options = arg if arg and _is(arg[0], "{") else (rest[0] if rest else [])
        if options and _is(options[0], "{") and self.matching(options, 0) == len(options) - 1:
            given = _hash_entries(options[1:-1]).get("merge")
            return self.merge_value(given) if given is not None else None
        if len(rest) >= 2:
            return self.merge_value(rest[1])
        return None

    def merge_value(self, toks: list[Token]) -> MergeArg | None:
        """A merge argument's tokens as its value: a strategy name, or a hash of options;
        ``undef`` passes none; anything else is computed at run time (value None)."""
        if not toks or (len(toks) == 1 and _is_name(toks[0], "undef")):
            return None
        text = self.text[toks[0].start : toks[-1].end]
        name = _literal(toks)
        if isinstance(name, str):
            return MergeArg(name, text)
        if _is(toks[0], "{") and self.matching(toks, 0) == len(toks) - 1:
            pairs: list[tuple[str, object]] = []
            for key, value in _hash_entries(toks[1:-1]).items():
                literal = _literal(value)
                if literal is _NOT_LITERAL:
                    return MergeArg(None, text)
                pairs.append((key, literal))
            return MergeArg(tuple(pairs), text)
        return MergeArg(None, text)

    def keyed(
        self, function: LookupFunction, s: Token, call: Span, merge: MergeArg | None = None
    ) -> LookupCall:
        inner = s.inner or (s.start, s.end)
        span = self.lines.span(*inner)
        parts = s.parts or []
        if not any(isinstance(p, list) for p in parts):
            return LookupCall(function, self.path, span, s.text, merge=merge)
        literal = "".join(p[2] for p in parts if isinstance(p, tuple))
        if not literal:
            return LookupCall(function, self.path, call, None, merge=merge)
        body = "".join(re.escape(p[2]) if isinstance(p, tuple) else ".*" for p in parts)
        return LookupCall(function, self.path, call, None, pattern=f"^{body}\\Z", merge=merge)

    def include_args(self, toks: list[Token], k: int) -> None:
        n = len(toks)
        if k < n and _is(toks[k], "("):
            close = self.matching(toks, k)
            for group in _split_commas(toks[k + 1 : close if close is not None else k + 2]):
                self.included(group)
            return
        while k < n:
            end = k + 1
            if _is(toks[k], "["):
                end = (self.matching(toks, k) or n - 1) + 1
            elif toks[k].kind == CLASSREF and k + 1 < n and _is(toks[k + 1], "["):
                end = (self.matching(toks, k + 1) or n - 1) + 1
            self.included(toks[k:end])
            if end < n and _is(toks[end], ","):
                k = end + 1
            else:
                return

    def included(self, group: Sequence[Token]) -> None:
        if len(group) == 1:
            t = group[0]
            if t.kind in (NAME, CLASSREF):
                self.add_inclusion(t.text, t.start, t.end)
            elif t.kind in (SQ, DQ) and not any(isinstance(p, list) for p in t.parts or []):
                start, end = t.inner or (t.start, t.end)
                self.add_inclusion(t.text, start, end)
        elif (
            len(group) == 4
            and group[0].kind == CLASSREF
            and group[0].text.lower().removeprefix("::") == "class"
            and _is(group[1], "[")
        ):  # include Class['x']
            self.included(group[2:3])
        elif group and _is(group[0], "["):
            for inner in _split_commas(list(group[1:-1])):
                self.included(inner)

    def class_resource(self, toks: list[Token], k: int) -> None:
        """``class { 'x': ... }``: the titles before the colon are classes."""
        end = k
        while end < min(len(toks), k + _MAX_TITLE_TOKENS) and not _is(toks[end], ":"):
            end += 1
        if end < len(toks) and _is(toks[end], ":"):
            self.included(toks[k:end])

    def add_inclusion(self, name: str, start: int, end: int) -> None:
        name = name.lower().removeprefix("::")
        if name:
            self.inclusions.append(Inclusion(name, self.path, self.lines.span(start, end)))


def _is(t: Token, punct: str) -> bool:
    return t.kind == PUNCT and t.text == punct


def _is_name(t: Token, word: str) -> bool:
    return t.kind == NAME and t.text == word


def _pairs(toks: Sequence[Token]) -> tuple[list[int], list[int]]:
    """For each index, the index of the bracket closing the one there, and of the bracket
    the one there closes (-1: none)."""
    closers = [-1] * len(toks)
    openers = [-1] * len(toks)
    stack: list[int] = []
    for j, t in enumerate(toks):
        if t.kind != PUNCT:
            continue
        if t.text in _OPEN:
            stack.append(j)
        elif t.text in _CLOSE and stack:
            opener = stack.pop()
            closers[opener] = j
            openers[j] = opener
    return closers, openers


def _depth0(toks: Sequence[Token]) -> Iterator[tuple[int, Token]]:
    depth = 0
    for j, t in enumerate(toks):
        if t.kind == PUNCT:
            if t.text in _OPEN:
                depth += 1
                continue
            if t.text in _CLOSE:
                depth -= 1
                continue
        if depth == 0:
            yield j, t


def _split_commas(toks: Sequence[Token]) -> list[list[Token]]:
    """Top-level comma-separated groups (a trailing comma gives no empty group)."""
    groups: list[list[Token]] = [[]]
    depth = 0
    for t in toks:
        if t.kind == PUNCT:
            if t.text in _OPEN:
                depth += 1
            elif t.text in _CLOSE:
                depth -= 1
            elif t.text == "," and depth == 0:
                groups.append([])
                continue
        groups[-1].append(t)
    if not groups[-1]:
        groups.pop()
    return groups


_NOT_LITERAL = object()
_WORDS: dict[str, object] = {"true": True, "false": False, "undef": None}


def _literal(toks: Sequence[Token]) -> object:
    """A one-token literal's value (a string without interpolation, a bare word, a number,
    true/false/undef); :data:`_NOT_LITERAL` for anything else."""
    if len(toks) != 1:
        return _NOT_LITERAL
    t = toks[0]
    if t.kind == SQ or (t.kind == DQ and not any(isinstance(p, list) for p in t.parts or [])):
        return t.text
    if t.kind == NAME:
        return _WORDS.get(t.text, t.text)
    if t.kind == NUMBER:
        try:
            return int(t.text, 0)
        except ValueError:
            try:
                return float(t.text)
            except ValueError:
                return _NOT_LITERAL
    return _NOT_LITERAL


def _hash_entries(toks: Sequence[Token]) -> dict[str, list[Token]]:
    """A hash literal's entries (its content, without braces) whose keys are literal words or
    strings: key -> the value's tokens."""
    out: dict[str, list[Token]] = {}
    for group in _split_commas(toks):
        arrow = next((j for j, t in _depth0(group) if _is(t, "=>")), None)
        if arrow is None:
            continue
        key = _literal(group[:arrow])
        if isinstance(key, str):
            out[key] = group[arrow + 1 :]
    return out


def _defines(t: Token) -> bool:
    """``class``, ``define``, ``function`` or ``plan``: the next name is a definition's."""
    return t.kind == NAME and t.text in _DEFINING
