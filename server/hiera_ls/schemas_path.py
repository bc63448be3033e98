"""Where the files shipped beside the code live (the JSON Schemas, the diagnostics reference),
whether hiera-ls runs from a wheel or from the repository.

Wheels carry ``schemas/`` as ``hiera_ls/schemas`` and ``docs/diagnostics.md`` as
``hiera_ls/docs/diagnostics.md`` (pyproject's force-include); an editable install or a source
checkout reads the repository's copies directly, so the schema the editor sees and the one
the validator reads are always the same file.
"""

from __future__ import annotations

import json
import os
from functools import cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pathlib import Path

HIERA_V5 = "hiera.v5.schema.json"

_PACKAGE_DIR = os.path.dirname(os.path.realpath(__file__))


def shipped(relative: str) -> Path:
    """A shipped file or directory (installed copy first, then the repository's)."""
    from pathlib import Path

    return Path(_shipped(relative))


def _shipped(relative: str) -> str:
    """``shipped``'s answer as text: a lookup reads its schema without importing pathlib
    (with urllib and ipaddress, 3 ms of a cold ``hiera-ls lookup``)."""
    installed = os.path.join(_PACKAGE_DIR, relative)
    if os.path.exists(installed):
        return installed
    # server/hiera_ls -> the repository's root
    repository = os.path.join(os.path.dirname(os.path.dirname(_PACKAGE_DIR)), relative)
    if os.path.exists(repository):
        return repository
    raise FileNotFoundError(f"hiera-ls {relative} not found in {installed} or {repository}")


def schemas_dir() -> Path:
    """The directory holding the schemas."""
    return shipped("schemas")


def schema_path(name: str = HIERA_V5) -> Path:
    return schemas_dir() / name


@cache
def load_schema(name: str = HIERA_V5) -> dict[str, Any]:
    """The parsed schema; cached because it never changes while the process runs.

    Callers must treat the result as read-only.
    """
    with open(os.path.join(_shipped("schemas"), name), encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{name}: a schema must be a JSON object")
    return data
