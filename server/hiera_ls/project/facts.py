"""Facts profiles: the facts of one node, from the formats operators already have.

Accepted: a plain facts hash (what ``puppet lookup --facts`` takes, ``facter -y``,
``puppet facts show``), PuppetDB factset exports and onceover factsets
(``{"certname"|"name": ..., "values": {...}}``), and ``puppet facts find`` YAML with its
``!ruby/object:Puppet::Node::Facts`` tag.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

from hiera_ls.project.legacy_facts import facter_legacy_facts, legacy_fact
from hiera_ls.project.scope import NodeScope
from hiera_ls.project.targets import DEFAULT_TARGET, Target
from hiera_ls.source.data_file import DataFile, load_json_data, load_yaml_data, unreadable_data
from hiera_ls.source.files import ReadProblem
from hiera_ls.source.node_table import EMPTY_NODES
from hiera_ls.source.spans import Problem

_RUBY_FACTS_TAG = re.compile(r"^(---\s*)!ruby/object:Puppet::Node::Facts\s*$", re.MULTILINE)


@dataclass(frozen=True, slots=True)
class FactsProfile:
    """A node's facts as read from a profile file, with where each sits in it."""

    name: str
    path: str
    facts: Mapping[str, object]
    source: DataFile  # positions of the facts in their file (go to definition)
    key_prefix: tuple[
        object, ...
    ]  # node path of the facts hash inside ``source`` (() or ('values',))
    error: str | None = None
    # Facter's legacy facts the file has and the target's agents do not send (as_target_reads)
    left_out: tuple[str, ...] = ()
    left_out_values: tuple[object, ...] = ()  # their values in the file, in the same order

    @property
    def problems(self) -> tuple[Problem, ...]:
        return self.source.problems


def as_target_reads(profile: FactsProfile, target: Target) -> FactsProfile:
    """The profile as a node of the target's Puppet would have it: a file written by a
    Facter that sent legacy facts (``osfamily``, ``ipaddress_eth0``) is read without them
    when the target's agents do not send them (Puppet 8: ``include_legacy_facts = false``),
    so previews match what the node gets; ``left_out`` names them, for one note."""
    if target.include_legacy_facts:
        return profile
    legacy = set(facter_legacy_facts(profile.facts))
    if not legacy:
        return profile
    kept = {k: v for k, v in profile.facts.items() if k not in legacy}
    dropped = [(k, v) for k, v in profile.facts.items() if k in legacy]
    return replace(
        profile,
        facts=kept,
        left_out=tuple(k for k, _ in dropped),
        left_out_values=tuple(v for _, v in dropped),
    )


def left_out_note(profiles: Sequence[FactsProfile], target: Target) -> str | None:
    """The one note for the profiles read without their legacy facts (None: none was)."""
    trimmed = [p for p in profiles if p.left_out]
    if not trimmed:
        return None
    names = list(dict.fromkeys(name for p in trimmed for name in p.left_out))
    shown = ", ".join(names[:5]) + (" and more" if len(names) > 5 else "")
    files = ", ".join(os.path.basename(p.path) for p in trimmed[:3])
    files += f" and {len(trimmed) - 3} more" if len(trimmed) > 3 else ""
    example = legacy_fact(names[0])
    hint = f" ({names[0]} is {example.modern} now)" if example is not None else ""
    many = len(trimmed) > 1
    return (
        f"{target.title} agents do not send Facter's legacy facts, so {len(trimmed)} facts "
        f"profile{'s are' if many else ' is'} read without {shown}{hint}: {files}. "
        f"The target is {target.name} (--target)"
    )


def load_facts(
    path: str, text: str, problem: ReadProblem | None = None, positions: bool = True
) -> FactsProfile:
    """``problem``: why the file's text is not what is on disk (see ``FileAccess.read``); the
    profile then has no facts and says why, as Puppet's ``--facts`` refuses such a file.

    ``positions=False``: a JSON file is read without the place of each fact (sixty times
    faster: a fleet's profiles are read for their facts, never to jump into); one that does
    not parse is read again with them, for the error's position."""
    if problem is not None and not (problem.code == "file-invalid-utf8" and path.endswith(".json")):
        data = unreadable_data(path, problem)
        name = os.path.basename(path).rsplit(".", 1)[0]
        return FactsProfile(name, path, {}, data, (), data.error)
    quick = _json_without_positions(path, text) if not positions and problem is None else None
    if quick is not None:
        data = quick
    elif path.endswith(".json"):
        data = load_json_data(path, text)
    else:
        data = load_yaml_data(path, _RUBY_FACTS_TAG.sub(r"\1", text, count=1))
    raw: Mapping[object, object] = data.data
    prefix: tuple[object, ...] = ()
    wrapped_name: str | None = None
    values = raw.get("values")
    if isinstance(values, dict) and ("name" in raw or "certname" in raw):
        wrapped_name = str(raw.get("certname") or raw.get("name"))
        raw = values
        prefix = ("values",)
    facts = {str(k): v for k, v in raw.items()}
    name = _profile_name(facts, wrapped_name, path)
    error = data.error
    if error is None and not facts:
        error = f"{path}: no facts found"
    return FactsProfile(name, path, facts, data, prefix, error)


def _json_without_positions(path: str, text: str) -> DataFile | None:
    if not path.endswith(".json"):
        return None
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return DataFile(path, value, None, {}, EMPTY_NODES, ()) if isinstance(value, dict) else None


def _profile_name(facts: Mapping[str, object], wrapped: str | None, path: str) -> str:
    trusted = facts.get("trusted")
    if isinstance(trusted, dict) and isinstance(trusted.get("certname"), str):
        return str(trusted["certname"])
    for key in ("clientcert", "fqdn"):
        if isinstance(facts.get(key), str):
            return str(facts[key])
    if wrapped:
        return wrapped
    base = os.path.basename(path)
    return base.rsplit(".", 1)[0] if "." in base else base


RESERVED_FACTS = {
    "facts": "reserved",
    "server_facts": "reserved",
    "title": "reassign",
    "name": "reassign",
    "module_name": "reassign",
}


def refused_fact(facts: Mapping[str, object]) -> tuple[str, str] | None:
    """The first fact Puppet refuses to set as a variable, with Puppet's words; None when
    it refuses none."""
    for name, how in RESERVED_FACTS.items():
        if name in facts:
            if how == "reserved":
                return name, f"Attempt to assign to a reserved variable name: '{name}'"
            return name, f"Cannot reassign variable '${name}'"
    return None


def node_scope(
    facts: Mapping[str, object],
    certname: str | None,
    environment: str,
    target: Target = DEFAULT_TARGET,
    authenticated: str = "local",
    server_facts: Mapping[str, object] | None = None,
) -> NodeScope:
    """The top scope a compilation gives Hiera (docs/puppet-lookup-scope.md).

    ``trusted`` follows an agent run: its certname is the node's name (``puppet lookup``
    itself takes it from the ``clientcert`` fact; tools pass both the same).
    ``authenticated`` is ``local`` as in ``puppet lookup``; the language server passes
    ``remote``, as a real agent run has.  ``server_facts`` is what a catalog compile gives
    (``puppet apply``, an agent run): the environment's name, plus the server's own facts
    when known (``servername``, ``serverip``, ``serverversion``); ``puppet lookup`` alone
    gives ``{}``, a known Puppet gap that would make previews read the wrong files.
    """
    facts = dict(facts)
    refused = refused_fact(facts)
    if refused is not None:
        return NodeScope({}, target, error=refused[1])
    cert = certname if certname is not None else facts.get("clientcert")
    hostname: object = None
    domain: object = None
    if isinstance(cert, str):
        hostname, dot, rest = cert.partition(".")
        domain = rest if dot else None
    trusted: object = {
        "authenticated": authenticated,
        "certname": cert,
        "extensions": {},
        "hostname": hostname,
        "domain": domain,
        "external": {},
    }
    given = facts.get("trusted")
    if isinstance(given, dict) and {"authenticated", "certname", "extensions"} <= set(given):
        trusted = given
    variables: dict[str, object] = {
        k: v for k, v in facts.items() if k not in ("environment", "trusted")
    }
    variables.update(
        {
            "environment": environment,
            "trusted": trusted,
            "server_facts": {**(server_facts or {}), "environment": environment},
            "facts": facts,
            "module_name": "",
            "title": "main",
            "name": "main",
        }
    )
    return NodeScope(variables, target)
