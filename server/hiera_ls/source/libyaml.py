"""The libyaml parsers the YAML loader can drive, and where each reads unlike Psych's.

Puppet loads YAML with Psych on libyaml 0.2.5. PyYAML's C extension bundles a libyaml 0.2.x
(0.2.5 up to PyYAML 6.0.3; 0.2.6 in 6.0.4); ruamel.yaml.clib bundles 0.1.7, which differs from
0.2.5 on a few flow-collection corners (``[a:b]``, ``{a?b: c}``). The loader drives PyYAML's
when it is there, else ruamel's.

libyaml 0.2.6 reads two things otherwise than 0.2.5, and the loader gives 0.2.5's answer
whichever libyaml the wheel bundles: it lifts 0.2.6's bound of 1,000 nested collections (the
bound that counts is MAX_DEPTH, Puppet's), and a file it reads unlike 0.2.5 (the bound's error,
where a build cannot lift it; ``?`` closed at once by ``]`` in a flow sequence, which 0.2.6 reads
as an empty pair and 0.2.5 refuses) goes to the backend's ``fallback``, ruamel's libyaml, whose
parser is 0.2.5's there. Whether a libyaml reads ``[ ? ]`` is asked at start-up, not inferred
from its version. ``tests/source/test_psych_answers.py`` checks the installed libyaml
against Puppet's recorded answers.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import cache
from typing import Any

__all__ = [
    "DEFAULT_BACKEND",
    "MAX_DEPTH",
    "NESTING_BOUND_ERROR",
    "Backend",
    "backends",
]

# Collections nested deeper than this: the file is refused as Puppet refuses it (Ruby's
# stack runs out in Psych: "stack level too deep"; Puppet 7.23 loads 1,296 levels of flow
# lists and 1,000 of block mappings, and fails a few levels further).
MAX_DEPTH = 1_500


@dataclass(frozen=True, slots=True)
class Backend:
    """One libyaml parser: its event classes, its errors, and what it reads unlike 0.2.5."""

    name: str
    parser: Callable[[Any], Any]
    kinds: dict[type, int]
    errors: tuple[type[BaseException], ...]  # what the parser raises for bad YAML
    ends_bare_key: bool = False  # it reads ``[ ? ]`` (an empty pair), which 0.2.5 refuses
    # what reads a file this libyaml reads unlike 0.2.5: ``[ ? ]`` where it reads that, and
    # collections nested past a bound of its own that it could not lift (NESTING_BOUND_ERROR);
    # made when first needed (ruamel.yaml's import costs a cold ``hiera-ls lookup`` a tenth)
    fallback: Callable[[], Backend] | None = None


# The loader's numbers for libyaml's events (both extensions have classes of their own)
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


# libyaml 0.2.6 refuses collections nested past 1,000 levels unless told otherwise (a process-
# wide setting, which PyYAML 6.0.4 on exposes); 0.2.5 has no bound and Puppet loads deeper data.
# Its error (worded by the libyaml in PyYAML 6.0.4, or by libyaml's own 0.2.6 sources):
_NO_NESTING_BOUND = 2**31 - 1
NESTING_BOUND_ERROR = re.compile(r"maximum nesting (?:depth|level)", re.IGNORECASE)


def _lift_nesting_bound(extension: object) -> None:
    setter = getattr(extension, "_set_max_nest_level", None)
    if callable(setter):
        setter(_NO_NESTING_BOUND)


def _backend(
    name: str, parser: Callable[[Any], Any], events: Any, error: type[BaseException]
) -> Backend:
    """A backend, asked whether it reads ``[ ? ]`` (0.2.5 refuses it)."""
    try:
        probe = parser(b"[ ? ]\n")
        while probe.get_event() is not None:
            pass
    except error:
        return Backend(name, parser, _kinds(events), (error,))
    return Backend(name, parser, _kinds(events), (error,), ends_bare_key=True)


def _pyyaml_backend() -> Backend | None:
    try:
        import yaml._yaml as extension
        import yaml.events as pyyaml_events
        from yaml._yaml import CParser, get_version_string
        from yaml.error import YAMLError
    except ImportError:
        return None
    version = str(get_version_string())
    if not version.startswith("0.2."):
        return None
    _lift_nesting_bound(extension)
    return _backend(f"libyaml {version} (PyYAML)", CParser, pyyaml_events, YAMLError)


@cache
def _ruamel_backend() -> Backend:
    import _ruamel_yaml as extension  # type: ignore[import-not-found]
    from ruamel.yaml import events as ruamel_events
    from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]
    from ruamel.yaml.error import YAMLError

    _lift_nesting_bound(extension)
    version = str(extension.get_version_string())
    return _backend(f"libyaml {version} (ruamel.yaml.clib)", CParser, ruamel_events, YAMLError)


def _default_backend() -> Backend:
    pyyaml = _pyyaml_backend()
    if pyyaml is None:
        return _ruamel_backend()
    return replace(pyyaml, fallback=_ruamel_backend)


def backends() -> dict[str, Backend]:
    """Every backend this installation has, by name (ruamel's imported here)."""
    found = {"ruamel": _ruamel_backend()}
    if DEFAULT_BACKEND.fallback is not None:
        found["pyyaml"] = DEFAULT_BACKEND
    return found


DEFAULT_BACKEND: Backend = _default_backend()
