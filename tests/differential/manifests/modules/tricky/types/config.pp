# @summary A configuration entry, as nested as real ones get.
type Tricky::Config = Struct[{
  name                  => String[1],
  Optional[port]        => Integer[1, 65535],
  NotUndef['mode']      => Enum['a]', "b,", 'c'],
  'nested'              => Variant[
    Array[Struct[{ x => Integer, y => Optional[Pattern[/^[a-z]+(,[a-z]+)*$/]] }]],
    Hash[String[1], Variant[String, Boolean]],
  ],
  # a comment inside the alias
  Optional['tags']      => Array[String, 0, 10],
}]
