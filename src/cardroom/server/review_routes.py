"""The post-game review over HTTP: a finished match, one seat's turns scored by the game's judge
(``bots.reviews``: Skip's expert, Skyjo's Hard counter) and a round replayed move by move in
that seat's views.

Only once the match is over (``409 not_finished`` before): until then the review would show a
hand. After the end it shows no more than the match's record already does (that seat's own
cards), and every frame is the reviewed seat's view, never another hand.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from cardroom.bots.reviews import REVIEWERS, review_match
from cardroom.games import get_game
from cardroom.games.base import NEXT_ROUND, Game, Step, replay_from
from cardroom.server.limits import client_address, take_all
from cardroom.server.lobby import load_match
from cardroom.store import repository as repo
from cardroom.tables.errors import Refusal

router = APIRouter()

COSTLIEST = 10
REVIEWS_KEPT = 64  # finished reviews kept: a finished match never changes, so neither do they


@router.get("/api/matches/{match_id}/review")
async def match_review(
    request: Request,
    match_id: str,
    seat: int | None = None,
    player: str | None = None,
    round: int = 1,
) -> dict[str, Any]:
    """``seat`` (0-based) or ``player`` (the seat that player held) and the ``round`` to
    replay; the costliest turns are the whole match's."""
    row, moves = await load_match(request, match_id)
    if row["status"] != "finished":
        raise Refusal(409, "not_finished", "a match is reviewed once it is over")
    name = row.get("game") or "skip"
    if name not in REVIEWERS:
        raise Refusal(400, "bad_request", f"{name} matches are not reviewed")
    seats = row["seats"]
    if seat is None and player is not None:
        seat = next((i for i, s in enumerate(seats) if s.get("player_id") == player), None)
        if seat is None:
            raise Refusal(404, "not_found", f"{player!r} did not play match {match_id!r}")
    if seat is None or not 0 <= seat < len(seats):
        raise Refusal(400, "bad_request", f"seat is 0 to {len(seats) - 1}")
    game = get_game(name)
    options = game.options_from_json(row["options"])
    steps = repo.steps_of(moves)
    rounds = 1 + sum(1 for s in steps if s.kind == NEXT_ROUND)
    if not 1 <= round <= rounds:
        raise Refusal(400, "bad_request", f"round is 1 to {rounds}")

    def work() -> dict[str, Any]:
        reviewed = review_match(name, options, row["seed"], steps, seat)
        return {
            **reviewed.to_json(COSTLIEST),
            "frames": frames(game, options, row["seed"], steps, seat, round),
        }

    # A Skip review is seconds of the expert's CPU: each address gets a few per minute, one is
    # computed at a time (``guards.reviewing``), and one already made is served again.
    kept: dict[tuple[str, int, int], dict[str, Any]] = request.app.state.reviews
    key = (match_id, seat, round)
    data = kept.get(key)
    if data is None:
        guards = request.app.state.guards
        take_all([(guards.review_address, client_address(request.scope))], "reviews")
        data = await guards.reviewing.run(work)
        kept[key] = data
        while len(kept) > REVIEWS_KEPT:
            del kept[next(iter(kept))]
    return {
        "match": match_id,
        "game": name,
        "names": [s.get("name") or f"Seat {i + 1}" for i, s in enumerate(seats)],
        "scores": row["scores"],
        "winners": row["winners"],
        "rounds": rounds,
        "round": round,
        **data,
    }


def frames(
    game: Game, options: Any, seed: str, steps: list[Step], seat: int, round_number: int
) -> list[dict[str, Any]]:
    """The round replayed: its deal, then each step, each as ``seat``'s view after it."""
    match = game.new_match(options, seed)
    out = []
    for number, item in enumerate(replay_from(match, steps)):
        if match.round_number != round_number:
            if match.round_number > round_number:
                break
            continue
        step = item.step
        out.append(
            {
                "step": number,
                "seat": None if step is None else step.seat,
                "kind": "deal" if step is None else step.kind,
                "action": None if step is None else step.action,
                "view": match.view(seat).to_json(),
            }
        )
    return out
