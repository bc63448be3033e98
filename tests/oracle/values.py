"""The oracle's one encoding of Ruby values as JSON, on the Python side.

``puppet_oracle.rb`` (module ``Values``) writes and reads the same form; its header is the
reference.  In short: nil, booleans, Strings, Integers and Floats are JSON scalars (NaN and
the infinities as the bare words ``NaN`` / ``Infinity``, which both JSON libraries accept),
Arrays are JSON arrays, and everything else is a one-key tagged object:
``{"hash": [[k, v], ...]}`` (order and non-String keys kept), ``{"symbol": name}``,
``{"ruby_object": class_name, "inspect": text}``.

Comparisons go through :func:`canonical`, in which equality means "the same Ruby value":
``1``, ``1.0`` and ``true`` differ, ``-0.0`` differs from ``0.0``, any NaN equals any NaN,
hash key order counts, and an object is its class.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from hiera_ls.puppet.values import CompositeKey, RubySymbol
from hiera_ls.source.psych_scalars import RubyObject


@dataclass(frozen=True, slots=True)
class OracleObject:
    """A Ruby object that is none of the JSON-like types (decoded ``ruby_object``)."""

    class_name: str
    inspect: str


@dataclass(frozen=True, slots=True)
class UnhashableKey:
    """A decoded hash key that Python cannot hash (an Array or Hash key), kept encoded."""

    canonical: Any


def encode(value: object) -> Any:
    """Our Python value in the oracle's encoding (what Ruby's ``Values.encode`` writes)."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return str(value).encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, RubySymbol):
        return {"symbol": value.name}
    if isinstance(value, list | tuple):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {"hash": [[encode(_key(k)), encode(v)] for k, v in value.items()]}
    if isinstance(value, RubyObject):
        return {"ruby_object": value.class_name, "inspect": value.text}
    if isinstance(value, OracleObject):
        return {"ruby_object": value.class_name, "inspect": value.inspect}
    return {"ruby_object": type(value).__name__, "inspect": repr(value)}


def _key(key: object) -> object:
    if isinstance(key, CompositeKey):
        return key.value
    return key


def decode(wire: Any) -> Any:
    """The oracle's answer as Python values (``RubySymbol`` for Symbols, dicts for Hashes)."""
    if isinstance(wire, list):
        return [decode(v) for v in wire]
    if isinstance(wire, dict):
        if "symbol" in wire:
            return RubySymbol(wire["symbol"])
        if "ruby_object" in wire:
            return OracleObject(wire["ruby_object"], wire.get("inspect", ""))
        out: dict[object, object] = {}
        for k, v in wire["hash"]:
            key = decode(k)
            if isinstance(key, list | dict):
                key = UnhashableKey(canonical(k))
            out[key] = decode(v)
        return out
    return wire


def canonical(wire: Any) -> Any:
    """A hashable form of an encoded value in which ``==`` means Ruby-identical."""
    if wire is None or isinstance(wire, bool | str):
        return (type(wire).__name__, wire)
    if isinstance(wire, int):
        return ("int", wire)
    if isinstance(wire, float):
        return ("float", "nan" if math.isnan(wire) else repr(wire))
    if isinstance(wire, list):
        return ("list", tuple(canonical(v) for v in wire))
    if isinstance(wire, dict):
        if "symbol" in wire:
            return ("sym", wire["symbol"])
        if "ruby_object" in wire:
            return ("object", wire["ruby_object"])
        return ("hash", tuple((canonical(k), canonical(v)) for k, v in wire["hash"]))
    raise TypeError(f"not an encoded value: {wire!r}")
