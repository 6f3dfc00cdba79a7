"""Skip's board in the terminal: the building piles, your stock, discard piles and hand, your
partner's piles in team play, and a line for each other seat, from your view's JSON
(docs/notation.md); a move is a source picked, then a target.

Keys: hand 1-5, stock s, your discard piles 6-9, building piles a-d; in team play your
partner's stock p and discard piles t-w; 0 passes (R4.5) when that is the only move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.widgets import Static

from cardroom.terminal.board import Board, Pick, RuleLine, Spot, joined

HAND, PILES = 5, 4
HAND_KEYS = "12345"
DISCARD_KEYS = "6789"
BUILD_KEYS = "abcd"
PARTNER_DISCARD_KEYS = "tuvw"

SOURCE_WORDS = {
    "hand": "hand",
    "stock": "stock",
    "discard": "discard pile",
    "partner_stock": "partner's stock",
    "partner_discard": "partner's discard pile",
}


def card_text(card: Any, *, bold: bool = True) -> Text:
    """A card in R1.3's colours (1-4 blue, 5-8 green, 9-12 purple, wild orange); the number
    is always written, so colour is never the only cue."""
    if card == "W":
        colour = "dark_orange"
    elif isinstance(card, int):
        colour = "dodger_blue1" if card <= 4 else "green3" if card <= 8 else "medium_purple1"
    else:
        return Text("·", style="dim")
    return Text(str(card), style=f"bold {colour}" if bold else colour)


def pile_text(cards: list[Any], room: int = 10) -> Text:
    """A discard pile, bottom to top, its top in bold (R7.2: every discard pile is seen
    whole; the deepest cards give way to an ellipsis in a narrow frame). ``room``: the
    characters the frame holds; the top card always shows."""
    if not cards:
        return Text("·", style="dim")
    shown = [cards[-1]]
    used = len(str(cards[-1]))
    for card in reversed(cards[:-1]):
        more = used + 1 + len(str(card))
        if more + (2 if len(shown) + 1 < len(cards) else 0) > room:
            break
        shown.insert(0, card)
        used = more
    text = Text("… " if len(shown) < len(cards) else "", style="dim")
    for card in shown[:-1]:
        text.append_text(card_text(card, bold=False))
        text.append(" ")
    text.append_text(card_text(shown[-1]))
    return text


class SkipBoard(Board):
    """Skip as your seat sees it (R7.2)."""

    DEFAULT_CSS = """
    SkipBoard #others { height: auto; padding: 0 0 0 1; }
    SkipBoard .build { width: 9; }
    SkipBoard #spot-stock, SkipBoard #spot-partner-stock { width: 12; }
    SkipBoard .discard { width: 14; }
    SkipBoard .hand { width: 7; }
    SkipBoard #spot-pass { width: 8; }
    SkipBoard #piles { width: auto; height: 3; content-align: left middle; padding: 0 1; }
    """

    keys_help = (
        "Pick a card, then where it goes: hand 1-5, stock s, your discard piles 6-9, "
        "building piles a-d (partner's stock p, discard piles t-w). Esc lets go."
    )
    rules: ClassVar[Sequence[RuleLine]] = (
        RuleLine("R3.1", "Each player has a stock; only its top card is face up."),
        RuleLine("R4.1", "A turn starts by drawing up to 5 cards in hand."),
        RuleLine(
            "R4.2",
            "Play any number of cards onto building piles: from your hand, "
            "your stock's top, or your discard piles' tops.",
        ),
        RuleLine("R4.3", "An emptied hand draws 5 more at once, and the turn goes on."),
        RuleLine("R4.4", "The turn ends by putting one hand card on one of your 4 discard piles."),
        RuleLine("R4.5", "With no card to discard and nothing to draw, you pass."),
        RuleLine("R4.7", "Only a discard pile's top card may be played."),
        RuleLine("R5.1", "At most 4 building piles; an empty place takes a 1 or a wild."),
        RuleLine("R5.2", "A pile showing v takes v+1 or a wild (W), which counts as v+1."),
        RuleLine("R5.3", "A pile that reaches 12 is cleared; its place is free again."),
        RuleLine("R6.1", "The round ends when someone plays the last card of their stock."),
        RuleLine("R6.2", "The winner scores 25, plus 5 for each card left in others' stocks."),
        RuleLine("R6.3", "The first to reach the match target wins the match."),
        RuleLine("R2.3", "Teams: partners sit opposite and may play from each other's piles."),
    )

    def compose(self) -> ComposeResult:
        view = self.view
        yield Static(id="others")
        with Horizontal(classes="row"):
            yield Static("Building", classes="label")
            for i, key in enumerate(BUILD_KEYS, start=1):
                yield Spot(f"build-{i}", key, classes="build")
            yield Static(id="piles")
        with Horizontal(classes="row"):
            yield Static("[b]You[/]", classes="label")
            yield Spot("stock", "s", classes="stock")
            for i, key in enumerate(DISCARD_KEYS, start=1):
                yield Spot(f"discard-{i}", key, classes="discard")
        with Horizontal(classes="row"):
            yield Static("Hand", classes="label")
            for i, key in enumerate(HAND_KEYS, start=1):
                yield Spot(f"hand-{i}", key, classes="hand")
            yield Spot("pass", "0")
        if view.get("partners") is not None:
            with Horizontal(classes="row"):
                yield Static(self.seat_name(self.partner), classes="label")
                yield Spot("partner-stock", "p")
                for i, key in enumerate(PARTNER_DISCARD_KEYS, start=1):
                    yield Spot(f"partner-discard-{i}", key, classes="discard")

    def on_mount(self) -> None:
        self.redraw()

    # -- the view ----------------------------------------------------------------------------

    @property
    def me(self) -> int:
        return int(self.view["seat"])

    @property
    def partner(self) -> int | None:
        partners = self.view.get("partners")
        return None if partners is None else int(partners[self.me])

    def redraw(self) -> None:
        view, me, partner = self.view, self.me, self.partner
        targets = self.targets()
        self.query_one("#others", Static).update(self.others())
        self.query_one("#piles", Static).update(
            Text.from_markup(
                f"draw [b]{view['draw_count']}[/]\ncompleted [b]{view['completed_count']}[/]"
            )
        )
        for i, pile in enumerate(view["building"], start=1):
            spot = self.spot(f"build-{i}")
            cards = pile["cards"]
            if not cards:
                spot.show(Text("·", style="dim"))
            elif cards[-1] == "W":
                spot.show(Text.assemble(card_text("W"), ("=", "dim"), card_text(pile["value"])))
            else:
                spot.show(card_text(cards[-1]))
            spot.border_subtitle = f"→{pile['next']}" if cards else ""
            self.style_spot(spot, target=spot.place in targets)
        self.show_piles(me, "", DISCARD_KEYS, targets)
        hand = view["hand"] or []
        for i in range(1, HAND + 1):
            spot = self.spot(f"hand-{i}")
            spot.show(card_text(hand[i - 1]) if i <= len(hand) else Text(" "))
            self.style_spot(spot)
        passing = self.spot("pass")
        passing.show(Text("pass"), hidden=not any(a["type"] == "pass" for a in self.legal))
        self.style_spot(passing)
        if partner is not None:
            self.show_piles(partner, "partner-", PARTNER_DISCARD_KEYS, targets)

    def show_piles(self, seat: int, prefix: str, keys: str, targets: set[str]) -> None:
        view = self.view
        stock = self.spot(f"{prefix}stock")
        count = view["stock_counts"][seat]
        stock.show(card_text(view["stock_tops"][seat]) if count else Text("empty", style="dim"))
        stock.border_subtitle = f"{count} left"
        self.style_spot(stock)
        for i, cards in enumerate(view["discards"][seat], start=1):
            spot = self.spot(f"{prefix}discard-{i}")
            spot.show(pile_text(cards))
            spot.border_subtitle = f"{len(cards)}" if len(cards) > 1 else ""
            self.style_spot(spot, target=spot.place in targets)

    def others(self) -> Table:
        """A line for each other seat: its stock's top and size, its discard piles' tops, its
        hand's size and its score (R7.2); partners are marked."""
        view, me = self.view, self.me
        grid = Table.grid(padding=(0, 1))
        for _ in range(6):
            grid.add_column()
        for seat in range(view["players"]):
            if seat == me or seat == self.partner:
                continue
            turn = "▶" if seat == view["current"] and view["result"] is None else " "
            tops = Text(" ").join(
                card_text(pile[-1]) if pile else Text("·", style="dim")
                for pile in view["discards"][seat]
            )
            count = view["stock_counts"][seat]
            stock = card_text(view["stock_tops"][seat]) if count else Text("-", style="dim")
            grid.add_row(
                Text(f"{turn} {self.seat_name(seat)}", style="bold" if turn != " " else ""),
                Text.assemble("stock ", stock, (f" ({count})", "dim")),
                Text.assemble(("discards ", ""), tops),
                Text(f"hand {view['hand_counts'][seat]}", style="dim"),
                Text(f"score {view['scores'][seat]}"),
            )
        return grid

    def targets(self) -> set[str]:
        """Where the selected card may go, when the table plays with assist (R7.4)."""
        if self.selected is None or not self.view["options"].get("assist"):
            return set()
        return {self.spots_of(a)[-1] for a in self.legal_from(self.selected)}

    def headline(self) -> str:
        view = self.view
        target = view["match_target"]
        scores = self.scores_line()
        goal = f"to {target}" if target is not None else "one round"
        if view["result"] is not None:
            turn = "round over"
        elif view["current"] == self.me:
            turn = "[b reverse] your turn [/]"
        else:
            turn = f"{self.seat_name(view['current'])} plays"
        return f"{goal} · {scores} · turn {view['turn']} · {turn}"

    # -- picks -------------------------------------------------------------------------------

    def source_words(self, name: str) -> str | None:
        """The card at spot ``name`` that could be played, in words; None if there is none."""
        view = self.view
        kind, _, number = name.rpartition("-")
        if name.startswith("hand-"):
            hand = view["hand"] or []
            index = int(number) - 1
            return f"your hand's {hand[index]}" if index < len(hand) else None
        if name in ("stock", "partner-stock"):
            seat = self.me if name == "stock" else self.partner
            if seat is None or not view["stock_counts"][seat]:
                return None
            whose = "your" if name == "stock" else "your partner's"
            return f"{whose} stock's {view['stock_tops'][seat]}"
        if kind in ("discard", "partner-discard"):
            seat = self.me if kind == "discard" else self.partner
            pile = view["discards"][seat][int(number) - 1] if seat is not None else []
            whose = "your" if kind == "discard" else "your partner's"
            return f"the {pile[-1]} on {whose} discard pile {number}" if pile else None
        return None

    def pick(self, name: str) -> Pick:
        view, selected = self.view, self.selected
        kind, _, number = name.rpartition("-")
        if name == "pass":
            return Pick({"type": "pass"})
        if name == selected:
            self.select(None)
            return Pick(words="Let go.")
        if selected is not None and selected.startswith("hand-"):
            card = (view["hand"] or [])[int(selected.rpartition("-")[2]) - 1]
            if kind == "build":
                return Pick({"type": "play", "from": "hand", "card": card, "to": int(number)})
            if kind in ("discard", "partner-discard"):
                action = {"type": "discard", "card": card, "pile": int(number)}
                if kind == "partner-discard":
                    action["partner"] = True
                return Pick(action)
        if kind == "build":
            if selected is None:
                return Pick(words="Pick a card first: hand 1-5, stock s or a discard pile 6-9.")
            return Pick(self.play_to(selected, int(number)))
        words = self.source_words(name)
        if words is None:
            place = "that hand place" if name.startswith("hand-") else "that pile"
            return Pick(words=f"Nothing to play from {place}: it is empty.")
        self.select(name)
        ends = " or a discard pile (6-9) to end your turn" if name.startswith("hand-") else ""
        return Pick(words=f"{words.capitalize()}: now a building pile (a-d){ends}.")

    def play_to(self, source: str, to: int) -> dict[str, Any]:
        if source in ("stock", "partner-stock"):
            return {"type": "play", "from": source.replace("-", "_"), "to": to}
        kind, _, pile = source.rpartition("-")
        return {"type": "play", "from": kind.replace("-", "_"), "pile": int(pile), "to": to}

    def spots_of(self, action: dict[str, Any]) -> tuple[str, ...]:
        kind = action["type"]
        if kind == "pass":
            return ("pass",)
        if kind == "discard":
            prefix = "partner-" if action.get("partner") else ""
            return (self.hand_spot(action["card"]), f"{prefix}discard-{action['pile']}")
        source = action["from"]
        if source == "hand":
            first = self.hand_spot(action["card"])
        elif source in ("stock", "partner_stock"):
            first = source.replace("_", "-")
        else:
            first = f"{source.replace('_', '-')}-{action['pile']}"
        return (first, f"build-{action['to']}")

    def hand_spot(self, card: Any) -> str:
        hand = self.view["hand"] or []
        return f"hand-{hand.index(card) + 1}" if card in hand else "hand-1"

    # -- words -------------------------------------------------------------------------------

    def describe(self, event: dict[str, Any]) -> str | None:
        who, d = self.seat_name(event.get("seat")), event.get("detail") or {}
        match event["kind"]:
            case "played":
                source = SOURCE_WORDS.get(d["source"], d["source"])
                pile = f" {d['pile']}" if d.get("pile") else ""
                wild = f" as {d['value']}" if d["card"] == "W" else ""
                return (
                    f"{who} played {d['card']}{wild} from {source}{pile} to building pile {d['to']}"
                )
            case "completed":
                return f"Building pile {d['to']} reached 12 and was cleared (R5.3)"
            case "discarded":
                owner = d.get("owner")
                whose = f" of {self.seat_name(owner)}" if owner not in (None, event["seat"]) else ""
                return f"{who} discarded {d['card']} on discard pile {d['pile']}{whose}"
            case "passed":
                return f"{who} passed: no card to discard (R4.5)"
            case "timed_out":
                return f"{who} ran out of time; the turn is skipped (R7.3)"
            case "reshuffled":
                return f"The completed piles became a new draw pile ({d['cards']} cards, R5.4)"
            case "round_over":
                return self.round_words(d)
            case "solo":
                return "A partner has gone: everyone plays alone from now on (R2.5)"
            case _:
                return None  # turns and draws: the board shows them

    def round_words(self, result: dict[str, Any]) -> str:
        winners = [self.seat_name(s) for s in result.get("winners") or []]
        if not winners:
            return "The round ended in a stalemate; nobody scores (R6.4)"
        stalemate = (
            " (a stalemate: the fewest stock cards, R6.4)" if result.get("stalemate") else ""
        )
        left = ", ".join(
            f"{self.seat_name(s)} {n}" for s, n in enumerate(result.get("stock_left") or [])
        )
        return f"{joined(winners)} won the round{stalemate}. Stock cards left: {left}"
