# Resource defaults, collectors, overrides and relationships: none is a definition.
class tricky::resource_defaults (
  String $mode = '0644',
) {
  File {
    owner => 'root',
    mode  => $mode,
  }
  Package { ensure => installed }
  Exec { path => ['/bin', '/usr/bin'] }
  User <| groups == 'admin' |>
  File <<| tag == 'exported' |>>
  File['/etc/x'] { mode => '0600' }
  package { ['a', 'b']:
    ensure => latest,
  }
  -> service { 'c': ensure => running }
  @user { 'virtual': }
  @@file { '/exported': }
  Service['c'] ~> Exec['reload']
}
