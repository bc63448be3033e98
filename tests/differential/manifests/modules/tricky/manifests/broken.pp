# Puppet cannot parse this file: an unclosed parameter list.
class tricky::broken (
  String $a = 'x',
  $b = [1, 2
{
}
