"""Achievements as data: an id, a name, a description and a predicate over one seat's facts.

Each game has its list (``BY_GAME``: Skip's ``ACHIEVEMENTS``, ``SKYJO_ACHIEVEMENTS``), whose
predicates read that game's facts; adding one is adding a row. Each is awarded once per
player, by the match in which its predicate first holds (``award``), and the table announces
it. Career counters in the facts include the match being awarded.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select

from cardroom.bots.levels import LEVELS
from cardroom.league.models import Award

SeatFacts = Any
"""One seat's facts of a finished match, as its game's ``analyse`` counts them; each game's
achievements read that game's counters."""


@dataclass(frozen=True, slots=True)
class Achievement:
    id: str
    name: str
    description: str
    earned: Callable[[SeatFacts], bool]
    game: str = "skip"

    def to_json(self) -> dict[str, str]:
        return {
            "id": self.id,
            "name": self.name,
            "description": self.description,
            "game": self.game,
        }


def strongest_level() -> str | None:
    """The strongest bot level: the registry lists levels from weakest to strongest."""
    return next(reversed(LEVELS), None)


def _won(f: SeatFacts) -> bool:
    """A win against somebody (a solo practice round is not a win over anyone)."""
    return f.won and f.players > 1


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Achievement("first_match", "Pull up a chair", "Finish your first match.",
                lambda f: f.career_matches >= 1),
    Achievement("first_win", "First win", "Win a match against at least one opponent.", _won),
    Achievement("wins_10", "Regular", "Win 10 matches.",
                lambda f: _won(f) and f.career_wins >= 10),
    Achievement("wins_100", "Centurion", "Win 100 matches.",
                lambda f: _won(f) and f.career_wins >= 100),
    Achievement("matches_100", "Veteran", "Finish 100 matches.",
                lambda f: f.career_matches >= 100),
    Achievement("ranked_debut", "Ranked debut", "Finish a ranked match.", lambda f: f.ranked),
    Achievement("hand_sweep", "Full hand sweep",
                "Play all five hand cards in one turn and draw five more (R4.3).",
                lambda f: f.hand_sweeps >= 1),
    Achievement("stock_rush", "Stock rush", "Play five stock cards in one turn.",
                lambda f: f.max_stock_in_turn >= 5),
    Achievement("one_turn_pile", "One to twelve",
                "Build a pile from 1 to 12 within a single turn.",
                lambda f: f.one_turn_piles >= 1),
    Achievement("double_complete", "Double clear", "Complete two building piles in one turn.",
                lambda f: f.max_completed_in_turn >= 2),
    Achievement("marathon_turn", "Marathon turn", "Play fifteen cards in one turn.",
                lambda f: f.max_plays_in_turn >= 15),
    Achievement("wild_trio", "Wild at heart", "Play three wild cards in one turn.",
                lambda f: f.max_wilds_in_turn >= 3),
    Achievement("whitewash", "Whitewash",
                "Win a round while every opponent still holds 20 or more stock cards.",
                lambda f: f.whitewash_rounds_won >= 1),
    Achievement("speed_demon", "Speed demon", "Empty your stock in 10 of your turns or fewer.",
                lambda f: f.fastest_round_win is not None and f.fastest_round_win <= 10),
    Achievement("last_standing", "Last one standing",
                "Win a stalemated round by holding the fewest stock cards (R6.4).",
                lambda f: f.stalemate_rounds_won >= 1),
    Achievement("purist", "Purist", "Win a match without playing a single wild.",
                lambda f: _won(f) and f.wilds_played == 0),
    Achievement("team_win", "Better together", "Win a match with your partner.",
                lambda f: _won(f) and f.team_win),
    Achievement("helping_hand", "Helping hand", "Play your partner's stock card.",
                lambda f: f.partner_stock_played >= 1),
    Achievement("crowd_pleaser", "Crowd pleaser", "Win a match against three or more opponents.",
                lambda f: _won(f) and not f.team_win and f.players >= 4),
    Achievement("machine_tamer", "Machine tamer", "Win a match against a bot.",
                lambda f: _won(f) and bool(f.beat_bot_levels)),
    Achievement("giant_slayer", "Giant slayer", "Win a match against the strongest bot level.",
                lambda f: _won(f) and strongest_level() in f.beat_bot_levels),
    Achievement("five_hundred", "Five hundred", "Win a match played to 500 points.",
                lambda f: _won(f) and f.match_target == 500 and f.points >= 500),
    Achievement("comeback", "Comeback", "Win a match after trailing by 100 points or more.",
                lambda f: _won(f) and f.max_deficit >= 100),
    Achievement("shutout", "Shutout",
                "Win a match of several rounds in which no opponent scored a point.",
                lambda f: _won(f) and f.rounds > 1 and f.opponents_points == 0),
)  # fmt: skip


def _skyjo(id_: str, name: str, description: str, test: Callable[[Any], bool]) -> Achievement:
    return Achievement(f"skyjo_{id_}", name, description, test, game="skyjo")


def _won_skyjo(f: Any) -> bool:
    return f.won and f.players > 1


SKYJO_ACHIEVEMENTS: tuple[Achievement, ...] = (
    _skyjo("first_game", "Grid and bear it", "Finish your first Skyjo game.",
           lambda f: True),
    _skyjo("first_win", "Lowest of all", "Win a Skyjo game against at least one opponent.",
           _won_skyjo),
    _skyjo("column", "Clean column", "Clear a column of three identical cards.",
           lambda f: f.columns_removed >= 1),
    _skyjo("column_hunter", "Column hunter", "Clear three columns in one game.",
           lambda f: f.columns_removed >= 3),
    _skyjo("below_zero", "Below zero", "Finish a round with a negative score.",
           lambda f: f.best_round is not None and f.best_round < 0),
    _skyjo("deep_freeze", "Deep freeze", "Finish a round at -10 or lower.",
           lambda f: f.best_round is not None and f.best_round <= -10),
    _skyjo("clean_close", "Clean close",
           "End a round by turning your last card and keep your score (not doubled).",
           lambda f: f.rounds_closed > f.closer_doubled),
    _skyjo("doubled", "Double trouble", "Close a round and have your score doubled.",
           lambda f: f.closer_doubled >= 1),
    _skyjo("under_fifty", "Light touch", "Win a Skyjo game with a total under 50.",
           lambda f: _won_skyjo(f) and f.points < 50),
    _skyjo("big_table", "Full house", "Win a Skyjo game against five or more opponents.",
           lambda f: _won_skyjo(f) and f.players >= 6),
    _skyjo("machine_tamer", "Bot whisperer", "Win a Skyjo game against a bot.",
           lambda f: _won_skyjo(f) and bool(f.beat_bot_levels)),
)  # fmt: skip

BY_GAME: dict[str, tuple[Achievement, ...]] = {"skip": ACHIEVEMENTS, "skyjo": SKYJO_ACHIEVEMENTS}
EVERY: tuple[Achievement, ...] = tuple(a for listed in BY_GAME.values() for a in listed)
BY_ID: dict[str, Achievement] = {a.id: a for a in EVERY}


def earned(facts: SeatFacts, game: str = "skip") -> list[Achievement]:
    """Every achievement of ``game`` whose predicate holds for this seat's match (awarded or
    not)."""
    return [a for a in BY_GAME.get(game, ()) if a.earned(facts)]


def award(
    conn: Connection,
    player_id: str,
    facts: SeatFacts,
    match_id: str,
    table_id: str,
    now: datetime,
    game: str = "skip",
) -> list[Achievement]:
    """Store the achievements this match earns that the player does not hold yet."""
    held = set(conn.scalars(select(Award.achievement).where(Award.player_id == player_id)))
    new = [a for a in earned(facts, game) if a.id not in held]
    if new:
        conn.execute(
            insert(Award),
            [
                {
                    "player_id": player_id,
                    "achievement": a.id,
                    "match_id": match_id,
                    "table_id": table_id,
                    "awarded_at": now,
                }
                for a in new
            ],
        )
    return new


def player_achievements(conn: Connection, player_id: str) -> list[dict[str, Any]]:
    """The profile's list: every achievement, with when and where it was earned (or not)."""
    rows = {
        r.achievement: r
        for r in conn.execute(select(Award.__table__).where(Award.player_id == player_id))
    }
    out = []
    for a in EVERY:
        row = rows.get(a.id)
        out.append(
            {
                **a.to_json(),
                "earned": row is not None,
                "awarded_at": row.awarded_at if row is not None else None,
                "match_id": row.match_id if row is not None else None,
            }
        )
    return out
