"""``yaml11-boolean`` judged by the class parameter the value feeds.

YAML 1.1 reads ``no``, ``yes``, ``on``, ``off`` as Booleans. Where nothing is known of the
value's use that is worth a note (the writer may have meant the text). Where the key is a
class parameter the code types, the type says what was meant: a ``Boolean`` parameter
(``dhcp4: no``) wants exactly what Puppet reads, so the note is noise; a parameter that takes
the text but not the Boolean (``String``, ``Enum['yes', 'no']``) gets a Boolean Puppet
refuses, so the note becomes a warning. A type taking both (or neither, or none), a key with
lookup_options (its own value is not what the class gets), a value inside a hash: the note
stays as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from hiera_ls.checks.class_parameters import CodeContext, mismatches, parameter_keys
from hiera_ls.puppet.message import Text, as_value
from hiera_ls.puppet.type_mismatch import render_text
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.loader_rules import YAML11_BOOLEAN
from hiera_ls.source.spans import Problem, Severity, Span


def judge_yaml11_booleans(
    found: Sequence[Problem],
    data: DataFile,
    text: str,
    context: CodeContext,
    module_name: str | None,
) -> list[Problem]:
    """``found`` with each ``yaml11-boolean`` note on a class parameter's value dropped (a
    Boolean parameter) or made a warning (a parameter refusing the Boolean but taking the
    text); the others as they are."""
    notes = {p.where.span: p for p in found if p.code == YAML11_BOOLEAN.code}
    if not notes:
        return list(found)
    judged: dict[Span, Problem | None] = {}
    lines = text.splitlines()
    for key in parameter_keys(data, module_name):
        value = data.data.get(key)
        spans = data.nodes.get((key,))
        if not isinstance(value, bool) or spans is None or spans.value not in notes:
            continue
        ref = context.code.parameter_for_key(key)
        if ref is None or context.optioned(key):
            continue
        word = _written(lines, spans.value)
        refused = mismatches(context.code, ref, value)
        takes_text = word is not None and not mismatches(context.code, ref, word)
        if not refused and not takes_text:
            judged[spans.value] = None  # the Boolean it wants
        elif refused and takes_text and word is not None:
            note = notes[spans.value]
            message = Text.of(
                "Puppet reads `",
                as_value(word),
                f"` as the Boolean {'true' if value else 'false'}; ",
                render_text(refused),
                ": quote it",
            )
            judged[spans.value] = replace(note, severity=Severity.WARNING, text=message)
    out: list[Problem] = []
    for p in found:
        if p.code == YAML11_BOOLEAN.code and p.where.span in judged:
            kept = judged[p.where.span]
            if kept is not None:
                out.append(kept)
        else:
            out.append(p)
    return out


def _written(lines: Sequence[str], span: Span) -> str | None:
    """The plain scalar as the file spells it (one line)."""
    if span.start.line != span.end.line or span.start.line >= len(lines):
        return None
    return lines[span.start.line][span.start.column : span.end.column] or None
