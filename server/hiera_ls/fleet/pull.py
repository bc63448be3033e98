"""Facts profiles from PuppetDB: page through the inventory, write one profile per node.

Pages of ``PAGE_SIZE`` nodes are fetched one at a time over one kept-alive connection and
each node's profile goes to the new directory as it arrives, so memory holds one page, not
the fleet. The directory is replaced only once every page has arrived
(hiera_ls.fleet.store); any failure before that is a :class:`PuppetDBError` or
:class:`FleetConfigError` and changes nothing on disk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from hiera_ls.fleet.config import FleetConfigError, PuppetDBConfig
from hiera_ls.fleet.connection import Connection, PuppetDBError
from hiera_ls.fleet.nodes import BrokenNode, NodeProfile, node_profile
from hiera_ls.fleet.query import ROOT, Query, QueryError, parse_query
from hiera_ls.fleet.store import PullSummary, write_profiles
from hiera_ls.fleet.tls import TLSFileError, client_context

PAGE_SIZE = 500
BAD_REQUEST = 400


def pull(
    config: PuppetDBConfig,
    directory: str,
    *,
    prune: bool = False,
    private: bool = False,
    page_size: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> PullSummary:
    """Write ``config``'s nodes to ``directory``; ``private``: files only the user reads
    (a cache outside the repository)."""
    try:
        query = parse_query(config.query)
    except QueryError as e:
        raise FleetConfigError(str(e)) from None
    connection = connect(config)
    with connection:
        nodes = fetch_nodes(connection, query, page_size or PAGE_SIZE)
        try:
            return write_profiles(
                directory, nodes, prune=prune, mode=0o600 if private else 0o644, progress=progress
            )
        except PuppetDBError as e:
            if e.status == BAD_REQUEST and query.pql is not None:
                raise _in_users_terms(connection, query.pql, e) from None
            raise


def _in_users_terms(connection: Connection, pql: str, error: PuppetDBError) -> PuppetDBError:
    """PuppetDB's complaint about the user's PQL as they wrote it (a parse error's line and
    column are then theirs, not the subquery's that selects their nodes' facts)."""
    try:
        connection.get_json(ROOT, [("query", pql), ("limit", "1")])
    except PuppetDBError as own:
        if own.status == BAD_REQUEST:
            return PuppetDBError(own.url, f"refused the query: {own.cause}", own.status)
    return PuppetDBError(
        error.url,
        f"{error.cause}\n(hiera-ls asked for the nodes the query selects, as "
        f"inventory[certname, environment, facts, trusted] {{ certname in QUERY }})",
        error.status,
    )


def connect(config: PuppetDBConfig) -> Connection:
    """A connection with the config's TLS files and token (read now: a missing file is said
    before any request)."""
    context = None
    if config.url.startswith("https://"):
        try:
            context = client_context(config.tls)
        except TLSFileError as e:
            raise FleetConfigError(str(e)) from None
    return Connection(
        config.url,
        timeout=config.timeout,
        context=context,
        token=config.token(),
        client_cert=bool(config.tls.cert),
    )


def fetch_nodes(
    connection: Connection, query: Query, page_size: int
) -> Iterator[NodeProfile | BrokenNode]:
    """Every node the query selects, page by page, ordered by certname."""
    offset = 0
    while True:
        rows = connection.get_json(query.path, query.page(offset, page_size))
        if not isinstance(rows, list):
            kind = "a JSON object" if isinstance(rows, dict) else f"JSON {type(rows).__name__}"
            raise PuppetDBError(
                connection.url_of(query.path), f"answered {kind} where a list of nodes belongs"
            )
        for row in rows:
            yield node_profile(row)
        if len(rows) < page_size:
            return
        offset += len(rows)
