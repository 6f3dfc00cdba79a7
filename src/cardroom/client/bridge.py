"""An outside bot at a server's table: the JSON-lines program of ``docs/bot-protocol.md``,
seated as a player over the table socket (``docs/protocol.md``), as lichess bots play on
lichess through its bot API.

The program sees what it sees in a tournament: ``hello`` once, then per match a ``start``,
every ``move`` at the table, a ``decide`` for each of its decisions, a ``round_over`` and an
``over``; only ever its own seat's view, since the server sends nothing else to a seat (R7.2).
A late or illegal answer loses nothing at once: the table's own turn timer decides (R7.3).
A fast program can outrun the socket's rate limit (``docs/protocol.md``) over a long match:
an action refused for that was never read, so the bridge waits a moment and sends it again.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

from cardroom.bots.external import PROTOCOL, BotProgram
from cardroom.games import get_game

log = logging.getLogger("cardroom.client.bridge")

RATE_LIMITED_PAUSE = 0.25
"""Seconds to wait before sending again an action the socket's rate limit dropped (the limit
refills at 20 messages a second by default: a few are free again by then)."""


@dataclass(slots=True)
class Played:
    """What the bridge did: the matches it finished, its decisions, the answers refused."""

    matches: list[dict[str, Any]] = field(default_factory=list)
    decisions: int = 0
    refused: list[str] = field(default_factory=list)
    name: str = ""


def resolved(view: dict[str, Any]) -> dict[str, Any]:
    """The view with ``options.stock_size`` the stock dealt (R3.2), as in a tournament."""
    options = dict(view.get("options") or {})
    if options.get("stock_size", 0) is None:
        options["stock_size"] = get_game("skip").options_from_json(options).stock
    return {**view, "options": options}


def action_of(event: dict[str, Any]) -> dict[str, Any] | None:
    """A Skip engine event as the action that caused it (``played`` -> ``play`` …); None for
    events that are not moves (a draw, a turn, a completed pile)."""
    kind, detail, seat = event["kind"], event.get("detail") or {}, event.get("seat")
    if kind == "played":
        action: dict[str, Any] = {"type": "play", "from": detail["source"], "to": detail["to"]}
        if detail["source"] == "hand":
            action["card"] = detail["card"]
        elif detail.get("pile") is not None:
            action["pile"] = detail["pile"]
        return action
    if kind == "discarded":
        action = {"type": "discard", "card": detail["card"], "pile": detail["pile"]}
        if detail.get("owner") not in (None, seat):
            action["partner"] = True
        return action
    return {"passed": {"type": "pass"}, "timed_out": {"type": "timeout"}}.get(kind)


async def play_at_table(
    server: str,
    table_id: str,
    args: list[str],
    *,
    name: str = "Bot",
    matches: int = 1,
    timeout: float = 5.0,
    log_dir: Path | None = None,
) -> Played:
    """Join ``table_id`` as ``name`` and let the program play ``matches`` matches there."""
    played = Played()
    async with httpx.AsyncClient(base_url=server, timeout=30) as http:
        answer = await http.post("/api/players", json={"name": name})
        answer.raise_for_status()
        token = answer.json()["token"]
        http.headers["Authorization"] = f"Bearer {token}"
        joined = await http.post(f"/api/tables/{table_id}/join")
        joined.raise_for_status()
        program = await asyncio.to_thread(
            BotProgram, args, game="skip", timeout=timeout, label=name, log_dir=log_dir
        )
        played.name = program.name or name
        try:
            await _play(server, table_id, token, program, matches, played)
        finally:
            await asyncio.to_thread(program.close)
    return played


async def _play(
    server: str, table_id: str, token: str, program: BotProgram, matches: int, played: Played
) -> None:
    """Play at the table until ``matches`` matches have ended."""
    url = server.replace("http", "ws", 1) + f"/ws/tables/{table_id}"
    async with websockets.connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        seat: int | None = None
        match: str | None = None
        decided_at = -1
        actions = 0
        unanswered: str | None = None  # the last action sent, until the table answers it
        ended: set[str] = set()  # the matches whose end the program was told
        async for text in ws:
            message = json.loads(text)
            kind = message["type"]
            if kind == "welcome":
                seat = message["seat"]
                continue
            if kind == "error" and message["code"] == "rate_limited":
                if unanswered is not None:  # dropped unplayed: the same action, once more
                    await asyncio.sleep(RATE_LIMITED_PAUSE)
                    await ws.send(unanswered)
                continue
            if message.get("ack") is not None or message.get("id") is not None:
                unanswered = None
            if kind == "error":
                if message.get("id"):
                    played.refused.append(f"{message['code']}: {message['message']}")
                    decided_at = -1  # decide again on the newest position
                continue
            if kind not in ("event", "sync"):
                continue
            view = message.get("view")
            if view is not None:
                view = resolved(view)
            running = (message.get("table") or {}).get("match")
            if kind == "sync" and view is not None and running and running["id"] != match:
                # Seated after the match began (or back after a lost connection): the
                # program learns of it from here, as from ``match_started``.
                match, seat = running["id"], view["seat"]
                program.send(_start(match, seat, len(running["seats"]), view))
            if kind == "sync" and running and running.get("over") and running["id"] not in ended:
                # It ended before the socket opened (a seat that won its first turn, a lost
                # connection): no ``match_over`` event comes, the Table says it.
                ended.add(running["id"])
                told = {key: running.get(key) for key in ("winners", "scores")}
                _over(program, played, running["id"], seat, {"match": running["id"], **told})
                if len(played.matches) >= matches:
                    return
            for event in message.get("events") or []:
                if event["kind"] == "match_started":
                    match = event["detail"]["match"]
                    seat = view["seat"] if view else seat
                    program.send(_start(match, seat, len(event["detail"]["seats"]), view))
                elif event["kind"] == "round_summary" and view is not None:
                    program.send(
                        {
                            "type": "round_over",
                            "game_id": match,
                            "round": event["detail"]["round"],
                            "view": view,
                        }
                    )
                elif event["kind"] == "match_over" and match not in ended:
                    ended.add(match or "")
                    _over(program, played, match, seat, event["detail"])
                    if len(played.matches) >= matches:
                        return
                else:
                    action = action_of(event)
                    if action is not None:
                        round_number = message.get("round")
                        move = {"type": "move", "game_id": match, "round": round_number}
                        program.send({**move, "seat": event.get("seat"), "action": action})
            legal = message.get("legal") or []
            if not legal or view is None or message["seq"] <= decided_at:
                continue
            decided_at = message["seq"]
            request = {
                "type": "decide",
                "protocol": PROTOCOL,
                "game_id": match,
                "seed": match,
                "view": view,
                "legal": legal,
            }
            line, why = await asyncio.to_thread(program.ask, request)
            played.decisions += 1
            if line is None:
                log.warning("%s did not decide: %s", played.name, why)
                continue
            actions += 1
            try:
                action = json.loads(line)
            except json.JSONDecodeError:
                played.refused.append(f"not JSON: {line.strip()[:80]}")
                continue
            unanswered = json.dumps(
                {"type": "action", "id": f"b{actions}", "action": action, "after": message["seq"]}
            )
            await ws.send(unanswered)


def _over(
    program: BotProgram, played: Played, match: str | None, seat: int | None, detail: dict[str, Any]
) -> None:
    """Tell the program ``match`` ended (``detail``: its winners and scores), and count it."""
    winners = detail.get("winners") or []
    program.send(
        {
            "type": "over",
            "game_id": match,
            "seat": seat,
            "winners": winners,
            "scores": detail.get("scores") or [],
            "won": seat in winners,
        }
    )
    played.matches.append(detail)


def _start(
    match: str, seat: int | None, players: int, view: dict[str, Any] | None
) -> dict[str, Any]:
    """The program's ``start`` line for ``match``; its seed is the match id, which
    reveals nothing of the deal (R7.2)."""
    options = dict((view or {}).get("options") or {})
    return {
        "type": "start",
        "game_id": match,
        "seat": seat,
        "players": players,
        "options": options,
        "seed": match,
    }
