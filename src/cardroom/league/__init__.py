"""The league: accounts, ratings, leaderboards, seasons, achievements and profiles.

The server calls one hook after a match's final move is stored (``on_match_finished``, which
returns the events to announce), and counts at start what a crash left uncounted
(``unrated_matches``); everything else is read by the API.
"""

from cardroom.league.finish import on_match_finished, unrated_matches

__all__ = ["on_match_finished", "unrated_matches"]
