"""What a lookup searches: the three layers of one environment, as found on disk.

The project layer builds these; the engine only reads them.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hiera_ls.project.hiera_config_model import HieraConfig


class LayerKind(Enum):
    GLOBAL = "global"
    ENVIRONMENT = "environment"
    MODULE = "module"


@dataclass(frozen=True, slots=True)
class Layer:
    """One data provider: a directory that may hold a hiera.yaml.

    ``config`` is None when there is no hiera.yaml: the environment then has no data,
    a module has no data provider, and the global layer uses Puppet's built-in default.
    ``data_provider``: a module's metadata.json ``data_provider`` (deprecated), read when it
    has no hiera.yaml: ``hiera`` reads ``data/`` with Puppet's default hierarchy (then
    ``config`` is that default), ``function`` calls ``<module>::data``.
    """

    kind: LayerKind
    root: str
    config: HieraConfig | None
    module_name: str | None = None
    data_provider: str | None = None

    @property
    def unread_datadir(self) -> str | None:
        """A module's ``data`` directory when nothing reads it: no hiera.yaml and no
        metadata.json ``data_provider`` (Puppet's explain: ``Module data provider for
        module "m" not found``)."""
        if self.kind is not LayerKind.MODULE or self.config is not None or self.data_provider:
            return None
        return os.path.join(self.root, "data")

    @property
    def title(self) -> str:
        """The provider name ``--explain`` prints (without the version suffix)."""
        if self.kind is LayerKind.GLOBAL:
            return "Global Data Provider"
        if self.kind is LayerKind.ENVIRONMENT:
            return "Environment Data Provider"
        return f'Module "{self.module_name}" Data Provider'


@dataclass(frozen=True, slots=True)
class Environment:
    """``off_modulepath`` names the modules found only in a conventional directory
    (``site-modules`` ...) that the environment's modulepath lacks: Puppet would not read
    them (see ``ModuleDirs`` in project/environments.py)."""

    name: str
    root: str
    global_layer: Layer
    environment_layer: Layer
    modules: Mapping[str, Layer] = field(default_factory=dict)
    off_modulepath: frozenset[str] = frozenset()

    @property
    def layers(self) -> list[Layer]:
        """Layers in lookup order: global, environment, then modules by name."""
        return [self.global_layer, self.environment_layer, *self.modules.values()]
