"""Keys and values Puppet reads otherwise than their author meant, though YAML accepts them.

- ``data-key-single-colon``: ``profile::base:ntp_servers``. Automatic parameter lookup asks
  for ``<class>::<parameter>``, and neither a class name nor a parameter name holds a colon,
  so no class ever reads the key, whichever modules the repository holds.
- ``data-undef-string``: ``undef``, ``nil`` and ``None`` are not YAML's null (``~``, ``null``
  or nothing are): Psych gives the Strings 'undef', 'nil', 'None', which a ``String``
  parameter takes (``/home/undef`` on a real repository).
- ``data-dash-without-space``: ``-item`` is a list item only with a space after the dash;
  without one, YAML reads a plain String: the whole would-be list becomes one String
  (``-vim -git``), or the line joins the item above it (``vim -git``).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterator, Mapping

from hiera_ls.project.code_index import CodeIndex
from hiera_ls.puppet.message import Text, as_key, as_value
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.rules import Payload, Rule
from hiera_ls.source.scalars import StringSite, iter_strings
from hiera_ls.source.spans import Details, Problem, Severity, Span
from hiera_ls.source.string_positions import SourceLines
from hiera_ls.source.text_edits import Fix, TextEdit, edit
from hiera_ls.source.yaml_edits import one_line, suggested_key

# ------------------------------------------------------------------------ key-single-colon


def _colons(problem: Problem, src: FixSource) -> list[Fix]:
    """The key with each lone (or tripled) colon written as ``::``."""
    return suggested_key(problem, src, "Write the key as {}")


KEY_SINGLE_COLON = Rule(
    "data-key-single-colon",
    Severity.WARNING,
    "A namespaced key with a single colon (a::b:c): automatic parameter lookup never reads it",
    fix=_colons,
)


def _lone_colon(key: str) -> bool:
    """A namespaced key (``::`` in it) with a colon that is not part of a ``::``."""
    return "::" in key and any(":" in segment for segment in key.split("::"))


def _doubled(key: str) -> str:
    """Each run of colons as ``::``; none at the end, where no name follows."""
    doubled = re.sub(r":+", "::", key)
    while doubled.endswith("::"):
        doubled = doubled[:-2]
    return doubled


def check_key_colons(
    path: str,
    data_file: DataFile,
    code: CodeIndex | None = None,
    referenced: Collection[str] = frozenset(),
) -> list[Problem]:
    """Root keys automatic parameter lookup cannot name. A key some code or data looks up
    as written (``lookup('a::b:c')``) is read that way, and not reported."""
    out: list[Problem] = []
    for key in data_file.data:
        if not isinstance(key, str) or not _lone_colon(key) or key in referenced:
            continue
        if code is not None and code.lookups_of(key):
            continue
        spans = data_file.nodes.get((key,))
        if spans is None or spans.key is None:
            continue
        meant = _doubled(key)
        out.append(
            KEY_SINGLE_COLON.at(
                Text.of(
                    "'",
                    as_key(key),
                    "' has a single ':' inside a namespace: automatic parameter lookup asks "
                    "for <class>::<parameter>, which never holds one, so no class reads this "
                    "key. Did you mean '",
                    as_key(meant),
                    "'?",
                ),
                path,
                spans.key,
                Details(key=key, suggestions=(meant,)),
            )
        )
    return out


# ------------------------------------------------------------------------ data-undef-string

NULL_WORDS = ("undef", "nil", "None")  # Puppet's, Ruby's and Python's words for null
# YAML's blanks and line breaks (with YAML 1.1's), a stream's byte order mark, indicators
_BEFORE_ALONE = frozenset(" \t\r\n\x85\u2028\u2029\ufeff[{,:")
_AFTER_ALONE = frozenset(" \t\r\n\x85\u2028\u2029,]}")


def _stands_alone(word: str, text: str) -> bool:
    """Whether ``word`` occurs in ``text`` where a plain scalar that is only the word can
    stand: after a line break, a space, a flow indicator or a JSON-style key's colon, and
    before a line break, a space, a flow indicator or the end (a plain scalar's text is its
    value). A file whose every occurrence is inside a longer word ("Sunil", "nilsson":
    Wikimedia's users) is then not walked string by string on each keystroke."""
    at = text.find(word)
    while at >= 0:
        end = at + len(word)
        if (at == 0 or text[at - 1] in _BEFORE_ALONE) and (
            end == len(text) or text[end] in _AFTER_ALONE
        ):
            return True
        at = text.find(word, at + 1)
    return False


def _to_null(problem: Problem, src: FixSource) -> list[Fix]:
    span = one_line(problem)
    if src.at(span) not in NULL_WORDS:
        return []
    return [Fix("Write ~ (YAML's null: Puppet's undef)", edit(span, "~"), preferred=True)]


UNDEF_STRING = Rule(
    "data-undef-string",
    Severity.WARNING,
    "undef, nil or None written as a plain value: Puppet reads that String, not undef",
    fix=_to_null,
)


def check_null_words(
    path: str, data_file: DataFile, text: str, code: CodeIndex | None = None
) -> list[Problem]:
    """Plain scalars that spell null in another language. A value a class parameter's
    ``Enum`` lists (``Enum['None', 'Basic']``) is meant as that String, and not reported."""
    words = [w for w in NULL_WORDS if _stands_alone(w, text)]
    if not words:
        return []
    lines = SourceLines(text)
    out: list[Problem] = []
    for word in words:
        for site in iter_strings(data_file, lines, only_with=word):
            if site.value != word or site.in_key or site.style is not None or site.alias:
                continue
            if site.root_key == LOOKUP_OPTIONS or _listed_by_type(code, site, word):
                continue
            out.append(
                UNDEF_STRING.at(
                    f"'{word}' is not YAML's null: Puppet reads the String '{word}' here, "
                    "which a String parameter takes as it is. Write ~ (or null) for undef, "
                    f"or quote '{word}' if the String is meant",
                    path,
                    site.scalar,
                    Details(key=_root(site), place=_place(site)),
                )
            )
    return out


def _listed_by_type(code: CodeIndex | None, site: StringSite, word: str) -> bool:
    """The value is a class parameter's whole value and its type names the word."""
    if code is None or len(site.node_path) != 1 or not isinstance(site.root_key, str):
        return False
    ref = code.parameter_for_key(site.root_key)
    type_text = ref.parameter.type_text if ref is not None else None
    return type_text is not None and (f"'{word}'" in type_text or f'"{word}"' in type_text)


def _root(site: StringSite) -> str | None:
    return site.root_key if isinstance(site.root_key, str) else None


def _place(site: StringSite) -> tuple[str | int, ...]:
    return tuple(p for p in site.node_path if isinstance(p, (str, int)))


# ---------------------------------------------------------------- data-dash-without-space

_DASH_ITEM = re.compile(r"-[^\s\-]")  # a dash, then no blank (and not `--`, an option)
_DASH_LINE = re.compile(r"(?m)^[ \t]*-[^\s\-]")
_DASH_AFTER_KEY = re.compile(r":[ \t]+-[^\s\-]")


def _add_spaces(problem: Problem, src: FixSource) -> list[Fix]:
    """A space after the dash of each line: only for a scalar that starts its own line and
    whose every line is such an item at the first one's column (then YAML reads a list)."""
    span = problem.where.span
    column = span.start.column
    edits: list[TextEdit] = []
    for number in range(span.start.line, span.end.line + 1):
        line = src.line(number).rstrip("\r\n")
        start = column if number == span.start.line else len(line) - len(line.lstrip(" "))
        if start != column or line[:column].strip() or not line[column:].startswith("-"):
            return []
        if not line[column + 1 : column + 2].isspace():
            edits.append(TextEdit(Span.of(number, column + 1, number, column + 1), " "))
    if not edits:
        return []
    return [Fix("Put a space after each dash (a list)", tuple(edits), preferred=True)]


DASH_WITHOUT_SPACE = Rule(
    "data-dash-without-space",
    Severity.WARNING,
    "A line written -item (no space after the dash) where a list item is meant: YAML reads a "
    "String",
    payload=Payload.VALUES,
    fix=_add_spaces,
)


def check_dash_items(path: str, data_file: DataFile, text: str) -> list[Problem]:
    """Plain String values with a line that starts ``-x``: as the value's first thing on its
    own line (``key:`` above it), or as a line the scalar above took in (``- vim`` then
    ``  -git``, read ``vim -git``); or, on its key's line (``groups: -wheel``), where the same
    key of the neighbouring entries holds a list. ``- -x`` (an item that starts with a dash)
    and ``opts: -Xmx2g`` alone are Strings on purpose, and not reported."""
    if not (_DASH_LINE.search(text) or _DASH_AFTER_KEY.search(text)):
        return []
    lines = SourceLines(text)
    out: list[Problem] = []
    for site in iter_strings(data_file, lines, only_with="-"):
        if site.in_key or site.style is not None or site.alias:
            continue
        value = site.value
        if not (value.startswith("-") or " -" in value) or site.root_key == LOOKUP_OPTIONS:
            continue
        how = _dash_line(lines, site.scalar)
        neighbours = _listed_neighbours(data_file.data, site.node_path)
        if how is None and not (neighbours and _DASH_ITEM.match(value)):
            continue
        out.append(_dash_problem(path, site, how, neighbours))
    return out


def _dash_line(lines: SourceLines, span: Span) -> str | None:
    """How the scalar's text holds a would-be item: ``first`` (it starts its own line with
    ``-x``), ``joined`` (a later line of it starts with ``-x``), else None."""
    first = lines.line(span.start.line)
    if not first[: span.start.column].strip() and _DASH_ITEM.match(first, span.start.column):
        return "first"
    for number in range(span.start.line + 1, span.end.line + 1):
        line = lines.line(number)
        if _DASH_ITEM.match(line, len(line) - len(line.lstrip(" \t"))):
            return "joined"
    return None


def _listed_neighbours(data: Mapping[object, object], node_path: tuple[object, ...]) -> int:
    """How many entries beside the value's parent hold a list under the value's key
    (``users: {alice: {groups: [...]}, bob: {groups: -wheel}}``)."""
    if len(node_path) < 2:
        return 0
    key = node_path[-1]
    holder: object = data
    for step in node_path[:-2]:
        holder = _child(holder, step)
    parent = node_path[-2]
    siblings: Iterator[tuple[object, object]]
    if isinstance(holder, dict):
        siblings = iter(holder.items())
    elif isinstance(holder, list):
        siblings = enumerate(holder)
    else:
        return 0
    return sum(
        1
        for name, entry in siblings
        if name != parent and isinstance(entry, dict) and isinstance(entry.get(key), list)
    )


def _child(holder: object, step: object) -> object:
    if isinstance(holder, dict):
        return holder.get(step)
    if isinstance(holder, list) and isinstance(step, int) and 0 <= step < len(holder):
        return holder[step]
    return None


def _dash_problem(path: str, site: StringSite, how: str | None, neighbours: int) -> Problem:
    if how == "joined":
        why = (
            ": a line of it starts with a dash and no space, so YAML joined that line to the "
            "text above it instead of starting a list item"
        )
    else:
        why = ": YAML starts a list item only at a dash followed by a space ('- item')"
    beside = ""
    if neighbours:
        entries = "entry" if neighbours == 1 else "entries"
        beside = f"; the same key holds a list in {neighbours} neighbouring {entries}"
    return DASH_WITHOUT_SPACE.at(
        Text.of("Puppet reads the String '", as_value(site.value), "'", why, beside),
        path,
        site.scalar,
        Details(key=_root(site), place=_place(site)),
    )


RULES = (KEY_SINGLE_COLON, UNDEF_STRING, DASH_WITHOUT_SPACE)
