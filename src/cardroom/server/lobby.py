"""The HTTP lobby (``docs/protocol.md`` section 3): players, tables, seats, matches, records.

Handlers check the caller and the body, then hand the change to the table's actor, which
answers or refuses with a reason.
"""

from __future__ import annotations

import contextlib
import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from cardroom.bots.levels import levels_for
from cardroom.games import GAMES, get_game
from cardroom.league import accounts, ladder
from cardroom.league.lookalikes import is_reserved
from cardroom.server.actor import RECONNECT, TableActor
from cardroom.server.auth import STATE_KEY, Auth, Identity, caller, clean_name, new_player_id
from cardroom.server.bodies import (
    NamedTable,
    NewBot,
    NewPlayer,
    NewTable,
    QuickPlay,
    Seat,
    TableSettings,
    documented,
    read,
)
from cardroom.server.bots import levels_json
from cardroom.server.limits import Guards, client_address, take_all
from cardroom.server.privacy import Invitations, check_visible, shown_to
from cardroom.server.registry import MAX_TABLE_NAME, Tables, check_options
from cardroom.server.sightings import noting
from cardroom.store import repository as repo
from cardroom.tables.errors import Refusal
from cardroom.tables.lobby import check_abandon_after

router = APIRouter()

MAX_PAGE = 1_000_000  # page numbers beyond any listing, yet small enough for any arithmetic


# -- helpers ---------------------------------------------------------------------------------------


def tables_of(request: Request) -> Tables:
    return request.app.state.tables


def identity(request: Request) -> Identity:
    """The calling player, with the name the store holds (``auth.Authenticate`` checked the
    token); ``401`` without a token, or with one that is forged, expired or revoked."""
    return caller(request.scope)


def auth_of(request: Request) -> Auth:
    return request.app.state.auth


async def rename_at_tables(request: Request, player: Identity) -> None:
    """Show the player's new name at once at this process's tables where they sit or own."""
    for actor in list(tables_of(request).by_id.values()):
        if actor.seat_of(player.id) is not None or actor.owner.id == player.id:
            with contextlib.suppress(Refusal):  # the table closed meanwhile
                await actor.ask(actor.rename_player, player)


def reconnect_sockets_of(request: Request, player_id: str) -> int:
    """Close the player's sockets at this process's tables with "reconnect" (1012), after
    their tokens were voided: the player's own devices come back with their new token, a
    copied old token is refused at its next hello. (Other processes' sockets stay until they
    reconnect; their hello is checked against the store.)"""
    closed = 0
    for actor in list(tables_of(request).by_id.values()):
        for conn in actor.connections:
            if getattr(conn, "player_id", None) == player_id:
                conn.close(RECONNECT)
                closed += 1
    return closed


def viewer(request: Request) -> Identity | None:
    """The caller, if they sent a token (reading a table needs none)."""
    return identity(request) if request.headers.get("authorization") else None


def invitations(request: Request) -> Invitations:
    return request.app.state.invitations


def answer(
    request: Request,
    actor: TableActor,
    status: int = 200,
    *,
    to: Identity | None,
    knows: bool = False,
    **extra: Any,
) -> JSONResponse:
    """The table as ``to`` may see it (a private table's name and invitation only for its
    people, or for ``knows``: one who came through its name), with ``extra`` fields."""
    table = shown_to(actor.info(), to, invitations(request), knows=knows)
    return JSONResponse({"table": table, **extra}, status_code=status)


async def visible_table(request: Request, table_id: str, player: Identity | None) -> Any:
    """The table, if this caller may see it: a private one only for its people and whoever
    holds its invitation (``?invite=``); to anyone else it does not exist (404)."""
    actor = await tables_of(request).find(table_id)
    check_visible(actor.info(), player, request.query_params.get("invite"), invitations(request))
    return actor


def guards(request: Request) -> Guards:
    return request.app.state.guards


def limit_creating(request: Request, player: Identity) -> None:
    """Tables made by one player, and from one client address, come at a bounded rate."""
    g = guards(request)
    address = client_address(request.scope)
    take_all(((g.create_player, player.id), (g.create_address, address)), "new tables")


def limit_named(request: Request, player: Identity) -> None:
    """Each named-table lookup may open a table, and guessing names must stay slow."""
    g = guards(request)
    address = client_address(request.scope)
    take_all(((g.named_player, player.id), (g.named_address, address)), "table name lookups")


async def check_lifetime(request: Request, player: Identity, abandon_after: Any) -> None:
    """A guest's table may stay open without people for ``guest_max_abandon_after`` seconds at
    most (an account's for the whole range): forgotten tables do not pile up for days."""
    cap = request.app.state.settings.guest_max_abandon_after
    if abandon_after is None or check_abandon_after(abandon_after) <= cap:
        return
    if not await request.app.state.journal.run(lambda c: accounts.is_claimed(c, player.id)):
        raise Refusal(
            400,
            "bad_request",
            f"a guest's table stays open at most {cap:.0f} seconds without people "
            "(abandon_after); claim an account for longer",
        )


# -- players ---------------------------------------------------------------------------------------


def name_claimed(name: str) -> Refusal:
    """A guest may not take a name someone claimed with a password (nor one that looks the
    same): they should sign in."""
    return Refusal(
        409,
        "name_claimed",
        f"the name {name!r} belongs to an account (or looks like one that does): sign in "
        "with its password (POST /api/account/signin), or choose another name",
    )


def check_not_reserved(name: str) -> None:
    """The bots' level names (``Easy``, ``Master``), ``admin`` and ``moderator`` are nobody's,
    in any case and however spelled to look the same (``lookalikes.is_reserved``)."""
    if is_reserved(name):
        raise Refusal(
            409,
            "name_reserved",
            f"the name {name!r} is reserved (the bots' level names, admin and moderator are "
            "nobody's): choose another name",
        )


@router.post("/api/players", status_code=201, openapi_extra=documented(NewPlayer))
async def create_player(request: Request) -> dict[str, Any]:
    name = clean_name((await read(request, NewPlayer)).name)
    # Each guest has its own buckets: making guests is bounded too, or those would not hold.
    take_all([(guards(request).players_address, client_address(request.scope))], "new players")
    check_not_reserved(name)
    player_id = new_player_id()
    seen = noting(request, player_id)  # the ladder: where this guest came from, hashed

    def insert(c: Any) -> dict[str, Any] | None:
        # Checked in the same transaction as the insert, so a claim cannot slip in between.
        if accounts.name_is_claimed(c, name):
            return None
        row = repo.insert_player(c, player_id, name)
        seen(c)
        return row

    row = await request.app.state.journal.run(insert)
    if row is None:
        raise name_claimed(name)
    player = Identity(player_id, name)
    return {
        "player": {**player.to_json(), "created_at": repo.iso(row["created_at"])},
        "token": auth_of(request).issue(player_id, 0),
    }


@router.get("/api/me")
async def me(request: Request) -> dict[str, Any]:
    """Who the token's player is now (the stored name), and a fresh token with a new expiry:
    a client that asks now and then stays signed in while it is used."""
    player = identity(request)
    return {"player": player.to_json(), "token": await auth_of(request).reissue(player.id)}


@router.patch("/api/me", openapi_extra=documented(NewPlayer))
async def rename(request: Request) -> dict[str, Any]:
    """A guest's new display name: the same player id (seats, results stay).

    Names are read from the store, so every token of the player, old ones too, now plays under
    the new name; the tables where the player sits show it at once. A fresh token comes along
    (as before names left tokens). An account's name is its sign-in name: it stays."""
    me_ = identity(request)
    name = clean_name((await read(request, NewPlayer)).name)
    check_not_reserved(name)

    def write(c: Any) -> str | None:
        if accounts.is_claimed(c, me_.id):
            return "account"
        if accounts.name_is_claimed(c, name, me_.id):
            return "taken"
        return None if repo.rename_player(c, me_.id, name) else "unknown"

    refused = await request.app.state.journal.run(write)
    if refused == "account":
        raise Refusal(
            403,
            "forbidden",
            "this player has an account: its name is the one you sign in with and stays",
        )
    if refused == "taken":
        raise name_claimed(name)
    if refused == "unknown":
        raise Refusal(404, "not_found", "this player is not known here; choose a name again")
    auth = auth_of(request)
    auth.changed(me_.id)
    renamed = Identity(me_.id, name)
    await rename_at_tables(request, renamed)
    return {"player": renamed.to_json(), "token": await auth.reissue(me_.id)}


@router.get("/api/levels")
async def levels(game: str = "skip") -> dict[str, Any]:
    """The bot levels people may seat at a table of ``game``."""
    return {"levels": levels_json(game_of(game))}


@router.get("/api/ranked")
async def ranked(request: Request, game: str = "skip", options: str = "{}") -> dict[str, Any]:
    """Whether a match with these rules (``options``: the house rules as JSON, with
    ``players``) would be ranked, and in which rating pool: what quick play says before a
    table exists (the same judgement as the Table's ``ranked``). A question, so a GET.

    Asked with a token, the answer also says whether the ladder would rate the caller
    (``rated``; ``why`` not, in words): ranked rules alone do not rate a guest or an
    account with too few casual matches (docs/league.md, "Ladder rules")."""
    try:
        wanted = json.loads(options)
    except ValueError:
        raise Refusal(400, "bad_options", "options must be a JSON object") from None
    rules = get_game(game_of(game))
    checked = check_options(None, wanted, rules.name)
    is_ranked = rules.is_ranked(checked)
    answer: dict[str, Any] = {
        "ranked": is_ranked,
        "mode": rules.rating_mode(checked) if is_ranked else None,
    }
    asker = request.scope.get("state", {}).get(STATE_KEY)
    ladder_rules = request.app.state.settings.ladder()
    if is_ranked and isinstance(asker, Identity) and ladder_rules is not None:
        refused = await request.app.state.journal.run(
            lambda conn: ladder.refusal(conn, asker.id, ladder_rules)
        )
        answer["rated"] = refused is None
        answer["why"] = None if refused is None else refused["message"]
    return answer


@router.get("/api/games")
async def games() -> dict[str, Any]:
    """The games tables are made for, with their seat range and named option sets."""
    return {
        "games": [
            {
                "name": g.name,
                "title": g.title,
                "min_players": g.min_players,
                "max_players": g.max_players,
                "presets": g.preset_options(),
            }
            for g in GAMES.values()
        ]
    }


def game_of(name: str) -> str:
    """A game's registry name, or a refusal listing the games there are."""
    try:
        return get_game(name).name
    except LookupError as error:
        raise Refusal(400, "bad_request", str(error)) from None


# -- tables ----------------------------------------------------------------------------------------


STATUS_ORDER = {"waiting": 0, "playing": 1, "finished": 2}


def listing_order(info: dict[str, Any]) -> tuple[int, str, str]:
    """Waiting tables with a free seat first, then by status; older tables first in each."""
    free = info["status"] == "waiting" and info["free_seats"] > 0
    rank = 0 if free else 1 + STATUS_ORDER.get(info["status"], 3)
    return rank, info.get("created_at") or "", info["id"]


@router.get("/api/tables")
async def list_tables(
    request: Request, page: int = 1, per_page: int | None = None
) -> dict[str, Any]:
    """A page of the open public tables (``per_page`` up to ``lobby_max_page_size``)."""
    settings = request.app.state.settings
    size = settings.lobby_page_size if per_page is None else per_page
    if not 1 <= page <= MAX_PAGE:
        raise Refusal(400, "bad_request", f"pages are numbered 1 to {MAX_PAGE}")
    if not 1 <= size <= settings.lobby_max_page_size:
        raise Refusal(400, "bad_request", f"per_page is 1 to {settings.lobby_max_page_size} tables")
    infos = sorted(await tables_of(request).listing(), key=listing_order)
    start = (page - 1) * size
    return {
        "tables": infos[start : start + size],
        "total": len(infos),
        "page": page,
        "per_page": size,
    }


@router.post("/api/tables", openapi_extra=documented(NewTable))
async def create_table(request: Request) -> JSONResponse:
    player = identity(request)
    data = await read(request, NewTable)
    name = data.name
    if name is not None:
        name = clean_name(name, MAX_TABLE_NAME, "a table name")
    tables = tables_of(request)
    game = game_of(data.game)
    if name is not None and not data.public:
        limit_named(request, player)
        actor, seat, created = await tables.named(player, name, data.seats, data.options, game)
        return answer(
            request,
            actor,
            201 if created else 200,
            to=player,
            knows=True,
            seat=seat,
            created=created,
        )
    await check_lifetime(request, player, data.abandon_after)
    limit_creating(request, player)
    actor = await tables.create(
        player,
        seats=data.seats,
        options=data.options,
        public=data.public,
        name=name,
        abandon_after=data.abandon_after,
        game=game,
    )
    seat = await actor.ask(actor.join, player, None)
    return answer(request, actor, 201, to=player, seat=seat, created=True)


@router.post("/api/tables/named", openapi_extra=documented(NamedTable))
async def named_table(request: Request) -> JSONResponse:
    player = identity(request)
    data = await read(request, NamedTable)
    limit_named(request, player)
    actor, seat, created = await tables_of(request).named(
        player, data.name, data.seats, data.options, game_of(data.game)
    )
    return answer(
        request, actor, 201 if created else 200, to=player, knows=True, seat=seat, created=created
    )


MAX_QUICK_BOTS = 7


@router.post("/api/quickplay", openapi_extra=documented(QuickPlay))
async def quickplay(request: Request) -> JSONResponse:
    """Quick play: with ``bots``, a private table against bots, started, in one call (instead
    of create + n x bots + start); without, a seat at a waiting public table with people."""
    player = identity(request)
    data = await read(request, QuickPlay)
    limit_creating(request, player)  # it may make a table (with bots, it always does)
    if data.bots is not None:
        if data.seats is not None:
            raise Refusal(
                400,
                "bad_request",
                "unexpected field: seats (with bots, the seats are the bots + 1)",
            )
        return await _quickplay_bots(request, player, data)
    if data.level is not None:
        raise Refusal(400, "bad_request", "unexpected field: level (only with bots)")
    actor, seat, created = await tables_of(request).quickplay(
        player, data.seats, data.options, game_of(data.game)
    )
    return answer(request, actor, 201 if created else 200, to=player, seat=seat, created=created)


async def _quickplay_bots(request: Request, player: Identity, data: QuickPlay) -> JSONResponse:
    count, level, game = data.bots, data.level or "easy", game_of(data.game)
    if count is None or not 1 <= count <= MAX_QUICK_BOTS:
        raise Refusal(400, "bad_request", f"bots is a number from 1 to {MAX_QUICK_BOTS}")
    levels = levels_for(game)
    if level not in levels:
        choose = ", ".join(levels) or "none: this game has no bots yet"
        raise Refusal(400, "bad_request", f"level is one of {choose}")
    options = data.options
    if isinstance(options, dict) and options.get("players", count + 1) != count + 1:
        raise Refusal(400, "bad_request", "options.players must be bots + 1 (or left out)")
    check_options(count + 1, options, game)  # refused before any table exists
    tables = tables_of(request)
    actor = await tables.create(player, seats=count + 1, options=options, public=False, game=game)
    seat = await actor.ask(actor.join, player, None)
    await actor.ask(actor.fill_with_bots, player, level)
    await actor.ask(actor.start, player, False)
    return answer(request, actor, 201, to=player, seat=seat, created=True)


@router.get("/api/tables/{table_id}")
async def get_table(request: Request, table_id: str) -> JSONResponse:
    who = viewer(request)
    return answer(request, await visible_table(request, table_id, who), to=who)


@router.post("/api/tables/{table_id}/join", openapi_extra=documented(Seat))
async def join(request: Request, table_id: str) -> JSONResponse:
    player = identity(request)
    data = await read(request, Seat)
    actor = await visible_table(request, table_id, player)
    seat = await actor.ask(actor.join, player, data.seat)
    return answer(request, actor, to=player, seat=seat)


@router.post("/api/tables/{table_id}/leave")
async def leave(request: Request, table_id: str) -> JSONResponse:
    return await _by_player(request, table_id, "leave")


@router.post("/api/tables/{table_id}/bots", openapi_extra=documented(NewBot))
async def add_bot(request: Request, table_id: str) -> JSONResponse:
    player = identity(request)
    data = await read(request, NewBot)
    actor = await visible_table(request, table_id, player)
    seat = await actor.ask(actor.add_bot, player, data.seat, data.level)
    return answer(request, actor, to=player, seat=seat)


@router.delete("/api/tables/{table_id}/seats/{seat}")
async def clear_seat(request: Request, table_id: str, seat: int) -> JSONResponse:
    return await _by_player(request, table_id, "clear_seat", seat)


@router.patch("/api/tables/{table_id}", openapi_extra=documented(TableSettings))
async def configure(request: Request, table_id: str) -> JSONResponse:
    player = identity(request)
    data = await read(request, TableSettings)
    actor = await visible_table(request, table_id, player)
    await check_lifetime(request, player, data.abandon_after)
    await actor.ask(actor.configure, player, data.options, data.abandon_after)
    return answer(request, actor, to=player)


async def _by_player(request: Request, table_id: str, operation: str, *args: Any) -> JSONResponse:
    """Run one of the table actor's operations for the caller and answer with the table."""
    player = identity(request)
    actor = await visible_table(request, table_id, player)
    await actor.ask(getattr(actor, operation), player, *args)
    return answer(request, actor, to=player)


@router.post("/api/tables/{table_id}/start")
async def start(request: Request, table_id: str) -> JSONResponse:
    return await _by_player(request, table_id, "start", False)


@router.post("/api/tables/{table_id}/rematch")
async def rematch(request: Request, table_id: str) -> JSONResponse:
    return await _by_player(request, table_id, "start", True)


@router.post("/api/tables/{table_id}/rematch/decline")
async def decline_rematch(request: Request, table_id: str) -> JSONResponse:
    return await _by_player(request, table_id, "decline_rematch")


@router.post("/api/tables/{table_id}/skip")
async def skip(request: Request, table_id: str) -> JSONResponse:
    return await _by_player(request, table_id, "skip")


@router.post("/api/tables/{table_id}/evict", openapi_extra=documented(Seat))
async def evict(request: Request, table_id: str) -> JSONResponse:
    player = identity(request)
    data = await read(request, Seat)
    actor = await visible_table(request, table_id, player)
    await actor.ask(actor.evict, player, data.seat)
    return answer(request, actor, to=player)


# -- matches ---------------------------------------------------------------------------------------


async def load_match(request: Request, match_id: str) -> tuple[dict[str, Any], list[Any]]:
    def load(c: Any) -> tuple[Any, Any]:
        row = repo.get_match(c, match_id)
        return row, (repo.match_moves(c, match_id) if row else [])

    row, moves = await request.app.state.journal.run(load)
    if row is None:
        raise Refusal(404, "not_found", f"no match {match_id!r}")
    return row, moves


@router.get("/api/matches/{match_id}")
async def get_match(request: Request, match_id: str) -> dict[str, Any]:
    row, _moves = await load_match(request, match_id)
    public = await request.app.state.journal.run(lambda c: repo.is_public_table(c, row["table_id"]))
    return {
        "match": {
            "id": row["id"],
            "table_id": row["table_id"] if public else None,  # private tables stay private
            "status": row["status"],
            "options": row["options"],
            "seats": row["seats"],
            "scores": row["scores"],
            "winners": row["winners"],
            "rounds": row["rounds"],
            "created_at": repo.iso(row["created_at"]),
            "finished_at": repo.iso(row["finished_at"]),
        }
    }


@router.get("/api/matches/{match_id}/record")
async def match_record(request: Request, match_id: str) -> dict[str, Any]:
    """The game record ``cardroom replay`` reads; it shows every card, so only after the end."""
    row, moves = await load_match(request, match_id)
    if row["status"] != "finished":
        raise Refusal(
            409, "not_finished", "the record holds hidden cards: it is shown once the match is over"
        )
    game = get_game(row.get("game") or "skip")
    seats = [
        {"name": s.get("name"), "player_id": s.get("player_id"), "bot": s.get("bot")}
        for s in row["seats"]
    ]
    options = game.options_from_json(row["options"])
    return game.record(options, row["seed"], repo.steps_of(moves), seats)
