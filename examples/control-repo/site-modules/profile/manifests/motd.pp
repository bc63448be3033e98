# @summary The message of the day.
#
# @param banner The first line users see.
# @param location Where the node runs.
class profile::motd (
  String $banner,
  String $location = $facts['os']['name'],
) {
}
