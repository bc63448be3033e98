"""Which nodes to ask PuppetDB for: the user's ``--query``, then their facts in batches.

A pull asks twice. First for the certnames the query selects, in one request (a few dozen
bytes a node); then for their facts from the inventory endpoint, ``certname`` in a batch of
names, batch after batch in certname order. PuppetDB answers an inventory page with
``limit``/``offset`` by reading the whole inventory each time (1.7 s a page at 10,000 nodes
on a loaded 2-core machine, whatever the page's size or offset), so offset paging grows
with the square of the fleet; a batch of names is read by its index.

- no query: every active node (``["extract", ["certname"]]`` on the inventory);
- an AST filter (``["=", "facts.os.family", "Debian"]``): on the inventory;
- an AST ``["from", ENTITY, ...]`` query, or PQL with any entity choosing the nodes
  (``inventory[certname] { facts.os.family = "Debian" }``, ``nodes { ... }``,
  ``resources[certname] { type = "Class" }``): at the root endpoint, its projection
  replaced by ``[certname]``.

PuppetDB parses and checks the query itself; its answer to a query it refuses (a PQL
parse error with line and column) is what the user sees.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass

INVENTORY = "/pdb/query/v4/inventory"
ROOT = "/pdb/query/v4"
ORDER_BY = [{"field": "certname", "order": "asc"}]
_PAGING = (["order_by"], ["limit"], ["offset"])  # a from query's own, kept as they are

# PQL: an entity, an optional projection, then the rest (a filter in braces, paging ...)
_PQL = re.compile(r"\A\s*([a-z_]+)\s*(\[[^\]]*\])?\s*(.*)\Z", re.DOTALL)


class QueryError(ValueError):
    """A --query that is neither PQL nor a JSON AST query (said before any request)."""


@dataclass(frozen=True, slots=True)
class Query:
    """The request for the certnames a query selects: a path below PuppetDB's URL and its
    ``query`` parameter."""

    path: str
    query: str
    pql: str | None = None  # the user's PQL as written (asked with [certname])

    def names_params(self) -> list[tuple[str, str]]:
        return [("query", self.query)]


def facts_batch(certnames: Sequence[str]) -> dict[str, object]:
    """The body of an inventory request for these nodes' facts, in certname order."""
    return {"query": ["in", "certname", ["array", list(certnames)]], "order_by": ORDER_BY}


def parse_query(text: str | None) -> Query:
    """The request for the certnames ``--query`` selects (None or blank: every node)."""
    if text is None or not text.strip():
        return Query(INVENTORY, _json(["extract", ["certname"]]))
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            ast = json.loads(stripped)
        except ValueError as e:
            raise QueryError(f"--query starts with '[' but is not JSON (an AST query): {e}") from e
        return _ast_names(ast)
    match = _PQL.match(stripped)
    if match is None:
        raise QueryError(
            '--query is neither PQL (inventory[certname] { facts.os.family = "Debian" }) '
            'nor a JSON AST query (["=", "facts.os.family", "Debian"])'
        )
    entity, _, rest = match.groups()
    return Query(ROOT, f"{entity}[certname] {rest}".rstrip(), stripped)


def _ast_names(ast: object) -> Query:
    """An inventory filter, or a ``from`` query with its columns replaced by certname."""
    if not isinstance(ast, list) or not ast:
        raise QueryError('an AST --query is a JSON list, such as ["=", "certname", "web01"]')
    if ast[0] != "from":
        return Query(INVENTORY, _json(["extract", ["certname"], ast]))
    if len(ast) < 2 or not isinstance(ast[1], str):
        raise QueryError('an AST "from" query names its entity: ["from", "nodes", ...]')
    entity, rest = ast[1], list(ast[2:])
    if rest and isinstance(rest[0], list) and rest[0][:1] == ["extract"]:
        rest = [*rest[0][2:3], *rest[1:]]  # the user's columns go; their filter stays
    filters = [c for c in rest[:1] if isinstance(c, list) and c[:1] not in _PAGING]
    paging = [c for c in rest if isinstance(c, list) and c[:1] in _PAGING]
    return Query(ROOT, _json(["from", entity, ["extract", ["certname"], *filters], *paging]))


def _json(value: object) -> str:
    return json.dumps(value, separators=(",", ":"))
