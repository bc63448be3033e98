"""Finding the environments, modules and global layer of an editor workspace.

An operator opens a control repository (a hiera.yaml or environment.conf at the root), a
directory of environments (the ``hiera.environmentPath`` setting, or ``environments/*``),
or a single module (metadata.json and a hiera.yaml).  Module directories follow
environment.conf's ``modulepath`` first, as Puppet does, then the conventional
``site-modules``, ``site`` and ``modules`` directories, so data in a control repository
without environment.conf is still found.

hiera.yaml files are parsed through a cache keyed by content stamp: rebuilding the
environments after one hiera.yaml changes re-reads that file only.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field

from hiera_ls.project.environment import MODULE_NAME, environment_modulepath
from hiera_ls.project.hiera_config import (
    HieraConfig,
    LayerName,
    builtin_default_config,
    load_hiera_config,
)
from hiera_ls.project.model import Environment, Layer, LayerKind
from hiera_ls.source.files import FileAccess, Stamp

CONFIG_FILE = "hiera.yaml"
ENVIRONMENT_CONF = "environment.conf"
CONVENTIONAL_MODULE_DIRS = ("site-modules", "site", "modules")
DEFAULT_ENVIRONMENT = "production"
# Where Puppet keeps a global hiera.yaml when no setting names one: not in a workspace.
NO_GLOBAL_ROOT = os.path.join(os.sep, "nonexistent-hiera-ls-global")


@dataclass(frozen=True, slots=True)
class EnvironmentRoot:
    root: str
    name: str
    module_root: str | None = None  # set when the workspace is a single module
    module_name: str | None = None


@dataclass(slots=True)
class ConfigCache:
    """hiera.yaml path -> (stamp, layer name, parsed config)."""

    _entries: dict[tuple[str, str], tuple[Stamp, HieraConfig]] = field(default_factory=dict)

    def load(self, path: str, layer: LayerName, files: FileAccess) -> HieraConfig | None:
        stamp = files.stamp(path)
        if stamp is None or not files.is_file(path):
            return None
        cached = self._entries.get((path, layer))
        if cached is not None and cached[0] == stamp:
            return cached[1]
        text = files.read_text(path)
        if text is None:
            return None
        config = load_hiera_config(path, text, layer)
        self._entries[(path, layer)] = (stamp, config)
        return config


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


def _subdirs(path: str) -> list[str]:
    try:
        names = sorted(os.listdir(path))
    except OSError:
        return []
    return [
        os.path.join(path, n)
        for n in names
        if not n.startswith(".") and os.path.isdir(os.path.join(path, n))
    ]


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
            for sub in _subdirs(os.path.normpath(base)):
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
                s for s in _subdirs(os.path.join(root, "environments")) if _is_environment(s, files)
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


def module_dirs(env_root: str, files: FileAccess) -> list[str]:
    """environment.conf's modulepath (Puppet's order), then the conventional directories."""
    dirs = environment_modulepath(env_root, files)
    for name in CONVENTIONAL_MODULE_DIRS:
        path = os.path.normpath(os.path.join(env_root, name))
        if path not in dirs:
            dirs.append(path)
    return dirs


def find_modules(env_root: str, files: FileAccess, configs: ConfigCache) -> dict[str, Layer]:
    modules: dict[str, Layer] = {}
    for moddir in module_dirs(env_root, files):
        for root in _subdirs(moddir):
            name = os.path.basename(root)
            if name in modules or not MODULE_NAME.match(name):
                continue
            config = configs.load(os.path.join(root, CONFIG_FILE), "module", files)
            modules[name] = Layer(LayerKind.MODULE, root, config, name)
    return modules


def global_layer(
    hiera_config: str | None, roots: Sequence[str], files: FileAccess, configs: ConfigCache
) -> Layer:
    if not hiera_config:
        return Layer(LayerKind.GLOBAL, NO_GLOBAL_ROOT, builtin_default_config())
    path = os.path.expanduser(hiera_config)
    if not os.path.isabs(path) and roots:
        path = os.path.join(roots[0], path)
    path = os.path.normpath(path)
    config = configs.load(path, "global", files)
    return Layer(
        LayerKind.GLOBAL,
        os.path.dirname(path),
        config if config is not None else builtin_default_config(),
    )


def build_environment(
    item: EnvironmentRoot, glob: Layer, files: FileAccess, configs: ConfigCache
) -> Environment:
    if item.module_root is not None and item.module_name is not None:
        config = configs.load(os.path.join(item.module_root, CONFIG_FILE), "module", files)
        modules = {
            item.module_name: Layer(LayerKind.MODULE, item.module_root, config, item.module_name)
        }
        env_layer = Layer(
            LayerKind.ENVIRONMENT, os.path.join(item.root, ".hiera-ls-no-environment"), None
        )
        return Environment(item.name, item.root, glob, env_layer, modules)
    env_config = configs.load(os.path.join(item.root, CONFIG_FILE), "environment", files)
    return Environment(
        name=item.name,
        root=item.root,
        global_layer=glob,
        environment_layer=Layer(LayerKind.ENVIRONMENT, item.root, env_config),
        modules=find_modules(item.root, files, configs),
    )
