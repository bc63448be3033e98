class tricky::crlf (
  String $a = "x",
  Hash $b = {
    "k" => "v",
  },
) {
  include tricky::after_crlf
}
