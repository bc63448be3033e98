"""The variables a lookup can interpolate: Puppet's top scope as ``puppet lookup`` builds it.

Facts are top-scope variables; ``facts``, ``trusted`` and friends are variables too.
``locals`` carries the binding a ``mapped_paths`` entry makes for one location only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from hiera_ls.project.targets import DEFAULT_TARGET, Target
from hiera_ls.puppet.errors import UndefinedVariable

_EMPTY: Mapping[str, object] = {}
# Puppet's built-in variables and regex match variables never raise when unset.
NEVER_UNDEFINED = frozenset({"module_name", "caller_module_name"})


@dataclass(frozen=True, slots=True)
class NodeScope:
    """The variables a node's lookups read (facts, trusted, server facts)."""

    variables: Mapping[str, object]
    target: Target = DEFAULT_TARGET  # which Puppet's defaults apply (project/targets.py)
    locals: Mapping[str, object] = field(default_factory=lambda: _EMPTY)
    error: str | None = None  # a fact set Puppet refuses: every lookup fails with this

    @property
    def strict_variables(self) -> bool:
        return self.target.strict_variables

    def with_local(self, name: str, value: object) -> NodeScope:
        return replace(self, locals={**self.locals, name: value})

    def is_defined(self, name: str) -> bool:
        if name in self.locals:
            return True
        return _top_name(name) in self.variables

    def undefined(self, name: str) -> bool:
        """Puppet would warn of (or, under strict_variables, refuse) this variable."""
        top = _top_name(name)
        return not (
            name in self.locals or top in self.variables or top in NEVER_UNDEFINED or top.isdigit()
        )

    def value(self, name: str) -> object:
        """The variable's value; None when undefined (and strict_variables is off)."""
        if name in self.locals:
            return self.locals[name]
        top = _top_name(name)
        if top in self.variables:
            return self.variables[top]
        if top in NEVER_UNDEFINED or top.isdigit():
            return None
        if self.strict_variables:
            raise UndefinedVariable(name)
        return None


def _top_name(name: str) -> str:
    return name[2:] if name.startswith("::") else name
