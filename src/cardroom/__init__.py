"""Cardroom: play the Skip-Bo family of card games online, against bots or friends."""

__version__ = "0.1.0"
