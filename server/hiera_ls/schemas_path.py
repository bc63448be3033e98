"""Where the JSON Schemas live, whether hiera-ls runs from a wheel or from the repository.

Wheels carry ``schemas/`` as ``hiera_ls/schemas`` (pyproject's force-include); an editable
install or a source checkout reads ``<repository>/schemas`` directly, so the schema the
editor sees and the one the validator reads are always the same file.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

HIERA_V5 = "hiera.v5.schema.json"

_PACKAGE_DIR = Path(__file__).resolve().parent


def schemas_dir() -> Path:
    """The directory holding the schemas (installed copy first, then the repository's)."""
    installed = _PACKAGE_DIR / "schemas"
    if installed.is_dir():
        return installed
    repository = _PACKAGE_DIR.parent.parent / "schemas"  # server/hiera_ls -> repository root
    if repository.is_dir():
        return repository
    raise FileNotFoundError(f"hiera-ls schemas not found in {installed} or {repository}")


def schema_path(name: str = HIERA_V5) -> Path:
    return schemas_dir() / name


@cache
def load_schema(name: str = HIERA_V5) -> dict[str, Any]:
    """The parsed schema; cached because it never changes while the process runs.

    Callers must treat the result as read-only.
    """
    with schema_path(name).open(encoding="utf-8") as f:
        data = json.load(f)
    if not isinstance(data, dict):
        raise ValueError(f"{name}: a schema must be a JSON object")
    return data
