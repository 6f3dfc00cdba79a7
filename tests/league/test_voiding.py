"""Fair play (docs/league.md, "Fair play"): a voided match is recomputed, never edited. The
ratings after a void are exactly those of a league that never counted the match; a cheat mark
voids every result of an account and hides it from every board; both can be lifted."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import Connection, delete, func, insert, select

from cardroom.bots import make_bot
from cardroom.games.base import FORFEIT, Step
from cardroom.games.skip import Match, Options
from cardroom.league import divisions, fairplay, on_match_finished, profiles, seasons, voiding
from cardroom.league import leaderboards as boards
from cardroom.league.models import (
    Award,
    CheatMark,
    DivisionPlace,
    Rating,
    RatingHistory,
    Result,
    Season,
    Standing,
    Trophy,
    Unlock,
    Void,
)
from cardroom.league.periods import Window
from cardroom.store import repository as repo
from cardroom.store.models import Match as MatchRow
from cardroom.store.models import Move, Player, Seat
from cardroom.store.models import Table as TableRow

from .conftest import add_player, add_table, played, store_match

RANKED = Options(players=2)
START = datetime(2026, 11, 3, 12, 0, tzinfo=UTC)  # a Tuesday, in season 2026-11
PEOPLE = ("p_ada", "p_bea", "p_cy", "p_dot")
LEAGUE = (Void, CheatMark, Unlock, Award, DivisionPlace, Standing, Trophy, Season)
LEAGUE += (RatingHistory, Rating, Result)


@cache
def deal(n: int) -> Match:
    """A few finished ranked matches, played once by bots: the history's building blocks."""
    return played(RANKED, f"void-{n}")


def build(conn: Connection, plan: list[tuple[str, str]], deals: list[int] | None = None) -> list:
    """Store one ranked match per (first seat, second seat) of ``plan``, an hour apart, on
    their own tables; the match ids in order (nothing counted yet)."""
    for player in sorted({w for pair in plan for w in pair if w.startswith("p_")}):
        if conn.scalar(select(Player.id).where(Player.id == player)) is None:
            add_player(conn, player)
    ids = []
    for n, who in enumerate(plan):
        match_id = f"m_{n:03d}"
        add_table(
            conn, f"t_{match_id}", next(w for w in (*who, PEOPLE[0]) if w[:2] == "p_"), RANKED
        )
        at = START + timedelta(hours=n)
        store_match(conn, deal((deals or [])[n] if deals else n % 3), match_id, f"t_{match_id}",
                    list(who), finished_at=at)  # fmt: skip
        ids.append(match_id)
    return ids


def count(conn: Connection, match_ids: list[str]) -> None:
    for match_id in match_ids:
        on_match_finished(conn, match_id)


def forget(conn: Connection) -> None:
    """Empty the league's tables (the stored matches stay): a league that never counted."""
    for model in LEAGUE:
        conn.execute(delete(model))


def ratings_now(conn: Connection) -> dict[tuple[str, str], tuple[float, float, int]]:
    rows = conn.execute(
        select(Rating.subject, Rating.mode, Rating.mu, Rating.sigma, Rating.matches)
    )
    return {(r.subject, r.mode): (r.mu, r.sigma, r.matches) for r in rows}


def history_now(conn: Connection) -> list[tuple[str, str, float, float, datetime]]:
    rows = conn.execute(
        select(RatingHistory.subject, RatingHistory.match_id, RatingHistory.mu,
               RatingHistory.sigma, RatingHistory.at)
    )  # fmt: skip
    return sorted((r.subject, r.match_id, r.mu, r.sigma, r.at) for r in rows)


def league_of(conn: Connection) -> tuple[Any, Any]:
    return ratings_now(conn), history_now(conn)


def reference(conn: Connection, ids: list[str], without: set[str]) -> tuple[Any, Any]:
    """What a league that never counted ``without`` holds after the rest of ``ids``."""
    forget(conn)
    count(conn, [m for m in ids if m not in without])
    return league_of(conn)


def winners_board(conn: Connection) -> dict[str, int]:
    entries = boards.entries(conn, boards.Query("winners"), limit=100)
    return {e["player"]: e["value"] for e in entries}


def ranked_board(conn: Connection) -> list[str]:
    entries = boards.entries(conn, boards.Query("ranked", mode="2p"), limit=100)
    return [e["player"] or e["bot"] for e in entries]


CHAIN = [
    ("p_ada", "p_bea"),
    ("p_bea", "p_cy"),
    ("p_ada", "p_cy"),  # m_002: voided below
    ("p_cy", "p_dot"),  # p_dot never met ada: moved only through cy
    ("p_bea", "easy"),
    ("p_dot", "p_ada"),
    ("medium", "p_bea"),
]


# -- voiding a match ---------------------------------------------------------------------------


def test_a_voided_match_leaves_the_ratings_of_a_league_that_never_counted_it(conn) -> None:
    ids = build(conn, CHAIN)
    expected = reference(conn, ids, {"m_002"})
    forget(conn)
    count(conn, ids)
    before = league_of(conn)
    outcome = voiding.void_match(conn, "m_002", reason="fixed deal", now=START + timedelta(days=1))
    assert league_of(conn) == expected != before
    assert outcome.matches == ("m_002",)
    # the later matches of ada and cy, and of those they met since (dot, through cy); bea's
    # later matches met neither, so they keep their stored history
    assert outcome.replayed == ("m_003", "m_005")
    assert {c.subject for c in outcome.changes} == {"p_ada", "p_cy", "p_dot"}


def test_lifting_a_void_restores_the_league_that_counted_everything(conn) -> None:
    ids = build(conn, CHAIN)
    count(conn, ids)
    counted = league_of(conn)
    voiding.void_match(conn, "m_002", reason="reported", now=START + timedelta(days=1))
    outcome = voiding.unvoid_match(conn, "m_002", now=START + timedelta(days=2))
    assert league_of(conn) == counted
    assert outcome.replayed[0] == "m_002"
    assert not fairplay.is_void(conn, "m_002")


def test_a_void_match_counts_on_no_board_and_in_no_career(conn) -> None:
    ids = build(conn, [("p_ada", "p_bea")] * 3, deals=[0, 0, 0])
    count(conn, ids)
    winner = conn.scalar(select(Result.subject).where(Result.match_id == "m_001", Result.won))
    assert winners_board(conn)[winner] == 3
    voiding.void_match(conn, "m_001", reason="collusion", now=START + timedelta(days=1))
    assert winners_board(conn)[winner] == 2
    assert profiles.career(conn, winner)["matches"] == 2
    recent = {m["match"]: m for m in profiles.recent_matches(conn, winner)}
    assert recent["m_001"]["voided"] and not recent["m_000"]["voided"]
    matches = {
        e["player"]: e["matches"] for e in boards.entries(conn, boards.Query("ranked", mode="2p"))
    }
    assert matches[winner] == 2


def test_a_void_sends_a_placed_player_back_to_placement_matches(conn) -> None:
    plan = [("p_ada", "easy")] * divisions.PLACEMENT_MATCHES
    ids = build(conn, plan, deals=[0] * len(plan))
    count(conn, ids)
    season = "2026-11"
    assert divisions.place_of(conn, season, "p_ada", "skip", "2p") is not None
    voiding.void_match(conn, ids[-1], reason="a bug", now=START + timedelta(days=1))
    assert divisions.place_of(conn, season, "p_ada", "skip", "2p") is None
    badge = divisions.badges(conn, season, ["p_ada"], "skip", "2p")["p_ada"]
    assert badge["id"] == "placement" and badge["left"] == 1
    voiding.unvoid_match(conn, ids[-1], now=START + timedelta(days=1))
    assert divisions.place_of(conn, season, "p_ada", "skip", "2p") is not None


# -- bad requests ------------------------------------------------------------------------------


def test_voiding_refuses_unknown_matches_and_bad_states_and_changes_nothing(conn) -> None:
    ids = build(conn, CHAIN[:3])
    count(conn, ids[:2])  # m_002 stored but not counted yet
    with pytest.raises(voiding.UnknownMatch) as unknown:
        voiding.void_match(conn, "m_nope", reason="x")
    assert unknown.value.status == 404
    with pytest.raises(voiding.NotCounted):
        voiding.void_match(conn, "m_002", reason="x")
    with pytest.raises(voiding.BadReason):
        voiding.void_match(conn, "m_000", reason="   ")
    with pytest.raises(voiding.NotVoided):
        voiding.unvoid_match(conn, "m_000")
    before = league_of(conn)
    voiding.void_match(conn, "m_000", reason="first")
    voided = league_of(conn)
    with pytest.raises(voiding.AlreadyVoided) as again:
        voiding.void_match(conn, "m_000", reason="second")
    assert again.value.status == 409 and again.value.code == "already_voided"
    assert league_of(conn) == voided != before
    assert conn.scalar(select(func.count()).select_from(Void)) == 1


def test_cheat_marks_refuse_unknown_accounts_and_repeats(conn) -> None:
    add_player(conn, "p_ada")
    with pytest.raises(voiding.UnknownAccount) as unknown:
        voiding.mark_cheater(conn, "p_nobody", reason="engine")
    assert unknown.value.status == 404
    with pytest.raises(voiding.NotMarked):
        voiding.clear_cheater(conn, "p_ada")
    voiding.mark_cheater(conn, "p_ada", reason="engine")
    with pytest.raises(voiding.AlreadyMarked):
        voiding.mark_cheater(conn, "p_ada", reason="engine again")


# -- cheat marks -------------------------------------------------------------------------------


def test_a_cheater_is_voided_hidden_and_its_opponents_rated_as_if_it_never_played(conn) -> None:
    ids = build(conn, CHAIN)
    cy = {m for m, who in zip(ids, CHAIN, strict=True) if "p_cy" in who}
    expected_ratings, expected_history = reference(conn, ids, cy)
    forget(conn)
    count(conn, ids)
    assert "p_cy" in ranked_board(conn)
    outcome = voiding.mark_cheater(conn, "p_cy", reason="engine use", now=START + timedelta(days=1))
    assert set(outcome.matches) == cy
    assert league_of(conn) == (expected_ratings, expected_history)
    assert "p_cy" not in ranked_board(conn) and "p_cy" not in winners_board(conn)
    assert profiles.profile(conn, "p_cy")["fair_play"]["reason"] == "engine use"
    with pytest.raises(voiding.NotVoided, match="lift the mark"):
        voiding.unvoid_match(conn, "m_002")


def test_a_cheaters_next_match_is_void_when_counted_and_lifting_the_mark_rates_it(conn) -> None:
    ids = build(conn, CHAIN)
    count(conn, ids[:-1])
    voiding.mark_cheater(conn, "p_bea", reason="engine use", now=START)
    events = on_match_finished(conn, ids[-1])  # medium vs bea, counted after the mark
    assert {"kind": "unrated", "seat": None, "detail": fairplay.VOIDED_AT_COUNTING} in events
    assert fairplay.is_void(conn, ids[-1])
    assert conn.scalar(select(func.count()).where(RatingHistory.match_id == ids[-1])) == 0
    voiding.clear_cheater(conn, "p_bea", now=START + timedelta(days=1))
    assert league_of(conn) == reference(conn, ids, set())
    assert profiles.profile(conn, "p_bea") is not None


def test_a_match_voided_by_a_moderator_stays_void_when_a_mark_is_lifted(conn) -> None:
    ids = build(conn, CHAIN[:3])
    count(conn, ids)
    voiding.mark_cheater(conn, "p_cy", reason="engine", now=START)
    assert voiding.void_match(conn, "m_002", reason="also stalling").matches == ()
    outcome = voiding.clear_cheater(conn, "p_cy", now=START)
    assert outcome.matches == ("m_001",)
    assert fairplay.void_sources(conn, "m_002") == ["moderator"]


def test_a_cheater_is_hidden_from_a_closed_seasons_frozen_board(conn) -> None:
    ids = build(conn, CHAIN)
    count(conn, ids)
    seasons.roll_over(conn, datetime(2026, 12, 1, 0, 0, 1, tzinfo=UTC))
    frozen = boards.archived_page(conn, "2026-11", "winners", "all")["entries"]
    assert frozen[0]["player"] is not None
    top = frozen[0]["player"]
    voiding.mark_cheater(conn, top, reason="engine", now=datetime(2026, 12, 2, tzinfo=UTC))
    shown = boards.archived_page(conn, "2026-11", "winners", "all")
    assert top not in [e["player"] for e in shown["entries"]]
    assert shown["entries"][0]["rank"] == 1 and shown["total"] == len(frozen) - 1


# -- histories say why -------------------------------------------------------------------------


def forfeited_by(leaver: int, moves: int = 12) -> Match:
    """A ranked match played a little by bots, then forfeited by ``leaver``."""
    match = Match(RANKED, "void-forfeit")
    bots = [make_bot("greedy", f"vf/{s}") for s in range(2)]
    for _ in range(moves):
        seat = match.current
        match.apply(bots[seat].choose(match.view(seat)), seat=seat)
    match.apply_step(Step(FORFEIT, leaver))
    return match


def test_a_forfeit_and_a_void_are_told_in_the_players_history(conn) -> None:
    ids = build(conn, [("p_ada", "p_bea")], deals=[0])
    add_table(conn, "t_f", "p_ada", RANKED)
    match = forfeited_by(leaver=0)
    store_match(
        conn, match, "m_f", "t_f", ["p_ada", "p_bea"], finished_at=START + timedelta(days=1)
    )
    number = conn.scalar(select(func.max(Move.number)).where(Move.match_id == "m_f"))
    step = repo.move_row("m_f", number + 1, match.round_number, FORFEIT, 0, None)
    conn.execute(insert(Move), [step.params])
    count(conn, [*ids, "m_f"])
    voiding.void_match(conn, ids[0], reason="stalling", now=START + timedelta(days=2))
    recent = {m["match"]: m for m in profiles.recent_matches(conn, "p_ada")}
    assert recent[ids[0]]["voided"] and not recent[ids[0]]["forfeited"]
    assert recent["m_f"]["forfeited"] and not recent["m_f"]["won"] and recent["m_f"]["ranked"]
    assert not recent["m_f"]["voided"]


# -- properties --------------------------------------------------------------------------------

SUBJECTS = (*PEOPLE, "easy")
pairs = st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(SUBJECTS)).filter(
    lambda p: p[0] != p[1]
)


@settings(
    max_examples=4,  # each example counts and recounts whole 500-point matches
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(plan=st.lists(pairs, min_size=2, max_size=5), data=st.data())
def test_any_voids_give_the_league_that_never_counted_them(conn, plan, data) -> None:
    forget(conn)
    conn.execute(delete(Move))
    for model in (MatchRow, Seat, TableRow):
        conn.execute(delete(model))
    ids = build(conn, plan)
    voided = data.draw(st.sets(st.sampled_from(ids), min_size=1, max_size=len(ids)))
    expected = reference(conn, ids, voided)
    forget(conn)
    count(conn, ids)
    for match_id in data.draw(st.permutations(sorted(voided))):
        voiding.void_match(conn, match_id, reason="property")
    assert league_of(conn) == expected
    for match_id in sorted(voided):
        voiding.unvoid_match(conn, match_id)
    assert league_of(conn) == reference(conn, ids, set())


def test_the_ranked_board_of_a_window_follows_the_recomputed_history(conn) -> None:
    ids = build(conn, CHAIN)
    count(conn, ids)
    voiding.void_match(conn, "m_000", reason="reported")
    window = Window(START, START + timedelta(days=1))
    query = boards.Query("ranked", mode="2p", window=window)
    ordinal = conn.scalar(select(Rating.ordinal).where(Rating.subject == "p_ada"))
    entry = next(e for e in boards.entries(conn, query) if e["player"] == "p_ada")
    assert entry["value"] == round(ordinal, 2)
