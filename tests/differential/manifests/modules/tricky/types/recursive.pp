# A recursive alias, then a comment.
type Tricky::Tree = Variant[String, Array[Tricky::Tree], Hash[String, Tricky::Tree]] # c
