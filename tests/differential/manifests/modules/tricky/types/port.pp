type Tricky::Port = Integer[1, 65535]
