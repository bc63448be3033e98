"""What the Puppet code says about a data key, for hover, definition, references and rename.

A key ``a::b::c`` sets parameter ``c`` of class ``a::b`` by automatic parameter lookup, and
code may read a key explicitly (``lookup('k')``, ``hiera('k')``); both come from the
environment's :class:`~hiera_ls.project.code_index.CodeIndex`.  These helpers keep the
features' wording and places in one spot, so hover, definition and references say the same.
"""

from __future__ import annotations

from hiera_ls.features.render import code, link, relative
from hiera_ls.project.asked_merges import AskedMerge, asked_merges
from hiera_ls.project.code_index import CodeIndex, ParameterRef
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.source.line_map import LineMap
from hiera_ls.source.manifest_model import LookupCall
from hiera_ls.source.spans import FileSpan, Span

MAX_LOOKUPS = 10  # explicit lookups listed in a hover (the rest are counted)
MAX_ASKING = 3  # calls named as asking for one merge (the rest are counted)
MAX_DOC = 1_500  # characters of a parameter's documentation shown in a hover


def code_index(snapshot: Snapshot, view: EnvironmentView | None) -> CodeIndex | None:
    """The Puppet code of ``view``'s environment (None: no code index for it)."""
    if view is None:
        return None
    return snapshot.code_index(view)


def ready_code_index(snapshot: Snapshot, view: EnvironmentView | None) -> CodeIndex | None:
    """For hover and completion, which answer at once: ``view``'s code index if it is built
    or nearly; None without an environment or while the server still reads the code."""
    if view is None:
        return None
    return snapshot.ready_code_index(view)


def parameter_of(snapshot: Snapshot, view: EnvironmentView | None, key: str) -> ParameterRef | None:
    index = code_index(snapshot, view)
    return index.parameter_for_key(key) if index is not None else None


def parameter_place(ref: ParameterRef) -> FileSpan:
    return FileSpan(ref.definition.path, ref.parameter.span)


def parameter_hover_lines(ref: ParameterRef, base: str | None) -> list[str]:
    """The class parameter a key sets: class, type, default, its ``@param`` documentation
    and a link to the manifest line."""
    p = ref.parameter
    d = ref.definition
    lines = [
        f"**Class parameter** {code('$' + p.name)} of {code(d.name)} — "
        f"{link(parameter_place(ref), base)}",
        "",
        f"- Type: {code(p.type_text) if p.type_text else '`Any` (none written)'}",
        "- Default: "
        + (
            code(_one_line(p.default_text))
            if p.default_text is not None
            else "none: the class fails to compile without a value"
        ),
    ]
    if p.doc:
        doc = p.doc.strip()
        if len(doc) > MAX_DOC:
            doc = doc[:MAX_DOC] + "…"
        lines += ["", doc]
    return lines


def _one_line(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= 80 else flat[:79] + "…"


def lookup_hover_lines(
    index: CodeIndex, key: str, base: str | None, ref: ParameterRef | None = None
) -> list[str]:
    """The explicit lookups of ``key`` in code, and the dynamic ones that may read it; not
    the parameter's own default (``$port = lookup('profile::web::port')``, said above)."""
    lines: list[str] = []
    calls = tuple(c for c in index.lookups_of(key) if ref is None or not _in_default(c, ref))
    if calls:
        lines.append(f"**Looked up in code** ({len(calls)}):")
        lines += [
            f"- `{c.function.value}()` in {link(FileSpan(c.path, c.span), base)}"
            for c in calls[:MAX_LOOKUPS]
        ]
        if len(calls) > MAX_LOOKUPS:
            lines.append(f"- … and {len(calls) - MAX_LOOKUPS} more")
    possible = index.possible_lookups_of(key) if not calls and ref is None else ()
    if possible:
        lines.append("**Possibly looked up** by a key built at run time:")
        lines += [
            f"- `{c.function.value}()` in {link(FileSpan(c.path, c.span), base)}"
            for c in possible[:MAX_LOOKUPS]
        ]
    return lines


def _in_default(call: LookupCall, ref: ParameterRef) -> bool:
    return (
        call.path == ref.definition.path
        and call.span.start.line == ref.parameter.span.start.line
        and ref.parameter.default_text is not None
        and "lookup" in ref.parameter.default_text
    )


def key_text_span(snapshot: Snapshot, call: LookupCall) -> Span | None:
    """The characters of a literal lookup's key, without its quotes (what rename replaces and
    references point at); None when the text there is not the key as written."""
    if call.key is None:
        return None
    text = snapshot.text(call.path)
    if text is None:
        return None
    lines = LineMap(text)
    start, end = lines.offset(call.span.start), lines.offset(call.span.end)
    source = text[start:end]
    if source == call.key:
        return call.span
    for quote in ("'", '"'):
        i = source.find(quote + call.key + quote)
        if i >= 0:
            first = start + i + 1
            return Span(lines.position(first), lines.position(first + len(call.key)))
    i = source.find(call.key)
    if i >= 0 and source.count(call.key) == 1:
        return Span(lines.position(start + i), lines.position(start + i + len(call.key)))
    return None


def lookup_places(snapshot: Snapshot, index: CodeIndex, key: str) -> list[FileSpan]:
    """Where code reads ``key`` literally: each call's key text."""
    out: list[FileSpan] = []
    for call in index.lookups_of(key):
        span = key_text_span(snapshot, call)
        out.append(FileSpan(call.path, span if span is not None else call.span))
    return out


def previewed_merges(
    snapshot: Snapshot, view: EnvironmentView | None, root: str
) -> tuple[AskedMerge, ...]:
    """The merges the code reads ``root`` with (project/asked_merges.py), as far as the code
    index is ready: empty while the server still reads the code, or when no code asks."""
    return asked_merges(ready_code_index(snapshot, view), root)


def merge_value(asked: tuple[AskedMerge, ...]) -> AskedMerge | None:
    """The merge a preview runs first: the first the code asks for, when it can be run."""
    return asked[0] if asked and asked[0].known and asked[0].value is not None else None


def asked_by(asked: AskedMerge, base: str | None, markdown: bool = True) -> str:
    """Who asks for the merge: ``lookup()`` (with the merge as written) at file:line, or
    automatic parameter lookup; a link in Markdown, else ``file:line``."""

    def where(call: LookupCall) -> str:
        place = FileSpan(call.path, call.span)
        if markdown:
            return link(place, base)
        return f"{relative(call.path, base)}:{call.span.start.line + 1}"

    parts: list[str] = []
    for call in asked.calls[:MAX_ASKING]:
        written = call.asked_merge.text if call.asked_merge is not None else ""
        name = f"{call.function.value}()"
        if call.merge is not None:
            name = f"{call.function.value}(…, {written})"
        parts.append(f"{code(name) if markdown else name} at {where(call)}")
    if len(asked.calls) > MAX_ASKING:
        parts.append(f"{len(asked.calls) - MAX_ASKING} more")
    if asked.parameter is not None:
        ref = asked.parameter
        target = f"{ref.definition.name}::{ref.parameter.name}"
        parts.append("automatic parameter lookup of " + (code(target) if markdown else target))
    return ", ".join(parts)
