# Explicit lookups, as calls and method calls, literal and dynamic keys.
class tricky::lookups {
  $a = lookup('tricky::lookups::a')
  $b = 'tricky::lookups::b'.lookup
  $c = lookup('tricky::lookups::c', String, 'first', 'fallback')
  $d = hiera('tricky::lookups::d', 'default')
  $e = hiera_array("tricky::lookups::e")
  $f = hiera_hash('tricky::lookups::f', {})
  hiera_include('classes')
  $g = lookup("tricky::${facts['role']}::g")
  $h = lookup(tricky::lookups::bare)
  $i = lookup({ 'name' => 'tricky::lookups::i', 'default_value' => 1 })
  $j = lookup(['tricky::lookups::j1', 'tricky::lookups::j2'])
  $k = "${lookup('tricky::lookups::k')} inside a string"
  $l = [1].map |$x| { lookup('tricky::lookups::l') }
  $m = $facts.lookup('tricky::lookups::m')
  $n = lookup ('tricky::lookups::n')
  $o = lookup(
    'tricky::lookups::o',
    Hash,
  )
  # lookup('tricky::lookups::commented')
  $p = 'lookup("tricky::lookups::in_a_string")'
}
class tricky::lookups::receivers {
  $q = ['tricky::lookups::q1', 'tricky::lookups::q2'].lookup
  $r = tricky::lookups::r.lookup
}
