# Defaults that are hashes, arrays, calls, selectors, lambdas and operators.
class tricky::defaults (
  Hash $hash = {
    'a' => 1,
    'b' => { 'c' => [1, 2, { 'd' => 'e' }], },
    "f${x}" => lookup('tricky::defaults::inner'),
  },
  Array $empty_array = [],
  Hash $empty_hash = {},
  $call = lookup('tricky::defaults::call', Optional[String], 'first', undef),
  $merged = lookup('tricky::defaults::merged', { 'merge' => 'deep', 'default_value' => {} }),
  String $method = $facts['os']['family'].downcase,
  Array $mapped = [1, 2, 3].map |$v| { $v * 2 },
  String $selected = $facts['os']['family'] ? {
    'RedHat' => 'httpd',
    /(Debian|Ubuntu)/ => 'apache2',
    default  => 'www',
  },
  Integer $bytes = 1024 * 1024,
  Integer $negative = -1,
  Boolean $not = !true,
  Boolean $both = $facts['a'] and $facts['b'],
  String $path = "${facts['dir']}/file",
  Any $undefined = undef,
  Integer $converted = Integer('42'),
  $indexed = [$a, $b][0],
  Optional[String] $typed_default = String(5),
  $chained = 'a,b'.split(',').map |$s| { "${s})" }.join(','),
  Boolean $flag = true
) {
}
