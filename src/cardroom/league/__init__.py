"""The league: accounts, ratings, leaderboards, seasons, achievements and profiles.

The server calls one hook when a match finishes (``on_match_finished``, or ``announce_into`` to
put its announcements in the table's event list); everything else is read by the API.
"""

from cardroom.league.finish import announce_into, on_match_finished

__all__ = ["announce_into", "on_match_finished"]
