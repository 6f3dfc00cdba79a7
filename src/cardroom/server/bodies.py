"""HTTP request bodies as typed models: checked before a handler acts, and documented on the
OpenAPI page (``/api/docs``).

A body is read once (``read``: size, JSON object), then validated against its model: unknown
fields and wrong types are refused with ``400 bad_request`` naming the field, in the lobby's
own error shape. Meaning (is seat 7 free, is that level known) is for the table to judge.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, TypeVar

from fastapi import Request
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictFloat,
    StrictInt,
    StrictStr,
    StringConstraints,
    ValidationError,
)

from cardroom.tables.errors import Refusal

Seconds = StrictInt | StrictFloat


class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class NewPlayer(Body):
    name: StrictStr | None = Field(None, description="The guest's display name (1-32 characters).")


class Language(Body):
    language: StrictStr | None = Field(
        None, description="en, pl, de or fr; null: follow the browser's languages."
    )


GAME = Field("skip", description="The game (GET /api/games): skip or skyjo.")


class NewTable(Body):
    game: StrictStr = GAME
    seats: StrictInt | None = Field(None, description="Seats at the table (the game's range).")
    public: StrictBool = Field(True, description="Listed in the lobby, or private.")
    name: StrictStr | None = Field(
        None, description="A private table's name: the same name reaches the same table."
    )
    options: dict[str, Any] | None = Field(None, description="House rules (docs/rules.md).")
    abandon_after: Seconds | None = Field(
        None, description="Seconds a table without people stays open."
    )


class NamedTable(Body):
    game: StrictStr = GAME
    name: StrictStr | None = None
    seats: StrictInt | None = None
    options: dict[str, Any] | None = None


class QuickPlay(Body):
    """With ``bots``: a private table against that many bots, started. Without: a seat at a
    waiting public table with people (``seats``, ``options``)."""

    game: StrictStr = GAME
    seats: StrictInt | None = None
    options: dict[str, Any] | None = None
    bots: StrictInt | None = Field(None, description="Bots to play against (1-7).")
    level: StrictStr | None = Field(None, description="The bots' level (GET /api/levels).")


class Seat(Body):
    seat: StrictInt | None = Field(None, description="A seat number (from 0); none: any free.")


class NewBot(Body):
    seat: StrictInt | None = None
    level: StrictStr | None = Field(None, description="A level id (GET /api/levels).")


class TableSettings(Body):
    options: dict[str, Any] | None = None
    abandon_after: Seconds | None = None


class Claim(Body):
    password: StrictStr | None = None
    name: StrictStr | None = None


class SignIn(Body):
    name: StrictStr | None = None
    password: StrictStr | None = None


# -- the score keeper (docs/keeper.md): types here, meaning (is 141 a Skyjo sum?) in the keeper

EntryId = Annotated[StrictStr, StringConstraints(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.:-]{0,63}$")]
ENTRY = Field(
    description="The device's id for this entry (1-64 letters, digits, _ . : -): sent again, "
    "it is applied once."
)
BASED_ON = Field(
    description="The kept game's revision this change was made on; another one since: 409 stale."
)


class NewKeptGame(Body):
    """A kept game with no rounds yet."""

    game: StrictStr = Field(description="skyjo or skip.")
    players: list[StrictStr] = Field(description="2 to 8 names in table order, no two alike.")
    options: dict[str, Any] | None = Field(
        None,
        description="Skyjo: end_score (10-1000, default 100). Skip: match_target (single, 25, "
        "200, 500, 800), stock_size, teams (lists of two names).",
    )
    entry: EntryId | None = Field(
        None, description="The device's id for this game: created once however often sent."
    )


class KeptRound(Body):
    """One round as people enter it, by player name: Skyjo's un-doubled ``sums`` and
    ``closer`` (S6.1), or Skip's ``went_out`` (null: nobody won) and ``stocks`` (S6.3)."""

    sums: dict[StrictStr, StrictInt] | None = Field(None, description="Skyjo: sum by name.")
    closer: StrictStr | None = Field(None, description="Skyjo: who closed the round.")
    went_out: StrictStr | None = Field(None, description="Skip: who went out (null: nobody).")
    stocks: dict[StrictStr, StrictInt] | None = Field(
        None, description="Skip: cards left in each stock not on the winning side, by name."
    )

    def to_json(self) -> dict[str, Any]:
        """The round in the keeper's file form, with only the fields that were sent."""
        return {name: getattr(self, name) for name in self.model_fields_set}


class NewRound(Body):
    entry: EntryId = ENTRY
    round: KeptRound


class EditRound(Body):
    entry: EntryId = ENTRY
    based_on: StrictInt = BASED_ON
    round: KeptRound


class Undo(Body):
    entry: EntryId = ENTRY
    based_on: StrictInt = BASED_ON


class Reorder(Body):
    entry: EntryId = ENTRY
    based_on: StrictInt = BASED_ON
    players: list[StrictStr] = Field(description="The same players in their new order.")


class PasswordChange(Body):
    """An account's new password; every other device is signed out."""

    current_password: StrictStr = Field(description="The password used until now.")
    new_password: StrictStr = Field(description="The new password (8-256 characters).")


class Wear(Body):
    """The card back and table theme to show (each must be unlocked; leave one out to keep it)."""

    card_back: StrictStr | None = Field(None, description="A card back's id (GET /api/me/rewards).")
    theme: StrictStr | None = Field(None, description="A table theme's id.")


class SignOutEverywhere(Body):
    """No fields: every token of the player stops working but the one this answer hands out."""


B = TypeVar("B", bound=Body)


class NewReport(Body):
    """A report of another player: from a table (its kept chat is quoted by the server), a
    profile or a match's record."""

    player: StrictStr = Field(description="The reported player's id.")
    reason: StrictStr = Field(description="chat, name, stalling, cheating or other.")
    table: StrictStr | None = Field(None, description="The table it happened at (quotes its chat).")
    match: StrictStr | None = Field(None, description="The match it happened in.")
    note: StrictStr | None = Field(None, description="What happened, in a few words (<= 500).")


class NewSanction(Body):
    player: StrictStr = Field(description="The sanctioned player's id.")
    kind: StrictStr = Field(description="warn, mute, rank_ban, ban or rename.")
    reason: StrictStr = Field(description="Why: shown to the player (3-500 characters).")
    minutes: Seconds | None = Field(None, description="How long (a mute needs it); none: for good.")
    name: StrictStr | None = Field(None, description="A rename's new name.")
    report: StrictInt | None = Field(None, description="The report this handles (closed with it).")


class Lift(Body):
    reason: StrictStr = Field(description="Why the sanction ends now.")


class ReportDecision(Body):
    status: StrictStr = Field(description="handled or dismissed.")
    outcome: StrictStr = Field(description="The action taken, or why nothing was (3-500).")


class CloseTableOrder(Body):
    reason: StrictStr = Field(description="Why: told to everyone at the table.")


class FairPlayOrder(Body):
    reason: StrictStr = Field(description="Why (3-500 characters; kept in the audit log).")


class Grant(Body):
    player: StrictStr = Field(description="The account's player id.")
    role: StrictStr = Field(description="player, moderator or admin.")
    reason: StrictStr = Field(description="Why (kept in the audit log).")


def documented(model: type[Body]) -> dict[str, Any]:
    """The route's ``openapi_extra``: the body's schema on the API page."""
    schema = model.model_json_schema()
    return {
        "requestBody": {
            "required": False,
            "content": {"application/json": {"schema": schema}},
        }
    }


async def read_json(request: Request) -> dict[str, Any]:
    """The body as a JSON object ({} when empty), within the size limit."""
    raw = await request.body()
    if len(raw) > request.app.state.settings.max_body:
        raise Refusal(413, "too_large", "the request body is too large")
    if not raw.strip():
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise Refusal(400, "bad_request", "the body must be JSON") from None
    if not isinstance(data, dict):
        raise Refusal(400, "bad_request", "the body must be a JSON object")
    if not storable(data):
        raise Refusal(
            400, "bad_request", "the body holds a NUL or an unpaired surrogate (\\u0000, \\ud800)"
        )
    return data


def storable(data: Any) -> bool:
    """No string in ``data`` (keys included) holds a NUL or a lone surrogate: JSON allows
    both, but neither can be stored (PostgreSQL text, UTF-8), so they are refused up front."""
    todo = [data]
    while todo:  # a loop, not recursion: a body may nest thousands deep
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, str) and ("\x00" in item or not _encodes(item)):
            return False
    return True


def _encodes(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


async def read(request: Request, model: type[B]) -> B:
    """The body, checked against ``model``; the first problem refused in one line."""
    data = await read_json(request)
    options = data.get("options")
    if isinstance(options, dict) and "deal" in options and not request.app.state.settings.set_deals:
        raise Refusal(
            400, "bad_options", "set deals are for test servers only (CARDROOM_SET_DEALS=1)"
        )
    try:
        return model.model_validate(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "body"
        if first.get("type") == "extra_forbidden":
            raise Refusal(400, "bad_request", f"unexpected field: {where}") from None
        raise Refusal(400, "bad_request", f"{where}: {first.get('msg', 'invalid')}") from None
