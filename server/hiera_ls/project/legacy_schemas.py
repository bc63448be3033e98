"""hiera.yaml versions 3 and 4, in the same schema subset as ``hiera.v5.schema.json``.

Both are deprecated, so they get no published schema for editors; they exist so that the
one validator reports their mistakes with Puppet's messages.  Property order follows
Puppet's types (HieraConfigV3.config_type, HieraConfigV4.config_type).
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

_NON_EMPTY: dict[str, Any] = {"type": "string", "minLength": 1}
_NON_EMPTY_OR_LIST: dict[str, Any] = {
    "anyOf": [_NON_EMPTY, {"type": "array", "items": _NON_EMPTY}],
}

V3_DEFAULTS: dict[str, Any] = {
    "backends": ["yaml"],
    "hierarchy": ["nodes/%{::trusted.certname}", "common"],
    "merge_behavior": "native",
}

_V3: dict[str, Any] = {
    "type": "object",
    "x-puppet-fill-order": [
        "version",
        "backends",
        "hierarchy",
        "merge_behavior",
        "deep_merge_options",
    ],
    "properties": {
        "version": {"type": "integer", "const": 3, "default": 3},
        "backends": {**_NON_EMPTY_OR_LIST, "default": V3_DEFAULTS["backends"]},
        "logger": _NON_EMPTY,
        "merge_behavior": {"enum": ["deep", "deeper", "native"], "default": "native"},
        "deep_merge_options": {
            "type": "object",
            "propertyNames": _NON_EMPTY,
            "additionalProperties": {"anyOf": [{"type": "string"}, {"type": "boolean"}]},
            "default": {},
        },
        "hierarchy": {**_NON_EMPTY_OR_LIST, "default": V3_DEFAULTS["hierarchy"]},
    },
    "additionalProperties": False,
}


def v3_schema(backends: Sequence[object]) -> dict[str, Any]:
    """Version 3 admits one extra hash per backend, keyed by the backend's name."""
    schema = copy.deepcopy(_V3)
    for backend in backends:
        if isinstance(backend, str) and backend and backend not in schema["properties"]:
            schema["properties"][backend] = {
                "type": "object",
                "propertyNames": _NON_EMPTY,
                "additionalProperties": {},
            }
    return schema


V4_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "version": {"type": "integer", "const": 4},
        "datadir": {**_NON_EMPTY, "default": "data"},
        "hierarchy": {
            "type": "array",
            "default": [{"name": "common", "backend": "yaml"}],
            "items": {
                "type": "object",
                "properties": {
                    "backend": _NON_EMPTY,
                    "name": _NON_EMPTY,
                    "datadir": _NON_EMPTY,
                    "path": _NON_EMPTY,
                    "paths": {"type": "array", "items": _NON_EMPTY},
                },
                "required": ["backend", "name"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["version"],
    "additionalProperties": False,
}
