# Heredoc defaults, with and without interpolation, margins and escapes.
class tricky::heredocs (
  String $motd = @(END),
    Welcome, ${facts['networking']['fqdn']}
    Parameters (a, b) and braces { } are text here.
    | END
  String $plain = @("EOT"/L),
      line one \
      continued ${::hostname}
      |- EOT
  Optional[String] $after = 'after the heredocs',
  $json = @(JSON:json),
    {"a": [1, 2, 3], "b": "c,)"}
    | JSON
  Integer $last = 3,
) {
  $script = @("SCRIPT"/$)
    #!/bin/sh
    echo "\$HOME ${lookup('tricky::heredocs::greeting')}"
    | SCRIPT
  file { '/etc/motd':
    content => @(MOTD),
      static
      | MOTD
  }
  include tricky::after_heredoc
}
