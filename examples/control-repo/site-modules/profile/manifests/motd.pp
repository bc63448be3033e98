# @summary The message shown at login.
class profile::motd (
  String $banner,
  String $location,
) {
}
