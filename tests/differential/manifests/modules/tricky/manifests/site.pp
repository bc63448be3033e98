node 'web01.example.com', /^db\d+\./ {
  role(tricky::web)
  include tricky::base  # trailing comment
}
node default {
  $classes = lookup('classes', Array[String], 'unique', [])
  $classes.include
}
node /^ms-fe1\d\d\d\.eqiad\./ {
  include tricky::after_regex_node
}
node /^ms-be1\d\d\d\.eqiad\./ {
}
