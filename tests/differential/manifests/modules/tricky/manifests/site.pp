node 'web01.example.com', /^db\d+\./ {
  role(tricky::web)
  include tricky::base  # trailing comment
}
node default {
  $classes = lookup('classes', Array[String], 'unique', [])
  $classes.include
}
