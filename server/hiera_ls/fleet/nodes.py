"""A node of PuppetDB's inventory as the facts profile hiera-ls reads, or why it cannot be.

The profile is PuppetDB's own factset shape (``certname``, ``environment``, ``values``),
which hiera-ls already reads (project/facts.py), with the node's trusted data as the
``trusted`` fact, as PuppetDB stores it and as ``puppet lookup --facts`` takes it: a
``trusted`` hash with ``authenticated``, ``certname`` and ``extensions`` becomes
``$trusted``. One fact per line, each written compactly: a person can read the file, a
diff shows which fact changed, and writing 10,000 of them stays fast (Python's C encoder).

A node is refused, with the reason, when Puppet could not compile it either or the answer
is not a node: no certname or one Puppet never gives (empty, holding ``/``), facts that
are not a hash, a reserved variable as a fact name (``name``, ``title``: Puppet's words).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

from hiera_ls.project.facts import refused_fact


@dataclass(frozen=True, slots=True)
class NodeProfile:
    """A node of PuppetDB's answer as the facts profile file written for it."""

    certname: str
    text: bytes  # the profile file's content


@dataclass(frozen=True, slots=True)
class BrokenNode:
    """A node of PuppetDB's answer that cannot be a facts profile, and why."""

    certname: str | None  # None: the row names no usable certname
    reason: str

    def line(self) -> str:
        who = self.certname if self.certname is not None else "a node"
        return f"skipped {who}: {self.reason}"


def node_profile(row: object) -> NodeProfile | BrokenNode:
    """One inventory row (``certname``, ``environment``, ``facts``, ``trusted``)."""
    if not isinstance(row, Mapping):
        return BrokenNode(None, f"the answer holds {_kind(row)} where a node was expected")
    certname = row.get("certname")
    if not isinstance(certname, str) or not certname.strip():
        return BrokenNode(None, f"a node's certname is {_kind(certname)}, not a name")
    if "/" in certname or "\x00" in certname:
        return BrokenNode(certname, "a certname holds no '/' (Puppet refuses such a name)")
    facts = row.get("facts")
    if not isinstance(facts, Mapping):
        return BrokenNode(certname, f"its facts are {_kind(facts)}, not a hash of facts")
    refused = refused_fact(facts)
    if refused is not None:
        name, said = refused
        return BrokenNode(certname, f"it has a fact '{name}', which Puppet refuses: {said}")
    trusted = row.get("trusted")
    if trusted is not None and not isinstance(trusted, Mapping):
        return BrokenNode(certname, f"its trusted data is {_kind(trusted)}, not a hash")
    values = {k: v for k, v in facts.items() if k != "trusted"}
    given = trusted if trusted is not None else facts.get("trusted")
    if isinstance(given, Mapping):
        values["trusted"] = given
    if not values:
        return BrokenNode(certname, "PuppetDB holds no facts for it")
    environment = row.get("environment")
    return NodeProfile(certname, _text(certname, environment, values))


# one encoder for every value (json.dumps makes one a call: a third of a pull's time)
_dump = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def _text(certname: str, environment: object, values: Mapping[str, object]) -> bytes:
    dump = _dump
    lines = [
        "{",
        f'  "certname": {dump(certname)},',
        f'  "environment": {dump(environment)},',
        '  "values": {',
        ",\n".join(f"    {dump(name)}: {dump(value)}" for name, value in values.items()),
        "  }",
        "}",
        "",
    ]
    return "\n".join(lines).encode("utf-8")


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, Mapping):
        return "a hash"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"the string {json.dumps(value[:40])}"
    return f"{type(value).__name__} {json.dumps(value)}" if isinstance(value, int | float) else "?"
