"""Cardroom: play Skip, a race to empty your stock pile, online against bots or friends."""

__version__ = "0.1.0"
