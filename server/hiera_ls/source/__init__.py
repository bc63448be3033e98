"""Text of files turned into values exactly as Puppet loads them, each with its source range."""
