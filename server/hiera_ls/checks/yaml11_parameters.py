"""``yaml11-boolean`` judged by the class parameter the value feeds.

YAML 1.1 reads ``no``, ``yes``, ``on``, ``off`` as Booleans. Where nothing is known of the
value's use that is worth a note (the writer may have meant the text). Where the key is a
class parameter the code types, the type says what was meant: a ``Boolean`` parameter
(``dhcp4: no``) wants exactly what Puppet reads, so the note is noise; a parameter that takes
the text but not the Boolean (``String``, ``Enum['yes', 'no']``) gets a Boolean Puppet
refuses, so the note becomes a warning. A type taking both (or neither, or none), a key with
lookup_options (its own value is not what the class gets): the note stays as it is. A value
inside a hash or array is judged by what the type says of that part (``Hash[String,
Struct[{dhcp4 => Boolean}]]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from hiera_ls.checks.class_parameters import CodeContext, mismatches, parameter_keys
from hiera_ls.puppet.message import Text, as_value
from hiera_ls.puppet.values import value_at
from hiera_ls.source.data_file import DataFile
from hiera_ls.source.loader_rules import YAML11_BOOLEAN
from hiera_ls.source.spans import Problem, Severity, Span

if TYPE_CHECKING:
    from hiera_ls.puppet.type_mismatch import Mismatch


def judge_yaml11_booleans(
    found: Sequence[Problem],
    data: DataFile,
    text: str,
    context: CodeContext,
    module_name: str | None,
) -> list[Problem]:
    """``found`` with each ``yaml11-boolean`` note on (a part of) a class parameter's value
    dropped where the type wants the Boolean, or made a warning where it takes the text but
    refuses the Boolean; the others as they are. A part is judged by the parameter's whole
    value: what the type says of it with the Boolean, and with the text in its place."""
    notes = {p.where.span: p for p in found if p.code == YAML11_BOOLEAN.code}
    if not notes:
        return list(found)
    keys = set(parameter_keys(data, module_name))
    judged: dict[Span, Problem | None] = {}
    lines = text.splitlines()
    for node_path in data.nodes:
        if not node_path or node_path[0] not in keys:
            continue
        spans = data.nodes.get(node_path)
        if spans is None or spans.value not in notes:
            continue
        key = str(node_path[0])
        ref = context.code.parameter_for_key(key)
        word = _written(lines, spans.value)
        if ref is None or word is None or context.optioned(key):
            continue
        steps = node_path[1:]
        whole = data.data.get(key)
        boolean = value_at(whole, steps)
        if not isinstance(boolean, bool):
            continue
        refused = _about(mismatches(context.code, ref, whole), steps)
        as_text = _about(mismatches(context.code, ref, _replaced(whole, steps, word)), steps)
        if as_text and not refused:
            judged[spans.value] = None  # the type wants the Boolean Puppet reads
        elif refused and not as_text:
            from hiera_ls.puppet.type_mismatch import render_text

            message = Text.of(
                "Puppet reads `",
                as_value(word),
                f"` as the Boolean {'true' if boolean else 'false'}; ",
                render_text(refused),
                ": quote it",
            )
            note = notes[spans.value]
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


def _about(found: Sequence[Mismatch], steps: tuple[object, ...]) -> list[Mismatch]:
    """The mismatches about the value at ``steps`` or a collection holding it."""
    return [m for m in found if steps[: len(m.value_path())] == m.value_path()]


def _replaced(value: object, steps: tuple[object, ...], new: object) -> object:
    """``value`` with the part at ``steps`` replaced by ``new`` (the rest shared, not copied)."""
    if not steps:
        return new
    first, rest = steps[0], steps[1:]
    if isinstance(value, dict):
        return {k: (_replaced(v, rest, new) if k == first else v) for k, v in value.items()}
    if isinstance(value, list):
        return [_replaced(v, rest, new) if i == first else v for i, v in enumerate(value)]
    return value


def _written(lines: Sequence[str], span: Span) -> str | None:
    """The plain scalar as the file spells it (one line)."""
    if span.start.line != span.end.line or span.start.line >= len(lines):
        return None
    return lines[span.start.line][span.start.column : span.end.column] or None
