"""Tests of the rules engines: Skip (``cardroom.games.skip``, rules R1-R7) and Skyjo
(``cardroom.games.skyjo``, rules S1-S5), named after their rules."""
