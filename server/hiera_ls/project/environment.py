"""Finds an environment's layers on disk: its hiera.yaml, its modules, the global hiera.yaml.

Module directories come from ``environment.conf``'s ``modulepath`` when it has one (control
repositories often use ``site-modules:modules``), else ``modules``, as Puppet does;
``$basemodulepath`` entries point outside the repository and are skipped.
"""

from __future__ import annotations

import os
import re

from hiera_ls.project.hiera_config import HieraConfig, builtin_default_config, load_hiera_config
from hiera_ls.project.model import Environment, Layer, LayerKind
from hiera_ls.source.files import FileAccess

CONFIG_FILE = "hiera.yaml"
MODULE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
DEFAULT_MODULEPATH = ("modules",)


def environment_modulepath(env_root: str, files: FileAccess) -> list[str]:
    """Absolute module directories of the environment, in Puppet's search order."""
    text = files.read_text(os.path.join(env_root, "environment.conf"))
    entries: list[str] = list(DEFAULT_MODULEPATH)
    if text is not None:
        for line in text.splitlines():
            m = re.match(r"^\s*modulepath\s*=\s*(.*?)\s*$", line)
            if m:
                entries = [e for e in m.group(1).split(":") if e]
    out: list[str] = []
    for entry in entries:
        if "$" in entry:
            continue
        path = entry if os.path.isabs(entry) else os.path.join(env_root, entry)
        out.append(os.path.normpath(path))
    return out


def _load_config(path: str, layer: str, files: FileAccess) -> HieraConfig | None:
    text = files.read_text(path)
    if text is None:
        return None
    return load_hiera_config(path, text, layer)  # type: ignore[arg-type]


def find_modules(env_root: str, files: FileAccess) -> dict[str, Layer]:
    modules: dict[str, Layer] = {}
    for moddir in environment_modulepath(env_root, files):
        try:
            names = sorted(os.listdir(moddir))
        except OSError:
            continue
        for name in names:
            root = os.path.join(moddir, name)
            if name in modules or not MODULE_NAME.match(name) or not os.path.isdir(root):
                continue
            config = _load_config(os.path.join(root, CONFIG_FILE), "module", files)
            modules[name] = Layer(LayerKind.MODULE, root, config, name)
    return modules


def global_layer(hiera_config: str | None, files: FileAccess) -> Layer:
    """The global layer; without a hiera.yaml Puppet uses its built-in default config."""
    if hiera_config is None:
        # No global hiera.yaml named: Puppet's default config over a directory with no data.
        root = os.path.join(os.sep, "nonexistent-hiera-ls-global")
        return Layer(LayerKind.GLOBAL, root, builtin_default_config())
    path = os.path.abspath(hiera_config)
    root = os.path.dirname(path)
    config = _load_config(path, "global", files)
    return Layer(LayerKind.GLOBAL, root, config if config is not None else builtin_default_config())


def load_environment(
    env_root: str, name: str, hiera_config: str | None, files: FileAccess
) -> Environment:
    env_root = os.path.abspath(env_root)
    env_config = _load_config(os.path.join(env_root, CONFIG_FILE), "environment", files)
    return Environment(
        name=name,
        root=env_root,
        global_layer=global_layer(hiera_config, files),
        environment_layer=Layer(LayerKind.ENVIRONMENT, env_root, env_config),
        modules=find_modules(env_root, files),
    )
