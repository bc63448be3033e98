"""Puppet's value and type system, and Ruby's text of values: the bottom layer."""
