"""Which environments an editor workspace holds (building each one is project/environments.py).

An operator opens a control repository (a hiera.yaml or environment.conf at the root), a
directory of environments (the ``hiera.environmentPath`` setting, or ``environments/*``),
a folder inside an environment, a module of an environment, or a single module
(metadata.json and a hiera.yaml).
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence

from hiera_ls.project.environments import (
    CONFIG_FILE,
    CONVENTIONAL_MODULE_DIRS,
    DEFAULT_ENVIRONMENT,
    ENVIRONMENT_CONF,
    MODULE_NAME,
    EnvironmentRoot,
    subdirectories,
)
from hiera_ls.source.files import FileAccess


def _is_environment(path: str, files: FileAccess) -> bool:
    return files.is_file(os.path.join(path, CONFIG_FILE)) or files.is_file(
        os.path.join(path, ENVIRONMENT_CONF)
    )


def _in_environment_module_dir(path: str, files: FileAccess) -> bool:
    """``path`` is a module in a conventional module directory of an environment."""
    moddir = os.path.dirname(path)
    return os.path.basename(moddir) in CONVENTIONAL_MODULE_DIRS and _is_environment(
        os.path.dirname(moddir), files
    )


def _environment_name(root: str, environment: str | None) -> str:
    """An environment under ``environments/`` is named by its directory, as Puppet does."""
    if os.path.basename(os.path.dirname(root)) == "environments":
        return os.path.basename(root)
    return environment or DEFAULT_ENVIRONMENT


def _enclosing_environment(root: str, files: FileAccess) -> str | None:
    """The nearest directory above ``root`` that is an environment (not a module in one).

    Editors without a project notion (eglot outside version control, a folder opened on
    ``data/``) make the file's own directory the workspace root.
    """
    here = os.path.dirname(root)
    while True:
        if _is_environment(here, files) and not _in_environment_module_dir(here, files):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _module_metadata_name(root: str, files: FileAccess) -> str | None:
    text = files.read_text(os.path.join(root, "metadata.json"))
    if text is None:
        return None
    try:
        meta = json.loads(text)
    except ValueError:
        return None
    name = meta.get("name") if isinstance(meta, dict) else None
    if not isinstance(name, str):
        return None
    short = name.replace("/", "-").split("-")[-1]
    return short if MODULE_NAME.match(short) else None


def find_environment_roots(
    roots: Sequence[str], environment_path: str | None, environment: str | None, files: FileAccess
) -> list[EnvironmentRoot]:
    found: list[EnvironmentRoot] = []
    seen: set[str] = set()

    def add(item: EnvironmentRoot) -> None:
        if item.root not in seen:
            seen.add(item.root)
            found.append(item)

    if environment_path:
        bases = (
            [environment_path]
            if os.path.isabs(environment_path)
            else [os.path.join(r, environment_path) for r in roots]
        )
        for base in bases:
            for sub in subdirectories(os.path.normpath(base)):
                if _is_environment(sub, files):
                    add(EnvironmentRoot(sub, os.path.basename(sub)))
    for root in roots:
        root = os.path.normpath(root)
        module_name = (
            None
            if files.is_file(os.path.join(root, ENVIRONMENT_CONF))
            else _module_metadata_name(root, files)
        )
        if module_name is not None:
            add(EnvironmentRoot(root, environment or DEFAULT_ENVIRONMENT, root, module_name))
        elif _in_environment_module_dir(root, files):  # a module of an environment, opened alone
            env_root = os.path.dirname(os.path.dirname(root))
            add(EnvironmentRoot(env_root, _environment_name(env_root, environment)))
        elif _is_environment(root, files):
            add(EnvironmentRoot(root, environment or DEFAULT_ENVIRONMENT))
        else:
            nested = [
                s
                for s in subdirectories(os.path.join(root, "environments"))
                if _is_environment(s, files)
            ]
            for sub in nested:
                add(EnvironmentRoot(sub, os.path.basename(sub)))
            if not nested and not any(f.root.startswith(root + os.sep) for f in found):
                enclosing = _enclosing_environment(root, files)
                if enclosing is not None:  # the editor opened a folder inside the environment
                    add(EnvironmentRoot(enclosing, _environment_name(enclosing, environment)))
                else:
                    # No hiera.yaml yet: the root is still an environment (with no data), so
                    # its modules' data works and a hiera.yaml created later is picked up.
                    add(EnvironmentRoot(root, environment or DEFAULT_ENVIRONMENT))
    return found
