type Tricky::Ref = Tricky::Port
