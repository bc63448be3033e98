"""What the nodes of one change group share: the facts that split a fleet for a reviewer.

A reviewer of "this key changes for 9,500 of 10,000 nodes" wants to know which nodes, in
the words of the hierarchy: the variables its paths interpolate (``facts.os.family``,
``trusted.extensions.pp_role``, ``::datacenter``) are exactly the facts that decide which
data a node reads, so they are the ones that explain a split.  A variable with a different
value for every node (the certname) or the same value for all of them explains nothing and
is left out.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from hiera_ls.project.model import Environment
from hiera_ls.project.scope import NodeScope

# %{facts.os.family}, %{::role}; never a function call (%{lookup('k')}, %{alias(...)})
_VARIABLE = re.compile(r"%\{\s*(?:::)?([A-Za-z_][\w.:]*)\s*\}")
MAX_SHARED = 3  # variables named per group


def hierarchy_variables(env: Environment) -> tuple[str, ...]:
    """The variables the environment's and the global layer's hierarchy paths interpolate,
    in hierarchy order (a mapped_paths entry's own variable is a node's list: left out)."""
    names: dict[str, None] = {}
    for layer in (env.global_layer, env.environment_layer):
        config = layer.config
        if config is None:
            continue
        for entry in config.hierarchy:
            values = entry.location.values
            texts = values[2:] if entry.location.kind == "mapped_paths" else values
            for text in texts:
                for match in _VARIABLE.finditer(text):
                    names.setdefault(match.group(1).strip(":"), None)
    return tuple(names)


def traits(scope: NodeScope, variables: Iterable[str]) -> dict[str, str]:
    """The node's value of each variable that has a scalar one, as text."""
    out: dict[str, str] = {}
    for name in variables:
        value = _dig(scope, name)
        if isinstance(value, bool):
            out[name] = "true" if value else "false"
        elif isinstance(value, str | int | float):
            out[name] = str(value)
    return out


def _dig(scope: NodeScope, name: str) -> object:
    top, *rest = name.split(".")
    value: object = scope.variables.get(top)
    for part in rest:
        if isinstance(value, Mapping):
            value = value.get(part)
        elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        else:
            return None
    return value


class Splitter:
    """Names what the nodes of a group share, among the nodes compared."""

    def __init__(self, nodes: Mapping[str, Mapping[str, str]]) -> None:
        self.nodes = nodes
        counts: dict[str, Counter[str]] = {}
        for values in nodes.values():
            for name, value in values.items():
                counts.setdefault(name, Counter())[value] += 1
        total = len(nodes)
        # variables whose values split the nodes into groups of more than one node
        self.counts = {
            name: c
            for name, c in counts.items()
            if len(c) > 1 and max(c.values()) > 1 and sum(c.values()) == total
        }

    def shared(self, group: Sequence[str]) -> tuple[tuple[str, str], ...]:
        """Up to MAX_SHARED (variable, value) pairs every node of ``group`` has, the most
        telling first: the value fewest of all the nodes share (one that all the group's
        nodes and no other has says exactly who they are)."""
        if len(group) < 2 or len(group) == len(self.nodes):
            return ()
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
