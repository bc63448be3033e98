class tricky::heredocs2 (
  $first = @(A), $second = 2,
    text of A ) , ]
    |- A
  $third = @("B"/tn),
    tab\there ${facts['b']} "quoted"
    | B
  $fourth = [@(C), @(D)],
    c
    | C
    d
    | D
) {
  class inner_with_heredoc (
    $doc = @(E),
      e
      | E
  ) {}
}
