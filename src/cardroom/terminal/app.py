"""``cardroom play``'s screen: the person's view of the table, their legal moves, the move log;
the round summary and the result; the hint and the rule book on a key.

Moves are chosen from the list of the person's legal moves (the engine's, never worked out
here): by number or letter key, by arrows and Enter, or by a click. A key with no move behind
it is refused in words and changes nothing.
"""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any, ClassVar

from rich.console import Group
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Markdown, OptionList, RichLog, Static
from textual.widgets.option_list import Option

from cardroom.sim.render import rich_table
from cardroom.terminal.session import PlaySession

KEYS = string.digits[1:] + string.ascii_lowercase.replace("h", "").replace("q", "")
"""The keys that choose a move, in list order (``h`` and ``q`` keep their own meaning)."""

DOCS = Path(__file__).resolve().parents[3] / "docs"  # the rule books, in a source checkout


def key_of(index: int) -> str:
    return KEYS[index] if index < len(KEYS) else " "


class Summary(ModalScreen[None]):
    """A round's points and the totals, or the match's result: Enter goes on."""

    BINDINGS: ClassVar = [Binding("enter,escape,space", "dismiss", "Continue")]

    def __init__(self, title: str, body: Any, last: bool) -> None:
        super().__init__()
        self.title_text, self.body, self.last = title, body, last

    def compose(self) -> ComposeResult:
        ending = "Enter: back to the table (q quits)" if self.last else "Enter: the next round"
        with Vertical(id="summary"):
            yield Static(Text(self.title_text, style="bold"), id="summary-title")
            yield Static(self.body, id="summary-body")
            yield Static(Text(ending, style="dim"), id="summary-next")

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(result)


class RuleBook(ModalScreen[None]):
    """The game's rule book (docs/), scrollable; Escape closes it."""

    BINDINGS: ClassVar = [Binding("escape,question_mark,q", "dismiss", "Close")]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="rules"):
            yield Markdown(self.text)

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(result)


class PlayApp(App[None]):
    """One person against bots at one table, in a terminal."""

    CSS = """
    #view { height: auto; max-height: 60%; padding: 0 1; }
    #below { height: 1fr; }
    #moves { width: 32; height: 100%; }
    #log { width: 1fr; height: 100%; }
    #status { height: auto; padding: 0 1; background: $boost; }
    Summary, RuleBook { align: center middle; }
    #summary { width: 90%; height: auto; max-height: 90%; padding: 1 2;
               border: thick $accent; background: $surface; }
    #rules { width: 90%; height: 90%; border: thick $accent; background: $surface; }
    """
    BINDINGS: ClassVar = [
        Binding("h", "hint", "Hint"),
        Binding("question_mark", "rules", "Rules"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: PlaySession) -> None:
        super().__init__()
        self.session = session
        self.shown_log = 0  # moves of the session's log already written to the screen
        self.summarised = 0  # rounds whose summary was shown

    # -- layout ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="view")
        with Horizontal(id="below"):
            yield OptionList(id="moves")
            yield RichLog(id="log", wrap=True, markup=True, min_width=20)
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.title = f"Cardroom: {self.session.game.title}"
        log = self.query_one("#log", RichLog)
        log.write(self.session.game.terminal.watch_opening(self.session.match, self.session.names))
        self.refresh_table()

    # -- what is shown -----------------------------------------------------------------------

    def refresh_table(self, note: str = "") -> None:
        """Everything from the person's view and the log: the table, the moves, the status;
        then the round's summary or the result, once."""
        session = self.session
        terminal = session.game.terminal
        view = session.view
        self.query_one("#view", Static).update(rich_table(terminal.seat_view(view, session.names)))
        log = self.query_one("#log", RichLog)
        for move in session.log[self.shown_log :]:
            who = "[bold]You[/]" if move.seat == 0 else session.names[move.seat]
            log.write(f"{who}: {move.words}")
        self.shown_log = len(session.log)
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.add_options(
            Option(f"{key_of(i)}  {session.describe(a)}", id=f"move-{i}")
            for i, a in enumerate(session.legal())
        )
        if session.my_turn:
            moves.highlighted = 0
            moves.focus()
        self.set_status(note or self.turn_words())
        self.summary_if_due()

    def turn_words(self) -> str:
        session, match = self.session, self.session.match
        if match.over:
            return "The match is over. q quits."
        if match.between_rounds:
            return f"Round {match.round_number} is over."
        if session.my_turn:
            return "Your turn: a key (1-9, a-z), arrows and Enter, or a click. h: hint, ?: rules"
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
        scores = rich_table(terminal.scores(match, session.names))
        if match.over:
            line = terminal.winners_line(match, session.names) if match.winners else "No winner."
            body = Group(scores, Text.from_markup(line))
            self.push_screen(Summary("The match is over", body, last=True))
        else:
            title = terminal.watch_round(match, session.names)
            self.push_screen(Summary(Text.from_markup(title).plain, scores, False), self.dealt)

    def dealt(self, _: None = None) -> None:
        self.session.next_round()
        self.query_one("#log", RichLog).write(f"[bold]Round {self.session.match.round_number}[/]")
        self.refresh_table()

    # -- the person's input ------------------------------------------------------------------

    def choose(self, index: int) -> None:
        legal = self.session.legal()
        if not self.session.my_turn:
            self.set_status("It is not your turn: nothing was played.")
            return
        if not 0 <= index < len(legal):
            self.set_status(f"There is no move {key_of(index)}: choose one of the {len(legal)}.")
            return
        self.session.play(legal[index])
        self.refresh_table()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.choose(event.option_index)

    def on_key(self, event: Any) -> None:
        key = event.character
        if key and key in KEYS and not isinstance(self.screen, ModalScreen):
            event.stop()
            self.choose(KEYS.index(key))

    def action_hint(self) -> None:
        hint = self.session.hint()
        if hint is None:
            self.set_status("No hint here: it is not your turn, or this game has no adviser.")
            return
        index, reason = hint
        self.query_one("#moves", OptionList).highlighted = index
        words = self.session.describe(self.session.legal()[index])
        self.set_status(f"Hint: {key_of(index)} {words}: {reason}")

    def action_rules(self) -> None:
        book = getattr(self.session.game.terminal, "rules_book", None)
        path = DOCS / book if book else None
        if path is None or not path.is_file():
            self.set_status(f"No rule book here; {self.session.game.terminal.rules_hint}.")
            return
        self.push_screen(RuleBook(path.read_text(encoding="utf-8")))
