"""Which planner weights matter: each one changed alone, played against the defaults.

Run: ``cardroom bench weights`` (or ``python -m cardroom.benchmarks.weights``). Every variant plays
``games`` 2-player duplicate games (``cardroom tournament``) against the default planner; a
win rate whose 95% interval excludes 50% is a real difference. ``--around expert`` changes
each weight on top of the expert's weights instead, still against the default planner: the
next step of the tuning. This is how the expert's ``EXPERT_WEIGHTS`` were found
(``bots/expert.py``): from the defaults, only the cost of starting a new discard pile moved
the result much (empty_pile 0: 59-60% of 800 games) and ``defence`` 0 lost badly (35%); around
that, the value of an emptied hand (refill 11) and then ``defence`` 20. Screen with 800 games,
then confirm on other seeds: a gain of 2 points is inside the noise of one run. ``--teams``
screens at 4 players in teams (partners' sides against the default planner's), where the
partner's reach and the shared discards matter.
"""

from __future__ import annotations

from dataclasses import fields

from cardroom.bots.expert_tuning import EXPERT_WEIGHTS
from cardroom.bots.planner import Weights
from cardroom.games import get_game
from cardroom.sim.tournament import run as tournament

TEAMS_ONLY = ("partner_reach", "team_threat")  # change nothing at 2 players
FIXED = ("stock", "win", "step", *TEAMS_ONLY)  # units, the win, a tie-break; teams: screened there
SWITCHES = ("runs", "inference", "places", "team_threat")  # on (1) or off: a variant turns it off
BASES = {"planner": Weights(), "expert": EXPERT_WEIGHTS}  # whose weights the variants change


def tunable(around: str = "planner", teams: bool = False) -> list[str]:
    """The weights ``variants`` can change around ``around``'s (``--focus`` names one)."""
    base = BASES[around]
    fixed = _fixed(teams)
    names = [f.name for f in fields(base) if f.name not in fixed and getattr(base, f.name)]
    extra = ["defence", "empty_pile"] if around == "planner" else []  # variants of their own
    return list(dict.fromkeys(names + extra))


def _fixed(teams: bool) -> tuple[str, ...]:
    """The weights not screened: the partners' (``TEAMS_ONLY``) count in teams only."""
    return tuple(name for name in FIXED if not (teams and name in TEAMS_ONLY))


def _changed(around: str) -> dict[str, float]:
    """``around``'s weights that differ from the planner's defaults."""
    defaults, base = BASES["planner"], BASES[around]
    return {
        f.name: getattr(base, f.name)
        for f in fields(base)
        if getattr(base, f.name) != getattr(defaults, f.name)
    }


def variants(focus: str | None = None, around: str = "planner", teams: bool = False) -> list[str]:
    """Entrant specs: every tunable weight at half and twice its value in ``around``'s weights
    (``planner``: the defaults, ``expert``: ``EXPERT_WEIGHTS``), every switch that is on
    turned off, and empty_pile's neighbourhood (the one that mattered first); or only
    ``focus``'s."""
    base = BASES[around]
    changed = _changed(around)

    def spec(name: str | None = None, value: float = 0.0) -> str:
        settings = {**changed, name: value} if name else changed
        return "planner:" + ":".join(f"{key}={val:g}" for key, val in settings.items())

    specs = [spec()] if changed else []  # the base itself: the row to compare with
    for field in fields(base):
        if field.name in _fixed(teams) or (focus and field.name != focus):
            continue
        value = getattr(base, field.name)
        if field.name in SWITCHES:
            specs += [spec(field.name, 0.0)] if value else []  # what the switch is worth
        else:
            specs += [spec(field.name, value * factor) for factor in (0.5, 2.0) if value]
    if around == "planner" and focus in (None, "defence"):
        specs.append(spec("defence", 0))
    if around == "planner" and focus in (None, "empty_pile"):
        specs += [spec("empty_pile", value) for value in (-2, -1, 0, 0.5)]
    return list(dict.fromkeys(specs))


def main(
    games: int = 400,
    seed: int = 21,
    jobs: int = 2,
    focus: str | None = None,
    around: str = "planner",
    teams: bool = False,
) -> None:
    from rich.console import Console
    from rich.progress import track
    from rich.table import Table

    options = get_game("skip").options_from_json(
        {"players": 4 if teams else 2, "teams": teams, "match_target": None}
    )
    table_kind = "4 players in teams" if teams else "2 players"
    base = base_spec(around)
    table = Table(
        title=(
            f"Planner weights around the {around}'s ({base}) vs the default planner: "
            f"{games} duplicate games each, {table_kind}, seed {seed}"
        ),
        title_justify="left",
        caption="better / worse: the 95% interval is above / below 50%; unclear: it holds 50%",
        caption_justify="left",
    )
    # The change alone, not the whole spec, so the table fits 80 columns; figures never wrap.
    table.add_column("change", overflow="fold", ratio=1, min_width=12)
    table.add_column("win rate", justify="right", no_wrap=True)
    table.add_column("95% interval", justify="right", no_wrap=True)
    table.add_column("verdict", no_wrap=True)
    for spec in track(variants(focus, around, teams), description="variants", transient=True):
        stats = tournament([spec, "planner"], options, games, seed, jobs=jobs).to_json()
        mine = stats["bots"][spec]
        low, high = mine["win_rate_95"]
        verdict = "better" if low > 0.5 else "worse" if high < 0.5 else "unclear"
        change = change_of(spec, base) or "none (the base)"
        table.add_row(change, f"{mine['win_rate']:.1%}", f"{low:.1%}–{high:.1%}", verdict)
    Console().print(table)
    Console().print(
        f"repeat one: cardroom tournament --bots {base}:<change>,planner --games {games} "
        f"--seed {seed} --jobs {jobs}" + (" --players 4 --teams" if teams else "")
    )


def base_spec(around: str) -> str:
    """The spec of ``around``'s weights as a planner: what every variant changes."""
    return variants(None, around)[0].split(":")[0] + "".join(
        f":{key}={value:g}" for key, value in _changed(around).items()
    )


def change_of(spec: str, base: str) -> str:
    """The settings of ``spec`` that differ from ``base``'s, as ``key=value`` pairs."""
    had = set(base.split(":")[1:])
    return ":".join(pair for pair in spec.split(":")[1:] if pair not in had)


if __name__ == "__main__":
    main()
