"""Differential tests: hiera-ls against Puppet's own Hiera engine on generated environments."""
