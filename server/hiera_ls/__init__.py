"""hiera-ls: Puppet's Hiera 5 lookup, merge and interpolation rules, live in the editor."""

__version__ = "0.1.0"
