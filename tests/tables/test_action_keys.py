"""The action keys a table remembers per player for exactly-once (``KeyRing``): the last 64,
in one buffer. A key is remembered until 64 newer ones came; a match straddling two slots is no
match."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from cardroom.tables.audience import RECENT_ACTION_IDS, Audience, KeyRing, action_key

keys = st.binary(min_size=8, max_size=8)


@given(st.lists(keys, max_size=200), keys)
def test_a_ring_holds_exactly_the_last_keys_added(added: list[bytes], probe: bytes) -> None:
    ring = KeyRing(8)
    for key in added:
        ring.add(key)
    last = added[-8:]
    assert len(ring) == len(last)
    assert all(key in ring for key in last)
    assert (probe in ring) == (probe in last)


def test_a_match_across_two_slots_is_no_match() -> None:
    ring = KeyRing(4)
    ring.add(b"AAAABBBB")
    ring.add(b"CCCCDDDD")
    assert b"BBBBCCCC" not in ring  # the buffer holds these bytes, but not at a slot
    assert b"CCCCDDDD" in ring
    assert b"short" not in ring and "CCCCDDDD" not in ring


def test_a_player_s_action_is_known_until_64_newer_ones_came() -> None:
    audience = Audience(0, history=16)
    first = action_key("p_ada", "a0")
    audience.remember("p_ada", first)
    for number in range(1, RECENT_ACTION_IDS):
        audience.remember("p_ada", action_key("p_ada", f"a{number}"))
    assert audience.applied("p_ada", first)
    assert not audience.applied("p_bob", first)  # keys are per player
    audience.remember("p_ada", action_key("p_ada", "one more"))
    assert not audience.applied("p_ada", first)
    assert audience.applied("p_ada", action_key("p_ada", "one more"))
