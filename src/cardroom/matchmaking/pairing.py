"""The pure core: which waiting tickets to match now. Deterministic for the same tickets and
``now``: the oldest ticket chooses first, and takes the nearest ratings its gap allows."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from itertools import combinations

from cardroom.matchmaking.tickets import SEATS, Pairing, Ticket
from cardroom.matchmaking.widening import STANDARD, Widening

CONSIDERED = 12  # nearest tickets tried when parties of two must fit exactly


def pair(tickets: Iterable[Ticket], now: float, rule: Widening = STANDARD) -> list[Pairing]:
    """Matches for the tickets of one queue (one game and mode)."""
    waiting = sorted(tickets, key=lambda t: (t.since, t.id))
    by_rating = sorted(waiting, key=lambda t: (t.rating, t.id))
    ratings = [t.rating for t in by_rating]
    widest = max((rule.gap(t.waited(now)) for t in waiting), default=0.0)
    taken: set[str] = set()
    out: list[Pairing] = []
    for anchor in waiting:
        if anchor.id in taken:
            continue
        # Only ratings within the widest gap of the queue can be allowed: a slice, not a scan.
        low = bisect_left(ratings, anchor.rating - widest)
        high = bisect_right(ratings, anchor.rating + widest)
        near = sorted(
            (
                t
                for t in by_rating[low:high]
                if t.id not in taken
                and t.id != anchor.id
                and not t.linked(anchor)  # the ladder: one address or device, never matched
                and rule.allows(anchor.rating, anchor.waited(now), t.rating, t.waited(now))
            ),
            key=lambda t: (abs(t.rating - anchor.rating), t.since, t.id),
        )
        group = _group(anchor, near, now, rule)
        if group is not None:
            taken.update(t.id for t in group.tickets)
            out.append(group)
    return out


def _group(anchor: Ticket, near: list[Ticket], now: float, rule: Widening) -> Pairing | None:
    fewest, most = SEATS[anchor.mode]
    chosen = [anchor, *_filling(near, most - len(anchor.players))]
    players = sum(len(t.players) for t in chosen)
    enough = players == most or (players >= fewest and anchor.waited(now) >= rule.three_after)
    if not enough:
        return None
    seats = _teams(chosen) if anchor.mode == "teams" else _by_age(chosen)
    return Pairing(anchor.game, anchor.mode, tuple(chosen), seats)


def _filling(near: list[Ticket], seats: int) -> list[Ticket]:
    """The nearest tickets that fill exactly ``seats`` (parties are never split), else as many
    of the nearest as fit."""
    for size in range(1, seats + 1):
        for combo in combinations(near[:CONSIDERED], size):
            if sum(len(t.players) for t in combo) == seats and _unlinked(combo):
                return list(combo)
    out: list[Ticket] = []
    left = seats
    for t in near:
        if len(t.players) <= left and _unlinked((*out, t)):
            out.append(t)
            left -= len(t.players)
    return out


def _unlinked(tickets: tuple[Ticket, ...]) -> bool:
    """No two of the tickets were seen on one address or device (the ladder's rule)."""
    return not any(a.linked(b) for a, b in combinations(tickets, 2))


def _by_age(chosen: list[Ticket]) -> tuple[str, ...]:
    return tuple(p for t in chosen for p in t.players)


def _teams(chosen: list[Ticket]) -> tuple[str, ...]:
    """Four players as two sides, partners who queued together kept together; four players
    alone are balanced (strongest and weakest against the middle two). Seats: side A at 0
    and 2, side B at 1 and 3."""
    pairs = [t.players for t in chosen if len(t.players) == 2]
    alone = sorted((t for t in chosen if len(t.players) == 1), key=lambda t: (-t.rating, t.id))
    if len(alone) == 4:
        a, b, c, d = (t.players[0] for t in alone)
        pairs = [(a, d), (b, c)]
    elif len(alone) == 2:
        pairs.append((alone[0].players[0], alone[1].players[0]))
    (a1, a2), (b1, b2) = pairs
    return (a1, b1, a2, b2)


def bots_due(tickets: Iterable[Ticket], now: float) -> list[Ticket]:
    """Tickets that asked for a bot after a wait, and have waited that long."""
    return [t for t in tickets if t.bot_after is not None and t.waited(now) >= t.bot_after]
