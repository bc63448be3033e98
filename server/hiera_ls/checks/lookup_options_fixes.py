"""Quick fixes of lookup_options entries: the strategy or option a word misspells, a bare
strategy made the hash Puppet wants, a key that looks like a pattern made one."""

from __future__ import annotations

import re
from collections.abc import Callable

from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.spans import Problem
from hiera_ls.source.text_edits import Fix, edit
from hiera_ls.source.yaml_edits import nearest, one_line, word_in_span

MERGE_STRATEGIES = ("first", "unique", "hash", "deep")
LOOKUP_OPTION_NAMES = ("merge", "convert_to")


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
unknown_option = nearest_of(LOOKUP_OPTION_NAMES)


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
