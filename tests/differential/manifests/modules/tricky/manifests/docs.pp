# @summary Documented with puppet-strings tags.
#
# class { 'tricky::in_a_comment': } and include tricky::commented are not code.
#
# @example Use it
#   class { 'tricky::docs':
#     port => 80,
#   }
#
# @param port
#   The port, (with a comma, and parentheses).
# @param name_override Overrides $name.
/* A block comment: class tricky::fake($x) { include tricky::fake2 } */
class tricky::docs (
  # @param inline docs are not tags here
  Integer $port = 80, # trailing comment, with ) and ,
  /* block, comment ) */ String $name_override = $title,
  String # the type, then a comment
    $split_type = 'x',
  Optional[
    String # comment inside a type
  ] $multi_line_type = undef,
) {
}
