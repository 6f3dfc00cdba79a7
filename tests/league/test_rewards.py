"""Rewards: card backs and themes unlocked once by achievements, divisions and trophies, and the
chosen ones stored with the player (so every device shows them)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import func, insert, select

from cardroom.league import divisions, rewards, seasons
from cardroom.league.models import Award, Trophy, Unlock

from .conftest import add_player

NOW = datetime(2026, 11, 20, tzinfo=UTC)


def test_the_rule_of_each_item() -> None:
    free = {"classic", "felt", "midnight", "walnut"}
    assert rewards.earned(set(), set(), 0) == free
    assert rewards.earned({"first_win"}, set(), 0) == free | {"laurel"}
    assert rewards.earned(set(), {"gold"}, 0) == free | {"silver", "gold", "stadium"}
    assert "podium" in rewards.earned(set(), set(), 1)


def test_unlocked_once_whatever_unlocks_it_again(conn) -> None:
    add_player(conn, "p_ada")
    conn.execute(
        insert(Award).values(
            player_id="p_ada", achievement="first_win", match_id="m", table_id="t", awarded_at=NOW
        )
    )
    divisions.put(conn, "2026-11", "p_ada", "skip", "2p", "silver", "placement", NOW)
    assert [r.id for r in rewards.unlock_earned(conn, "p_ada", NOW)] == ["laurel", "silver"]
    assert rewards.unlock_earned(conn, "p_ada", NOW) == []
    seasons.ensure(conn, seasons.season_of(datetime(2026, 10, 5, tzinfo=UTC)))
    conn.execute(
        insert(Trophy).values(
            season_id="2026-10",
            board="silver",
            game="skip",
            mode="2p",
            player_id="p_ada",
            place=1,
            value=9.0,
            awarded_at=NOW,
        )
    )
    assert {r.id for r in rewards.unlock_earned(conn, "p_ada", NOW)} == {"trophy", "podium"}
    count = conn.scalar(select(func.count()).select_from(Unlock).where(Unlock.item == "laurel"))
    assert count == 1


def test_a_choice_is_stored_with_the_player_and_must_be_unlocked(conn) -> None:
    add_player(conn, "p_bob")
    assert rewards.choices(conn, ["p_bob"]) == {"p_bob": rewards.DEFAULT}
    with pytest.raises(rewards.NotUnlocked, match="not unlocked yet"):
        rewards.choose(conn, "p_bob", "card_back", "gold", NOW)
    with pytest.raises(rewards.NotUnlocked, match="no theme"):
        rewards.choose(conn, "p_bob", "theme", "gold", NOW)  # a card back, not a theme
    divisions.put(conn, "2026-11", "p_bob", "skip", "2p", "gold", "placement", NOW)
    rewards.unlock_earned(conn, "p_bob", NOW)
    rewards.choose(conn, "p_bob", "card_back", "gold", NOW)
    rewards.choose(conn, "p_bob", "theme", "stadium", NOW)
    assert rewards.choices(conn, ["p_bob"])["p_bob"] == {"card_back": "gold", "theme": "stadium"}
    shown = rewards.rewards_json(conn, "p_bob")
    assert shown["chosen"]["card_back"] == "gold"
    assert {i["id"] for i in shown["items"] if i["unlocked"]} >= {"gold", "stadium", "classic"}
