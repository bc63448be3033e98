# @summary The database server.
class profile::postgresql (
  Integer[1] $max_connections = 100,
) {
}
