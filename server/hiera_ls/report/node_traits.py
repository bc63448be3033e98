"""What the nodes of one change group share: the facts that split a fleet for a reviewer.

A reviewer of "this key changes for 9,500 of 10,000 nodes" wants to know which nodes, in
the words of the hierarchy: the variables its paths interpolate (``facts.os.family``,
``trusted.extensions.pp_role``, ``::datacenter``) are exactly the facts that decide which
data a node reads, so they are the ones that explain a split.  A variable with a different
value for every node (the certname) or the same value for all of them explains nothing and
is left out.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from hiera_ls.engine.node_classes import location_variables, variable
from hiera_ls.project.model import Environment
from hiera_ls.project.scope import NodeScope

MAX_SHARED = 3  # variables named per group
MAX_LISTED = 5  # items of a list a node's value may have to be named


def hierarchy_variables(env: Environment) -> tuple[str, ...]:
    """The variables the environment's and the global layer's hierarchy paths interpolate,
    in hierarchy order (of a mapped_paths entry, the variable holding the node's list)."""
    configs = [layer.config for layer in (env.global_layer, env.environment_layer)]
    return tuple(
        dict.fromkeys(
            name
            for config in configs
            if config is not None
            for entry in config.hierarchy
            for name in location_variables(entry)
        )
    )


def traits(scope: NodeScope, variables: Iterable[str]) -> dict[str, str]:
    """The node's value of each variable that has a scalar one (or a short list of them:
    ``facts.datacenters`` of a mapped_paths level), as text."""
    out: dict[str, str] = {}
    for name in variables:
        value = variable(scope, name)
        if isinstance(value, bool):
            out[name] = "true" if value else "false"
        elif isinstance(value, str | int | float):
            out[name] = str(value)
        elif (
            isinstance(value, list)
            and len(value) <= MAX_LISTED
            and all(isinstance(v, str | int | float) and not isinstance(v, bool) for v in value)
        ):
            out[name] = json.dumps(value, ensure_ascii=False)
    return out


class Splitter:
    """Names what the nodes of a group share, among the nodes compared."""

    def __init__(self, nodes: Mapping[str, Mapping[str, str]]) -> None:
        self.nodes = nodes
        counts: dict[str, Counter[str]] = {}
        for values in nodes.values():
            for name, value in values.items():
                counts.setdefault(name, Counter())[value] += 1
        total = len(nodes)
        self._said: dict[tuple[str, ...], tuple[tuple[str, str], ...]] = {}
        # variables whose values (or their absence) split the nodes, in groups of more
        # than one node
        self.counts = {
            name: c
            for name, c in counts.items()
            if (len(c) > 1 or sum(c.values()) < total) and max(c.values()) > 1
        }

    def shared(self, group: Sequence[str]) -> tuple[tuple[str, str], ...]:
        """Up to MAX_SHARED (variable, value) pairs every node of ``group`` has, the most
        telling first: the value fewest of all the nodes share (one that all the group's
        nodes and no other has says exactly who they are)."""
        if len(group) < 2 or len(group) == len(self.nodes):
            return ()
        key = tuple(group)
        if key not in self._said:  # the same nodes change together for many keys
            self._said[key] = self._shared(group)
        return self._said[key]

    def _shared(self, group: Sequence[str]) -> tuple[tuple[str, str], ...]:
        found: list[tuple[int, int, str, str]] = []
        for order, (name, counts) in enumerate(self.counts.items()):
            values = {self.nodes.get(node, {}).get(name) for node in group}
            if len(values) != 1:
                continue
            (value,) = values
            if value is not None:
                found.append((counts[value], order, name, value))
        found.sort()
        return tuple((name, value) for _, _, name, value in found[:MAX_SHARED])
