"""Rewards: card backs and table themes, each unlocked by an achievement, a division or a
trophy. An unlock is stored once (``league_unlocks``); the chosen back and theme live on the
player's row in ``league_choices``, so every device (and everyone at the table) sees them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, select
from sqlalchemy.dialects import postgresql, sqlite

from cardroom.league.models import Award, Choice, DivisionPlace, Trophy, Unlock


@dataclass(frozen=True, slots=True)
class Reward:
    """One item: ``kind`` is ``card_back`` or ``theme``; ``rule`` says what unlocks it:
    ``free``, ``achievement:<id>``, ``division:<id>`` (that division or a higher one, in any
    game and mode) or ``trophy`` (any season trophy)."""

    id: str
    kind: str
    name: str
    rule: str

    @property
    def how(self) -> str:
        what, _, arg = self.rule.partition(":")
        if what == "free":
            return "everyone has it"
        if what == "achievement":
            return f"the achievement {arg.replace('_', ' ')}"
        if what == "division":
            return f"reach {arg.title()} in any mode"
        return "a season trophy"

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "name": self.name,
            "how": self.how,
            "rule": self.rule,
        }


CATALOGUE = (
    Reward("classic", "card_back", "Classic red", "free"),
    Reward("laurel", "card_back", "Laurel", "achievement:first_win"),
    Reward("silver", "card_back", "Silver stripes", "division:silver"),
    Reward("gold", "card_back", "Gold stadium", "division:gold"),
    Reward("platinum", "card_back", "Platinum", "division:platinum"),
    Reward("champion", "card_back", "Champion's crown", "division:champion"),
    Reward("trophy", "card_back", "Trophy night", "trophy"),
    # The table's looks (web/js/theme.js): the first three are everyone's.
    Reward("felt", "theme", "Felt green", "free"),
    Reward("midnight", "theme", "Midnight blue", "free"),
    Reward("walnut", "theme", "Walnut", "free"),
    Reward("stadium", "theme", "Stadium lights", "division:gold"),
    Reward("podium", "theme", "Podium gold", "trophy"),
)
BY_ID = {r.id: r for r in CATALOGUE}
DEFAULT = {"card_back": "classic", "theme": "felt"}
STEPS = ("bronze", "silver", "gold", "platinum", "champion")


def _reached(division: str, wanted: str) -> bool:
    return STEPS.index(division) >= STEPS.index(wanted)


def earned(achievements: set[str], divisions: set[str], trophies: int) -> set[str]:
    """The items these facts unlock (the pure rule)."""
    out = set()
    for r in CATALOGUE:
        what, _, arg = r.rule.partition(":")
        if (
            what == "free"
            or (what == "achievement" and arg in achievements)
            or (what == "division" and any(_reached(d, arg) for d in divisions))
            or (what == "trophy" and trophies > 0)
        ):
            out.add(r.id)
    return out


def unlocked(conn: Connection, player: str) -> dict[str, dict[str, Any]]:
    """Item id -> when and why, free items included."""
    rows = conn.execute(select(Unlock.__table__).where(Unlock.player_id == player)).all()
    out = {r.id: {"reason": "free", "at": None} for r in CATALOGUE if r.rule == "free"}
    out.update({u.item: {"reason": u.reason, "at": u.unlocked_at.isoformat()} for u in rows})
    return out


def unlock_earned(conn: Connection, player: str, now: datetime) -> list[Reward]:
    """Store every item the player's achievements, divisions and trophies unlock and they do
    not hold yet; the new ones (each is unlocked once, whichever process gets there first)."""
    achievements = set(conn.scalars(select(Award.achievement).where(Award.player_id == player)))
    divisions = set(
        conn.scalars(select(DivisionPlace.division).where(DivisionPlace.player_id == player))
    )
    trophies = len(conn.scalars(select(Trophy.place).where(Trophy.player_id == player)).all())
    held = set(conn.scalars(select(Unlock.item).where(Unlock.player_id == player)))
    new = [
        BY_ID[i]
        for i in sorted(earned(achievements, divisions, trophies) - held)
        if BY_ID[i].rule != "free"
    ]
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    fresh = []
    for reward in new:
        inserted = conn.execute(
            dialect.insert(Unlock)
            .values(player_id=player, item=reward.id, reason=reward.rule, unlocked_at=now)
            .on_conflict_do_nothing(index_elements=["player_id", "item"])
        ).rowcount
        if inserted:
            fresh.append(reward)
    return fresh


def choices(conn: Connection, players: list[str]) -> dict[str, dict[str, str]]:
    """Each player's chosen card back and theme (the defaults if they chose nothing)."""
    rows = {
        r.player_id: r
        for r in conn.execute(select(Choice.__table__).where(Choice.player_id.in_(players)))
    }
    out = {}
    for p in players:
        r = rows.get(p)
        out[p] = {
            "card_back": (r.card_back if r and r.card_back else DEFAULT["card_back"]),
            "theme": (r.theme if r and r.theme else DEFAULT["theme"]),
        }
    return out


class NotUnlocked(ValueError):
    """A choice of an item the player does not hold, or of no such item."""


def choose(conn: Connection, player: str, kind: str, item: str, now: datetime) -> None:
    """Wear an unlocked item; refused (``NotUnlocked``) otherwise."""
    reward = BY_ID.get(item)
    if reward is None or reward.kind != kind:
        raise NotUnlocked(f"no {kind.replace('_', ' ')} {item!r}")
    if item not in unlocked(conn, player):
        raise NotUnlocked(f"{reward.name} is not unlocked yet: {reward.how}")
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(
        dialect.insert(Choice)
        .values(player_id=player, **{kind: item}, updated_at=now)
        .on_conflict_do_update(index_elements=["player_id"], set_={kind: item, "updated_at": now})
    )


def rewards_json(conn: Connection, player: str) -> dict[str, Any]:
    """The catalogue as this player sees it: what they hold, how to get the rest, their choice."""
    held = unlocked(conn, player)
    saved = conn.execute(
        select(Choice.card_back, Choice.theme).where(Choice.player_id == player)
    ).first()
    return {
        "items": [
            {**r.to_json(), "unlocked": r.id in held, "unlocked_at": held.get(r.id, {}).get("at")}
            for r in CATALOGUE
        ],
        "chosen": choices(conn, [player])[player],
        # What the player chose themselves (None: never), so a device knows whose choice wins.
        "saved": {
            "card_back": saved.card_back if saved else None,
            "theme": saved.theme if saved else None,
        },
    }
