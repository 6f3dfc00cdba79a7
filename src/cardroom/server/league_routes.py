"""The league's HTTP API (``docs/league.md``): accounts, leaderboards, seasons, profiles.

Reads run on their own connection in a worker thread; writes go through the journal like every
other write. Password hashing never runs on the event loop or in the journal's thread.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import cache
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError
from starlette.concurrency import run_in_threadpool

from cardroom.league import accounts, leaderboards, profiles, ratings, seasons
from cardroom.league.achievements import EVERY
from cardroom.league.leaderboards import BoardError
from cardroom.league.lookalikes import is_reserved
from cardroom.league.models import bot_subject
from cardroom.league.periods import system_clock
from cardroom.moderation import sanctions
from cardroom.moderation.sanctions import BAN
from cardroom.server.auth import Identity, banned, clean_name
from cardroom.server.bodies import (
    Claim,
    PasswordChange,
    SignIn,
    SignOutEverywhere,
    documented,
    read,
)
from cardroom.server.bots import levels_json
from cardroom.server.keeper_json import owned_games
from cardroom.server.limits import WorkPool, client_address, take_all
from cardroom.server.lobby import (
    MAX_PAGE,
    auth_of,
    game_of,
    identity,
    reconnect_sockets_of,
    rename_at_tables,
)
from cardroom.server.plot_cache import PlotCache
from cardroom.server.sightings import noting
from cardroom.store import repository as repo
from cardroom.tables.errors import Refusal

router = APIRouter()
T = TypeVar("T")


def _now(request: Request) -> datetime:
    """The league's clock: tests put their own on ``app.state.league_clock``."""
    return getattr(request.app.state, "league_clock", system_clock)()


def _season_months(request: Request) -> int:
    return int(getattr(request.app.state, "league_season_months", 1))


async def _read(request: Request, reader: Callable[[Connection], T]) -> T:
    engine = request.app.state.journal.engine

    def run() -> T:
        with engine.connect() as conn:
            return reader(conn)

    return await run_in_threadpool(run)


async def _roll_over_if_due(request: Request) -> None:
    now, months = _now(request), _season_months(request)
    if await _read(request, lambda c: seasons.due(c, now, months)):
        await request.app.state.journal.run(lambda c: seasons.roll_over(c, now, months))


def _account_error(error: accounts.AccountError) -> Refusal:
    return Refusal(error.status, error.code, error.message)


# -- accounts --------------------------------------------------------------------------------------


@router.post("/api/account/claim", status_code=201, openapi_extra=documented(Claim))
async def claim(request: Request) -> dict[str, Any]:
    """Keep this guest's profile: a password now, sign in on any device later.

    Tokens issued before (a guest token copied elsewhere) stop working: the answer's token is
    the one to keep."""
    me = identity(request)
    data = await read(request, Claim)
    name = clean_name(data.name) if data.name is not None else None
    _limit_passwords(request, me.id)
    try:
        password_hash = await _hashing(request).run(accounts.hash_password, data.password)
    except accounts.AccountError as error:
        raise _account_error(error) from None
    now = _now(request)

    def refusal(conn: Connection) -> accounts.AccountError | None:
        """The usual refusals, found by a read so the writer only meets rare races."""
        if accounts.is_claimed(conn, me.id):
            return accounts.AccountError(409, "conflict", "this player has already claimed a name")
        wanted = name or accounts.player_name(conn, me.id) or me.name
        if is_reserved(wanted):
            return accounts.AccountError(
                409, "conflict", f"the name {wanted!r} {accounts.RESERVED}; choose another"
            )
        if accounts.name_is_claimed(conn, wanted):
            return accounts.AccountError(
                409, "conflict", f"the name {wanted!r} is taken{accounts.TAKEN}"
            )
        return None

    refused = await _read(request, refusal)
    if refused is not None:
        raise _account_error(refused)

    seen = noting(request, me.id)  # the ladder: where the account was claimed, hashed

    def write(conn: Connection) -> dict[str, Any]:
        current = name or accounts.player_name(conn, me.id) or me.name
        claimed = accounts.claim(conn, me.id, password_hash, current, now)
        seen(conn)
        return claimed

    try:
        player = await request.app.state.journal.run(write)
    except accounts.AccountError as error:
        raise _account_error(error) from None
    except IntegrityError:
        raise Refusal(409, "conflict", "that name was just taken; choose another") from None
    auth = auth_of(request)
    auth.changed(me.id)
    issued = Identity(player["id"], player["name"])
    if issued.name != me.name:
        await rename_at_tables(request, issued)
    reconnect_sockets_of(request, me.id)  # the guest token is void now
    return {
        "player": {**issued.to_json(), "claimed": True},
        "token": auth.issue(me.id, player["generation"]),
    }


@router.post("/api/account/signin", openapi_extra=documented(SignIn))
async def sign_in(request: Request) -> dict[str, Any]:
    """The same player id on a new device, with a fresh token."""
    data = await read(request, SignIn)
    name, password = data.name, data.password
    if name is None or password is None:
        raise Refusal(400, "bad_request", "send a name and a password")
    _limit_passwords(request, "name:" + accounts.name_key(name))
    hashing = _hashing(request)
    found = await _read(request, lambda c: accounts.credentials(c, name))
    refused = Refusal(401, "unauthorized", "that name and password do not match an account")
    if found is None:
        await hashing.run(accounts.verify, _dummy_hash(), password)  # same time either way
        raise refused
    player_id, display, password_hash, generation = found
    if not await hashing.run(accounts.verify, password_hash, password):
        raise refused
    now = _now(request)
    ban = (await _read(request, lambda c: sanctions.standing(c, player_id, now))).active(BAN, now)
    if ban is not None:  # said only to whoever knows the password
        raise banned(ban)
    new_hash = None
    if accounts.needs_rehash(password_hash):
        new_hash = await hashing.run(accounts.hash_password, password)
    seen = noting(request, player_id)  # the ladder: where the account signed in, hashed

    def write(conn: Connection) -> None:
        accounts.signed_in(conn, player_id, now, new_hash)
        seen(conn)

    await request.app.state.journal.run(write)
    issued = Identity(player_id, display)
    return {
        "player": {**issued.to_json(), "claimed": True},
        "token": auth_of(request).issue(player_id, generation),
    }


@router.post("/api/account/password", openapi_extra=documented(PasswordChange))
async def change_password(request: Request) -> dict[str, Any]:
    """A new password for the account, given the current one. Every token issued before stops
    working (other devices sign in again with the new password); this one gets a fresh token."""
    me = identity(request)
    data = await read(request, PasswordChange)
    try:
        accounts.check_password(data.new_password)
    except accounts.AccountError as error:
        raise _account_error(error) from None
    found = await _read(request, lambda c: accounts.password_of(c, me.id))
    if found is None:
        raise Refusal(403, "forbidden", "a guest has no password: claim the name first")
    name, old_hash = found
    # Guesses of the current password share the account name's sign-in bucket.
    _limit_passwords(request, "name:" + accounts.name_key(name))
    hashing = _hashing(request)
    if not await hashing.run(accounts.verify, old_hash, data.current_password):
        raise Refusal(403, "forbidden", "the current password is not right")
    new_hash = await hashing.run(accounts.hash_password, data.new_password)
    generation = await request.app.state.journal.run(
        lambda c: accounts.change_password(c, me.id, old_hash, new_hash)
    )
    if generation is None:
        raise Refusal(409, "conflict", "the password was changed meanwhile; try again")
    auth = auth_of(request)
    auth.changed(me.id)
    reconnect_sockets_of(request, me.id)
    return {
        "player": {**me.to_json(), "claimed": True},
        "token": auth.issue(me.id, generation),
    }


@router.post("/api/account/signout-all", openapi_extra=documented(SignOutEverywhere))
async def sign_out_everywhere(request: Request) -> dict[str, Any]:
    """Every token of this player stops working (other devices, a token someone copied);
    the caller gets the one fresh token that still does."""
    me = identity(request)
    await read(request, SignOutEverywhere)
    generation = await request.app.state.journal.run(lambda c: repo.next_token_generation(c, me.id))
    auth = auth_of(request)
    auth.changed(me.id)
    reconnect_sockets_of(request, me.id)
    claimed = await _read(request, lambda c: accounts.is_claimed(c, me.id))
    return {
        "player": {**me.to_json(), "claimed": claimed},
        "token": auth.issue(me.id, generation),
    }


@router.get("/api/account")
async def account(request: Request) -> dict[str, Any]:
    me = identity(request)
    claimed = await _read(request, lambda c: accounts.is_claimed(c, me.id))
    return {"player": {**me.to_json(), "claimed": claimed}}


def _limit_passwords(request: Request, key: str) -> None:
    """Password guesses are slow per name (or player) and per client address."""
    g = request.app.state.guards
    address = client_address(request.scope)
    take_all(((g.signin_name, key), (g.signin_address, address)), "sign-in attempts")


def _hashing(request: Request) -> WorkPool:
    return request.app.state.guards.hashing


@cache
def _dummy_hash() -> str:
    """Unknown names cost a verification too, so timing does not reveal which names exist."""
    return accounts.HASHER.hash("not a password anyone has")


# -- boards and seasons ----------------------------------------------------------------------------


@router.get("/api/leaderboards/{board}")
async def leaderboard(
    request: Request,
    board: str,
    period: str = "all",
    mode: str | None = None,
    table: str | None = None,
    game: str = "skip",
    season: str | None = None,
    page: int = 1,
    size: int = leaderboards.PAGE_SIZE,
) -> dict[str, Any]:
    """A page of a board; ``season=2026-10`` reads a closed season's frozen standings."""
    await _roll_over_if_due(request)
    try:
        if not 1 <= page <= MAX_PAGE:  # a database's offset has 64 bits at most
            raise BoardError(f"pages are numbered 1 to {MAX_PAGE}")
        if season is not None:
            if board not in leaderboards.BOARDS:
                raise BoardError(f"unknown board {board!r}")
            chosen = mode or ("2p" if board == "ranked" else leaderboards.ALL_MODES)
            return await _read(
                request,
                lambda c: leaderboards.archived_page(c, season, board, chosen, game, page, size),
            )
        # Boards filter by public tables only: a private table's id opens nothing.
        if table is not None and not await _read(request, lambda c: repo.is_public_table(c, table)):
            raise Refusal(404, "not_found", "no public table with that id")
        query = leaderboards.query_for(
            board,
            period=period,
            mode=mode,
            table_id=table,
            game=game,
            now=_now(request),
            season_months=_season_months(request),
        )
        return {
            "period": period,
            **await _read(request, lambda c: leaderboards.page(c, query, page, size)),
        }
    except leaderboards.SeasonNotClosed as error:
        code = "not_found" if error.status == 404 else "conflict"
        raise Refusal(error.status, code, str(error)) from None
    except BoardError as error:
        raise Refusal(400, "bad_request", str(error)) from None


@router.get("/api/seasons")
async def season_list(request: Request) -> dict[str, Any]:
    await _roll_over_if_due(request)
    return {"seasons": await _read(request, seasons.seasons_json)}


@router.get("/api/achievements")
async def achievement_list() -> dict[str, Any]:
    return {"achievements": [a.to_json() for a in EVERY]}


@router.get("/api/league/bots")
async def bot_ratings(request: Request) -> dict[str, Any]:
    """How strong each bot level plays, by mode (their ratings from ranked matches)."""

    def read(conn: Connection) -> list[dict[str, Any]]:
        return [
            {**level, "ratings": ratings.ratings_of(conn, bot_subject(level["id"]))}
            for level in levels_json()
        ]

    return {"levels": await _read(request, read)}


MAX_RATED_SUBJECTS = 8  # a table's seats


@router.get("/api/ratings")
async def table_ratings(
    request: Request,
    mode: str,
    game: str = "skip",
    subject: Annotated[list[str] | None, Query()] = None,
) -> dict[str, Any]:
    """The current ratings of a table's people and bot levels (``p_…``, ``bot:easy``) in one
    game and mode, one read: what the table shows beside each seat at a ranked match's start.
    A subject never rated is left out."""
    subjects = list(dict.fromkeys(subject or []))
    if mode not in ratings.MODES:
        raise Refusal(400, "bad_request", f"mode is one of {', '.join(ratings.MODES)}")
    if not 1 <= len(subjects) <= MAX_RATED_SUBJECTS:
        raise Refusal(400, "bad_request", f"name 1 to {MAX_RATED_SUBJECTS} subjects")
    game = game_of(game)
    skills = await _read(request, lambda c: ratings.load(c, subjects, game, mode))
    return {
        "game": game,
        "mode": mode,
        "ratings": {s: round(skill.ordinal, 1) for s, skill in skills.items()},
    }


# -- profiles --------------------------------------------------------------------------------------


@router.get("/api/players/{player_id}/profile")
async def profile(request: Request, player_id: str, game: str = "skip") -> dict[str, Any]:
    """Public; the player's own request (their token) also lists their kept games."""
    found = await _read(request, lambda c: profiles.profile(c, player_id, game))
    if found is None:
        raise Refusal(404, "not_found", f"no player {player_id!r}")
    if _caller_is(request, player_id):
        found["kept_games"] = await _read(request, lambda c: owned_games(c, player_id))
    return found


def _caller_is(request: Request, player_id: str) -> bool:
    if "authorization" not in request.headers:
        return False
    try:
        return identity(request).id == player_id
    except Refusal:
        return False


HISTORY_POINTS = 500  # the newest points of a rating history a page is sent


@router.get("/api/players/{player_id}/ratings/history")
async def rating_history(
    request: Request, player_id: str, mode: str = "2p", game: str = "skip"
) -> dict[str, Any]:
    """A rating's history as numbers, for a chart drawn in the reader's theme and words: the
    newest ``HISTORY_POINTS`` rated matches, oldest first."""
    if mode not in ratings.MODES:
        raise Refusal(400, "bad_request", f"mode is one of {', '.join(ratings.MODES)}")
    history = await _read(request, lambda c: ratings.history_of(c, player_id, game, mode))
    shown = history[-HISTORY_POINTS:]
    first = len(history) - len(shown) + 1
    points = [
        {
            "match": first + i,
            "at": at.isoformat(),
            "mu": round(skill.mu, 3),
            "sigma": round(skill.sigma, 3),
            "rating": round(skill.ordinal, 3),
        }
        for i, (at, skill) in enumerate(shown)
    ]
    return {"player": player_id, "game": game, "mode": mode, "points": points}


@router.get("/api/players/{player_id}/ratings.png")
async def rating_plot(
    request: Request, player_id: str, mode: str = "2p", game: str = "skip"
) -> Response:
    if mode not in ratings.MODES:
        raise Refusal(400, "bad_request", f"mode is one of {', '.join(ratings.MODES)}")
    history = await _read(request, lambda c: ratings.history_of(c, player_id, game, mode))
    # matplotlib takes seconds to import: only a plot request pays for it, never start-up.
    from cardroom.league import plots

    title = f"Rating, {mode}"
    cache: PlotCache = request.app.state.plots
    key = cache.key(game, mode, title, [(at.isoformat(), s.mu, s.sigma) for at, s in history])
    png = await cache.get(key, lambda: plots.rating_png(history, title))
    return Response(png, media_type="image/png", headers={"Cache-Control": "max-age=60"})
