"""Benchmarks, installed with the package so ``cardroom bench`` runs anywhere; each prints
what it measured, the figures and the command that repeats them."""
