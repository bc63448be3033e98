"""Keys that ``%{lookup()}``, ``%{hiera()}`` and ``%{alias()}`` tokens name: missing ones and
cycles.

A token naming a key no data file defines is not an error for Puppet: the lookup's default
is '', which is rarely what the author meant.  A cycle of such tokens is an error: Puppet's
recursion guard raises ``Recursive lookup detected in [...]``; only cycles some node can
reach are reported (:mod:`hiera_ls.project.reference_graph`).  The references themselves
come from the key index (:mod:`hiera_ls.project.key_index`).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence

from hiera_ls.checks.interpolation_fixes import ARGUMENT_QUOTE as _Q
from hiera_ls.checks.near_keys import NearKeys
from hiera_ls.project.key_index import Reference
from hiera_ls.project.level_files import LevelRef, layer_levels
from hiera_ls.project.model import Layer, LayerKind
from hiera_ls.project.reference_graph import ReferenceGraph
from hiera_ls.source.fix_source import FixSource
from hiera_ls.source.rules import Needs, Rule
from hiera_ls.source.spans import Details, Problem, Severity
from hiera_ls.source.text_edits import Fix, edit
from hiera_ls.source.yaml_edits import one_line


def _write_defined_key(problem: Problem, src: FixSource) -> list[Fix]:
    """The defined key the finding suggests, in place of the misspelt one inside the token."""
    wrong, guesses = problem.details.key, problem.details.suggestions
    span = one_line(problem)
    written = src.at(span)
    if wrong is None or not guesses or not written.startswith("%{"):
        return []
    m = re.fullmatch(
        rf"(%\{{\s*\w+\(\s*{_Q})({re.escape(wrong)})((?:\.[^'\"]*)?{_Q}\s*\)\s*\}})", written
    )
    if m is None:
        return []
    new = m.group(1) + guesses[0] + m.group(3)
    return [Fix(f"Write '{guesses[0]}'", edit(span, new), preferred=True)]


UNDEFINED_KEY = Rule(
    "reference-undefined-key",
    Severity.WARNING,
    "%{lookup('k')} / %{alias('k')} / %{hiera('k')} names a key no data file defines: Puppet "
    "gives ''",
    needs=Needs.INDEX,
    fix=_write_defined_key,
)
CYCLE = Rule(
    "reference-cycle",
    Severity.ERROR,
    "Interpolations that look each other up in a cycle: Puppet fails with Recursive lookup "
    "detected",
    needs=Needs.INDEX,
)
RULES = (UNDEFINED_KEY, CYCLE)


def check_references(
    path: str,
    references: Sequence[Reference],
    *,
    defined_keys: Collection[str] | None = None,
    known_modules: Collection[str] | None = None,
    graph: ReferenceGraph | None = None,
    unindexed: Collection[str | None] = (),
    near: NearKeys | None = None,
) -> list[Problem]:
    """Undefined targets (needs ``defined_keys``) and cycles (needs ``graph``) of one file.

    ``unindexed``: what :func:`unindexed_layers` gives; keys those layers may answer are not judged.
    ``near``: ``defined_keys`` ready for "did you mean" (made here when the first is asked).
    """
    out: list[Problem] = []
    for ref in references:
        if ref.path != path:
            continue
        if (
            defined_keys is not None
            and ref.target not in defined_keys
            and _knowable(ref.target, known_modules)
            and not _maybe_elsewhere(ref.target, unindexed)
        ):
            gives = "'' (an empty String)" if ref.method == "alias" else "''"
            if near is None:
                near = NearKeys(defined_keys)
            close = near.closest(ref.target)
            out.append(
                UNDEFINED_KEY.at(
                    f"No data file of this environment defines '{ref.target}': Puppet's "
                    f"{ref.method}('{ref.key_text}') gives {gives} here"
                    + (f". Did you mean '{close}'?" if close else ""),
                    path,
                    ref.span,
                    Details(key=ref.target, suggestions=(close,) if close else ()),
                )
            )
        if graph is not None:
            chain = graph.cycle_through(ref)
            if chain is not None:
                stack = ", ".join(chain[:-1])
                out.append(
                    CYCLE.at(
                        f"Recursive lookup: {' -> '.join(chain)}. Looking up '{chain[0]}' fails "
                        f"with: Lookup of key '{chain[0]}' failed: Recursive lookup detected in "
                        f"[{stack}]",
                        path,
                        ref.span,
                        Details(key=chain[0]),
                    )
                )
    return out


def _knowable(key: str, known_modules: Collection[str] | None) -> bool:
    """A module key can only be judged when the module's data is in the workspace."""
    if known_modules is None:
        return True
    module, sep, _rest = key.partition("::")
    return not sep or not module or module in known_modules


def unindexed_layers(
    layers: Iterable[Layer], templates: Mapping[str, Sequence[LevelRef]] | None = None
) -> frozenset[str | None]:
    """Layers with a level whose keys the index cannot know: None for the global or the
    environment layer, a module's name for its layer.

    Real hierarchies mix file levels with code: a custom ``data_hash`` function that builds
    keys from a generated file (magic_castle's ``terraform_self``), a ``lookup_key`` backend
    such as Vault, a hiera.yaml version 3, or a datadir outside the repository
    (``/etc/puppetlabs/code/hieradata``).  A key no indexed file defines may come from any
    of those, so calling it undefined would be a guess.
    """
    out: set[str | None] = set()
    for layer in layers:
        config = layer.config
        if config is None or config.path is None:
            continue
        scope = layer.module_name if layer.kind is LayerKind.MODULE else None
        own = templates.get(layer.root) if templates is not None else None
        if config.version < 4:
            out.add(scope)
            continue
        entries = (*config.hierarchy, *config.default_hierarchy)
        by_code = any(
            not e.read_by_hiera_ls for e in entries
        )  # a custom function can answer any key
        if by_code or any(
            not t.walkable for t in (own if own is not None else layer_levels(layer))
        ):
            out.add(scope)
    return frozenset(out)


def _maybe_elsewhere(key: str, unindexed: Collection[str | None]) -> bool:
    if not unindexed:
        return False
    module, sep, _rest = key.partition("::")
    return None in unindexed or (bool(sep) and module in unindexed)
