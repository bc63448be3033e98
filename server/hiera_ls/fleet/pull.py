"""Facts profiles from PuppetDB: the nodes a query selects, one profile file per node.

The certnames come first (hiera_ls.fleet.query), then the facts of ``PAGE_SIZE`` nodes a
request, one request at a time over one kept-alive connection; each node's profile goes
to the new directory as it arrives, so memory holds one batch, not the fleet. The
directory is replaced only once every batch has arrived (hiera_ls.fleet.store); any
failure before that is a :class:`PuppetDBError` or :class:`FleetConfigError` and changes
nothing on disk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from hiera_ls.fleet.config import FleetConfigError, PuppetDBConfig
from hiera_ls.fleet.connection import Connection
from hiera_ls.fleet.errors import PuppetDBError
from hiera_ls.fleet.nodes import BrokenNode, NodeProfile, node_profile
from hiera_ls.fleet.query import INVENTORY, ROOT, Query, QueryError, facts_batch, parse_query
from hiera_ls.fleet.store import PullSummary, write_profiles
from hiera_ls.fleet.tls import TLSFileError, client_context

PAGE_SIZE = 500  # nodes whose facts one request asks for
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
    column are then theirs, not those of the query asked with ``[certname]``)."""
    try:
        connection.get_json(ROOT, [("query", pql), ("limit", "1")])  # as written
    except PuppetDBError as own:
        if own.status == BAD_REQUEST:
            return PuppetDBError(own.url, f"refused the query: {own.cause}", own.status)
    return error


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
    connection: Connection, query: Query, batch_size: int
) -> Iterator[NodeProfile | BrokenNode]:
    """Every node the query selects, in certname order: the names first, then the facts of
    ``batch_size`` nodes a request (one batch in memory at a time)."""
    rows = connection.get_json(query.path, query.names_params())
    names = sorted(_certnames(rows, connection.url_of(query.path)))
    for start in range(0, len(names), batch_size):
        batch = names[start : start + batch_size]
        answer = connection.post_json(INVENTORY, facts_batch(batch))
        if not isinstance(answer, list):
            raise PuppetDBError(
                connection.url_of(INVENTORY),
                f"answered {_kind(answer)} where a list of nodes belongs",
            )
        for row in answer:
            yield node_profile(row)


def _certnames(rows: object, url: str) -> set[str]:
    """The certnames of the query's answer (a node once, however many rows name it)."""
    if not isinstance(rows, list):
        raise PuppetDBError(url, f"answered {_kind(rows)} where a list of nodes belongs")
    names = {row.get("certname") for row in rows if isinstance(row, dict)}
    return {name for name in names if isinstance(name, str) and name}


def _kind(value: object) -> str:
    return "a JSON object" if isinstance(value, dict) else f"JSON {type(value).__name__}"
