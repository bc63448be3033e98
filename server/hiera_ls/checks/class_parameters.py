"""Keys as class parameters: what the Puppet code says of a data file's keys and values.

Automatic parameter lookup reads ``a::b::c`` for parameter ``$c`` of ``class a::b``, and only
that key: a misspelt key, a parameter renamed in code or a key written for a defined type is
silently never read, and a value of the wrong type fails the catalog compile with
``Class[A::B]: parameter 'c' expects an Integer value, got String``.  These checks read the
environment's :class:`~hiera_ls.project.code_index.CodeIndex` (every class, defined type and
type alias of the modulepath, every explicit lookup in code).

They stay quiet wherever the code cannot answer, the way an operator reading the code would:
a key some code or data looks up explicitly (``lookup('k')``, ``lookup("${x}::k")``,
``%{lookup('k')}``, ``%{alias('k')}``) is used whatever its name; a namespace whose module is
not on the workspace's modulepath (an r10k module not installed here) is not judged; a key
with a dot, a leading ``::`` or capitals is never one automatic lookup reads, but neither is it
a parameter key written by mistake; a class whose parameter list the reader could not read is
not judged; a value holding ``%{...}``, an ``ENC[...]`` block or rich data (``__ptype``) is
judged only by the profile check, where its value for a node is known; a key with
lookup_options (a merge, a ``convert_to``) likewise, since its own value is not what the class
gets.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from hiera_ls.checks.profile import ProfileLookup
from hiera_ls.engine.lookup import LookupOutcome
from hiera_ls.engine.trace import Event, Kind, TraceNode
from hiera_ls.project.code_index import CodeIndex, ParameterRef
from hiera_ls.puppet.message import Text
from hiera_ls.puppet.values import Sensitive
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.keys import LOOKUP_OPTIONS, PARAMETER_KEY
from hiera_ls.source.manifest_model import Definition, DefinitionKind, Parameter
from hiera_ls.source.rules import Needs, Payload, Rule
from hiera_ls.source.spans import Details, Problem, Severity, Span
from hiera_ls.source.text_edits import Fix, edit
from hiera_ls.source.yaml_edits import suggested_key, word_in_span

if TYPE_CHECKING:  # Puppet's type system is imported where a parameter's type is judged
    from hiera_ls.puppet.type_mismatch import Mismatch
    from hiera_ls.puppet.types import PType

NEAREST = 3  # parameter names offered as "did you mean"
# how near a misspelt segment of a namespace naming no class must be to a class's to offer it
# (``sqlsever``: 0.94; ``mysqld_exporter`` for ``memcached_exporter``: 0.67, not offered)
MEANT_SEGMENT_CUTOFF = 0.85
PAUSE_KEYS = 256  # keys checked between two pauses (check_class_keys)
CLASSES_KEY = re.compile(r"(?:.*::)?classes")


def _write_parameter(problem: Problem, src: FixSource) -> list[Fix]:
    """The key with each parameter name the finding suggests in place of the unknown one."""
    details = problem.details
    span, word, quote = word_in_span(problem, src)
    namespace, sep, _ = word.rpartition("::")
    if not sep or word != details.key:
        return []
    return [
        Fix(
            f"Write {namespace}::{guess}",
            edit(span, f"{quote}{namespace}::{guess}{quote}"),
            preferred=i == 0,
        )
        for i, guess in enumerate(details.suggestions)
    ]


_CODE_AND_DATA = Needs.INDEX | Needs.CODE
PARAMETER_UNKNOWN = Rule(
    "class-parameter-unknown",
    Severity.WARNING,
    "A key `a::b::c` where class `a::b` has no parameter `c` and no code looks it up",
    needs=_CODE_AND_DATA,
    fix=_write_parameter,
)


def _write_meant_key(problem: Problem, src: FixSource) -> list[Fix]:
    """The key of the class the finding suggests, in place of the one written."""
    return suggested_key(problem, src, "Write {}")


CLASS_NOT_FOUND = Rule(
    "class-not-found",
    Severity.WARNING,
    "A key whose namespace names no class or defined type of a module in the workspace, and "
    "that no code looks up",
    needs=_CODE_AND_DATA,
    fix=_write_meant_key,
)
PARAMETER_OF_DEFINE = Rule(
    "class-parameter-of-define",
    Severity.WARNING,
    "A key for a defined type's parameter: automatic parameter lookup sets only classes'",
    needs=_CODE_AND_DATA,
)
TYPE_MISMATCH = Rule(
    "class-parameter-type-mismatch",
    Severity.ERROR,
    "A value that does not match its class parameter's type: the catalog compile fails",
    needs=_CODE_AND_DATA,
    payload=Payload.VALUES,
)
PARAMETER_MISSING = Rule(
    "class-parameter-missing",
    Severity.WARNING,
    "A class the node includes has a required parameter no data gives for the profile",
    needs=_CODE_AND_DATA | Needs.PROFILE,
)
RULES = (PARAMETER_UNKNOWN, CLASS_NOT_FOUND, PARAMETER_OF_DEFINE, TYPE_MISMATCH, PARAMETER_MISSING)


@dataclass(frozen=True, slots=True)
class CodeContext:
    """What the class checks read besides the data file: the code, and which keys the data
    reads through interpolation (``referenced``) or gives lookup_options (``optioned``)."""

    code: CodeIndex
    referenced: Collection[str] = frozenset()
    optioned: Callable[[str], bool] = lambda key: False


def parameter_keys(data_file: DataFile, module_name: str | None) -> Iterator[str]:
    """The file's root keys shaped like a class parameter key, that Puppet keeps."""
    prefix = f"{module_name}::" if module_name is not None else None
    for key in data_file.data:
        if not isinstance(key, str) or key == LOOKUP_OPTIONS:
            continue
        if prefix is not None and not key.startswith(prefix):
            continue  # dropped from module data (module-data-unqualified-key)
        if PARAMETER_KEY.fullmatch(key):
            yield key


def _read_explicitly(context: CodeContext, key: str) -> bool:
    code = context.code
    return (
        key in context.referenced
        or bool(code.lookups_of(key))
        or bool(code.possible_lookups_of(key))
    )


def check_class_keys(
    path: str,
    data_file: DataFile,
    context: CodeContext,
    *,
    module_name: str | None = None,
    pause: Callable[[], None] | None = None,
) -> list[Problem]:
    """Keys no class parameter takes and no code reads, and the file's own values that do
    not match their parameter's type. ``pause``: called every :data:`PAUSE_KEYS` keys (the
    server's background run gives way there: a 10,000-line file's took 20-30 ms)."""
    out: list[Problem | _NotFound] = []
    code = context.code
    for n, key in enumerate(parameter_keys(data_file, module_name)):
        if pause is not None and n and not n % PAUSE_KEYS:
            pause()
        spans = data_file.nodes.get((key,))
        if spans is None:
            continue
        where = spans.key or spans.value
        namespace, _, name = key.rpartition("::")
        definition = code.definition(namespace)
        if definition is not None and definition.kind is DefinitionKind.CLASS:
            parameter = definition.param(name)
            if parameter is not None:
                out.extend(_own_value(path, data_file, context, key, definition, parameter))
            elif not _read_explicitly(context, key) and code.header_read(definition):
                out.append(_unknown_parameter(path, where, key, definition, name))
        elif definition is not None and definition.kind is DefinitionKind.DEFINE:
            if not _read_explicitly(context, key):
                out.append(
                    PARAMETER_OF_DEFINE.at(
                        f"'{definition.name}' is a defined type, not a class: automatic "
                        f"parameter lookup sets only class parameters, and no code looks "
                        f"'{key}' up, so Puppet never reads it",
                        path,
                        where,
                        Details(key=key),
                    )
                )
        elif (
            _module_has_code(code, namespace.split("::", 1)[0])
            and not _read_explicitly(context, key)
            and not code.autoload_file_known(namespace)
        ):
            meant = _meant_class(code, namespace, name)
            if meant is not None and not _fits(context, meant, name, key, data_file):
                meant = None
            out.append(_NotFound(key, where, f"{meant}::{name}" if meant else None))
    return _with_meant_keys(path, data_file, out)


@dataclass(frozen=True, slots=True)
class _NotFound:
    """A key naming no class, and the key it most likely means (settled once every key of
    the file is known: see :func:`_with_meant_keys`)."""

    key: str
    where: Span
    meant: str | None


def _with_meant_keys(
    path: str, data_file: DataFile, found: list[Problem | _NotFound]
) -> list[Problem]:
    """The ``class-not-found`` findings, each offering the key it most likely means unless
    the file already holds that key or offers it for another key too (writing it would make
    a duplicate: example42's psick::pre::darwin::manage and ::linux::manage, when the OS
    classes were folded into psick::pre)."""
    offered = Counter(f.meant for f in found if isinstance(f, _NotFound) and f.meant)
    out: list[Problem] = []
    for f in found:
        if not isinstance(f, _NotFound):
            out.append(f)
            continue
        namespace = f.key.rpartition("::")[0]
        module = namespace.split("::", 1)[0]
        meant = f.meant if f.meant and offered[f.meant] == 1 else None
        if meant is not None and meant in data_file.data:
            meant = None
        hint = f". Did you mean '{meant}'?" if meant else ""
        out.append(
            CLASS_NOT_FOUND.at(
                f"No class or defined type '{namespace}' in module '{module}', and no code "
                f"looks '{f.key}' up: Puppet never reads this key{hint}",
                path,
                f.where,
                Details(key=f.key, module=module, suggestions=(meant,) if meant else ()),
            )
        )
    return out


def _fits(context: CodeContext, meant: str, name: str, key: str, data_file: DataFile) -> bool:
    """The file's value is one the meant class's parameter takes (as far as can be told): a
    key whose value the parameter refuses was not written for it (an Array of Strings where
    profile::docker::images takes image Structs)."""
    definition = context.code.definition(meant)
    parameter = definition.param(name) if definition is not None else None
    if definition is None or parameter is None or context.optioned(key):
        return True
    value = data_file.data[key]
    return not mismatches(context.code, ParameterRef(definition, parameter), value)


def _meant_class(code: CodeIndex, namespace: str, name: str) -> str | None:
    """The class of the same module, taking a parameter ``name``, that a namespace naming no
    class most likely means: one segment too many or too few
    (``profile::manifests::app::sql`` for ``profile::app::sql``, ``profile::keystone`` for
    ``profile::keystone::apache``), or one segment misspelt (``sqlsever``). A sibling that
    merely takes a parameter of that name (``memcached_exporter`` for ``mysqld_exporter``) is
    not offered; nor is any where two are equally near."""
    written = namespace.split("::")
    near = [
        c
        for c in code.classes_taking(written[0], name)
        if _one_segment_apart(written, c.split("::"))
    ]
    ranked = sorted(((_ratio(namespace, c), c) for c in near), reverse=True)
    if not ranked or (len(ranked) > 1 and ranked[0][0] == ranked[1][0]):
        return None
    return ranked[0][1]


def _ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a, b).ratio()


def _one_segment_apart(written: list[str], other: list[str]) -> bool:
    """One segment added or removed, or one segment misspelt (the rest the same, in order)."""
    if len(written) == len(other):
        apart = [(a, b) for a, b in zip(written, other, strict=True) if a != b]
        return len(apart) == 1 and _ratio(*apart[0]) >= MEANT_SEGMENT_CUTOFF
    longer, shorter = (written, other) if len(written) > len(other) else (other, written)
    return len(longer) == len(shorter) + 1 and any(
        longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer))
    )


def _unknown_parameter(
    path: str, where: Span, key: str, definition: Definition, name: str
) -> Problem:
    names = [p.name for p in definition.params]
    near = difflib.get_close_matches(name, names, n=NEAREST, cutoff=0.6)
    if near:
        quoted = " or ".join(f"'{n}'" for n in near)
        hint = f" Did you mean {quoted}?"
    elif not names:
        hint = " It has no parameters."
    else:
        hint = ""
    return PARAMETER_UNKNOWN.at(
        f"Class '{definition.name}' has no parameter '{name}', and no code looks '{key}' up: "
        f"Puppet never reads this key.{hint}",
        path,
        where,
        Details(key=key, suggestions=tuple(near)),
    )


def _module_has_code(code: CodeIndex, module: str) -> bool:
    """The module is on the modulepath and defines some class, defined type or function: an
    empty directory (a git submodule not checked out) or a module of types only is not
    judged.  (Which modules define one is worked out once per code index.)"""
    coded = code.memo.get(_CODED)
    if not isinstance(coded, frozenset):
        coded = code.memo[_CODED] = frozenset(
            d.name.partition("::")[0]
            for d in code.definitions()
            if d.kind is not DefinitionKind.TYPE_ALIAS
        )
    return module in code.modules and module in coded


_CODED = "modules defining a class, defined type or function"  # a key of CodeIndex.memo


# ------------------------------------------------------------------ values against the type


def class_title(class_name: str) -> str:
    """Puppet's name of a class resource: ``Class[Profile::Web]``."""
    return "Class[" + "::".join(s[:1].upper() + s[1:] for s in class_name.split("::")) + "]"


def class_subject(class_name: str, parameter: str) -> str:
    """Puppet's subject for a class parameter: ``Class[Profile::Web]: parameter 'port'``."""
    return f"{class_title(class_name)}: parameter '{parameter}'"


def parameter_type(code: CodeIndex, parameter: Parameter) -> PType | None:
    """The parameter's type with the environment's type aliases resolved; None when it has
    none or hiera-ls cannot read it."""
    if parameter.type_text is None:
        return None
    slot = ("parameter-type", id(parameter))  # parsed once an index (every profile asks)
    known = code.memo.get(slot)
    if isinstance(known, tuple) and known[0] is parameter:
        return cast("PType | None", known[1])
    found = _parsed_type(code, parameter.type_text)
    code.memo[slot] = (parameter, found)
    return found


def _parsed_type(code: CodeIndex, text: str) -> PType | None:
    from hiera_ls.puppet.type_parser import TypeExpressionError, parse_type

    def resolver(name: str) -> str | None:
        alias = code.type_alias(name)
        return alias.alias_text if alias is not None else None

    try:
        return parse_type(text, resolver)
    except (TypeExpressionError, ValueError, RecursionError):
        return None


def mismatches(code: CodeIndex, ref: ParameterRef, value: object) -> list[Mismatch]:
    """What Puppet reports for ``value`` given to the parameter, leaving out mismatches about
    values hiera-ls cannot know (interpolated, encrypted, rich data) and types it cannot
    resolve (an alias from a module not in the workspace)."""
    parameter = ref.parameter
    if value is None and parameter.default_text is not None:
        return []  # Puppet uses the default for an undef from the data
    expected = parameter_type(code, parameter)
    if expected is None:
        return []
    from hiera_ls.puppet.type_mismatch import describe_mismatch

    try:
        subject = class_subject(ref.definition.name, parameter.name)
        found = describe_mismatch(subject, expected, value)
    except (ValueError, RecursionError):
        return []
    if any(m.kind == "unresolved" for m in found):
        return []
    unreadable = any(m.kind == "pattern" for m in found) and _unreadable_pattern(expected)
    return [
        m
        for m in found
        if not _unknowable(value, m.value_path()) and not (unreadable and m.kind == "pattern")
    ]


def _unreadable_pattern(t: PType) -> bool:
    """Some ``Pattern[/.../]`` in ``t`` uses Ruby regexp syntax hiera-ls cannot compile: its
    "does not match" would be a guess."""
    from hiera_ls.puppet.type_assignable import ruby_regex
    from hiera_ls.puppet.types import AliasType, PatternType, PType

    seen: set[int] = set()
    stack: list[object] = [t]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            stack.extend(item)
            continue
        if not isinstance(item, PType) or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, PatternType) and any(ruby_regex(p) is None for p in item.patterns):
            return True
        if isinstance(item, AliasType):
            stack.append(item.resolved())
            continue
        stack.extend(getattr(item, name) for name in getattr(item, "__dataclass_fields__", {}))
    return False


def _unknowable(value: object, path: Sequence[object]) -> bool:
    """The value at ``path`` (or on the way to it) is not what the node gets as written."""
    node = value
    for step in path:
        if isinstance(node, Mapping) and "__ptype" in node:
            return True
        node = _child(node, step)
        if node is _ABSENT:
            return False
    return _holds_unknown(node)


_ABSENT = object()


def _child(node: object, step: object) -> object:
    if isinstance(node, Mapping):
        return node.get(step, _ABSENT)
    if isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node):
        return node[step]
    return _ABSENT


def _holds_unknown(value: object) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "%{" in item or "ENC[" in item:
                return True
        elif isinstance(item, Mapping):
            if "__ptype" in item:
                return True
            stack.extend(item.values())
            stack.extend(k for k in item if isinstance(k, str))
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, Sensitive):  # convert_to: Sensitive wraps what the data holds
            stack.append(item.value)
    return False


def _place(key: str, found: Mismatch) -> tuple[str | int, ...]:
    """Where in the data the mismatch is: the key, then keys and indexes into its value."""
    steps = (s if isinstance(s, (str, int)) else str(s) for s in found.value_path())
    return (key, *steps)


def _span_of(data_file: DataFile, key: str, found: Mismatch) -> Span | None:
    """The most precise range of the offending part: the value (or key) at its path."""
    path: tuple[object, ...] = (key, *found.value_path())
    while path:
        spans = data_file.nodes.get(path)
        if spans is not None:
            if found.points_at_key and spans.key is not None and len(path) > 1:
                return spans.key
            return spans.value
        path = path[:-1]
    return None


def _own_value(
    path: str,
    data_file: DataFile,
    context: CodeContext,
    key: str,
    definition: Definition,
    parameter: Parameter,
) -> list[Problem]:
    if context.optioned(key):
        return []  # lookup_options merge or convert it: the profile check judges the result
    if data_file.data[key] is None:
        return []  # `~`: a placeholder a higher level usually fills (a module's OS data)
    found = mismatches(context.code, ParameterRef(definition, parameter), data_file.data[key])
    if not found:
        return []
    from hiera_ls.puppet.type_mismatch import render_text

    out: list[Problem] = []
    for m in found:
        span = _span_of(data_file, key, m)
        if span is not None:
            details = Details(key=key, type=parameter.type_text, place=_place(key, m))
            out.append(TYPE_MISMATCH.at(render_text([m]), path, span, details))
    return out


# ------------------------------------------------------------------ for a facts profile


def check_class_values(
    profile: ProfileLookup,
    path: str,
    data_file: DataFile,
    context: CodeContext,
    *,
    module_name: str | None = None,
) -> list[Problem]:
    """The value each parameter key of the file gets for the profile's node (merged,
    interpolated, converted), against the parameter's type; reported in this file only when
    the offending part comes from it (so once), and not again when the file's own value
    already says it."""
    out: list[Problem] = []
    code = context.code
    for key, ref in _typed_parameters(profile, path, data_file, code, module_name):
        memo, slot = profile.memo_for("class-values", key)
        known = memo.get(slot)
        if not isinstance(known, _Judged) or known.code is not code:
            known = memo[slot] = _judge_merged(profile, code, ref, key)
        if known.value is _ABSENT or not known.found:
            continue
        if all(file != path for file, _ in known.contributions):
            continue  # the value takes nothing from this file: no part of it comes from here
        from hiera_ls.puppet.type_mismatch import render, render_text

        own = ("own-mismatches", path, key)  # what the file's own value says, once a run
        for m in known.found:
            if _origin(known.contributions, m.value_path()) != path:
                continue
            if own not in profile.shared:
                said = [] if context.optioned(key) else mismatches(code, ref, data_file.data[key])
                profile.shared[own] = {render([o]) for o in said}
            if render([m]) in cast(set[str], profile.shared[own]):
                continue
            where = _own_part(data_file, key, known.value, m)
            if where is None:
                continue
            note = (
                "the value merged for this node; this part comes from this file"
                if len(known.contributions) > 1
                else "the value this node gets from this file"
            )
            out.append(
                TYPE_MISMATCH.at(
                    Text.of(f"[{profile.name}] ", render_text([m]), f" ({note})"),
                    path,
                    where,
                    Details(key=key, type=ref.parameter.type_text, place=_place(key, m)),
                )
            )
    return out


def _typed_parameters(
    profile: ProfileLookup,
    path: str,
    data_file: DataFile,
    code: CodeIndex,
    module_name: str | None,
) -> list[tuple[str, ParameterRef]]:
    """The file's keys that set a class parameter of a written type, with it: the same for
    every profile (worked out once a run, kept with the answers shared between them)."""
    slot = ("typed-parameters", path)
    known = profile.shared.get(slot)
    if isinstance(known, tuple) and known[0] is code and known[1] is data_file:
        return cast(list[tuple[str, ParameterRef]], known[2])
    found: list[tuple[str, ParameterRef]] = []
    for key in parameter_keys(data_file, module_name):
        ref = code.parameter_for_key(key)
        if ref is not None and ref.parameter.type_text is not None:
            found.append((key, ref))
    profile.shared[slot] = (code, data_file, found)
    return found


@dataclass(frozen=True, slots=True)
class _Judged:
    """A profile's merged value of a parameter key judged: once, for every file setting it."""

    code: CodeIndex
    value: object  # _ABSENT: nothing to judge (not found, failed, unknowable)
    found: tuple[Mismatch, ...] = ()
    contributions: tuple[tuple[str, object], ...] = ()


def _judge_merged(profile: ProfileLookup, code: CodeIndex, ref: ParameterRef, key: str) -> _Judged:
    from hiera_ls.engine.convert import NotConverted

    nothing = _Judged(code, _ABSENT)
    outcome = profile.lookup(key)
    if not outcome.found or outcome.error is not None or outcome.incomplete is not None:
        return nothing
    if outcome.notes and any(isinstance(note, NotConverted) for note in outcome.notes):
        return nothing  # a convert_to hiera-ls does not do: Puppet binds another value
    found = mismatches(code, ref, outcome.value)
    explained = profile.explain(key) if found and profile.explain is not None else None
    if explained is None or reads_unknown_variables(explained.trace):
        return nothing  # '' for a fact the profile lacks: not what a real node would get
    return _Judged(code, outcome.value, tuple(found), tuple(_contributions(explained, key)))


def _own_part(data_file: DataFile, key: str, merged: object, found: Mismatch) -> Span | None:
    """The range in this file of the merged value's offending part: the same entries, and
    for a list the element equal to the merged one (a merge moves elements); else the key."""
    own = data_file.data.get(key)
    node_path: list[object] = [key]
    for step in found.value_path():
        if isinstance(merged, list) and isinstance(own, list) and isinstance(step, int):
            wanted = merged[step] if 0 <= step < len(merged) else _ABSENT
            index = next((i for i, item in enumerate(own) if item == wanted), None)
            if index is None:
                break
            merged, own = wanted, own[index]
            node_path.append(index)
        elif isinstance(merged, Mapping) and isinstance(own, Mapping) and step in own:
            merged, own = merged.get(step), own[step]
            node_path.append(step)
        else:
            break
    else:
        spans = data_file.nodes.get(tuple(node_path))
        if spans is not None:
            key_wanted = found.points_at_key and spans.key is not None and len(node_path) > 1
            return spans.key if key_wanted and spans.key is not None else spans.value
    spans = data_file.nodes.get((key,))
    return (spans.key or spans.value) if spans is not None else None


def reads_unknown_variables(trace: TraceNode | None) -> bool:
    """The value interpolates a variable or fact the profile does not define (Puppet gives
    '' for it, or for a missing part of a fact): a facts file lacking a fact is likelier than
    a node lacking it, so such a value is not judged.  ``trace``: an explained lookup's (or
    a part of it); None, no trace: unknown, so True."""
    if trace is None:
        return True
    for node in trace.walk():
        if node.kind is Kind.SCOPE and node.label == "Global Scope":
            if not any(c.event is Event.FOUND for c in node.children):
                return True
        elif node.kind is Kind.SUB_KEY and any(c.event is Event.NOT_FOUND for c in node.children):
            return True
    return False


def _contributions(outcome: LookupOutcome, key: str) -> list[tuple[str, object]]:
    """(file, value) the explained lookup of root key ``key`` read, highest priority first."""
    trace = outcome.trace
    if trace is None:
        return []
    root = next((c for c in trace.children if c.kind is Kind.ROOT and c.label == key), None)
    if root is None:
        return []
    out: list[tuple[str, object]] = []

    def walk(node: TraceNode) -> None:
        for child in node.children:
            if child.kind in (Kind.INTERPOLATE, Kind.META, Kind.SUB_KEY):
                continue
            if child.kind is Kind.PATH:
                if child.event is Event.FOUND and child.key == key:
                    out.append((child.label, child.value))
            else:
                walk(child)

    walk(root)
    return out


def _origin(contributions: Sequence[tuple[str, object]], path: Sequence[object]) -> str | None:
    """The file the part of the merged value at ``path`` comes from: the highest-priority
    contribution that holds it (a hash merge keeps the higher level's entry; a unique merge
    the first element met)."""
    if not contributions:
        return None
    if len(contributions) == 1 or not path:
        return contributions[0][0]
    for file, value in contributions:
        if _holds_path(value, path):
            return file
    return None


def _holds_path(value: object, path: Sequence[object]) -> bool:
    node = value
    for step in path:
        if isinstance(node, Mapping) and step in node:
            node = node[step]
        elif isinstance(node, list) and isinstance(step, int):
            return 0 <= step < len(node)  # an element's position may move in a merge
        else:
            return False
    return True
