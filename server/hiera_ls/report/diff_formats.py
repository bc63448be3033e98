"""``hiera-ls diff``'s reports: text for a terminal, JSON for programs, Markdown for a
pull-request comment (a table per changed key).  Values are the masked ones
(:mod:`hiera_ls.report.diff`); text and Markdown shorten them."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

from hiera_ls.display_text import json_text, md_cell, md_code, md_escape, visible
from hiera_ls.report.diff_result import Answer, DiffResult, KeyChange
from hiera_ls.report.indented_json import dumps_indented

SHORT = 60  # characters of a value shown in text and Markdown
TEXT_NAMES = 3  # profiles named in text before "and N more"


# json.dumps(value, ensure_ascii=False, separators=(", ", ": ")), its encoder made once (a
# text report of thousands of profiles encodes hundreds of thousands of parts of values)
_json: Callable[[object], str] = json.JSONEncoder(
    ensure_ascii=False, separators=(", ", ": ")
).encode


def _short(answer: Answer, other: Answer) -> str:
    """The answer in at most SHORT characters; of a hash too long for that, when the other
    side is a hash too, only the entries that differ (``{…, "port": 22}``), down through
    nested hashes (``{…, "ssh": {…, "port": 22}}``), so the two sides never read alike."""
    if answer.state == "missing":
        return "(not found)"
    if answer.state == "error":
        text = f"(error: {answer.shown})"
    else:
        text = _json(answer.shown)
        mine, theirs = answer.shown, other.shown
        if len(text) > SHORT and other.state == "value":
            text = _differing(mine, theirs, text)
    return text if len(text) <= SHORT else text[: SHORT - 1] + "…"


def _differing(mine: object, theirs: object, text: str | None = None, room: int = SHORT) -> str:
    """``mine`` as JSON (``text``, when known); or, a hash of more than SHORT characters
    against a hash, its entries that differ, the same way down.  Only its first ``room``
    characters are shown: what follows is not made (the text is then cut somewhere past
    ``room``, never at or before it)."""
    text = _json(mine) if text is None else text
    if len(text) <= SHORT or not isinstance(mine, dict) or not isinstance(theirs, dict):
        return text
    other: dict[object, object] = theirs
    texts: dict[object, str] = {}  # mine's entries as JSON
    flags: dict[object, bool] = {}  # whether each entry differs from theirs

    def changed(key: object) -> bool:
        found = flags.get(key)
        if found is None:
            if key in other:
                texts[key] = _json(mine[key])
                found = texts[key] != _json(other[key])
            else:
                found = True
            flags[key] = found
        return found

    some_same = not all(changed(key) for key in mine)
    pieces = ["{…" if some_same else "{"]
    length, first = len(pieces[0]), True
    for key in mine:
        if length > room:
            return "".join(pieces)  # (cut past ``room``)
        if not changed(key):
            continue
        head = ("" if first and not some_same else ", ") + _json(key) + ": "
        inner = _differing(mine[key], other.get(key), texts.get(key), room - length - len(head))
        pieces.append(head + inner)
        length += len(head) + len(inner)
        first = False
    pieces.append("}")
    return "".join(pieces)


def _names(profiles: Sequence[str], total: int, shown: int) -> str:
    if len(profiles) == total and total > 1:
        return f"all {total:,} profiles"
    named = ", ".join(profiles[:shown])
    rest = len(profiles) - shown
    return f"{named} and {rest:,} more" if rest > 0 else named


def _title(change: KeyChange, result: DiffResult) -> str:
    several = len(result.environments) > 1
    return f"{change.environment}: {change.key}" if several else change.key


def _summary(result: DiffResult) -> str:
    n, keys, profiles = len(result.changes), result.keys, len(result.profiles)
    return (
        f"{n} of {keys} key{'s' * (keys != 1)} change{'s' * (n == 1)} "
        f"for {profiles} profile{'s' * (profiles != 1)} ({result.base} -> {result.head})"
    )


def text(result: DiffResult) -> str:
    """For a terminal or a CI log: control characters in keys and values as escapes."""
    lines: list[str] = _outside_notes(result, lambda note: visible(note, one_line=True))
    total = len(result.profiles)
    for change in result.changes:
        lines.append(visible(_title(change, result), one_line=True))
        for group in change.groups:
            who = _names(group.profiles, total, TEXT_NAMES)
            lines.append(
                visible(
                    f"  {who}: {_short(group.before, group.after)} -> "
                    f"{_short(group.after, group.before)}",
                    one_line=True,
                )
            )
        lines.append("")
    if not result.changes:
        return "".join(line + "\n" for line in lines) + f"No changes: {_summary(result)}\n"
    lines.append(_summary(result))
    return "\n".join(lines) + "\n"


def as_json(result: DiffResult) -> str:
    data = {
        "base": result.base,
        "head": result.head,
        "profiles": list(result.profiles),
        "keys": result.keys,
        "outside": list(result.outside),
        "changes": [
            {
                "environment": change.environment,
                "key": change.key,
                "groups": [
                    {
                        "profiles": list(group.profiles),
                        "shared": dict(group.shared),
                        "before": group.before.as_data(),
                        "after": group.after.as_data(),
                    }
                    for group in change.groups
                ],
            }
            for change in result.changes
        ],
    }
    return json_text(dumps_indented(data)) + "\n"


MARKDOWN_BUDGET = 60_000  # characters: GitHub refuses a comment over 65,536
MARKDOWN_ROWS = 10  # groups shown per key
MARKDOWN_EXAMPLES = 3  # nodes named per group


def markdown(result: DiffResult, budget: int = MARKDOWN_BUDGET) -> str:
    """For a pull-request comment: each changed key, then its groups of nodes, each with how
    many they are, a few examples and the facts they share, the biggest group first; cut to
    ``budget`` characters with what was left out said.  Every key, value, node name and
    revision is escaped or in a code span longer than any backtick run inside it."""
    head = md_code(result.head) if result.head != "working tree" else "the working tree"
    lines = [f"### hiera-ls diff: {md_code(result.base)} → {head}", ""]
    lines += _outside_notes(result, md_escape)
    if not result.changes:
        lines.append(f"No changes: {md_escape(_summary(result))}.")
        return "\n".join(lines) + "\n"
    lines.append(f"{md_escape(_summary(result))}.")
    used = sum(len(line) + 1 for line in lines)
    for shown, change in enumerate(result.changes):
        section = _markdown_change(change, result)
        size = sum(len(line) + 1 for line in section)
        if used + size > budget - 200:  # room for the last line
            left = len(result.changes) - shown
            lines += [
                "",
                f"…and {left:,} more changed key{'s' * (left != 1)}: "
                "`hiera-ls diff` lists them all.",
            ]
            break
        lines += section
        used += size
    return "\n".join(lines) + "\n"


def _markdown_change(change: KeyChange, result: DiffResult) -> list[str]:
    total = len(result.profiles)
    groups = sorted(change.groups, key=lambda g: -len(g.profiles))
    nodes = sum(len(g.profiles) for g in groups)
    count = f"{nodes:,} of {total:,} profile{'s' * (total != 1)}"
    lines = ["", f"#### {md_code(_title(change, result))}: {count}", ""]
    lines += ["| Profiles | They share | Before | After |", "| --- | --- | --- | --- |"]
    for group in groups[:MARKDOWN_ROWS]:
        who = md_escape(_names(group.profiles, total, MARKDOWN_EXAMPLES))
        if 1 < len(group.profiles) < total:
            who = f"{len(group.profiles):,}: {who}"
        share = ", ".join(f"{md_code(name)} = {md_code(value)}" for name, value in group.shared)
        before = md_cell(_short(group.before, group.after))
        after = md_cell(_short(group.after, group.before))
        lines.append(f"| {who} | {share} | {before} | {after} |")
    rest = groups[MARKDOWN_ROWS:]
    if rest:
        left = sum(len(g.profiles) for g in rest)
        lines.append(f"| …and {len(rest):,} more groups ({left:,} profiles) | | | |")
    return lines


def _outside_notes(result: DiffResult, shown: Callable[[str], str]) -> list[str]:
    """Which levels read data from outside the repository (their values are masked)."""
    if not result.outside:
        return []
    return [*(f"Note: {shown(note)}" for note in result.outside), ""]


DIFF_FORMATS: dict[str, Callable[[DiffResult], str]] = {
    "text": text,
    "json": as_json,
    "markdown": markdown,
}
