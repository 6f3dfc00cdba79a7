"""Tests of the Skip rules engine (``cardroom.games.skip``), named after the rules R1-R7."""
