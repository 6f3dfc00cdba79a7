"""``cardroom play``'s screen: the game's board from the person's view, the move log, a status
line; the round's summary and the match's result; the hint on ``h`` and the rules on ``?``.

A move is picked on the board, by the key written on each card or by a click: a source, then
where it goes (Skip), or a pile, then a place in the grid (Skyjo). The board turns the picks
into an action in the game's notation; the engine alone says whether it is legal, and a
refusal is shown with its rule and changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Container, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, RichLog, Static

from cardroom.sim.render import rich_table
from cardroom.sim.session import PlaySession, Refusal
from cardroom.terminal.board import Board, RuleLine, Spot
from cardroom.terminal.moves import MovesBoard
from cardroom.terminal.skip import SkipBoard
from cardroom.terminal.skyjo import SkyjoBoard

BOARDS: dict[str, type[Board]] = {"skip": SkipBoard, "skyjo": SkyjoBoard}
"""The games with a board of their own, as the web has a player kit per game; any other game
of the registry is played from the list of its legal moves (``MovesBoard``)."""


class Summary(ModalScreen[None]):
    """A round's outcome and the score sheet, or the match's result: Enter goes on."""

    BINDINGS: ClassVar = [Binding("enter,escape,space", "close", "Continue")]

    def __init__(self, title: str, body: RenderableType, last: bool) -> None:
        super().__init__()
        self.title_text, self.body, self.last = title, body, last

    def compose(self) -> ComposeResult:
        ending = "Enter: back to the table, q quits" if self.last else "Enter: the next round"
        with VerticalScroll(id="summary"):
            yield Static(Text(self.title_text, style="bold"), id="summary-title")
            yield Static(self.body, id="summary-body")
            yield Static(Text(ending, style="dim"), id="summary-next")

    def action_close(self) -> None:
        self.dismiss(None)


class RulesScreen(ModalScreen[None]):
    """How to pick a move, and the game's rules in a few lines with their ids; the whole
    rule book is in docs/."""

    BINDINGS: ClassVar = [Binding("escape,question_mark,enter", "close", "Close")]

    def __init__(self, title: str, keys_help: str, rules: Sequence[RuleLine], where: str):
        super().__init__()
        self.title_text, self.keys_help, self.rules, self.where = title, keys_help, rules, where

    def compose(self) -> ComposeResult:
        table = Table.grid(padding=(0, 1))
        table.add_column(style="bold cyan", no_wrap=True)
        table.add_column()
        for line in self.rules:
            table.add_row(line.rule, line.text)
        with VerticalScroll(id="rules"):
            yield Static(Text(self.title_text, style="bold"))
            yield Static(Text(self.keys_help), id="rules-keys")
            yield Static(table, id="rules-lines")
            yield Static(
                Text(f"h: a hint · q: quit · Esc: close. {self.where}.", style="dim"),
            )

    def action_close(self) -> None:
        self.dismiss(None)


class PlayApp(App[None]):
    """One person against bots at one table, in a terminal."""

    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (120, "-wide")]  # noqa: RUF012 (App's own)
    CSS = """
    #headline { height: 1; padding: 0 1; background: $boost; }
    #main { height: 1fr; }
    #table-area { height: auto; max-height: 75%; }
    #log { height: 1fr; min-height: 3; border-top: solid $panel-lighten-2; padding: 0 1; }
    .-wide #main { layout: horizontal; }
    .-wide #table-area { width: 1fr; height: 100%; max-height: 100%; }
    .-wide #log { width: 60; height: 100%; border-top: none; border-left: solid $panel-lighten-2; }
    #status { height: auto; max-height: 3; padding: 0 1; background: $panel; }
    Summary, RulesScreen { align: center middle; }
    #summary, #rules { width: 90%; height: auto; max-height: 90%; padding: 0 1;
                       border: thick $accent; background: $surface; }
    #rules-keys, #rules-lines { margin: 1 0 0 0; }
    """
    BINDINGS: ClassVar = [
        Binding("h", "hint", "Hint"),
        Binding("question_mark", "rules", "Rules"),
        Binding("escape", "let_go", "Let go"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session
        self.written = 0  # events of the session already considered for the log
        self.log_round = 0  # the round whose heading the log shows last
        self.summarised = 0  # rounds whose summary was shown
        self.hint: dict[str, Any] | None = None  # the last hint shown, while it holds
        board_type = BOARDS.get(session.game_name, MovesBoard)
        self.board = board_type(session.names, session.view())

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="headline")
        with Container(id="main"):
            with VerticalScroll(id="table-area"):
                yield self.board
            yield RichLog(id="log", wrap=True, markup=True, min_width=20)
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.title, opening = self.opening()
        self.query_one(RichLog).write(opening)
        self.refresh_table()

    def opening(self) -> tuple[str, RenderableType]:
        """The window's title and the log's first line."""
        terminal = self.session.game.terminal
        return f"Cardroom: {self.session.game.title}", terminal.watch_opening(
            self.session.match, self.session.names
        )

    # -- what is shown -----------------------------------------------------------------------

    def refresh_table(self, note: str = "") -> None:
        """Everything from the person's view and the told events: the board, the headline,
        the log, the status; then the round's summary or the result, once."""
        session = self.session
        self.hint = None
        self.board.show(session.view(), session.legal())
        round_words = f"{session.game.title}, round {session.match.round_number}"
        self.query_one("#headline", Static).update(
            Text.from_markup(f"[b]{round_words}[/] · {self.board.headline()}")
        )
        self.write_log()
        self.set_status(note or self.turn_words())
        self.summary_if_due()

    def write_log(self) -> None:
        log = self.query_one(RichLog)
        for told in self.session.told[self.written :]:
            if told.round_number != self.log_round:
                self.log_round = told.round_number
                log.write(Text(f"Round {told.round_number}", style="bold underline"))
            words = self.board.describe(told.event)
            if words is not None:
                style = "bold" if told.event.get("seat") == 0 else ""
                log.write(Text(words, style=style))
        self.written = len(self.session.told)

    def turn_words(self) -> str:
        session, match = self.session, self.session.match
        if match.over:
            return "The match is over: q quits."
        if match.between_rounds:
            return f"Round {match.round_number} is over."
        if session.my_turn:
            return "Your turn: press the key on a card, or click it. h: a hint, ?: keys and rules."
        return f"{session.names[match.current or 0]} is playing."

    def set_status(self, text: str) -> None:
        self.query_one("#status", Static).update(Text(text))

    def summary_if_due(self) -> None:
        session, match = self.session, self.session.match
        ended = match.round_number if (match.between_rounds or match.over) else 0
        if ended <= self.summarised:
            return
        self.summarised = ended
        terminal = session.game.terminal
        result = session.view().get("result") or match.round_result() or {}
        parts: list[RenderableType] = [
            Text(self.board.round_words(result)),
            rich_table(terminal.scores(match, session.names)),
        ]
        if match.over:
            won = terminal.winners_line(match, session.names) if match.winners else "No winner."
            parts.append(Text.from_markup(won))
            self.push_screen(Summary("The match is over", Group(*parts), last=True))
        else:
            title = f"Round {match.round_number} is over"
            self.push_screen(Summary(title, Group(*parts), last=False), self.dealt)

    def dealt(self, _: None = None) -> None:
        self.session.next_round()
        self.refresh_table()

    # -- the person's input ------------------------------------------------------------------

    def picked(self, name: str) -> None:
        """A spot picked by key or click: the board's selection, or a move for the engine."""
        session = self.session
        if not session.my_turn:
            over = session.match.over or session.match.between_rounds
            self.set_status("The round is over." if over else "It is not your turn.")
            return
        pick = self.board.pick(name)
        if pick.action is None:
            self.set_status(pick.words)
            return
        refusal = session.play(pick.action)
        if refusal is not None:
            self.board.select(None)
            self.set_status(f"Refused: {refusal}. Nothing changed; pick again.")
            return
        self.refresh_table()

    def on_spot_picked(self, message: Spot.Picked) -> None:
        message.stop()
        if not isinstance(self.screen, ModalScreen):
            self.picked(message.place)

    def on_key(self, event: events.Key) -> None:
        if isinstance(self.screen, ModalScreen) or event.character is None:
            return
        name = self.board.key_map().get(event.character)
        if name is not None:
            event.stop()
            self.picked(name)

    def action_let_go(self) -> None:
        self.board.select(None)
        self.set_status(self.turn_words())

    def action_hint(self) -> None:
        hint = self.session.hint()
        if isinstance(hint, Refusal):
            self.set_status(f"No hint: {hint}.")
            return
        self.hint = hint
        spots = self.board.spots_of(hint["action"])
        self.board.mark(spots)
        self.set_status(f"Hint ({self.board.keys_of(spots)}): {hint['reason']}")

    def action_rules(self) -> None:
        game = self.session.game
        self.push_screen(
            RulesScreen(
                f"{game.title}: how to play here",
                self.board.keys_help,
                self.board.rules,
                game.terminal.rules_hint.capitalize(),
            )
        )
