"""The Hiera 5 lookup algorithm: layers, locations, lookup_options, merges, interpolation."""
