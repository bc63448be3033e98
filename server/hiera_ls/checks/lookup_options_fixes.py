"""Quick fixes of lookup_options entries: the strategy or option a word misspells, a bare
strategy made the hash Puppet wants, a key that looks like a pattern made one, a deep merge's
options written beside ``merge`` moved inside it."""

from __future__ import annotations

import re
from collections.abc import Callable

import yaml

from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.spans import Position, Problem, Span
from hiera_ls.source.text_edits import Fix, TextEdit, apply_edits, edit
from hiera_ls.source.yaml_edits import (
    entry_lines,
    mapping_with_key_at,
    nearest,
    one_line,
    word_in_span,
)

MERGE_STRATEGIES = ("first", "unique", "hash", "deep")
LOOKUP_OPTION_NAMES = ("merge", "convert_to")
# what a deep merge takes beside its strategy (Puppet's DeepMergeStrategy)
DEEP_MERGE_OPTIONS = ("knockout_prefix", "merge_hash_arrays", "sort_merged_arrays", "merge_debug")
_FLOW_UNSAFE = re.compile(r"[,\[\]{}#]|: |^[&*!|>%@`]")  # what a plain scalar cannot hold in {...}


def nearest_of(choices: tuple[str, ...]) -> Callable[[Problem, FixSource], list[Fix]]:
    """A fix that writes the choice the word under the problem most likely misspells."""

    def fix(problem: Problem, src: FixSource) -> list[Fix]:
        span, word, quote = word_in_span(problem, src)
        best = nearest(word, choices)
        if best is None or best == word:
            return []
        return [Fix(f"Write {best}", edit(span, f"{quote}{best}{quote}"), preferred=True)]

    return fix


unknown_merge = nearest_of(MERGE_STRATEGIES)
_nearest_option = nearest_of(LOOKUP_OPTION_NAMES)


def unknown_option(problem: Problem, src: FixSource) -> list[Fix]:
    """A deep merge's options moved inside ``merge``; else the option name it misspells."""
    if problem.details.option in DEEP_MERGE_OPTIONS:
        return _deep_options_inside_merge(problem, src)
    return _nearest_option(problem, src)


def _deep_options_inside_merge(problem: Problem, src: FixSource) -> list[Fix]:
    """``merge: deep`` with ``merge_hash_arrays: true`` beside it (which Puppet ignores) ->
    ``merge: {strategy: deep, merge_hash_arrays: true}``: every deep merge option of the entry
    moved in one fix, each value as written. Offered only where the result, read again,
    holds exactly that and the rest of the file is unchanged."""
    if src.json:
        return []
    found = mapping_with_key_at(src, problem.where.span.start)
    if found is None:
        return []
    mapping = found[0]
    merge: yaml.Node | None = None
    moved: list[tuple[str, str]] = []
    removed: list[Span] = []
    for i, (k, v) in enumerate(mapping.value):
        name = k.value if isinstance(k, yaml.ScalarNode) else None
        if name == "merge":
            merge = v
        elif name in DEEP_MERGE_OPTIONS:
            text = _flow_text(src, v)
            lines = entry_lines(src, mapping, i)
            if text is None or lines is None:
                return []
            moved.append((name, text))
            removed.append(lines)
    if not isinstance(merge, yaml.ScalarNode) or merge.value != "deep":
        return []
    inside = ", ".join(f"{name}: {text}" for name, text in moved)
    new = f"{{strategy: deep, {inside}}}"
    at = Span(_position(merge.start_mark), _position(merge.end_mark))
    edits = (TextEdit(at, new), *(TextEdit(span, "") for span in removed))
    if not _reads_as_moved(src.text, apply_edits(src.text, edits), problem.details.key):
        return []
    return [Fix(f"Move them inside merge: {new}", edits, preferred=True)]


def _flow_text(src: FixSource, node: yaml.Node) -> str | None:
    """The value as written, when it is a one-line scalar that reads the same in ``{...}``."""
    if not isinstance(node, yaml.ScalarNode) or node.start_mark.line != node.end_mark.line:
        return None
    text = src.at(Span(_position(node.start_mark), _position(node.end_mark)))
    if not text or (not node.style and _FLOW_UNSAFE.search(text)):
        return None
    return text


def _position(mark: yaml.Mark) -> Position:
    return Position(mark.line, mark.column)


def _reads_as_moved(before: str, after: str, key: str | None) -> bool:
    """The fixed text reads as the original with ``key``'s deep options inside its merge, and
    nothing else changed."""
    from hiera_ls.source.yaml_loader import load_yaml

    old, new = load_yaml("", before), load_yaml("", after)
    if old.fatal is not None or new.fatal is not None:
        return False
    if not isinstance(old.value, dict) or not isinstance(new.value, dict):
        return False
    wanted = dict(old.value)
    options = wanted.get("lookup_options")
    if not isinstance(options, dict):
        return False
    if key not in options:
        return False
    wanted["lookup_options"] = {**options, key: _moved(options[key])}
    return new.value == wanted


def _moved(entry: object) -> object:
    if not isinstance(entry, dict) or entry.get("merge") != "deep":
        return entry
    inside = {k: v for k, v in entry.items() if k in DEEP_MERGE_OPTIONS}
    if not inside:
        return entry
    rest = {k: v for k, v in entry.items() if k not in DEEP_MERGE_OPTIONS}
    return {**rest, "merge": {"strategy": "deep", **inside}}


def entry_ignored(problem: Problem, src: FixSource) -> list[Fix]:
    span, word, _ = word_in_span(problem, src)
    if word not in MERGE_STRATEGIES:
        return []
    new = f"{{merge: {word}}}"
    return [Fix(f"Write {new}", edit(span, new), preferred=True)]


def entry_not_hash(problem: Problem, src: FixSource) -> list[Fix]:
    span = one_line(problem)
    m = re.fullmatch(r"\[\s*(['\"]?)(\w+)\1\s*\]", src.at(span))
    if m is None or m.group(2) not in MERGE_STRATEGIES:
        return []
    new = f"{{merge: {m.group(2)}}}"
    return [Fix(f"Write {new}", edit(span, new), preferred=True)]


def literal_pattern(problem: Problem, src: FixSource) -> list[Fix]:
    span, word, quote = word_in_span(problem, src)
    if word.startswith("^"):
        return []
    new = f"{quote}^{word}{'' if word.endswith('$') else '$'}{quote}"
    return [Fix(f"Make it a pattern: {new}", edit(span, new), preferred=True)]
