class tricky::nested inherits tricky::params {
  class inner (
    $a = 1,
  ) {
  }
  define thing (String $path = $title, *$rest) {
    include tricky
  }
  class deeper::still {}
}
class tricky::nested::sibling inherits ::tricky::nested {}
class tricky::noparams () {}
define tricky::resource (
  $ensure = present,
) {}
