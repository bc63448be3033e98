"""The libyaml parsers the YAML loader drives, each with its event classes numbered (the
loader's loop compares small integers rather than types).

PyYAML's C extension when it is importable, because its bundled libyaml is 0.2.5,
byte-for-byte the parser Psych uses; otherwise ruamel.yaml.clib's CParser, whose bundled
libyaml 0.1.7 differs on a few flow-collection corners (``[a:b]``, ``{a?b: c}``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Backend:
    name: str
    parser: Callable[[Any], Any]
    kinds: dict[type, int]
    errors: tuple[type[BaseException], ...]  # what the parser raises for bad YAML


STREAM_START, STREAM_END, DOC_START, DOC_END = 0, 1, 2, 3
SCALAR, ALIAS, SEQ_START, SEQ_END, MAP_START, MAP_END = 4, 5, 6, 7, 8, 9


def _kinds(events: Any) -> dict[type, int]:
    return {
        events.StreamStartEvent: STREAM_START,
        events.StreamEndEvent: STREAM_END,
        events.DocumentStartEvent: DOC_START,
        events.DocumentEndEvent: DOC_END,
        events.ScalarEvent: SCALAR,
        events.AliasEvent: ALIAS,
        events.SequenceStartEvent: SEQ_START,
        events.SequenceEndEvent: SEQ_END,
        events.MappingStartEvent: MAP_START,
        events.MappingEndEvent: MAP_END,
    }


def _pyyaml_backend() -> Backend | None:
    try:
        import yaml.events as pyyaml_events
        from yaml._yaml import CParser, get_version_string
        from yaml.error import YAMLError
    except ImportError:
        return None
    version = str(get_version_string())
    if not version.startswith("0.2."):
        return None
    return Backend(f"libyaml {version} (PyYAML)", CParser, _kinds(pyyaml_events), (YAMLError,))


def _ruamel_backend() -> Backend:
    from _ruamel_yaml import get_version_string  # type: ignore[import-not-found]
    from ruamel.yaml import events as ruamel_events
    from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]
    from ruamel.yaml.error import YAMLError

    version = str(get_version_string())
    return Backend(
        f"libyaml {version} (ruamel.yaml.clib)", CParser, _kinds(ruamel_events), (YAMLError,)
    )


def _backends() -> dict[str, Backend]:
    found = {"ruamel": _ruamel_backend()}
    pyyaml = _pyyaml_backend()
    if pyyaml is not None:
        found["pyyaml"] = pyyaml
    return found


BACKENDS: dict[str, Backend] = _backends()
DEFAULT_BACKEND: Backend = BACKENDS.get("pyyaml", BACKENDS["ruamel"])
