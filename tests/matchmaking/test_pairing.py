"""The matchmaking core with an injected clock: the gap widens with the wait, partners stay
together, withdrawn tickets are never matched, bots are offered after the chosen wait."""

from __future__ import annotations

import dataclasses

from cardroom.matchmaking.matchmaker import Matchmaker
from cardroom.matchmaking.pairing import pair
from cardroom.matchmaking.stores import MemoryStore
from cardroom.matchmaking.tickets import Ticket
from cardroom.matchmaking.widening import Widening

RULE = Widening(start=1.5, per_second=0.15, most=20.0, three_after=20.0)


def ticket(name: str, rating: float, since: float = 0.0, mode: str = "2p", **kw) -> Ticket:
    players = kw.pop("players", (f"p_{name}",))
    names = tuple(p.removeprefix("p_") for p in players)
    return Ticket(f"k_{name}", "skip", mode, players, names, rating, since, **kw)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_the_gap_widens_with_the_wait() -> None:
    assert RULE.gap(0) == 1.5
    assert RULE.gap(10) == 3.0
    assert RULE.gap(10_000) == 20.0


def test_far_ratings_wait_until_the_gap_reaches_them() -> None:
    a, b = ticket("a", 10.0), ticket("b", 15.0)
    assert pair([a, b], now=0.0, rule=RULE) == []
    assert pair([a, b], now=20.0, rule=RULE) == []  # gap 4.5 < 5
    (match,) = pair([a, b], now=24.0, rule=RULE)  # gap 5.1
    assert match.seats == ("p_a", "p_b") and match.gap == 5.0


def test_the_oldest_ticket_takes_the_nearest_rating() -> None:
    old = ticket("old", 10.0, since=0.0)
    near, far = ticket("near", 10.5, since=5.0), ticket("far", 11.4, since=1.0)
    (match,) = pair([far, near, old], now=5.0, rule=RULE)
    assert match.seats == ("p_old", "p_near")


def test_the_longer_waiter_widens_for_a_newcomer() -> None:
    waiting, newcomer = ticket("w", 10.0, since=0.0), ticket("n", 14.0, since=60.0)
    (match,) = pair([waiting, newcomer], now=60.0, rule=RULE)  # the waiter's gap: 10.5
    assert set(match.seats) == {"p_w", "p_n"}


def test_four_for_three_or_more_or_three_after_a_while() -> None:
    three = [ticket(n, 12.0 + i * 0.1, mode="3p+") for i, n in enumerate("abc")]
    assert pair(three, now=5.0, rule=RULE) == []
    (match,) = pair(three, now=20.0, rule=RULE)
    assert len(match.seats) == 3
    four = [*three, ticket("d", 12.2, mode="3p+")]
    (match,) = pair(four, now=5.0, rule=RULE)
    assert len(match.seats) == 4


def test_partners_sit_opposite_and_solos_are_balanced() -> None:
    duo = ticket("duo", 15.0, mode="teams", players=("p_x", "p_y"))
    solos = [ticket(n, 15.0 + d, mode="teams") for n, d in (("s1", 0.2), ("s2", -0.3))]
    (match,) = pair([duo, *solos], now=0.0, rule=RULE)
    a1, b1, a2, b2 = match.seats
    assert {a1, a2} == {"p_x", "p_y"} and {b1, b2} == {"p_s1", "p_s2"}

    four = [ticket(n, r, mode="teams") for n, r in (("w", 10), ("x", 11), ("y", 12), ("z", 13))]
    (match,) = pair(four, now=30.0, rule=RULE)
    a1, b1, a2, b2 = match.seats
    assert {a1, a2} == {"p_z", "p_w"} and {b1, b2} == {"p_y", "p_x"}  # 23 against 23


def test_a_party_is_never_split() -> None:
    duos = [ticket(n, 15.0, mode="teams", players=(f"p_{n}1", f"p_{n}2")) for n in "ab"]
    lone = ticket("lone", 15.0, since=-100.0, mode="teams")
    (match,) = pair([lone, *duos], now=0.0, rule=RULE)
    assert "p_lone" not in match.seats  # one seat left beside a duo is no team
    assert sorted(match.seats) == ["p_a1", "p_a2", "p_b1", "p_b2"]


async def test_one_ticket_per_player_and_a_withdrawn_ticket_is_never_matched() -> None:
    clock = Clock()
    mm = Matchmaker(MemoryStore(), clock, RULE)
    a, b = ticket("a", 10.0), ticket("b", 10.2)
    assert await mm.enqueue(a)
    assert not await mm.enqueue(ticket("a", 10.0, since=1.0))  # a second ticket: refused
    await mm.withdraw(a)  # the socket closed
    assert await mm.enqueue(b)
    assert (await mm.run_round()).matched == []
    c = ticket("c", 10.1)
    assert await mm.enqueue(c)
    (match,) = (await mm.run_round()).matched
    assert set(match.seats) == {"p_b", "p_c"}
    assert await mm.enqueue(ticket("b", 10.0, since=2.0))  # matched: free to queue again


async def test_a_bot_after_the_wait_the_player_chose() -> None:
    clock = Clock()
    mm = Matchmaker(MemoryStore(), clock, RULE)
    lonely = ticket("l", 30.0, bot_after=45.0)
    await mm.enqueue(lonely)
    clock.now = 44.0
    assert await mm.run_round() == type(await mm.run_round())()
    assert mm.status(lonely) == {"near": 30.0, "gap": 8.1, "waited": 44}
    clock.now = 45.0
    result = await mm.run_round()
    assert result.bots == [lonely] and result.matched == []
    assert await mm.store.queues() == []


def test_tickets_seen_on_one_address_or_device_are_never_matched() -> None:
    """The ladder: two accounts from one place are not paired, however long they wait; each
    is matched with someone else when someone else comes."""
    ada = ticket("ada", 10.0, marks=("a1f00", "dbeef"))
    alt = ticket("alt", 10.1, since=1.0, marks=("a1f00",))  # Ada's second account
    assert pair([ada, alt], now=600.0, rule=RULE) == []
    bea = ticket("bea", 10.2, since=2.0, marks=("a2c0c",))
    (match,) = pair([ada, alt, bea], now=3.0, rule=RULE)
    assert match.seats == ("p_ada", "p_bea")
    many = [ada, alt, bea, ticket("cal", 10.3, since=3.0, mode="3p+")]
    three = [dataclasses.replace(t, mode="3p+") for t in many]
    (match,) = pair(three, now=30.0, rule=RULE)
    assert not {"p_ada", "p_alt"} <= set(match.seats) and len(match.seats) == 3


def test_a_ticket_keeps_its_marks_through_the_shared_store() -> None:
    marked = ticket("m", 3.0, marks=("a1", "d2"))
    assert Ticket.from_json(marked.to_json()) == marked
    old = '{"id": "k", "game": "skip", "mode": "2p", "players": ["p"], "names": ["P"], '
    assert Ticket.from_json(old + '"rating": 0, "since": 0}').marks == ()
