# Regular expressions that contain commas, parentheses, slashes and brackets.
class tricky::regexes (
  Pattern[/^\d+(,\d+)*$/] $list = '1,2',
  Regexp $re = /a,b\)c\/[d]/,
  Variant[Pattern[/\A[a-z]+\z/], Enum['x]', "y,"]] $either = 'x]',
  Integer $half = 10 / 2,
  Integer $ratio = (10 + 4) / 7,
  Boolean $matches = 'abc' =~ /b/,
) {
  if $facts['os']['name'] =~ /^(Debian|Ubuntu)$/ {
    include tricky::debianish
  }
  $parts = split($list, /,/)
}
