"""Divisions and rewards over HTTP (``docs/league.md``): badges for the lobby and the table,
division boards, and the player's card backs and themes (chosen here, shown everywhere)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from cardroom.league import divisions, rewards
from cardroom.league.leaderboards import MAX_PAGE_SIZE, SeasonNotClosed, archived_page
from cardroom.league.periods import season_of
from cardroom.league.ratings import MODES
from cardroom.server.bodies import Wear, documented, read
from cardroom.server.league_routes import _now, _read, _roll_over_if_due, _season_months
from cardroom.server.lobby import game_of, identity
from cardroom.tables.errors import Refusal

router = APIRouter()

MAX_BADGES = 8  # a table's seats


def _mode(mode: str) -> str:
    if mode not in MODES:
        raise Refusal(400, "bad_request", f"mode is one of {', '.join(MODES)}")
    return mode


@router.get("/api/badges")
async def badges(
    request: Request,
    mode: str = "2p",
    game: str = "skip",
    player: Annotated[list[str] | None, Query()] = None,
) -> dict[str, Any]:
    """Division badges (this season) and chosen card backs and themes of 1-8 players, in one
    read: what the lobby and the table show beside each name."""
    players = list(dict.fromkeys(player or []))
    if not 1 <= len(players) <= MAX_BADGES:
        raise Refusal(400, "bad_request", f"name 1 to {MAX_BADGES} players")
    game, mode = game_of(game), _mode(mode)
    season = season_of(_now(request), _season_months(request)).id

    def load(conn: Any) -> dict[str, Any]:
        shown = divisions.badges(conn, season, players, game, mode)
        worn = rewards.choices(conn, players)
        return {p: {"division": shown[p], **worn[p]} for p in players}

    return {"season": season, "game": game, "mode": mode, "badges": await _read(request, load)}


@router.get("/api/divisions")
async def division_list() -> dict[str, Any]:
    """The divisions, lowest first, with the rating each starts at."""
    return {
        "divisions": [
            {**d.to_json(), "floor": None if d.step == 0 else d.floor} for d in divisions.DIVISIONS
        ],
        "placement_matches": divisions.PLACEMENT_MATCHES,
    }


@router.get("/api/divisions/{division}")
async def division_board(
    request: Request,
    division: str,
    mode: str = "2p",
    game: str = "skip",
    season: str | None = None,
    size: int = 50,
) -> dict[str, Any]:
    """A division's ranked board: this season's, live, or a closed season's, frozen."""
    if division not in divisions.BY_ID:
        raise Refusal(404, "not_found", f"no division {division!r}")
    if not 1 <= size <= MAX_PAGE_SIZE:
        raise Refusal(400, "bad_request", f"size is 1 to {MAX_PAGE_SIZE}")
    game, mode = game_of(game), _mode(mode)
    await _roll_over_if_due(request)
    if season is not None:
        try:
            frozen = await _read(request, lambda c: archived_page(c, season, division, mode, game))
        except SeasonNotClosed as error:
            code = "not_found" if error.status == 404 else "conflict"
            raise Refusal(error.status, code, str(error)) from None
        return {**frozen, "division": divisions.BY_ID[division].to_json()}
    span = season_of(_now(request), _season_months(request))
    rows = await _read(
        request, lambda c: divisions.board(c, span.id, game, mode, division, span, size)
    )
    return {
        "division": divisions.BY_ID[division].to_json(),
        "season": span.id,
        "game": game,
        "mode": mode,
        "frozen": False,
        "entries": rows,
    }


@router.get("/api/me/rewards")
async def my_rewards(request: Request) -> dict[str, Any]:
    me = identity(request)
    return await _read(request, lambda c: rewards.rewards_json(c, me.id))


@router.put("/api/me/rewards", openapi_extra=documented(Wear))
async def wear(request: Request) -> dict[str, Any]:
    """Choose the card back and theme to show; stored with the player, so every device and
    everyone at the table sees them."""
    me = identity(request)
    data = await read(request, Wear)
    now = _now(request)

    def write(conn: Any) -> str | None:
        try:
            if data.card_back is not None:
                rewards.choose(conn, me.id, "card_back", data.card_back, now)
            if data.theme is not None:
                rewards.choose(conn, me.id, "theme", data.theme, now)
        except rewards.NotUnlocked as error:
            return str(error)
        return None

    refused = await request.app.state.journal.run(write)
    if refused is not None:
        raise Refusal(403, "locked", refused)
    return await _read(request, lambda c: rewards.rewards_json(c, me.id))
