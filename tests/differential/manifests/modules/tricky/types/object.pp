type Tricky::Obj = Object[{attributes => { a => Integer, b => { type => String, value => 'x' } }}]
