"""Lay out an environment on disk from a dict of files, and look keys up in it."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from pathlib import Path

from hiera_ls.engine.lookup import LookupOutcome, LookupSession
from hiera_ls.project.environments import ModuleDirs, environment_at
from hiera_ls.project.facts import node_scope
from hiera_ls.project.targets import DEFAULT_TARGET, Target
from hiera_ls.source.files import FileAccess

DEFAULT_HIERA = """\
version: 5
hierarchy:
  - name: Node
    path: "nodes/%{trusted.certname}.yaml"
  - name: Common
    path: common.yaml
"""


@dataclass
class Env:
    root: Path
    facts: dict[str, object]
    node: str = "web01.example.com"
    global_config: str | None = None
    target: Target = DEFAULT_TARGET
    backends: dict[str, str] = field(default_factory=dict)

    def session(self) -> LookupSession:
        files = FileAccess()
        env = environment_at(
            str(self.root),
            "production",
            self.global_config,
            files,
            module_dirs=ModuleDirs.MODULEPATH,
            backends=self.backends,
        )
        scope = node_scope(self.facts, self.node, "production", self.target)
        return LookupSession(env, scope, files)

    def lookup(self, key: str | list[str], merge: object = None, **kw: object) -> LookupOutcome:
        return self.session().lookup(key, merge, **kw)  # type: ignore[arg-type]

    def value(self, key: str, merge: object = None) -> object:
        out = self.lookup(key, merge)
        assert out.error is None, out.error
        assert out.found, f"{key} not found"
        return out.value

    def error(self, key: str, merge: object = None) -> str:
        out = self.lookup(key, merge)
        assert out.error is not None, (
            f"expected an error, got found={out.found} value={out.value!r}"
        )
        return out.error


def make_env(
    tmp: Path, files: dict[str, str], facts: dict[str, object] | None = None, **kw: object
) -> Env:
    root = tmp / "production"
    if "hiera.yaml" not in files:
        files = {"hiera.yaml": DEFAULT_HIERA, **files}
    for rel, text in files.items():
        path = root / rel if not rel.startswith("/") else Path(rel)
        if rel.startswith("GLOBAL/"):
            path = tmp / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text))
    global_config = (
        str(tmp / "GLOBAL" / "hiera.yaml") if any(r.startswith("GLOBAL/") for r in files) else None
    )
    base_facts: dict[str, object] = {"os": {"family": "Debian", "name": "Debian"}, "role": "web"}
    return Env(root, {**base_facts, **(facts or {})}, global_config=global_config, **kw)  # type: ignore[arg-type]
