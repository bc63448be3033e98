"""Explicit lookups in templates and Ruby functions: keys that code reads by name.

A key read only by a template or a Ruby function is used, so the unused-data hints must see
these reads too. An EPP template's code is Puppet: its ``<% %>`` tags are read by the
manifest reader (everything outside them blanked, so positions stay those of the file). ERB
templates and Ruby functions are Ruby, which hiera-ls does not parse: the forms Puppet's APIs
offer are found by pattern (``call_function('lookup', 'k')``, ``call_function('lookup',
['k', ...])``, ``scope.function_hiera(['k'])``, ``hiera('k')``); a key in a Ruby
double-quoted string with ``#{...}`` becomes a pattern, as ``"${x}"`` does in Puppet.
"""

from __future__ import annotations

import re

from hiera_ls.source.manifest_model import LookupCall, LookupFunction, ManifestFacts, MergeArg
from hiera_ls.source.manifest_parser import LineTable, read_calls

_FUNCTIONS = "lookup|hiera_array|hiera_hash|hiera_include|hiera"
_RUBY_LOOKUP = re.compile(
    r"""(?:
        call_function\(\s*(?P<q1>['"])(?P<f1>"""
    + _FUNCTIONS
    + r""")(?P=q1)\s*,\s*\[?\s*
      | \bfunction_(?P<f2>"""
    + _FUNCTIONS
    + r""")\(?\s*\[\s*
      | (?<![\w.:])(?P<f3>hiera_array|hiera_hash|hiera)\(\s*
    )
    (?P<q>['"])(?P<key>(?:\\.|(?!(?P=q))[^\\\n])*)(?P=q)
    # lookup's merge, when the code passes a plain one: call_function('lookup', 'k', nil, 'deep')
    (?:\s*,\s*[\w:]+\s*,\s*(?P<mq>['"])(?P<merge>first|unique|hash|deep)(?P=mq))?""",
    re.VERBOSE,
)
# a word each of those forms writes: a file without any (most templates) has none of them
_RUBY_LOOKUP_WORDS = ("hiera", "call_function", "function_lookup")
_RUBY_INTERPOLATION = re.compile(r"#\{[^}]*\}")
_EPP_TAG = re.compile(r"<%(%|#)?")
_CODE_STOP = re.compile(r"%>|['\"]")
_SQ_END = re.compile(r"\\.|'", re.DOTALL)
_DQ_END = re.compile(r'\\.|"|\$\{', re.DOTALL)
_INTERPOLATION_STOP = re.compile(r"[{}'\"]")
_MAX_STRING_DEPTH = 20


def read_ruby_lookups(path: str, text: str) -> ManifestFacts:
    """The lookups of an ERB template or a Ruby function file."""
    if not any(word in text for word in _RUBY_LOOKUP_WORDS):
        return ManifestFacts(path)  # spares a search of the pattern at every character
    lines = LineTable(text)
    calls: list[LookupCall] = []
    for m in _RUBY_LOOKUP.finditer(text):
        function = LookupFunction(m.group("f1") or m.group("f2") or m.group("f3"))
        key = m.group("key")
        merge = (
            MergeArg(m.group("merge"), m.group("mq") + m.group("merge") + m.group("mq"))
            if m.group("merge") and function is LookupFunction.LOOKUP
            else None
        )
        if m.group("q") == '"' and "#{" in key:
            literal = _RUBY_INTERPOLATION.split(key)
            call = lines.span(m.start(), m.end())
            if not "".join(literal):
                calls.append(LookupCall(function, path, call, None, merge=merge))
                continue
            body = ".*".join(re.escape(_ruby_unescape(p, '"')) for p in literal)
            calls.append(LookupCall(function, path, call, None, pattern=f"^{body}\\Z", merge=merge))
            continue
        span = lines.span(m.start("key"), m.end("key"))
        key = _ruby_unescape(key, m.group("q"))
        calls.append(LookupCall(function, path, span, key, merge=merge))
    return ManifestFacts(path, lookups=tuple(calls))


def _ruby_unescape(text: str, quote: str) -> str:
    if "\\" not in text:
        return text
    if quote == "'":
        return re.sub(r"\\([\\'])", r"\1", text)
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def epp_code(text: str) -> str:
    """The text with everything but the Puppet code of its tags blanked (newlines kept)."""
    out: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        m = _EPP_TAG.search(text, i)
        if m is None:
            out.append(_blank(text[i:]))
            break
        out.append(_blank(text[i : m.start()]))
        if m.group(1) == "%":  # `<%%` is a literal `<%`
            out.append("   ")
            i = m.end()
            continue
        close = text.find("%>", m.end()) if m.group(1) == "#" else _tag_end(text, m.end())
        end = n if close < 0 else close
        if m.group(1) == "#":  # a comment
            out.append(_blank(text[m.start() : min(n, end + 2)]))
            i = end + 2
            continue
        start = m.end()
        prefix = "  "
        if start < n and text[start] in "=-":
            start += 1
            prefix = "   "
        code_end = end - 1 if end > start and text[end - 1] == "-" else end
        out.append(prefix)
        out.append(text[start:code_end])
        out.append(_blank(text[code_end : min(n, end + 2)]))
        i = end + 2
    return "".join(out)[:n]


def _tag_end(text: str, i: int) -> int:
    """Where a code tag's ``%>`` is (-1: none): one inside a string does not close it, as
    Puppet's EPP lexer reads the tag's code as Puppet code."""
    while True:
        m = _CODE_STOP.search(text, i)
        if m is None:
            return -1
        if m.group() == "%>":
            return m.start()
        i = _string_end(text, m.start(), 0)
        if i < 0:
            return -1


def _string_end(text: str, i: int, depth: int) -> int:
    """The index after the string opening at ``i`` (-1: not closed); a double-quoted
    string's ``${...}`` may hold strings of its own."""
    quote = text[i]
    pattern = _SQ_END if quote == "'" else _DQ_END
    i += 1
    while True:
        m = pattern.search(text, i)
        if m is None:
            return -1
        if m.group() == quote:
            return m.end()
        i = m.end()
        if m.group() != "${" or depth >= _MAX_STRING_DEPTH:
            continue
        braces = 0
        while True:
            inner = _INTERPOLATION_STOP.search(text, i)
            if inner is None:
                return -1
            c = inner.group()
            if c in "'\"":
                i = _string_end(text, inner.start(), depth + 1)
                if i < 0:
                    return -1
                continue
            i = inner.end()
            if c == "{":
                braces += 1
            elif braces == 0:
                break
            else:
                braces -= 1


def _blank(text: str) -> str:
    return re.sub(r"[^\n]", " ", text)


def read_epp_lookups(path: str, text: str) -> ManifestFacts:
    """The lookups of an EPP template's Puppet code."""
    return read_calls(path, epp_code(text))
