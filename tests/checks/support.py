"""Lay out an environment from a dict of files and run the checks the way the server does."""

from __future__ import annotations

import os
import textwrap
from dataclasses import dataclass
from pathlib import Path

from hiera_ls.checks.cross_file import discover_sources
from hiera_ls.checks.registry import (
    CrossFileIndex,
    DataSource,
    ProfileLookup,
    build_index,
    check_data_file,
    check_hiera_config,
    check_workspace,
)
from hiera_ls.engine.lookup import LookupSession
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.facts import node_scope
from hiera_ls.project.model import Environment
from hiera_ls.source.data_cache import DataCache
from hiera_ls.source.data_file import load_json_data, load_yaml_data
from hiera_ls.source.files import FileAccess
from hiera_ls.source.spans import Problem, Span

ENV_HIERA = """\
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: Nodes
    path: "nodes/%{trusted.certname}.yaml"
  - name: Common
    path: common.yaml
"""

MODULE_HIERA = """\
version: 5
hierarchy:
  - name: common
    path: common.yaml
"""


@dataclass
class Workspace:
    root: Path
    env: Environment
    files: FileAccess
    index: CrossFileIndex

    def path(self, rel: str) -> str:
        return str(self.root / rel)

    def source(self, rel: str) -> DataSource:
        path = self.path(rel)
        text = Path(path).read_text()
        data = load_json_data(path, text) if path.endswith(".json") else load_yaml_data(path, text)
        return DataSource(path, text, data)

    def data_problems(self, rel: str, profile: ProfileLookup | None = None) -> list[Problem]:
        return check_data_file(self.index, self.source(rel), profile)

    def config_problems(self, rel: str = "hiera.yaml") -> list[Problem]:
        path = self.path(rel)
        for layer in self.env.layers:
            if layer.config is not None and layer.config.path == path:
                return check_hiera_config(layer, Path(path).read_text(), self.files, self.index)
        raise AssertionError(f"no layer has {path}")

    def workspace_problems(self) -> dict[str, list[Problem]]:
        return check_workspace(self.index)

    def profile(
        self, facts: dict[str, object], certname: str = "web01.example.com"
    ) -> ProfileLookup:
        scope = node_scope(facts, certname, "production")
        session = LookupSession(self.env, scope, self.files, DataCache())
        return ProfileLookup(certname, lambda key: session.lookup(key))


def make_workspace(tmp_path: Path, files: dict[str, str]) -> Workspace:
    root = tmp_path / "production"
    if "hiera.yaml" not in files:
        files = {"hiera.yaml": ENV_HIERA, **files}
    for rel, text in files.items():
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(textwrap.dedent(text))
    access = FileAccess()
    env = environment_at(str(root), "production", None, access, module_dirs=ModuleDirs.MODULEPATH)
    index = build_index(env, [s.file_keys() for s in discover_sources(env, access)], access)
    return Workspace(root, env, access, index)


def brief(problems: list[Problem]) -> list[tuple[str, Span]]:
    """Code and range of each problem: what most assertions compare."""
    return [(p.code, p.where.span) for p in problems]


def codes(problems: list[Problem]) -> list[str]:
    return [p.code for p in problems]


def only(problems: list[Problem], code: str) -> list[Problem]:
    return [p for p in problems if p.code == code]


def rel(p: Problem, root: Path) -> str:
    return os.path.relpath(p.where.path, root)
