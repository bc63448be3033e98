"""The run's note where a hierarchy reads a variable that node definitions set.

``node default { $role = $trusted['extensions']['pp_role'] }`` and a level
``role/%{role}.yaml``: Puppet reads ``%{role}`` from node scope for the node's classes (tests/
differential/test_node_scope_vs_puppet_apply.py), which hiera-ls cannot evaluate; its lookups
read the facts profile's top-scope variable of that name (a fact) instead, so each profile's
answers follow the node's code only where the profile has that fact with the code's value.
Said once a run, for every environment whose hierarchy reads such a variable.
"""

from __future__ import annotations

from hiera_ls.project.workspace import Snapshot
from hiera_ls.report.node_traits import hierarchy_variables


def node_scope_notes(snapshot: Snapshot) -> tuple[str, ...]:
    out: list[str] = []
    for view in snapshot.environments:
        read = [name for name in hierarchy_variables(view.env) if not name.startswith("::")]
        if not read:
            continue
        set_in_nodes = snapshot.code_index(view).node_variables()
        names = [name for name in read if name.split(".", 1)[0] in set_in_nodes]
        if not names:
            continue
        tokens = ", ".join(f"%{{{name}}}" for name in names)
        which = "it" if len(names) == 1 else "them"
        facts = " and ".join(f"'{name.split('.', 1)[0]}'" for name in names)
        out.append(
            f"the hierarchy of {view.env.name} reads {tokens}, which node definitions set: "
            f"Puppet takes {which} from the node's code, these lookups from each facts "
            f"profile's fact {facts} (give a profile that fact to preview such a node)"
        )
    return tuple(out)
