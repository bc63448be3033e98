"""Which nodes to ask PuppetDB for: the user's ``--query`` turned into paged requests.

Every page asks for the same columns (``certname``, ``environment``, ``facts``,
``trusted``) ordered by certname, ``limit`` rows from ``offset``:

- no query: ``/pdb/query/v4/inventory``, every active node;
- an AST filter (``["=", "facts.os.family", "Debian"]``): the inventory endpoint with it;
- an AST ``["from", ENTITY, ...]`` query, or PQL (``inventory[certname] { facts.os.family =
  "Debian" }``, ``nodes[certname] { ... }``, ``resources[certname] { type = "Class" }``): a
  subquery that selects certnames, so any entity can choose the nodes; the columns are
  always the inventory's. The user's projection is replaced by ``[certname]``.

PuppetDB parses and checks the query itself; its answer to a query it refuses (a PQL
parse error with line and column) is what the user sees.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

INVENTORY = "/pdb/query/v4/inventory"
ROOT = "/pdb/query/v4"
COLUMNS = ("certname", "environment", "facts", "trusted")
ORDER_BY = json.dumps([{"field": "certname", "order": "asc"}], separators=(",", ":"))

# a query's own paging has no place in a subquery: the pull pages itself
_PAGING = (["order_by"], ["limit"], ["offset"], ["group_by"])
# PQL: an entity, an optional projection, then the rest (a filter in braces, paging ...)
_PQL = re.compile(r"\A\s*([a-z_]+)\s*(\[[^\]]*\])?\s*(.*)\Z", re.DOTALL)


class QueryError(ValueError):
    """A --query that is neither PQL nor a JSON AST query (said before any request)."""


@dataclass(frozen=True, slots=True)
class Query:
    """The request for one page: a path below the PuppetDB URL and its parameters."""

    path: str
    query: str | None  # the ``query`` parameter (PQL text or AST JSON), None for all nodes
    pql: str | None = None  # the user's PQL as written (it is asked for inside a subquery)

    def page(self, offset: int, limit: int) -> list[tuple[str, str]]:
        params = [] if self.query is None else [("query", self.query)]
        params += [("limit", str(limit)), ("offset", str(offset)), ("order_by", ORDER_BY)]
        return params


def parse_query(text: str | None) -> Query:
    """The paged request for ``--query`` (None or blank: every node)."""
    if text is None or not text.strip():
        return Query(INVENTORY, None)
    stripped = text.strip()
    if stripped.startswith("["):
        try:
            ast = json.loads(stripped)
        except ValueError as e:
            raise QueryError(f"--query starts with '[' but is not JSON (an AST query): {e}") from e
        return Query(INVENTORY, json.dumps(_ast_filter(ast), separators=(",", ":")))
    match = _PQL.match(stripped)
    if match is None:
        raise QueryError(
            '--query is neither PQL (inventory[certname] { facts.os.family = "Debian" }) '
            'nor a JSON AST query (["=", "facts.os.family", "Debian"])'
        )
    entity, _, rest = match.groups()
    columns = ", ".join(COLUMNS)
    wrapped = f"inventory[{columns}] {{ certname in {entity}[certname] {rest} }}"
    return Query(ROOT, wrapped, stripped)


def _ast_filter(ast: object) -> object:
    """An inventory filter as it is; a ``from`` query as a subquery selecting certnames."""
    if not isinstance(ast, list) or not ast:
        raise QueryError('an AST --query is a JSON list, such as ["=", "certname", "web01"]')
    if ast[0] != "from":
        return ast
    if len(ast) < 2 or not isinstance(ast[1], str):
        raise QueryError('an AST "from" query names its entity: ["from", "nodes", ...]')
    entity, rest = ast[1], list(ast[2:])
    if rest and isinstance(rest[0], list) and rest[0][:1] == ["extract"]:
        rest = list(rest[0][2:3])  # the user's columns go; their filter stays
    filters = [c for c in rest if isinstance(c, list) and c[:1] not in _PAGING]
    return ["in", "certname", ["from", entity, ["extract", ["certname"], *filters[:1]]]]
