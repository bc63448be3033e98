# @summary A web server.
#
# @param vhost The virtual host's name.
# @param enabled Whether the site is served.
class profile::web (
  String $vhost,
  Boolean $enabled = true,
) {
}
