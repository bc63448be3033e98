type Tricky::Mode=Variant[Enum['on', 'off'], Boolean]   # trailing comment
