"""Renders a lookup trace the way ``puppet lookup --explain`` prints it (and as data)."""

from __future__ import annotations

from collections.abc import Iterator

from hiera_ls.engine.merge import MergeStrategy
from hiera_ls.engine.trace import NO_VALUE, Event, Kind, TraceNode
from hiera_ls.puppet.ruby_text import inspect, to_s
from hiera_ls.puppet.values import Sensitive

INDENT = "  "


def render_value(value: object, indent: str = "") -> str:
    """Ruby-inspect-like, with Puppet's multi-line layout for non-empty collections."""
    if isinstance(value, Sensitive):
        return "Sensitive [value redacted]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = indent + INDENT
        rows = [f"{inner}{inspect(k)} => {render_value(v, inner)}" for k, v in value.items()]
        return "{\n" + ",\n".join(rows) + "\n" + indent + "}"
    if isinstance(value, list):
        if not value:
            return "[]"
        inner = indent + INDENT
        rows = [f"{inner}{render_value(v, inner)}" for v in value]
        return "[\n" + ",\n".join(rows) + "\n" + indent + "]"
    return inspect(value)


def _event_line(node: TraceNode, indent: str) -> str:
    key = f'"{node.key}"'
    if node.event is Event.FOUND:
        return f"Found key: {key} value: {render_value(node.value, indent)}"
    if node.event is Event.FOUND_IN_OVERRIDES:
        return f"Found key: {key} value: {render_value(node.value, indent)} in overrides"
    if node.event is Event.FOUND_IN_DEFAULTS:
        return f"Found key: {key} value: {render_value(node.value, indent)} in defaults"
    if node.event is Event.NOT_FOUND:
        return f"No such key: {key}"
    if node.event is Event.LOCATION_NOT_FOUND:
        return "Path not found"
    return ""


def render_text(root: TraceNode) -> str:
    return "\n".join(_lines(root, "")) + "\n"


def _lines(node: TraceNode, indent: str) -> Iterator[str]:
    if node.kind is Kind.SCOPE and node.label == "":
        for c in node.children:
            yield from _lines(c, indent)
        return
    inner = indent + INDENT
    kind = node.kind
    if kind is Kind.TEXT:
        if node.event is not None:
            yield indent + _event_line(node, indent)
        else:
            yield indent + node.label
        return
    if kind is Kind.ROOT or kind is Kind.META:
        yield f'{indent}Searching for "{node.label}"'
    elif kind is Kind.MERGE:
        yield f"{indent}Merge strategy {node.label}"
        strategy = node.merge
        if isinstance(strategy, MergeStrategy) and strategy.options:
            yield f"{inner}Options: {render_value(dict(strategy.options), inner)}"
    elif kind is Kind.DATA_PROVIDER:
        yield f"{indent}{node.label} (hiera configuration version {node.version})"
        if node.config_path:
            yield f'{inner}Using configuration "{node.config_path}"'
    elif kind is Kind.HIERARCHY_ENTRY:
        yield f'{indent}Hierarchy entry "{node.label}"'
    elif kind in (Kind.PATH, Kind.URI):
        word = "Path" if kind is Kind.PATH else "URI"
        yield f'{indent}{word} "{node.label}"'
        yield f'{inner}Original path: "{node.original}"'
        # as Puppet prints it: how the value was interpolated, then the value
        for c in node.children:
            yield from _lines(c, inner)
        if node.event is not None:
            yield inner + _event_line(node, inner)
        return
    elif kind is Kind.INTERPOLATE:
        yield f'{indent}Interpolation on "{node.label}"'
    elif kind is Kind.SCOPE:
        yield f"{indent}{node.label}"
    elif kind is Kind.SUB_KEY:
        yield f'{indent}Sub key: "{node.label}"'
    elif kind is Kind.SEGMENT:
        if node.event is not None:
            yield indent + _event_line(node, indent)
        return
    elif kind is Kind.INVALID_KEY:
        yield f'{indent}Invalid key "{node.label}"'
        return
    elif kind is Kind.MODULE_NOT_FOUND:
        yield f'{indent}Module "{node.label}" not found'
        return
    elif kind is Kind.MODULE_PROVIDER_NOT_FOUND:
        yield f'{indent}Module data provider for module "{node.label}" not found'
        return
    elif kind is Kind.MERGE_SOURCE:
        yield f'{indent}Using merge options from "{node.label}" hash'
        return
    for c in node.children:
        yield from _lines(c, inner)
    if kind is Kind.MERGE and node.event is Event.RESULT:
        yield f"{inner}Merged result: {render_value(node.value, inner)}"
    if kind is Kind.INTERPOLATE and node.event is Event.RESULT and node.children:
        pass


def to_data(node: TraceNode) -> dict[str, object]:
    """The tree as plain data (``--render-as json``), close to Puppet's own field names."""
    out: dict[str, object] = {"type": node.kind.value}
    if node.label:
        out["name"] = node.label
    if node.event is not None:
        out["event"] = node.event.value
        out["key"] = node.key
        if node.value is not NO_VALUE:
            out["value"] = plain_data(node.value)
    if node.original is not None:
        out["original_path"] = node.original
        out["path"] = node.label
    if node.config_path:
        out["configuration_path"] = node.config_path
    if node.where is not None:
        out["source"] = {
            "file": node.where.path,
            "line": node.where.span.start.line + 1,
            "column": node.where.span.start.column + 1,
        }
    if isinstance(node.merge, MergeStrategy):
        out["merge"] = node.merge.name
        if node.merge.options:
            out["options"] = plain_data(dict(node.merge.options))
    if node.children:
        out["branches"] = [to_data(c) for c in node.children]
    return out


def plain_data(value: object) -> object:
    """A value as JSON and YAML writers take it, as Puppet's renderers print it.

    Sensitive stays redacted, an eyaml string is written as the text it holds, and hash keys
    that are not strings become their Ruby ``to_s`` (``true``, not Python's ``True``).
    """
    if isinstance(value, Sensitive):
        return "Sensitive [value redacted]"
    if isinstance(value, str):
        return str(value)
    if isinstance(value, dict):
        return {(k if isinstance(k, str) else to_s(k)): plain_data(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain_data(v) for v in value]
    return value
