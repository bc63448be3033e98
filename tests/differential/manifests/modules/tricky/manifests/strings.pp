# Strings that hold what looks like syntax: quotes, commas, parentheses, comments, braces.
class tricky::strings (
  String $single = 'it\'s (a, b) # not a comment',
  String $double = "say \"hi\", ${name} /* not a comment */",
  String $nested = "${join(["a${x}", 'b)'], ',')}",
  String $braces = "${facts['os']['family']}-{literal}",
  String $dollar = "costs \$5, ${1 + 2} total",
  String $escapes = "tab\tnewline\n\u00e9 \u{1F600}",
  String $empty = '',
  String $dq_empty = "",
  $bare = bareword,
) {
  $msg = "class ${name} includes ${lookup('tricky::strings::nested_key')} here"
  notify { "include ${msg}": }
}
