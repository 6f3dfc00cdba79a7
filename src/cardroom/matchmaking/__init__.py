"""Matchmaking for ranked play: tickets wait in a queue per game and mode and are matched by
rating, the allowed gap widening the longer they wait. ``pairing`` is the pure, clock-injected
core; ``stores`` keeps the tickets (in memory, or in Redis for several processes)."""
