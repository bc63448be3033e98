# A class named hiera (voxpupuli's puppet-hiera): its name is not a call of hiera()
class hiera (
  $hierarchy = $::hiera::params::hierarchy,
  $backends  = ['yaml'],
) {
  $x = hiera('tricky::hiera_named::x', $backends)
}
