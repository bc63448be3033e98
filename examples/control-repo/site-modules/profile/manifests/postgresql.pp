# @summary A PostgreSQL server.
#
# @param max_connections The server's max_connections.
class profile::postgresql (
  Integer[1] $max_connections = 100,
) {
}
