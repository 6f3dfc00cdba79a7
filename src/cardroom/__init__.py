"""Cardroom: play Skip, a race to empty your stock pile, online against bots or friends."""

from cardroom import build as _build

__version__ = "0.1.0"

_build.choose()  # a compiled engine (make compiled) only while fresh; pure Python otherwise
