class # a comment between the keyword and the name
  tricky::edge (
  $sel = $facts['x'] ? { default => [1, { 'a' => ')' }] },
  $lambda = [1].map |$v| { "}${v}{" }.filter |$w| { $w =~ /\}/ },
  $nested_quotes = "${facts["os"]["family"]}",
  $backslash = "a\\",
  $single_backslash = 'a\\',
  $regex_hash = /a#b/,
  $regex_comment = /\/\*/,
  $division = 12 / 3 / 2,
  $slice = [1, 2, 3][1, 2],
  Enum['a', 'b'] $enum_type = 'a',
  Optional[Hash[String, Struct[{ Optional['a'] => Variant[String, Array[String]] }]]] $deep = undef,
  $hiera_in_selector = $facts['y'] ? { true => hiera('tricky::edge::sel'), default => undef },
  $capital_key = lookup('Tricky::Edge::Key'),
  $method_args = 'tricky::edge::method'.lookup(String),
) {
  if $sel {
    include(tricky::paren)
  } elsif $lambda {
    include (tricky::space)
  } else {
    class { 'tricky::in_else': }
  }
  file { '/x':
    require => Class['tricky::required_by_attribute'],
  }
  ensure_resource('class', 'tricky::ensured', {})
  $epp = inline_epp('<%= lookup("tricky::in_epp") %>')
}
