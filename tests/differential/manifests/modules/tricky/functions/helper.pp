# @summary A Puppet-language function.
# @param value what to double
function tricky::helper(
  Variant[Integer, Float] $value,
  Optional[Callable[1, 2]] $cb = undef,
  String *$rest
) >> Variant[Integer, Float] {
  $value * 2
}
