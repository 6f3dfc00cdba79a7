"""Divisions: bands of the displayed rating, placement, division boards, trophies to the top
of each division, and promotion and relegation when a season ends (injected clock)."""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import insert, select, update

from cardroom.games.skip import Options
from cardroom.league import divisions, on_match_finished, seasons
from cardroom.league import leaderboards as boards
from cardroom.league.models import DivisionPlace, Rating, RatingHistory, Result, Trophy
from cardroom.league.periods import Window, season_of
from cardroom.store.models import Table as TableRow

from .conftest import NOW, add_player, add_table, played, store_match, winner_first

NOVEMBER = datetime(2026, 11, 20, tzinfo=UTC)
DECEMBER = datetime(2026, 12, 1, 0, 0, 1, tzinfo=UTC)


def test_bands_from_bronze_to_champion() -> None:
    ratings = (-3.0, 0.0, 8.0, 15.9, 16.0, 22.0, 28.0, 45.0)
    names = [divisions.division_of(r).id for r in ratings]
    expected = ["bronze", "bronze", "silver", "silver", "gold", "platinum", "champion"]
    assert names == [*expected, "champion"]


def test_a_provisional_rating_is_not_a_division_yet() -> None:
    assert divisions.is_provisional(divisions.PLACEMENT_MATCHES - 1)
    assert not divisions.is_provisional(divisions.PLACEMENT_MATCHES)
    assert divisions.badge(None, 2) == {"id": "placement", "name": "Placement", "left": 3}


def test_season_end_moves_one_step_at_most() -> None:
    assert divisions.season_end_move("bronze", 30.0) == "silver"  # promoted, one step
    assert divisions.season_end_move("champion", 1.0) == "platinum"  # relegated, one step
    assert divisions.season_end_move("gold", 18.0) == "gold"  # stays in its band


def rate(conn, player: str, ordinal: float, matches: int = 10, mode: str = "2p") -> None:
    """A player's rating now, and its history row in November (the ranked board's source)."""
    add_player(conn, player)
    values = {"mu": ordinal + 3.0, "sigma": 1.0, "ordinal": ordinal}
    conn.execute(
        insert(Rating).values(
            subject=player, game="skip", mode=mode, matches=matches, updated_at=NOVEMBER, **values
        )
    )
    conn.execute(
        insert(RatingHistory).values(
            subject=player,
            game="skip",
            mode=mode,
            match_id="m_" + player,
            table_id="t_x",
            at=NOVEMBER,
            **values,
        )
    )


def test_placement_after_the_placement_matches_then_fixed_for_the_season(conn) -> None:
    rate(conn, "p_new", 20.0, matches=3)
    assert divisions.place_if_ready(conn, "2026-11", "p_new", "skip", "2p", NOVEMBER) is None
    assert divisions.badges(conn, "2026-11", ["p_new"], "skip", "2p")["p_new"]["id"] == "placement"
    conn.execute(Rating.__table__.update().values(matches=5))
    assert divisions.place_if_ready(conn, "2026-11", "p_new", "skip", "2p", NOVEMBER) == "gold"
    conn.execute(Rating.__table__.update().values(ordinal=40.0))  # a hot streak mid-season
    assert divisions.place_if_ready(conn, "2026-11", "p_new", "skip", "2p", NOVEMBER) == "gold"
    badge = divisions.badges(conn, "2026-11", ["p_new"], "skip", "2p")["p_new"]
    assert (badge["id"], badge["rating"]) == ("gold", 40.0)


def test_a_division_board_ranks_its_members_only(conn) -> None:
    for player, ordinal in (("p_a", 21.0), ("p_b", 17.0), ("p_c", 30.0), ("p_d", 19.0)):
        rate(conn, player, ordinal)
        divisions.place_if_ready(conn, "2026-11", player, "skip", "2p", NOVEMBER)
    span = Window(datetime(2026, 11, 1, tzinfo=UTC), DECEMBER)
    gold = divisions.board(conn, "2026-11", "skip", "2p", "gold", span)
    assert [(e["player"], e["rank"]) for e in gold] == [("p_a", 1), ("p_d", 2), ("p_b", 3)]
    champions = divisions.board(conn, "2026-11", "skip", "2p", "champion", span)
    assert [(e["player"], e["rank"]) for e in champions] == [("p_c", 1)]


def test_season_rollover_promotes_relegates_and_gives_each_division_its_trophies(conn) -> None:
    placed = {"p_up": "silver", "p_down": "platinum", "p_stay": "gold", "p_top": "gold"}
    ratings = {"p_up": 25.0, "p_down": 3.0, "p_stay": 17.0, "p_top": 21.0}
    for player, division in placed.items():
        rate(conn, player, ratings[player])
        divisions.put(conn, "2026-11", player, "skip", "2p", division, "placement", NOVEMBER)
    seasons.ensure(conn, seasons.season_of(NOVEMBER))

    assert seasons.roll_over(conn, DECEMBER) == ["2026-11"]

    december = dict(
        conn.execute(
            select(DivisionPlace.player_id, DivisionPlace.how).where(
                DivisionPlace.season_id == "2026-12"
            )
        ).all()
    )
    assert december == {
        "p_up": "promoted",
        "p_down": "relegated",
        "p_stay": "stayed",
        "p_top": "stayed",
    }
    assert divisions.members(conn, "2026-12", "skip", "2p") == {
        "p_up": "gold",
        "p_down": "gold",
        "p_stay": "gold",
        "p_top": "gold",
    }
    trophies = {
        (t.board, t.player_id): t.place
        for t in conn.execute(select(Trophy.__table__).where(Trophy.mode == "2p"))
    }
    # The Silver division's only member wins it, though two Gold players rate higher.
    assert trophies[("silver", "p_up")] == 1
    assert trophies[("gold", "p_top")] == 1
    assert trophies[("gold", "p_stay")] == 2
    assert trophies[("platinum", "p_down")] == 1
    frozen = boards.archived_page(conn, "2026-11", "gold", "2p")
    assert [e["player"] for e in frozen["entries"]] == ["p_top", "p_stay"]
    assert seasons.roll_over(conn, DECEMBER) == []  # once
    # A frozen board is a closed season's: one never played, or still open, is refused.
    for season, status in (("1999-01", 404), ("x" * 500, 404), ("2026-12", 409)):
        seasons.ensure(conn, seasons.season_of(DECEMBER))
        try:
            boards.archived_page(conn, season, "gold", "2p")
        except boards.SeasonNotClosed as refused:
            assert refused.status == status and len(str(refused)) < 120
        else:
            raise AssertionError(f"season {season[:20]!r} was read as frozen")


def test_the_match_that_completes_placement_places_and_unlocks(conn) -> None:
    options = Options(players=2)
    add_table(conn, "t_r", add_player(conn, "p_ada"), options)
    conn.execute(  # four rated matches played already: this one is the fifth
        insert(Rating).values(
            subject="p_ada", game="skip", mode="2p", mu=30.0, sigma=3.0, ordinal=21.0, matches=4
        )
    )
    match = played(options, "placement")
    store_match(conn, match, "m_p", "t_r", winner_first(match, "p_ada", ["easy"]), NOW)
    events = on_match_finished(conn, "m_p")
    (placed,) = [e for e in events if e["kind"] == "division"]
    season = season_of(NOW).id
    assert placed["detail"]["division"]["id"] == divisions.place_of(
        conn, season, "p_ada", "skip", "2p"
    )
    unlocked = {e["detail"]["item"]["id"] for e in events if e["kind"] == "unlock"}
    assert {"laurel", "silver"} <= unlocked  # a first win; Silver (or higher) reached


def test_a_casual_table_is_never_rated(conn) -> None:
    options = Options(players=2)
    add_table(conn, "t_c", add_player(conn, "p_bo"), options)
    conn.execute(update(TableRow).where(TableRow.id == "t_c").values(casual=True))
    match = played(options, "casual")
    store_match(conn, match, "m_c", "t_c", winner_first(match, "p_bo", ["easy"]), NOW)
    events = on_match_finished(conn, "m_c")
    assert not [e for e in events if e["kind"] in ("rating", "division")]
    assert conn.scalar(select(Result.ranked).where(Result.match_id == "m_c")) is False
    assert conn.scalar(select(Rating.matches).where(Rating.subject == "p_bo")) is None
