"""A data file as Puppet's ``yaml_data`` / ``json_data`` hand it to a lookup.

Loading can succeed while single keys are poisoned: Puppet validates a value only when its
top-level key is looked up, so a Ruby Symbol deep inside ``a`` breaks ``lookup('a')`` and
nothing else.  ``key_errors`` holds those per-key failures with Puppet's message; ``error``
holds what breaks every lookup that reads the file.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from hiera_ls.puppet.message import Text, as_inferred_type, as_key, as_path, as_value
from hiera_ls.puppet.ruby_text import symkeys_to_string
from hiera_ls.puppet.values import CompositeKey, RubySymbol
from hiera_ls.source import loader_rules as rules
from hiera_ls.source.files import ReadProblem
from hiera_ls.source.keys import PARAMETER_KEY
from hiera_ls.source.node_table import EMPTY_NODES, Nodes, NodeSpans, NodeTable, Path
from hiera_ls.source.psych_scalars import RubyObject
from hiera_ls.source.rules import Rule
from hiera_ls.source.spans import Details, Problem, Severity, Span
from hiera_ls.source.yaml_document import LOAD_ERROR_PREFIX, YamlDocument
from hiera_ls.source.yaml_loader import LENIENT_CODES, load_yaml, load_yaml_leniently

if TYPE_CHECKING:
    from hiera_ls.source.hocon_includes import IncludeReader


@dataclass(frozen=True, slots=True)
class DataFile:
    """A data file as a lookup reads it: its value, what Puppet raises, its ranges."""

    path: str
    data: Mapping[object, object]  # the top-level hash the lookup sees; {} when unusable
    failure: Text | None  # what Puppet raises when a lookup reads this file (``error``)
    key_errors: Mapping[object, Text]  # top-level key -> what Puppet raises when it is looked up
    nodes: Mapping[Path, NodeSpans]
    problems: tuple[Problem, ...]
    # the YAML as loaded, kept when an edit may re-parse only the entries it touched
    document: YamlDocument | None = None
    # a file Psych refuses for a class (a date, ``!ruby/regexp``): the rest of it, read past
    # those scalars, for its other diagnostics (lookups still fail with ``error``)
    readable: DataFile | None = None

    @property
    def error(self) -> str | None:
        """Puppet's error for any lookup reading the file, as plain text."""
        return self.failure.plain if self.failure is not None else None

    def on_parameter_value(self, span: Span) -> bool:
        """Whether ``span`` starts on a line of a root entry whose key is shaped like a class
        parameter's (``ntp::enable: yes``): a value the class's Puppet code may judge."""
        nodes = self.nodes
        if not isinstance(nodes, Nodes):
            return False
        return any(
            path and isinstance(path[0], str) and PARAMETER_KEY.fullmatch(path[0])
            for path, _ in nodes.covering(span.start.line)
        )


def unreadable_data(path: str, problem: ReadProblem) -> DataFile:
    """A file no lookup can read (not UTF-8, a device, too large, a symlink loop): every
    lookup that reads it fails with Puppet's message (ours where Puppet would hang)."""
    span = Span.of(problem.line, problem.column, problem.line, problem.column + 1)
    rule = rules.BY_CODE[problem.code]
    if rule is rules.FILE_INVALID_UTF8:
        # libyaml's reader errors carry no position: Psych always says line 1 column 1.
        error = Text.of(
            LOAD_ERROR_PREFIX, "(", as_path(path), f"): {problem.message} at line 1 column 1"
        )
        shown = Text.of(
            f"{problem.message} (line {problem.line + 1}, column {problem.column + 1}): "
            "Puppet refuses the whole file: ",
            error,
        )
        return DataFile(path, {}, error, {}, EMPTY_NODES, (rule.at(shown, path, span),))
    message = Text.of(problem.message)
    return DataFile(path, {}, message, {}, EMPTY_NODES, (rule.at(message, path, span),))


def load_yaml_data(path: str, text: str) -> DataFile:
    return _with_readable(_yaml_data(path, load_yaml(path, text)), text)


def load_yaml_values(path: str, text: str) -> DataFile:
    """The file as :func:`load_yaml_data` loads it, for a reader of values alone (``diff``):
    without its nodes' ranges when it loads cleanly (no problem, no failure, every top-level
    key a String, nothing Puppet validates per key), since then nothing says where a value
    is; any other file is loaded with them, as the messages about it need."""
    doc = load_yaml(path, text, positions=False)
    value = doc.value
    nodes = doc.nodes
    if (
        doc.fatal is None
        and not doc.problems
        and not doc.too_large
        and isinstance(value, dict)
        and isinstance(nodes, Nodes)
        and not (nodes.suspect or nodes.symbol_keys)
        and all(key.__class__ is str for key in value)
    ):
        return DataFile(path, value, None, {}, EMPTY_NODES, ())
    return load_yaml_data(path, text)


def reload_yaml_data(previous: DataFile, previous_text: str, text: str) -> DataFile:
    """The edited file (``previous`` was loaded from ``previous_text``), re-parsing only the
    top-level entries the edit touched when the file allows it; same answer as a full load."""
    if previous.document is None:
        return load_yaml_data(previous.path, text)
    from hiera_ls.source.yaml_reparse import reload_yaml  # the server's, after an edit

    loaded = _yaml_data(previous.path, reload_yaml(previous.document, previous_text, text))
    return _with_readable(loaded, text)


def _with_readable(data: DataFile, text: str) -> DataFile:
    refused = next((p for p in data.problems if p.code in LENIENT_CODES), None)
    if data.failure is None or refused is None or refused.text != data.failure:
        return data
    readable = _yaml_data(data.path, load_yaml_leniently(data.path, text))
    return replace(data, readable=readable)


def load_custom_yaml_data(path: str, text: str) -> DataFile:
    """A YAML file only custom backends read (no reader mapped): the function may permit
    classes yaml_data refuses (Wikimedia's ``wmflib::regex_data`` permits ``!ruby/regexp``),
    so those are read on, each noted as what yaml_data would do, not as an error."""
    loaded = _yaml_data(path, load_yaml_leniently(path, text))
    refused = [p for p in loaded.problems if p.code in LENIENT_CODES]
    problems = [p for p in loaded.problems if p.code not in LENIENT_CODES]
    if refused:  # said once, on the first such scalar
        note = Text.of(
            "Only custom backends read this file, and whether they accept this depends on their "
            "code; Puppet's yaml_data would refuse the file: ",
            refused[0].text,
        )
        problems.append(replace(refused[0], severity=Severity.INFORMATION, text=note))
    return replace(loaded, problems=tuple(problems))


def _yaml_data(path: str, doc: YamlDocument) -> DataFile:
    if doc.fatal is not None:
        return DataFile(path, {}, doc.fatal.text, {}, EMPTY_NODES, (doc.fatal,))
    value = doc.value
    problems = list(doc.problems)
    if not isinstance(value, dict):
        message = Text.of(as_path(path), ": file does not contain a valid yaml hash")
        root = doc.nodes.get(())
        span = root.value if root is not None else Span.of(0, 0, 0, 0)
        if value is None or value is False:
            # Psych gives false for an empty stream; Puppet only warns, even under strict=error.
            problems.append(rules.DATA_EMPTY_FILE.at(message, path, span))
            return DataFile(path, {}, None, {}, doc.nodes, tuple(problems))
        problems.append(rules.DATA_NOT_A_HASH.at(message, path, span))
        return DataFile(path, {}, message, {}, doc.nodes, tuple(problems))
    nodes = doc.nodes
    data: dict[object, object] = value
    if isinstance(nodes, Nodes) and nodes.symbol_keys:
        problems.extend(_symbol_key_notes(path, nodes))
        data = symkeys_to_string(value)  # type: ignore[assignment]
        nodes = _string_paths(nodes)
    key_errors: dict[object, Text] = {}
    if not isinstance(nodes, Nodes) or nodes.suspect:
        key_errors = _validate(path, "yaml_data", data, nodes, problems, doc.too_large)
    else:
        _note_unreachable(path, data, nodes, problems)
    for key, message in doc.too_large.items():
        key_errors[key.name if isinstance(key, RubySymbol) else key] = message
    document = doc if doc.outline is not None else None
    return DataFile(path, data, None, key_errors, nodes, tuple(problems), document)


def load_json_data(path: str, text: str) -> DataFile:
    from hiera_ls.source.json_loader import load_json  # (a YAML-only lookup never needs it)

    doc = load_json(path, text)
    if doc.fatal is not None:
        return DataFile(path, {}, doc.fatal.text, {}, EMPTY_NODES, (doc.fatal, *doc.problems))
    problems = list(doc.problems)
    if not isinstance(doc.value, dict):
        # Puppet's type system, imported for the files it refuses (not by every lookup)
        from hiera_ls.puppet.type_mismatch import describe_mismatch, render_text
        from hiera_ls.puppet.types import HashType

        message = Text.of(
            "Value returned from data_hash function 'json_data', when using location '",
            as_path(path),
            "', has wrong type, ",
            render_text(describe_mismatch("", HashType(), doc.value)),
        )
        root = doc.nodes.get(())
        span = root.value if root is not None else Span.of(0, 0, 0, 0)
        problems.append(rules.DATA_NOT_A_HASH.at(message, path, span))
        return DataFile(path, {}, message, {}, doc.nodes, tuple(problems))
    key_errors = _validate(path, "json_data", doc.value, doc.nodes, problems)
    return DataFile(path, doc.value, None, key_errors, doc.nodes, tuple(problems))


def load_hocon_data(path: str, text: str, includes: IncludeReader | None = None) -> DataFile:
    """``hocon_data``: keys placed by a text scan, included files read through ``includes``
    (source/hocon_data.py, source/hocon_includes.py)."""
    from hiera_ls.source.hocon_data import HoconFailure, hocon_problem, not_a_hash
    from hiera_ls.source.hocon_data import load_hocon_data as parse_hocon

    data, error, places = parse_hocon(path, text, includes)
    if error is not None or not isinstance(data, dict):
        error = error or HoconFailure(not_a_hash(path))
        problem = hocon_problem(path, error)
        return DataFile(path, {}, error.message, {}, EMPTY_NODES, (problem,))
    problems: list[Problem] = []
    key_errors = _validate(path, "hocon_data", data, places, problems)
    return DataFile(path, data, None, key_errors, places, tuple(problems))


# --------------------------------------------------------------------------- validation


def _validate(
    path: str,
    function: str,
    data: Mapping[object, object],
    nodes: Mapping[Path, NodeSpans],
    problems: list[Problem],
    too_large: Mapping[object, Text] | None = None,
) -> dict[object, Text]:
    """Puppet's validate_data_value for every top-level key, done once per file."""
    key_errors: dict[object, Text] = {}
    checked: dict[int, bool] = {}  # containers already checked (aliases share them)
    _note_unreachable(path, data, nodes, problems)
    for key, value in data.items():
        if not isinstance(key, str) or (too_large and key in too_large):
            continue
        offenders: list[tuple[Path, bool]] = []
        _find_invalid(value, (key,), checked, offenders)
        if not offenders:
            continue
        message = Text.of(
            "Value for key '",
            as_key(key),
            f"', in hash returned from data_hash function '{function}', when using location '",
            as_path(path),
            "', has wrong type, expects Puppet::LookupValue, got ",
            as_inferred_type(_safe_type_text(value)),
        )
        key_errors[key] = message
        for node_path, is_key in offenders:
            spans = nodes.get(node_path)
            if spans is None:
                continue
            rule: Rule
            if is_key:
                rule = rules.DATA_BAD_KEY_TYPE
                what = Text.of("the hash key ", as_key(_key_words(node_path[-1])))
                span = spans.key or spans.value
            else:
                rule = rules.YAML_SYMBOL_VALUE
                what = _value_words(_value_at(data, node_path))
                span = spans.value
            text = Text.of(
                "Puppet reads ", what, "; looking up '", as_key(key), "' fails: ", message
            )
            details = Details(key=key, place=_place(node_path))
            problems.append(rule.at(text, path, span, details))
    return key_errors


def _note_unreachable(
    path: str,
    data: Mapping[object, object],
    nodes: Mapping[Path, NodeSpans],
    problems: list[Problem],
) -> None:
    for key in data:
        if isinstance(key, str):
            continue
        spans = nodes.get((key,))
        if spans is not None:
            message = Text.of(
                "Puppet reads the top-level key as ",
                as_key(_key_words(key)),
                ", not a String: no lookup can find it",
            )
            problems.append(rules.DATA_UNREACHABLE_KEY.at(message, path, spans.key or spans.value))


def _find_invalid(
    value: object, at: Path, checked: dict[int, bool], out: list[tuple[Path, bool]]
) -> bool:
    """Collect the paths Puppet's RichData check rejects; True when ``value`` is valid."""
    if value is None or isinstance(value, (str, int, float)):
        return True
    if isinstance(value, RubySymbol):
        if value.name in ("default", "undef"):  # Puppet's Default and Undef accept them
            return True
        out.append((at, False))
        return False
    if isinstance(value, (list, dict)):
        known = checked.get(id(value))
        if known is not None:
            return known  # an alias of a collection checked (and reported) where it was anchored
        ok = True
        if isinstance(value, list):
            for i, item in enumerate(value):
                ok = _find_invalid(item, (*at, i), checked, out) and ok
        else:
            for k, item in value.items():
                if k is None or isinstance(k, (bool, CompositeKey, RubySymbol, RubyObject)):
                    out.append(((*at, k), True))
                    ok = False
                ok = _find_invalid(item, (*at, k), checked, out) and ok
        checked[id(value)] = ok
        return ok
    out.append((at, False))  # a RubyObject (Encoding, Class)
    return False


def _safe_type_text(value: object) -> str:
    from hiera_ls.puppet.type_format import format_type
    from hiera_ls.puppet.type_infer import infer

    try:
        return format_type(infer(value))
    except (TypeError, ValueError, RecursionError):
        return "Any"


def _value_at(data: Mapping[object, object], node_path: Path) -> object:
    current: object = data
    for step in node_path:
        if isinstance(current, dict):
            current = current.get(step)
        elif isinstance(current, list) and isinstance(step, int) and 0 <= step < len(current):
            current = current[step]
        else:
            return None
    return current


def _value_words(value: object) -> Text:
    if isinstance(value, RubySymbol):
        return Text.of("the Ruby Symbol :", as_value(value.name))
    if isinstance(value, RubyObject):
        return Text.of(f"a Ruby {value.class_name} object")
    return Text.of("a value no Hiera data can hold")


def _place(node_path: Path) -> tuple[str | int, ...]:
    """A node's path as data: keys that are not Strings (a Symbol, a Boolean) as their text."""
    return tuple(
        step if isinstance(step, (str, int)) and not isinstance(step, bool) else _key_words(step)
        for step in node_path
    )


def _key_words(key: object) -> str:
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, CompositeKey):
        return "that is a collection"
    if isinstance(key, RubySymbol):
        return f":{key.name}"
    return repr(key)


def _string_paths(nodes: Nodes) -> NodeTable:
    raw = {}
    for node_path, data in nodes.raw_items():
        raw[tuple(p.name if isinstance(p, RubySymbol) else p for p in node_path)] = data
    return NodeTable(raw, False)


def _symbol_key_notes(path: str, nodes: Nodes) -> list[Problem]:
    notes: list[Problem] = []
    for node_path in nodes:
        if node_path and isinstance(node_path[-1], RubySymbol):
            spans = nodes[node_path]
            name = node_path[-1].name
            message = Text.of(
                "Puppet reads the key `:",
                as_key(name),
                "` as the Ruby Symbol :",
                as_key(name),
                " and turns it into the String '",
                as_key(name),
                "'",
            )
            notes.append(rules.YAML_SYMBOL_KEY.at(message, path, spans.key or spans.value))
    return notes
