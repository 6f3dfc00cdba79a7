"""Simulations and tournaments: many bot matches, with statistics."""
