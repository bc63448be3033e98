"""Environments, modules, the global layer, hiera.yaml files and facts, as found on disk."""
