"""Cardroom's tests: a package, so that ``tests.resources`` is ours (a dependency ships a
top-level ``tests`` package of its own)."""
