"""The daily deal over HTTP (docs/daily.md, docs/protocol.md section "Daily deal").

Nothing of a day's deal leaves the server before the caller registers an attempt: the seed is
the server's (``daily.days``), and an attempt's state is its owner's view alone. A move is
replayed on a worker thread from the stored ones, checked by the rules, and stored over the
count it was played on before it is answered (two tabs cannot both add the next move; the
second is told to reload). Someone else's attempt is shown only to a player who has finished
their own scored attempt at that deal, or once the day is over.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, date, datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from sqlalchemy import Connection
from starlette.concurrency import run_in_threadpool

from cardroom.daily import attempts as repo
from cardroom.daily.attempts import Attempt, AttemptError
from cardroom.daily.days import (
    DayError,
    day_seed,
    number,
    parse_day,
    recent_days,
    today,
)
from cardroom.daily.round import DailyRound, NoDaily, daily_games, rules_of
from cardroom.daily.share import card_svg, share_text
from cardroom.games import get_game
from cardroom.games.base import ReplayError
from cardroom.server.auth import Identity
from cardroom.server.bodies import read_json
from cardroom.server.i18n import language_of, t
from cardroom.server.limits import take_all
from cardroom.server.lobby import identity, viewer
from cardroom.tables.errors import Refusal

router = APIRouter()


def _now(request: Request) -> datetime:
    clock = getattr(request.app.state, "daily_now", None)
    return clock() if clock is not None else datetime.now(UTC)


def _rules(game: str) -> Any:
    try:
        return rules_of(game)
    except (LookupError, NoDaily):
        raise Refusal(404, "not_found", f"no daily deal for {game[:20]!r}") from None


def _day(text: str | None, now: datetime) -> date:
    try:
        return parse_day(text, now)
    except DayError as error:
        raise Refusal(404, "not_found", str(error)) from None


def _limit(request: Request, player: Identity) -> None:
    take_all([(request.app.state.guards.daily_player, player.id)], "daily-deal requests")


async def _db(request: Request, operation: Any) -> Any:
    try:
        return await request.app.state.journal.run(operation)
    except AttemptError as error:
        raise Refusal(error.status, error.code, error.message) from None


def _seed(request: Request, game: str, day: date) -> str:
    return day_seed(request.app.state.daily_secret, game, day)


def _replay(request: Request, attempt: Attempt) -> DailyRound:
    seed = _seed(request, attempt.game, attempt.day)
    return DailyRound(
        attempt.game, attempt.day, seed, practice=not attempt.scored, moves=attempt.moves
    )


@contextlib.asynccontextmanager
async def _replayed(request: Request, attempt: Attempt) -> AsyncIterator[DailyRound]:
    """The attempt replayed on a worker thread (the engine and the bots are CPU work)."""
    round_ = await run_in_threadpool(_replay, request, attempt)
    try:
        yield round_
    finally:
        round_.close()


async def _owned(request: Request, attempt_id: str, player: Identity) -> Attempt:
    attempt = await _db(request, lambda c: repo.get(c, attempt_id[:60]))
    if attempt is None or attempt.player_id != player.id:
        raise Refusal(404, "not_found", "no such attempt of yours")
    return attempt


async def _finished(request: Request, attempt_id: str) -> Attempt:
    attempt = await _db(request, lambda c: repo.get(c, attempt_id[:60]))
    if attempt is None or not attempt.finished:
        raise Refusal(404, "not_found", "no finished attempt with that id")
    return attempt


def _state(attempt: Attempt, round_: DailyRound) -> dict[str, Any]:
    state = round_.state_json()
    state["attempt"] = {**attempt.summary_json(), "moves": len(round_.moves)}
    if round_.over and state["outcome"] is not None:
        rules = round_.rules
        state["share"] = share_text(
            rules.name,
            rules.unit,
            attempt.day,
            state["outcome"],
            state["marks"],
            not attempt.scored,
        )
        state["card"] = f"/api/daily/attempts/{attempt.id}/card.svg"
    return state


def _game_json(game: str) -> dict[str, Any]:
    rules = rules_of(game)
    return {
        "game": game,
        "title": get_game(game).title,
        "name": rules.name,
        "summary": rules.summary,
        "unit": rules.unit,
        "legend": dict(rules.legend),
    }


@router.get("/api/daily")
async def daily_index(request: Request) -> dict[str, Any]:
    """Today's deals, and the caller's attempt and streak at each."""
    now = _now(request)
    day = today(now)
    who = viewer(request)
    games = []
    for game in daily_games():
        entry = _game_json(game)
        if who is not None:

            def mine(c: Connection, game: str = game) -> tuple[Attempt | None, dict[str, int]]:
                return (
                    repo.scored_attempt(c, who.id, game, day),
                    repo.streak(repo.history(c, who.id, game), day),
                )

            attempt, streak = await _db(request, mine)
            entry["mine"] = attempt.summary_json() if attempt else None
            entry["streak"] = streak
        games.append(entry)
    return {"day": day.isoformat(), "number": number(day), "games": games}


@router.post("/api/daily/{game}/attempts")
async def start_attempt(request: Request, game: str) -> dict[str, Any]:
    """Register an attempt: today's scored one (the same one to every tab), practice after it
    or on a past day."""
    player = identity(request)
    _limit(request, player)
    _rules(game)
    body = await read_json(request)
    now = _now(request)
    day = _day(body.get("day"), now)
    attempt, made = await _db(
        request, lambda c: repo.register(c, player.id, game, day, today(now), now)
    )
    async with _replayed(request, attempt) as round_:
        return {**_state(attempt, round_), "made": made}


@router.get("/api/daily/attempts/{attempt_id}")
async def get_attempt(request: Request, attempt_id: str) -> dict[str, Any]:
    player = identity(request)
    attempt = await _owned(request, attempt_id, player)
    async with _replayed(request, attempt) as round_:
        return _state(attempt, round_)


@router.post("/api/daily/attempts/{attempt_id}/moves")
async def play_move(request: Request, attempt_id: str) -> dict[str, Any]:
    """A move at the attempt: ``{"action": {...}, "seq": moves so far}``."""
    player = identity(request)
    _limit(request, player)
    body = await read_json(request)
    action, seq = body.get("action"), body.get("seq")
    if not isinstance(action, dict):
        raise Refusal(400, "bad_request", "action must be a JSON object")
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise Refusal(400, "bad_request", "seq must be the number of moves already played")
    attempt = await _owned(request, attempt_id, player)
    if attempt.finished:
        raise Refusal(409, "finished", "this attempt is over")
    if seq != attempt.seq:
        raise Refusal(409, "stale", "another tab moved first: reload the attempt")

    def play() -> tuple[DailyRound, Any]:
        round_ = _replay(request, attempt)
        return round_, round_.play(action)

    try:
        round_, refusal = await run_in_threadpool(play)
    except ReplayError as error:
        raise Refusal(500, "broken_attempt", str(error)) from None
    try:
        if refusal is not None:
            raise Refusal(400, "illegal_move", refusal.message, refusal.rule or None)
        outcome, marks = round_.outcome(), (round_.marks() if round_.over else None)
        now = _now(request)
        stored = await _db(
            request,
            lambda c: repo.store_moves(c, attempt.id, seq, round_.moves, outcome, marks, now),
        )
        if not stored:
            raise Refusal(409, "stale", "another tab moved first: reload the attempt")
        fresh = await _db(request, lambda c: repo.get(c, attempt.id))
        return _state(fresh, round_)
    finally:
        round_.close()


@router.get("/api/daily/attempts/{attempt_id}/hint")
async def hint(request: Request, attempt_id: str) -> dict[str, Any]:
    """The adviser's next step: at a practice round only (the scored round has hints off)."""
    player = identity(request)
    _limit(request, player)
    attempt = await _owned(request, attempt_id, player)
    async with _replayed(request, attempt) as round_:
        advice = await run_in_threadpool(round_.hint)
    if not isinstance(advice, dict):
        raise Refusal(400, "no_hint", advice.message, advice.rule or None)
    return advice


async def _may_see(request: Request, attempt: Attempt, who: Identity | None) -> bool:
    if who is not None and who.id == attempt.player_id:
        return True
    if attempt.day < today(_now(request)):
        return True
    if who is None:
        return False
    return bool(
        await _db(request, lambda c: repo.finished_scored(c, who.id, attempt.game, attempt.day))
    )


@router.get("/api/daily/attempts/{attempt_id}/record")
async def record(request: Request, attempt_id: str) -> dict[str, Any]:
    """Someone's attempt move by move: for a player who has finished their own at that deal
    (or the day is over). The events are the public ones; the moves are the player's."""
    who = viewer(request)
    attempt = await _finished(request, attempt_id)
    if not await _may_see(request, attempt, who):
        raise Refusal(403, "finish_first", "finish your own attempt at this deal to see others'")
    async with _replayed(request, attempt) as round_:
        return {
            "attempt": attempt.summary_json(),
            "names": round_.session.names,
            "moves": attempt.moves,
            "log": round_.events(),
        }


@router.get("/api/daily/attempts/{attempt_id}/card.svg")
async def card(request: Request, attempt_id: str) -> Response:
    """The finished attempt's image card: its result and marks, no card of the deal."""
    attempt = await _finished(request, attempt_id)
    lang = language_of(request)
    if attempt.result is None:
        result = t(lang, "daily.result.failed")
    elif rules_of(attempt.game).unit == "points":
        result = t(lang, "daily.result.points", count=attempt.result, place=attempt.place)
    else:
        result = t(lang, "daily.result.turns", count=attempt.result)
    game_name = t(lang, f"daily.{attempt.game}.name")
    line = t(lang, "daily.share.line", name=game_name, result=result)
    heading = t(lang, "daily.title_number", number=number(attempt.day))
    svg = card_svg(heading, attempt.day, line, attempt.marks or "")
    headers = {"Cache-Control": "max-age=3600", "Vary": "Accept-Language, Cookie"}
    return Response(svg, media_type="image/svg+xml", headers=headers)


@router.get("/api/daily/{game}/{day}/board")
async def day_board(request: Request, game: str, day: str) -> dict[str, Any]:
    """The day's board: results and marks of claimed accounts (no moves: those are behind
    ``record``)."""
    _rules(game)
    now = _now(request)
    when = _day(day, now)
    ladder = request.app.state.settings.ladder()
    rows = await _db(request, lambda c: repo.board(c, game, when, now, ladder))
    return {"game": game, "day": when.isoformat(), "number": number(when), "board": rows}


@router.get("/api/daily/{game}/archive")
async def archive(request: Request, game: str) -> dict[str, Any]:
    """The past days, playable unscored, with the caller's scored result on each."""
    _rules(game)
    now = _now(request)
    who = viewer(request)
    mine: dict[str, dict[str, Any]] = {}
    if who is not None:
        played = await _db(request, lambda c: repo.history(c, who.id, game))
        mine = {a.day.isoformat(): a.summary_json() for a in played}
    days = [
        {"day": d.isoformat(), "number": number(d), "mine": mine.get(d.isoformat())}
        for d in recent_days(now)
    ]
    return {"game": game, "days": days}


@router.get("/api/daily/me")
async def my_history(request: Request) -> dict[str, Any]:
    """The caller's scored attempts and streak, per game."""
    player = identity(request)
    day = today(_now(request))
    out = {}
    for game in daily_games():
        played = await _db(request, lambda c, game=game: repo.history(c, player.id, game))
        out[game] = {
            "streak": repo.streak(played, day),
            "history": [a.summary_json() for a in played],
        }
    return {"day": day.isoformat(), "games": out}
