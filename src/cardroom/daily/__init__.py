"""The deal of the day: one deal per game and day, the same for everyone (docs/daily.md).

``days`` names the days and derives each day's seed from a server secret; ``round`` replays an
attempt from its moves with the engine and the bots; ``share`` writes the spoiler-free result;
``attempts`` keeps the attempts, one scored per account, game and day, and reads the boards,
streaks and histories. The server (``server/daily_routes.py``) and the terminal
(``cardroom daily``) both play through ``DailyRound``.
"""
