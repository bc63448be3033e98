class tricky::bom (
  $a = 1,
) {}
