"""Reference engines the tests compare hiera-ls with (Puppet itself, run from one Ruby process)."""
