# Unicode before and inside parameters: columns count code points.
# été ✓ 😀
class tricky::unicode (
  String $cafe = "été",
  String $emoji = "😀😀", String $after = "日本",
  Integer $port = 8080,
) {
  $x = "😀 ${lookup('tricky::unicode::key')}"; include tricky::after_unicode
}
