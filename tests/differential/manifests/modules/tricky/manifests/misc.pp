# Two classes and a define in one file, keyword-like parameter names, numbers, Sensitive.
class tricky::misc (
  $type = 'service',
  $site = undef,
  $private = false,
  $attr = 'x',
  $unless = '/bin/true',
  Integer $hex = 0x1F,
  String $octal = '0755',
  Integer $octal_number = 0755,
  Float $float = 1.5e3,
  Sensitive[String] $secret = Sensitive('s3cr3t'),
  Deferred $later = Deferred('vault_lookup', ['secret/path']),
  String $literal = '${not_interpolated}',
  Optional[Variant[Stdlib::Absolutepath, Stdlib::HTTPUrl]] $where = undef,
  Array[String] $trailing = [
    'a', # a comment after an element
  ], # and after the parameter
) {
  case $facts['os']['family'] {
    'Debian': { include tricky::debian }
    'RedHat', 'Suse': { contain tricky::redhat }
    default: {}
  }
  unless $private {
    class { 'tricky::public': } -> class { 'tricky::after_public': }
  }
  $body = @(EOT)
    class tricky::in_a_heredoc($x) { include tricky::not_code }
    | EOT
}

class tricky::misc::second (
  Type[Integer] $type_of = Integer,
  Callable[String, 1, 1] $fn = undef,
) inherits tricky::misc {
  include tricky::misc
}

define tricky::misc::third (
  String $owner = $title,
  Hash[String, Hash[String, Array[Struct[{ a => Optional[String] }]]]] $deep = {},
) {
  $x = lookup("tricky::misc::third::${title}", Hash, 'hash', {})
  $y = lookup('tricky::misc::third::fixed', Hash, 'hash', {})
}
