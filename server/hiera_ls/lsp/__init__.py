"""pygls wiring: the server's state, one module of handlers per feature, diagnostics
scheduling, and hiera-ls' own protocol (``protocol.py``)."""
