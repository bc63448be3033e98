"""Which facts profiles get the same answer to every lookup: a class key per node.

engine/node_classes.py's classifier says when two nodes' lookups must agree (the same files
read with the same options, the same values of every variable the data interpolates).  The
checks judge one thing more: a value looked up through a variable the node lacks is not
judged (checks/class_parameters.py), and the hierarchy's paths interpolate variables too, so
the key here also says which of those variables the node has.
"""

from __future__ import annotations

from collections.abc import Hashable

from hiera_ls.engine.node_classes import (
    MISSING,
    Classifier,
    interpolated_variables,
    location_variables,
    variable,
)
from hiera_ls.project.scope import NodeScope
from hiera_ls.project.workspace import EnvironmentView, Snapshot
from hiera_ls.puppet.values import strings_in


class ProfileSignatures:
    """Class keys of nodes against one snapshot (what each file interpolates read once)."""

    def __init__(self, snapshot: Snapshot) -> None:
        self._classifier = Classifier(snapshot)
        self._variables: dict[str, tuple[str, ...]] = {}  # environment root -> hierarchy's

    def of(self, view: EnvironmentView, scope: NodeScope) -> Hashable | None:
        """The node's key in ``view``'s environment: nodes with equal keys get the same
        answers and the same findings; None: the node is a class of its own."""
        found = self._classifier.signature(view, scope)
        if found is None:
            return None
        wanted = self._variables.get(view.env.root)
        if wanted is None:
            wanted = self._variables[view.env.root] = _hierarchy_variables(view)
        return (found, tuple(_presence(scope, name) for name in wanted))


def _hierarchy_variables(view: EnvironmentView) -> tuple[str, ...]:
    """The variables the global and environment hierarchies interpolate (paths, options)."""
    found: dict[str, None] = {}
    for layer in (view.env.global_layer, view.env.environment_layer):
        config = layer.config
        if config is None:
            continue
        for entry in (*config.hierarchy, *config.default_hierarchy):
            found.update(dict.fromkeys(location_variables(entry)))
            found.update(dict.fromkeys(interpolated_variables(strings_in(entry.options, True))))
    return tuple(found)


def _presence(scope: NodeScope, name: str) -> str:
    value = variable(scope, name)
    return "absent" if value is MISSING else "undef" if value is None else "set"
