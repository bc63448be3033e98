"""Completion: what may be typed at the cursor, from what Puppet accepts there.

- inside ``%{lookup('``, ``%{alias('``, ``%{hiera('``: every key the environment defines
  (the active profile's value is shown when an item is resolved: computing it for every key
  up front would cost a lookup per key);
- after ``%{facts.``, ``%{trusted.``, ``%{::``: the active profile's fact paths, level by
  level, with their values;
- right after ``%{``: the interpolation functions Puppet accepts in data (none in hiera.yaml,
  where Puppet refuses method calls) and the variable roots;
- at a top-level key of a data file: the parameters of the environment's Puppet classes (those
  of the namespace typed so far first), with their type and ``@param`` documentation, that
  the file does not set yet; at such a key's value, ``true``/``false`` for a ``Boolean``
  parameter and the choices of an ``Enum[...]`` one;
- in ``lookup_options``: the keys an entry may name, then the entry's option names, merge
  strategies and their options;
- in a hiera.yaml: the keys the JSON schema allows at that place (top level, ``defaults``,
  a hierarchy level) and the built-in backend functions.

The context is read from the line's text up to the cursor and the indentation of the lines
above, not from the parsed data: while a user types, the file is often not valid YAML.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hiera_ls.features.provenance import resolve
from hiera_ls.features.puppet_code import ready_code_index
from hiera_ls.features.render import inline
from hiera_ls.features.sessions import scope_for
from hiera_ls.project.code_index import CodeIndex
from hiera_ls.project.key_index import root_of
from hiera_ls.project.model import LayerKind
from hiera_ls.project.workspace import EnvironmentView, FileKind, Snapshot
from hiera_ls.schemas_path import load_schema
from hiera_ls.source.keys import LOOKUP_OPTIONS
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.manifest_model import Definition, DefinitionKind, Parameter
from hiera_ls.source.spans import Position, Span

if TYPE_CHECKING:  # Puppet's type system: imported when a parameter's values are completed
    from hiera_ls.puppet.types import PType

# Puppet's interpolation functions in data (source/interpolation.py METHODS), with what each does.
FUNCTIONS = {
    "lookup": "the value of another key, any type when the token is the whole string",
    "hiera": "the same as lookup (the Hiera 3 name)",
    "alias": "the value of another key with its type kept; must be the whole string",
    "literal": "the text of its argument as is: %{literal('%')} writes a `%`",
    "scope": "the value of a scope variable, as %{name} does",
}
VARIABLE_ROOTS = {
    "facts": "the node's facts (facts.os.family)",
    "trusted": "the node's trusted data (trusted.certname)",
    "::": "a top-scope variable (::environment, a fact as a top-scope variable)",
}
MERGE_STRATEGIES = {
    "first": "the value of the first level that has the key (the default)",
    "unique": "arrays of every level joined, duplicates removed",
    "hash": "hashes of every level merged at the top level; a higher level's key wins",
    "deep": "hashes and arrays of every level merged recursively",
}
ENTRY_OPTIONS = {
    "merge": "the merge strategy Puppet uses for this key (first, unique, hash, deep)",
    "convert_to": "a Puppet type the found value is converted to (Sensitive, Array ...)",
}
MERGE_OPTIONS = {
    "strategy": "the merge strategy (first, unique, hash, deep)",
    "knockout_prefix": "deep merge: a value starting with this prefix removes the entry",
    "merge_hash_arrays": "deep merge: arrays of hashes are merged element by element",
    "sort_merged_arrays": "deep merge: merged arrays are sorted",
}
BOOLEAN_OPTIONS = ("merge_hash_arrays", "sort_merged_arrays")
CONVERT_TYPES = ("Sensitive", "Array", "Hash", "String", "Integer", "Boolean")
MAX_FACTS = 500  # fact paths offered at one level (a structured fact can have thousands)
MAX_KEYS = 100  # keys offered at once (the list is cut to what matches the typed text)

_KEY_CALL = re.compile(r"^\s*(lookup|hiera|alias)\(\s*(['\"])([^'\"]*)$")
_VARIABLE = re.compile(r"^\s*(::)?((?:[\w-]+(?:::|\.))*)([\w-]*)$")
_WORD_AFTER = re.compile(r"^[\w:.-]*")
_DASHES = re.compile(r"(?:-(?:\s+|$))*")
_KEY_LINE = re.compile(
    r"^\s*(?:-\s+)*(?:\"([^\"]*)\"|'([^']*)'|([^'\"#\s-][^#]*?|-[^\s#][^#]*?))\s*:(?:\s|$)"
)


@dataclass(frozen=True, slots=True)
class Item:
    """One suggestion; ``span`` is the text it replaces (code points)."""

    label: str
    kind: str  # key, variable, function, property, value
    span: Span
    insert: str
    detail: str | None = None
    documentation: str | None = None
    sort: str | None = None
    retrigger: bool = False  # the client should ask again right after inserting
    key: str | None = None  # a data key: its value becomes the detail when resolved


@dataclass(frozen=True, slots=True)
class Completions:
    """The items offered at the cursor, and whether typing on may bring others."""

    items: list[Item]
    incomplete: bool = False  # not every candidate is listed: ask again as typing goes on


NOTHING = Completions([])
# while the server's first read of the Puppet code is under way: nothing yet, and the client
# asks again as typing goes on (LSP's isIncomplete)
READING = Completions([], incomplete=True)


def complete(
    snapshot: Snapshot, path: str, pos: Position, indexed_only: bool = False
) -> Completions:
    """``indexed_only``: keys only from the files indexed so far (while the server's start-up
    checks index a big environment; the rest comes as typing goes on)."""
    text = snapshot.text(path)
    if text is None:
        return NOTHING
    lines = LineMap(text)
    line = lines.line_text(pos.line)
    column = min(pos.column, len(line))
    before, after = line[:column], line[column:]
    kind = snapshot.kind_of(path)
    if kind not in (FileKind.DATA, FileKind.HIERA_CONFIG):
        return NOTHING
    opened = before.rfind("%{")
    if opened >= 0 and "}" not in before[opened + 2 :]:
        inside = before[opened + 2 :]
        data = kind is FileKind.DATA
        return _interpolation(snapshot, path, pos, inside, after, data, indexed_only)
    if _in_comment(before):
        return NOTHING
    parents, key, at_value = _yaml_place(lines, pos.line, before)
    typed = _typed_word(before)
    span = Span(Position(pos.line, column - len(typed)), Position(pos.line, column))
    if kind is FileKind.DATA:
        if parents == [LOOKUP_OPTIONS] and not at_value:  # an entry: the keys it may name
            typed_key = before.strip().strip("'\"")
            span = Span(Position(pos.line, column - len(typed_key)), Position(pos.line, column))
            view = snapshot.environment_for(path)
            keys, partial = environment_keys(snapshot, view, indexed_only)
            chosen, cut = _best_keys(keys, typed_key)
            items = [Item(k, "key", span, f"{k}:", key=k) for k in chosen]
            return Completions(items, cut or partial)
        if not parents:
            return _class_parameters(snapshot, path, pos, before, key, at_value)
        return Completions(_lookup_options(parents, key, at_value, span))
    return Completions(_hiera_config(parents, key, at_value, span))


def key_detail(snapshot: Snapshot, path: str, key: str) -> str | None:
    """The active profile's value of ``key`` in one line ('' when too long, None: none)."""
    view = snapshot.environment_for(path)
    root = root_of(key)
    if view is None or root is None or snapshot.active is None:
        return None
    outcome = resolve(snapshot, view, key, root).outcome
    if outcome.error is not None or not outcome.found:
        return None
    return inline(outcome.value) or "…"


# ------------------------------------------------------------------ interpolation


def _interpolation(
    snapshot: Snapshot,
    path: str,
    pos: Position,
    inside: str,
    after: str,
    data: bool,
    indexed_only: bool = False,
) -> Completions:
    call = _KEY_CALL.match(inside)
    if call is not None:
        if not data:
            return NOTHING
        typed = call.group(3)
        quote = call.group(2)
        rest = after[: _closing(after, quote)]
        span = Span(
            Position(pos.line, pos.column - len(typed)), Position(pos.line, pos.column + len(rest))
        )
        view = snapshot.environment_for(path)
        keys, partial = environment_keys(snapshot, view, indexed_only)
        chosen, cut = _best_keys(keys, typed)
        # the closing quote is written too when it is missing (an editor does not close
        # quotes inside a string)
        end = "" if after[len(rest) :].startswith(quote) else quote
        items = [Item(k, "key", span, k + end, key=k) for k in chosen]
        return Completions(items, cut or partial)
    if "(" in inside:
        return NOTHING
    var = _VARIABLE.match(inside)
    if var is None:
        return NOTHING
    top, prefix, typed = var.group(1), var.group(2), var.group(3)
    tail = _WORD_AFTER.match(after)
    rest = tail.group(0) if tail else ""
    if not top and not prefix:
        span = Span(
            Position(pos.line, pos.column - len(inside.lstrip())),
            Position(pos.line, pos.column + len(rest)),
        )
        return Completions(_roots(span, data))
    span = Span(
        Position(pos.line, pos.column - len(typed)), Position(pos.line, pos.column + len(rest))
    )
    view = snapshot.environment_for(path)
    if view is None:
        return NOTHING
    return Completions(_variables(snapshot, view, bool(top), prefix, span))


def _closing(after: str, quote: str) -> int:
    """How much of the text after the cursor is still the key being typed: up to its closing
    quote, or the ``)`` or ``}`` an editor closed for the user."""
    stops = [i for i in (after.find(quote), after.find(")"), after.find("}")) if i >= 0]
    return min(stops) if stops else len(after)


def _roots(span: Span, data: bool) -> list[Item]:
    out: list[Item] = []
    if data:
        for name, doc in FUNCTIONS.items():
            insert = f"{name}('"
            out.append(
                Item(
                    name, "function", span, insert, f"{name}('…')", doc, f"0{name}", retrigger=True
                )
            )
    for name, doc in VARIABLE_ROOTS.items():
        insert = name if name == "::" else f"{name}."
        out.append(Item(insert, "variable", span, insert, None, doc, f"1{name}", retrigger=True))
    return out


def _variables(
    snapshot: Snapshot, view: EnvironmentView, top: bool, prefix: str, span: Span
) -> list[Item]:
    """Names one level below ``prefix`` (``os.`` under facts ...), with their values."""
    scope = scope_for(snapshot, view)
    current: object = scope.variables
    if top and not prefix:
        current = {k: v for k, v in scope.variables.items() if k not in ("facts", "trusted")}
    for segment in _segments(prefix):
        if not isinstance(current, Mapping) or segment not in current:
            return []
        current = current[segment]
    if not isinstance(current, Mapping):
        return []
    out: list[Item] = []
    for name, value in list(current.items())[:MAX_FACTS]:
        if not isinstance(name, str):
            continue
        nested = isinstance(value, Mapping) and bool(value)
        detail = "{…}" if nested else (inline(value) or "…")
        out.append(
            Item(
                name,
                "variable",
                span,
                f"{name}." if nested else name,
                detail,
                retrigger=nested,
            )
        )
    return out


def _segments(prefix: str) -> list[str]:
    return [s for s in re.split(r"\.|::", prefix) if s]


def environment_keys(
    snapshot: Snapshot, view: EnvironmentView | None, indexed_only: bool = False
) -> tuple[tuple[str, ...], bool]:
    """Every key a data file of the environment defines, sorted (kept per snapshot), and
    whether files were left out.

    Open buffers are indexed as they are now; other files as the key index last saw them
    (checking 2,000 files on disk at every keystroke cost 40 ms; a file changed on disk is
    re-indexed by the next check of the repository, so a suggestion lags behind it at most
    that long).  A file never indexed yet is indexed here, unless ``indexed_only`` (the
    server's start-up checks are indexing a big environment: reading thousands of files
    here too would hold the first completion for seconds), which leaves it out."""
    memo_key = ("completion-keys", view.env.root if view is not None else None)
    known = snapshot.memo.get(memo_key)
    if isinstance(known, tuple):
        return known, False
    found: set[str] = set()
    buffers = snapshot.files.overlay
    left_out = False
    for path, info in snapshot.data_files.items():
        if view is not None and info.view is not view:
            continue
        keys = None if path in buffers else snapshot.key_index.peek(path)
        if keys is None:
            if indexed_only and path not in buffers:
                left_out = True
                continue
            keys = snapshot.file_keys(path)
        if keys is not None:
            found.update(keys.keys)
    found.discard(LOOKUP_OPTIONS)
    result = tuple(sorted(found))
    if not left_out:
        snapshot.memo[memo_key] = result
    return result, left_out


def _best_keys(keys: tuple[str, ...], typed: str) -> tuple[list[str], bool]:
    """At most MAX_KEYS keys for what was typed (those starting with it first, then those
    containing it); True when some were left out, so the client asks again as typing
    goes on (a list of 20,000 items costs the editor more than a new request)."""
    if len(keys) <= MAX_KEYS:
        return list(keys), False
    lowered = typed.lower()
    starting = [k for k in keys if k.lower().startswith(lowered)]
    if len(starting) >= MAX_KEYS:
        return starting[:MAX_KEYS], True
    containing = [k for k in keys if lowered in k.lower() and not k.lower().startswith(lowered)]
    return (starting + containing)[:MAX_KEYS], True


# ------------------------------------------------------------------ class parameters


@dataclass(frozen=True, slots=True)
class _ParameterKey:
    """A class parameter's data key, offered where a key is being typed."""

    key: str  # class::parameter
    definition: Definition
    parameter: Parameter


def _parameter_keys(index: CodeIndex) -> tuple[_ParameterKey, ...]:
    """Every class parameter of the code as a key, sorted (kept with the index: a keystroke
    in data keeps it)."""
    known = index.memo.get("completion-parameters")
    if isinstance(known, tuple):
        return known
    found: dict[str, _ParameterKey] = {}
    for d in index.definitions():
        if d.kind is not DefinitionKind.CLASS:
            continue
        for p in d.params:
            key = f"{d.name}::{p.name}"
            if key not in found:
                found[key] = _ParameterKey(key, d, p)
    result = tuple(found[k] for k in sorted(found))
    index.memo["completion-parameters"] = result
    return result


def _parameter_doc(d: Definition, p: Parameter) -> str:
    default = "required (no default)" if p.default_text is None else f"default: {p.default_text}"
    text = f"Parameter `${p.name}` of class `{d.name}`, {default}"
    return text + (f"\n\n{p.doc.strip()}" if p.doc else "")


def _class_parameters(
    snapshot: Snapshot,
    path: str,
    pos: Position,
    before: str,
    key: str | None,
    at_value: bool,
) -> Completions:
    view = snapshot.environment_for(path)
    if at_value and re.fullmatch(r"['\"]?[\w:-]*:", before):
        at_value = False  # ``profile::web::`` is a key being typed, not a key and its value
    if at_value:
        if key is None:
            return NOTHING
        typed = _typed_word(before)
        span = Span(Position(pos.line, pos.column - len(typed)), Position(pos.line, pos.column))
        if view is not None and ready_code_index(snapshot, view) is None:
            return READING  # the server is still reading the code
        return Completions(_parameter_values(snapshot, view, key, span))
    if not re.fullmatch(r"['\"]?[\w:-]*", before):  # a top-level key starts the line
        return NOTHING
    typed = before.lstrip("'\"")
    span = Span(Position(pos.line, pos.column - len(typed)), Position(pos.line, pos.column))
    index = ready_code_index(snapshot, view)
    if index is None and view is not None:
        return READING
    keys = _parameter_keys(index) if index is not None else ()
    if not keys:
        return NOTHING
    df = snapshot.data_file(path)
    present = set(df.data) if df is not None and isinstance(df.data, dict) else set()
    namespace = typed.rpartition("::")[0].lower()
    lowered = typed.lower()
    own = _data_module(snapshot, path)  # a module's data: Puppet reads its own keys only
    first: list[_ParameterKey] = []
    rest: list[_ParameterKey] = []
    for k in keys:
        if k.key in present or (own is not None and not k.key.startswith(own)):
            continue
        if lowered and lowered not in k.key:
            continue
        (first if namespace and k.definition.name == namespace else rest).append(k)
    rest.sort(key=lambda k: (not k.key.startswith(lowered), k.key))
    chosen = (first + rest)[:MAX_KEYS]
    cut = len(first) + len(rest) > MAX_KEYS
    items = [
        Item(
            k.key,
            "property",
            span,
            f"{k.key}: ",
            k.parameter.type_text or "Any",
            _parameter_doc(k.definition, k.parameter),
            f"{i:03d}",
        )
        for i, k in enumerate(chosen)
    ]
    return Completions(items, cut)


def _data_module(snapshot: Snapshot, path: str) -> str | None:
    """``name::`` when ``path`` is a module's data (its own hierarchy reads it)."""
    info = snapshot.data_files.get(path)
    for level in info.levels if info is not None else ():
        if level.layer.kind is LayerKind.MODULE and level.layer.module_name:
            return f"{level.layer.module_name}::"
    return None


def _parameter_values(
    snapshot: Snapshot, view: EnvironmentView | None, key: str, span: Span
) -> list[Item]:
    """``true``/``false`` for a Boolean parameter, the choices of an Enum (also inside an
    Optional, a Variant or a type alias)."""
    index = ready_code_index(snapshot, view)
    ref = index.parameter_for_key(key) if index is not None else None
    if index is None or ref is None or ref.parameter.type_text is None:
        return []

    def resolver(name: str) -> str | None:
        alias = index.type_alias(name)
        return alias.alias_text if alias is not None else None

    from hiera_ls.puppet.type_parser import TypeExpressionError, parse_type

    try:
        values = _choices_of(parse_type(ref.parameter.type_text, resolver))
    except (TypeExpressionError, RecursionError):  # a type hiera-ls cannot read: none
        return []
    return [
        Item(v, "value", span, v, None, None, f"{i:02d}") for i, v in enumerate(values[:MAX_KEYS])
    ]


def _choices_of(ptype: PType | None, depth: int = 0) -> list[str]:
    from hiera_ls.puppet.types import (
        AliasType,
        BooleanType,
        EnumType,
        NotUndefType,
        OptionalType,
        VariantType,
    )

    if ptype is None or depth > 10:
        return []
    if isinstance(ptype, BooleanType):
        return ["true", "false"]
    if isinstance(ptype, EnumType):
        return [_quoted(v) for v in ptype.values]
    if isinstance(ptype, (OptionalType, NotUndefType)):
        return _choices_of(ptype.type, depth + 1)
    if isinstance(ptype, AliasType):
        return _choices_of(ptype.target(), depth + 1)
    if isinstance(ptype, VariantType):
        out: list[str] = []
        for t in ptype.types:
            out.extend(v for v in _choices_of(t, depth + 1) if v not in out)
        return out
    return []


def _quoted(value: str) -> str:
    """An Enum choice as YAML must write it to stay a string."""
    if re.fullmatch(r"[A-Za-z_][\w.-]*", value) and value.lower() not in YAML11_WORDS:
        return value
    return "'" + value.replace("'", "''") + "'"


YAML11_WORDS = frozenset(("y", "n", "yes", "no", "true", "false", "on", "off", "null", "nil"))


# ------------------------------------------------------------------ YAML structure


def _in_comment(before: str) -> bool:
    return bool(re.search(r"(^|\s)#", before))


def _typed_word(before: str) -> str:
    m = re.search(r"[\w-]*$", before)
    return m.group(0) if m else ""


def _indent_of(line: str) -> tuple[int, int] | None:
    """(the column of the line's first character, the column of its key after any ``- ``)."""
    stripped = line.lstrip(" ")
    if not stripped or stripped.startswith("#"):
        return None
    first = len(line) - len(stripped)
    m = _DASHES.match(stripped)
    return first, first + (m.end() if m else 0)


def _key_of(line: str) -> str | None:
    m = _KEY_LINE.match(line)
    if m is None:
        return None
    return next(g for g in (m.group(1), m.group(2), m.group(3)) if g is not None).strip()


def _yaml_place(lines: LineMap, line_no: int, before: str) -> tuple[list[str], str | None, bool]:
    """The keys above the cursor (outermost first; ``-`` for a list item), the key on the
    cursor's line when the cursor is in its value, and whether it is.

    A line's parent is the nearest line above whose content starts left of it; a list
    item's owner may start at the item's own column (``hierarchy:`` over ``- name:``).
    """
    key = _key_of(before)
    first, key_col = _indent_of(before + "x") or (0, 0)
    parents: list[str] = []
    target = key_col
    in_item: int | None = None
    if first < key_col:
        parents.append("-")
        in_item = first
    for n in range(line_no - 1, -1, -1):
        if target == 0 and in_item is None:
            break
        text = lines.line_text(n)
        place = _indent_of(text)
        if place is None:
            continue
        first, key_col = place
        name = _key_of(text)
        if in_item is not None:
            if first == key_col and first <= in_item:
                if name is None:
                    break
                parents.append(name)
                target, in_item = first, None
            elif first < in_item and key_col <= in_item:
                if name is not None:
                    parents.append(name)
                parents.append("-")
                in_item = first
            continue
        if key_col < target:
            if name is None:
                break
            parents.append(name)
            if first < key_col:
                parents.append("-")
                in_item = first
            else:
                target = first
        elif key_col == target and first < key_col:
            parents.append("-")
            in_item = first
    parents.reverse()
    return parents, key, key is not None


# ------------------------------------------------------------------ lookup_options


def _choices(names: Mapping[str, str], kind: str, span: Span) -> list[Item]:
    return [
        Item(name, kind, span, name, None, doc, f"{i:02d}")
        for i, (name, doc) in enumerate(names.items())
    ]


def _lookup_options(parents: list[str], key: str | None, at_value: bool, span: Span) -> list[Item]:
    if not parents or parents[0] != LOOKUP_OPTIONS:
        return []
    depth = len(parents)
    if not at_value:
        if depth == 2:
            return [_with_colon(i) for i in _choices(ENTRY_OPTIONS, "property", span)]
        if depth == 3 and parents[2] == "merge":
            return [_with_colon(i) for i in _choices(MERGE_OPTIONS, "property", span)]
        return []
    in_merge = depth == 3 and parents[2] == "merge"
    if (depth == 2 and key == "merge") or (in_merge and key == "strategy"):
        return _choices(MERGE_STRATEGIES, "value", span)
    if depth == 2 and key == "convert_to":
        return [Item(t, "value", span, t, sort=f"{i:02d}") for i, t in enumerate(CONVERT_TYPES)]
    if depth == 3 and parents[2] == "merge" and key in BOOLEAN_OPTIONS:
        return [Item(v, "value", span, v) for v in ("true", "false")]
    return []


def _with_colon(item: Item) -> Item:
    return Item(
        item.label,
        item.kind,
        item.span,
        f"{item.insert}: ",
        item.detail,
        item.documentation,
        item.sort,
    )


# ------------------------------------------------------------------ hiera.yaml


def _schema_at(parents: list[str]) -> dict[str, Any] | None:
    schema = load_schema()
    node: dict[str, Any] = schema
    for segment in parents:
        node = _deref(schema, node)
        if segment == "-":
            items = node.get("items")
            if not isinstance(items, dict):
                return None
            node = items
            continue
        props = node.get("properties")
        if not isinstance(props, dict) or segment not in props:
            return None
        node = props[segment]
    return _deref(schema, node)


def _deref(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        target = schema["$defs"].get(ref.split("/")[-1], {})
        return {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _first_paragraph(description: object) -> str | None:
    return description.split("\n\n")[0] if isinstance(description, str) else None


def _hiera_config(parents: list[str], key: str | None, at_value: bool, span: Span) -> list[Item]:
    if at_value:
        if key is None:
            return []
        node = _schema_at([*parents, key])
        if node is None:
            return []
        examples = node.get("examples")
        if node.get("const") is not None:
            examples = [node["const"]]
        if not isinstance(examples, list):
            return []
        return [
            Item(str(e), "value", span, str(e), None, _first_paragraph(node.get("description")))
            for e in examples
        ]
    node = _schema_at(parents)
    if node is None:
        return []
    props = node.get("properties")
    if not isinstance(props, dict):
        return []
    schema = load_schema()
    out: list[Item] = []
    for i, (name, sub) in enumerate(props.items()):
        sub = _deref(schema, sub) if isinstance(sub, dict) else {}
        doc = _first_paragraph(sub.get("description"))
        container = sub.get("type") in ("array", "object") or (
            isinstance(sub.get("type"), list) and "string" not in sub["type"]
        )
        insert = f"{name}:" if container else f"{name}: "
        out.append(Item(name, "property", span, insert, None, doc, f"{i:02d}"))
    return out
