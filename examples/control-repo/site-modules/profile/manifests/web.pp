# @summary The web server.
class profile::web (
  String $vhost,
) {
}
