"""The daily deal in the terminal: the table of ``cardroom play`` around a day's attempt,
played here (``LocalDaily``, the deal of this machine's own server database, unscored) or at a
server through ``/api/daily`` (``RemoteDaily``, scored on its board for a signed-in account).

Both give the app what a ``PlaySession`` gives it: the person's view, the legal moves, the
told events, a hint and a move that is refused or played. Neither knows the day's seed
remotely: the server keeps it, and the terminal sees what the web page sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

import httpx
from rich.console import Group, RenderableType
from rich.text import Text

from cardroom.daily.days import number
from cardroom.daily.round import DailyRound, rules_of
from cardroom.daily.share import share_text
from cardroom.games import get_game
from cardroom.games.daily import DailyRules
from cardroom.sim.session import Refusal, Told
from cardroom.terminal.app import PlayApp, Summary

TIMEOUT = 30.0


class DailyError(Exception):
    """The server refused or could not be reached: the words say which."""


class LocalDaily:
    """A day's deal played on this machine from its own secret: nothing is stored."""

    def __init__(self, day_round: DailyRound) -> None:
        self.round = day_round
        session = day_round.session
        self.game, self.game_name, self.names = session.game, session.game_name, session.names
        self.rules: DailyRules = day_round.rules
        self.day, self.practice = day_round.day, True

    @property
    def match(self) -> Any:
        return self.round.session.match

    @property
    def told(self) -> list[Told]:
        return self.round.session.told

    @property
    def my_turn(self) -> bool:
        return self.round.session.my_turn and not self.round.over

    @property
    def over(self) -> bool:
        return self.round.over

    def view(self) -> dict[str, Any]:
        return self.round.session.view()

    def legal(self) -> list[dict[str, Any]]:
        return [] if self.round.over else self.round.session.legal()

    def hint(self) -> dict[str, Any] | Refusal:
        return self.round.hint()

    def play(self, action: dict[str, Any]) -> Refusal | None:
        return self.round.play(action)

    def outcome(self) -> dict[str, Any] | None:
        outcome = self.round.outcome()
        return outcome.to_json() if outcome else None

    def share(self) -> str | None:
        outcome = self.outcome()
        if outcome is None:
            return None
        return share_text(
            self.rules.name, self.rules.unit, self.day, outcome, self.round.marks(), True
        )

    def next_round(self) -> None:
        raise ValueError("a daily deal is one round")

    def close(self) -> None:
        self.round.close()


@dataclass(slots=True)
class _Progress:
    """What the app reads of a match, from a remote attempt's state."""

    state: dict[str, Any]

    @property
    def round_number(self) -> int:
        return 1

    @property
    def over(self) -> bool:
        return bool(self.state["over"])

    @property
    def between_rounds(self) -> bool:
        return False

    @property
    def current(self) -> int | None:
        current = self.state["view"].get("current")
        return current if isinstance(current, int) else None


class RemoteDaily:
    """A day's attempt at a server, move by move through ``/api/daily`` with a token."""

    def __init__(self, server: str, token: str, game_name: str, day: str | None = None) -> None:
        self.http = httpx.Client(
            base_url=server.rstrip("/"),
            timeout=TIMEOUT,
            headers={"Authorization": f"Bearer {token}"},
        )
        self.game = get_game(game_name)
        self.game_name = game_name
        self.rules = rules_of(game_name)
        body = {"day": day} if day else {}
        self.state = self._call("POST", f"/api/daily/{game_name}/attempts", body)
        self.names = list(self.state["names"])
        self.day = date.fromisoformat(self.state["day"])
        self.practice = bool(self.state["practice"])

    def _call(self, method: str, path: str, body: Any = None) -> dict[str, Any]:
        try:
            answer = self.http.request(method, path, json=body)
        except httpx.HTTPError as error:
            raise DailyError(f"cannot reach the server: {error}") from None
        data = answer.json() if answer.content else {}
        if answer.status_code >= 400:
            refused = data.get("error") or {}
            raise DailyError(
                refused.get("message") or f"HTTP {answer.status_code}",
            ) from _Refused(refused.get("code", ""), refused.get("rule") or "")
        return data  # type: ignore[no-any-return]

    @property
    def attempt_id(self) -> str:
        return str(self.state["attempt"]["id"])

    @property
    def match(self) -> _Progress:
        return _Progress(self.state)

    @property
    def told(self) -> list[Told]:
        return [Told(1, event) for event in self.state["log"]]

    @property
    def over(self) -> bool:
        return bool(self.state["over"])

    @property
    def my_turn(self) -> bool:
        return not self.over and self.state["view"].get("current") == 0

    def view(self) -> dict[str, Any]:
        return self.state["view"]  # type: ignore[no-any-return]

    def legal(self) -> list[dict[str, Any]]:
        return [] if self.over else list(self.state["legal"])

    def hint(self) -> dict[str, Any] | Refusal:
        try:
            return self._call("GET", f"/api/daily/attempts/{self.attempt_id}/hint")
        except DailyError as error:
            return _refusal(error)

    def play(self, action: dict[str, Any]) -> Refusal | None:
        seq = self.state["attempt"]["moves"]
        try:
            self.state = self._call(
                "POST",
                f"/api/daily/attempts/{self.attempt_id}/moves",
                {"action": action, "seq": seq},
            )
        except DailyError as error:
            refused = error.__cause__
            if isinstance(refused, _Refused) and refused.code == "stale":
                self.state = self._call("GET", f"/api/daily/attempts/{self.attempt_id}")
                return Refusal("", "another tab moved first; the table shows where it stands")
            return _refusal(error)
        return None

    def outcome(self) -> dict[str, Any] | None:
        return self.state.get("outcome")

    def share(self) -> str | None:
        return self.state.get("share")

    def next_round(self) -> None:
        raise ValueError("a daily deal is one round")

    def close(self) -> None:
        self.http.close()


class _Refused(Exception):
    def __init__(self, code: str, rule: str) -> None:
        super().__init__(code)
        self.code, self.rule = code, rule


def _refusal(error: DailyError) -> Refusal:
    cause = error.__cause__
    rule = cause.rule if isinstance(cause, _Refused) else ""
    return Refusal(rule, str(error))


def sign_in(server: str, name: str, password: str) -> str:
    """A token for an account, from its name and password (``/api/account/signin``)."""
    try:
        answer = httpx.post(
            server.rstrip("/") + "/api/account/signin",
            json={"name": name, "password": password},
            timeout=TIMEOUT,
        )
    except httpx.HTTPError as error:
        raise DailyError(f"cannot reach the server: {error}") from None
    if answer.status_code != 200:
        message = (answer.json().get("error") or {}).get("message") if answer.content else None
        raise DailyError(message or f"sign-in refused: HTTP {answer.status_code}")
    return str(answer.json()["token"])


class DailyApp(PlayApp):
    """``cardroom play``'s table for one daily round: its end shows the outcome and the text
    to share instead of a match's score sheet."""

    def __init__(self, session: LocalDaily | RemoteDaily) -> None:
        super().__init__(session)  # type: ignore[arg-type]
        self.daily = session

    def opening(self) -> tuple[str, RenderableType]:
        daily = self.daily
        kind = "practice, unscored" if daily.practice else "scored"
        title = f"Cardroom daily #{number(daily.day)}: {daily.rules.name}"
        line = Text(f"{daily.rules.summary} ({daily.day.isoformat()}, {kind})", style="bold")
        return title, line

    def turn_words(self) -> str:
        if self.daily.over:
            return "The daily round is over: q quits."
        return super().turn_words()

    def summary_if_due(self) -> None:
        if not self.daily.over or self.summarised:
            return
        self.summarised = 1
        outcome = self.daily.outcome() or {}
        share = self.daily.share() or ""
        body = Group(Text(str(outcome.get("words", "")), style="bold"), Text(""), Text(share))
        self.push_screen(Summary("The daily round is over", body, last=True))
