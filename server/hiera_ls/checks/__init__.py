"""Diagnostics over loaded data and configuration; each rule has a stable code."""
