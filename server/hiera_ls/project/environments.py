"""One builder for an environment's layers: its hiera.yaml, its modules, the global hiera.yaml.

The command line and the language server both build environments here; the one thing they
may choose differently is :class:`ModuleDirs`, which directories hold modules:

- ``ModuleDirs.MODULEPATH`` is Puppet's answer: ``environment.conf``'s ``modulepath`` when it
  sets one, else ``modules`` (Puppet's default ``modules:$basemodulepath``). The CLI uses it
  unless ``--modulepath-conventional`` is given, so ``hiera-ls lookup`` answers as
  ``puppet lookup`` does.
- ``ModuleDirs.CONVENTIONAL`` searches the modulepath first, then the conventional
  ``site-modules``, ``site`` and ``modules`` directories. The language server uses it unless
  the setting ``hiera.moduleDirs`` is ``"modulepath"`` (project/settings.py), so the data of a
  control repository without ``environment.conf`` is still checked and hovered; modules
  found only this way are listed in :attr:`Environment.off_modulepath` and the hover on their
  keys says Puppet would not read them (docs/differences.md).

``$basemodulepath`` entries (and any other ``$`` setting) point outside the repository and
are skipped.  hiera.yaml files are parsed through a :class:`ConfigCache` keyed by content
stamp: rebuilding the environments after one hiera.yaml changes re-reads that file only.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum

from hiera_ls.project.backends import with_backends
from hiera_ls.project.hiera_config import load_hiera_config, unreadable_config
from hiera_ls.project.hiera_config_model import HieraConfig, LayerName, builtin_default_config
from hiera_ls.project.model import Environment, Layer, LayerKind
from hiera_ls.project.targets import DEFAULT_TARGET, Target
from hiera_ls.source.files import FileAccess, Stamp

CONFIG_FILE = "hiera.yaml"
ENVIRONMENT_CONF = "environment.conf"
MODULE_NAME = re.compile(r"^[a-z][a-z0-9_]*$")
# Puppet's modulepath without environment.conf is ``modules:$basemodulepath``.
DEFAULT_MODULEPATH = ("modules",)
# Where control repositories keep modules; ModuleDirs.CONVENTIONAL also looks here.
CONVENTIONAL_MODULE_DIRS = ("site-modules", "site", "modules")
DEFAULT_ENVIRONMENT = "production"
# Where Puppet keeps a global hiera.yaml when no setting names one: not in a workspace.
NO_GLOBAL_ROOT = os.path.join(os.sep, "nonexistent-hiera-ls-global")
_MODULEPATH_LINE = re.compile(r"^\s*modulepath\s*=\s*(.*?)\s*$")
_DATA_PROVIDER_LINE = re.compile(r"^\s*environment_data_provider\s*=\s*(.*?)\s*$")
METADATA = "metadata.json"
Backends = Mapping[str, str]  # custom function -> reader (project/backends.py)
NO_BACKENDS: Backends = {}


class ModuleDirs(Enum):
    """Which directories of an environment hold its modules."""

    MODULEPATH = "modulepath"  # Puppet's modulepath only: what `puppet lookup` reads
    CONVENTIONAL = "conventional"  # the modulepath, then site-modules, site and modules


@dataclass(frozen=True, slots=True)
class EnvironmentRoot:
    """Where an environment is; a workspace that is a single module names it too."""

    root: str
    name: str
    module_root: str | None = None
    module_name: str | None = None


@dataclass(slots=True)
class ConfigCache:
    """hiera.yaml path -> (stamp, layer name, parsed config)."""

    _entries: dict[tuple[str, str], tuple[Stamp, HieraConfig]] = field(default_factory=dict)

    def load(self, path: str, layer: LayerName, files: FileAccess) -> HieraConfig | None:
        stamp = files.stamp(path)
        if stamp is None or not files.exists(path):  # Puppet: a dangling symlink is no file
            return None
        cached = self._entries.get((path, layer))
        if cached is not None and cached[0] == stamp:
            return cached[1]
        found = files.read(path)
        if found is None:
            return None
        if found.problem is not None:
            config = unreadable_config(path, found.problem)
        else:
            config = load_hiera_config(path, found.text, layer)
        self._entries[(path, layer)] = (stamp, config)
        return config


def modulepath(env_root: str, files: FileAccess) -> list[str]:
    """Absolute module directories Puppet searches, in its order (``$`` entries skipped)."""
    text = files.read_text(os.path.join(env_root, ENVIRONMENT_CONF))
    entries: list[str] = list(DEFAULT_MODULEPATH)
    if text is not None:
        for line in text.splitlines():
            m = _MODULEPATH_LINE.match(line)
            if m:
                entries = [e for e in m.group(1).split(":") if e]
    out: list[str] = []
    for entry in entries:
        if "$" in entry:
            continue
        path = os.path.normpath(entry if os.path.isabs(entry) else os.path.join(env_root, entry))
        if path not in out:
            out.append(path)
    return out


def module_directories(env_root: str, files: FileAccess, which: ModuleDirs) -> list[str]:
    """The directories searched for modules, in order; the modulepath always comes first."""
    dirs = modulepath(env_root, files)
    if which is ModuleDirs.CONVENTIONAL:
        for name in CONVENTIONAL_MODULE_DIRS:
            path = os.path.normpath(os.path.join(env_root, name))
            if path not in dirs:
                dirs.append(path)
    return dirs


def subdirectories(path: str) -> list[str]:
    """Visible subdirectories, in name order."""
    try:
        names = sorted(os.listdir(path))
    except OSError:
        return []
    return [
        os.path.join(path, n)
        for n in names
        if not n.startswith(".") and os.path.isdir(os.path.join(path, n))
    ]


def _module_layer(
    root: str, name: str, files: FileAccess, configs: ConfigCache, backends: Backends = NO_BACKENDS
) -> Layer:
    config = configs.load(os.path.join(root, CONFIG_FILE), "module", files)
    if config is not None:
        return Layer(LayerKind.MODULE, root, with_backends(config, backends), name)
    provider = metadata_data_provider(root, files)
    if provider == "hiera":  # Puppet's default hierarchy: data/common.yaml
        return Layer(LayerKind.MODULE, root, builtin_default_config(), name, provider)
    return Layer(LayerKind.MODULE, root, None, name, provider)


def metadata_data_provider(root: str, files: FileAccess) -> str | None:
    """metadata.json's ``data_provider`` (Puppet reads it only without a hiera.yaml)."""
    text = files.read_text(os.path.join(root, METADATA))
    if text is None or "data_provider" not in text:
        return None
    try:
        metadata = json.loads(text)
    except ValueError:
        return None
    provider = metadata.get("data_provider") if isinstance(metadata, dict) else None
    return provider if isinstance(provider, str) and provider else None


def _environment_config(
    root: str, files: FileAccess, configs: ConfigCache, target: Target
) -> HieraConfig | None:
    """The environment's hiera.yaml; without one, environment.conf's
    ``environment_data_provider = hiera`` gives Puppet's default hierarchy (data/common.yaml)
    where the target still reads that setting (OpenVox 9 removed it)."""
    config = configs.load(os.path.join(root, CONFIG_FILE), "environment", files)
    if config is not None or not target.environment_data_provider:
        return config
    text = files.read_text(os.path.join(root, ENVIRONMENT_CONF)) or ""
    for line in text.splitlines():
        m = _DATA_PROVIDER_LINE.match(line)
        if m and m.group(1) == "hiera":
            return builtin_default_config()
    return None


def find_modules(
    env_root: str,
    files: FileAccess,
    configs: ConfigCache,
    which: ModuleDirs,
    backends: Backends = NO_BACKENDS,
) -> tuple[dict[str, Layer], frozenset[str]]:
    """The modules by name (the first directory holding a name wins, as in Puppet), and the
    names found only outside Puppet's modulepath."""
    on_path = modulepath(env_root, files)
    modules: dict[str, Layer] = {}
    off: set[str] = set()
    for moddir in module_directories(env_root, files, which):
        for root in subdirectories(moddir):
            name = os.path.basename(root)
            if name in modules or not MODULE_NAME.match(name):
                continue
            modules[name] = _module_layer(root, name, files, configs, backends)
            if moddir not in on_path:
                off.add(name)
    return modules, frozenset(off)


def global_layer(
    hiera_config: str | None,
    base: str,
    files: FileAccess,
    configs: ConfigCache,
    backends: Backends = NO_BACKENDS,
) -> Layer:
    """The global layer; without a hiera.yaml Puppet uses its built-in default config.

    A relative ``hiera_config`` is resolved against ``base`` (the CLI's working directory,
    the server's first workspace root).
    """
    if not hiera_config:
        return Layer(LayerKind.GLOBAL, NO_GLOBAL_ROOT, builtin_default_config())
    path = os.path.normpath(os.path.join(base, os.path.expanduser(hiera_config)))
    config = with_backends(configs.load(path, "global", files), backends)
    return Layer(
        LayerKind.GLOBAL,
        os.path.dirname(path),
        config if config is not None else builtin_default_config(),
    )


def build_environment(
    where: EnvironmentRoot,
    glob: Layer,
    files: FileAccess,
    configs: ConfigCache,
    *,
    module_dirs: ModuleDirs,
    backends: Backends = NO_BACKENDS,
    target: Target = DEFAULT_TARGET,
) -> Environment:
    """The environment at ``where``, its modules searched as ``module_dirs`` says, its custom
    levels read as ``backends`` says (project/backends.py), its settings as ``target``'s
    Puppet reads them."""
    root = os.path.normpath(os.path.abspath(where.root))
    if where.module_root is not None and where.module_name is not None:
        # A workspace that is one module: its own layer, and no environment data.
        module = _module_layer(where.module_root, where.module_name, files, configs, backends)
        env_layer = Layer(
            LayerKind.ENVIRONMENT, os.path.join(root, ".hiera-ls-no-environment"), None
        )
        return Environment(where.name, root, glob, env_layer, {where.module_name: module})
    env_config = with_backends(_environment_config(root, files, configs, target), backends)
    modules, off = find_modules(root, files, configs, module_dirs, backends)
    return Environment(
        name=where.name,
        root=root,
        global_layer=glob,
        environment_layer=Layer(LayerKind.ENVIRONMENT, root, env_config),
        modules=modules,
        off_modulepath=off,
    )


def environment_at(
    root: str,
    name: str,
    hiera_config: str | None,
    files: FileAccess,
    *,
    module_dirs: ModuleDirs,
    backends: Backends = NO_BACKENDS,
    target: Target = DEFAULT_TARGET,
) -> Environment:
    """One environment from its directory, as ``hiera-ls lookup`` reads it (a relative
    ``hiera_config`` is relative to the working directory)."""
    configs = ConfigCache()
    glob = global_layer(hiera_config, os.getcwd(), files, configs, backends)
    return build_environment(
        EnvironmentRoot(root, name),
        glob,
        files,
        configs,
        module_dirs=module_dirs,
        backends=backends,
        target=target,
    )
